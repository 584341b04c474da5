import GraphImportPostgres
import GraphImportSchema

/// `--verbose`'s list of changes on PostgreSQL: before a batch is written, its objects are
/// compared with what the store holds of them (`storedBatch`, read once for the batch, which the
/// writer reads anyway to leave unchanged objects out), and each one inserted or changed goes
/// into the run's `ChangeLog` as the SQLite writer puts it there.
extension PostgresBatchWriter {
    /// Logs the batch's new objects and changed ones; `unknown` holds the `link existing` keys
    /// that link nothing.
    func logChanges(to log: ChangeLog, unknown: [Set<ObjectKey>], stored: [StoredBatch?]) {
        for index in plan.entities.indices {
            guard let stored = stored[index] else { continue }
            logChanges(index, to: log, unknown: unknown, stored: stored)
        }
    }

    private func logChanges(_ index: Int, to log: ChangeLog, unknown: [Set<ObjectKey>], stored: StoredBatch) {
        let entity = plan.entities[index]
        let batch = batches[index]
        let always = Set(entity.attributes.indices.filter { entity.attributes[$0].always != nil })
        for (row, key) in batch.keys.enumerated() {
            guard let object = stored.rows[row] else {
                log.inserted(index, key)
                continue
            }
            var fields: [ChangeLog.Field] = []
            for (attribute, value) in batch.values(of: row).enumerated() where !always.contains(attribute) {
                if let value, value != object.values[attribute] {
                    fields.append(ChangeLog.value(entity.attributes[attribute].name, old: object.values[attribute], new: value))
                }
            }
            for (relationship, toOne) in entity.toOne.enumerated() {
                // `.some(nil)`: the feed set the to-one to null, a change as any other target is.
                guard let target = batch.toOne(row, relationship)?.resolved(unknown[toOne.target]),
                    target != object.targets[relationship]
                else { continue }
                fields.append(ChangeLog.target(toOne.name, old: object.targets[relationship], new: target))
            }
            for (relationship, toMany) in entity.toMany.enumerated() {
                guard let gathered = batch.list(row, relationship) else { continue }
                let old = stored.list(relationship, row: row)
                let new = newList(index, relationship, gathered, over: old, unknown: unknown)
                if new.targets != old.keys || new.values != old.values {
                    fields.append(ChangeLog.list(toMany.name, old: old.keys.count, new: new.targets.count))
                }
            }
            if !fields.isEmpty { log.updated(index, key) { fields } }
        }
    }
}
