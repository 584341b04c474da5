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
            guard !stored.isNew(row) else {
                log.inserted(index, key)
                continue
            }
            // Unchanged by its digest: nothing of it was read, nothing changes.
            if stored.isUnchanged(row) { continue }
            var fields: [ChangeLog.Field] = []
            for (attribute, value) in batch.values(of: row).enumerated() where !always.contains(attribute) {
                if let value, !stored.holds(value, row: row, attribute: attribute) {
                    fields.append(ChangeLog.value(entity.attributes[attribute].name, old: stored.value(row: row, attribute: attribute), new: value))
                }
            }
            for (relationship, toOne) in entity.toOne.enumerated() {
                // `.some(nil)`: the feed set the to-one to null, a change as any other target is.
                guard let target = batch.toOne(row, relationship)?.resolved(unknown[toOne.target]) else { continue }
                let old = stored.target(row: row, relationship: relationship)
                guard target != old else { continue }
                fields.append(ChangeLog.target(toOne.name, old: old, new: target))
            }
            for (relationship, toMany) in entity.toMany.enumerated() {
                guard let gathered = batch.list(row, relationship) else { continue }
                let new = newList(index, relationship, gathered, row: row, stored: stored, unknown: unknown)
                if !stored.holds(new, relationship: relationship, row: row) {
                    fields.append(ChangeLog.list(toMany.name, old: stored.listCount(relationship, row: row), new: new.targets.count))
                }
            }
            if !fields.isEmpty { log.updated(index, key) { fields } }
        }
    }
}
