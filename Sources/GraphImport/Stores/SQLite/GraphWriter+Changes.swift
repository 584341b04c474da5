import GraphImportSchema
import GraphImportStore

extension GraphWriter {
    /// Puts an update of `object` into `log`: its changed columns (attributes, and to-ones as
    /// their targets' keys) and its rewritten to-manys (as counts).
    func logChange(
        to log: ChangeLog, object: KnownObject, draft: ObjectDraft, merged: [SQLValue?], columns: [Int], rewrites: [Bool], lists: [[Int64]?]
    ) throws(WriteError) {
        let entity = plan.entities[draft.entity]
        try log.updated(draft.entity, draft.key) { () throws(WriteError) in
            var fields: [ChangeLog.Field] = []
            for column in columns {
                let old = object.values[column]
                let new = merged[column] ?? .null
                if column < entity.attributes.count {
                    fields.append(ChangeLog.value(entity.attributes[column].name, old: old, new: new))
                } else {
                    let relationship = entity.toOne[column - entity.attributes.count]
                    fields.append(
                        ChangeLog.target(
                            relationship.name, old: try targetText(relationship.target, old), new: try targetText(relationship.target, new),
                            comparing: (old, new)))
                }
            }
            for (index, rewritten) in rewrites.enumerated() where rewritten {
                fields.append(ChangeLog.list(entity.toMany[index].name, old: object.list(index)?.count ?? 0, new: (lists[index] ?? []).count))
            }
            return fields
        }
    }

    /// The key of the object of `entity` a foreign key holds, for a message (NULL for none).
    private func targetText(_ entity: Int, _ value: SQLValue) throws(WriteError) -> String {
        guard case .integer(let pk) = value else { return ChangeLog.text(value) }
        let store = stores[entity]
        let key = try storing { () throws(StoreError) in try store.key(of: pk) }
        return key.isEmpty ? "row \(pk)" : ChangeLog.text(ObjectKey(values: key))
    }
}
