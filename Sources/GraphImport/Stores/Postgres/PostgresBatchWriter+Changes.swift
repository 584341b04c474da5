import GraphImportPostgres
import GraphImportSchema

/// `--verbose`'s list of changes on PostgreSQL: before a batch is written, its objects are
/// compared with the rows they have (one COPY of the keys and one query per entity, and one per
/// to-many the batch gives lists of), and each one inserted or changed goes into the run's
/// `ChangeLog` as the SQLite writer puts it there. A writer without a log reads nothing.
extension PostgresBatchWriter {
    /// Logs the batch's new objects and changed ones; `unknown` holds the `link existing` keys
    /// that link nothing.
    func logChanges(to log: ChangeLog, unknown: [Set<ObjectKey>]) throws(PostgresError) {
        for index in plan.entities.indices where !batches[index].keys.isEmpty {
            try logChanges(index, to: log, unknown: unknown)
        }
    }

    private func logChanges(_ index: Int, to log: ChangeLog, unknown: [Set<ObjectKey>]) throws(PostgresError) {
        let entity = plan.entities[index]
        let batch = batches[index]
        let listed = entity.toMany.indices.filter { relationship in batch.toMany.contains { $0[relationship] != nil } }
        let stored = try storedObjects(index, lists: listed)
        let always = Set(entity.attributes.indices.filter { entity.attributes[$0].always != nil })
        for (row, key) in batch.keys.enumerated() {
            guard let object = stored.rows[row] else {
                log.inserted(index, key)
                continue
            }
            var fields: [ChangeLog.Field] = []
            for (attribute, value) in batch.values[row].enumerated() where !always.contains(attribute) {
                if let value, value != object.values[attribute] {
                    fields.append(ChangeLog.value(entity.attributes[attribute].name, old: object.values[attribute], new: value))
                }
            }
            for (relationship, toOne) in entity.toOne.enumerated() {
                guard case .some(let target)? = batch.toOne[row][relationship]?.resolved(unknown[toOne.target]),
                    target != object.targets[relationship]
                else { continue }
                fields.append(ChangeLog.target(toOne.name, old: object.targets[relationship], new: target))
            }
            for (place, relationship) in listed.enumerated() {
                let toMany = entity.toMany[relationship]
                guard let gathered = batch.toMany[row][relationship] else { continue }
                let width = toMany.linkAttributes.count
                let old = stored.lists[place][row] ?? ([], [])
                // A `merge` list is added to the stored one as a later page is to an earlier.
                let list = toMany.mergesList ? GatheredList(keys: old.keys, values: old.values).appending(page: gathered) : gathered
                let new = list.resolved(unknown: unknown[toMany.target], width: width)
                if new.keys != old.keys || new.values != old.values {
                    fields.append(ChangeLog.list(toMany.name, old: old.keys.count, new: new.keys.count))
                }
            }
            if !fields.isEmpty { log.updated(index, key) { fields } }
        }
    }

    /// A stored object as the change list compares it: its values in attribute order and its
    /// to-ones' targets' keys (nil for none).
    private struct StoredObject {
        var values: [SQLValue]
        var targets: [ObjectKey?]
    }

    /// The rows of the batch's objects of entity `index` (nil: not stored), and per to-many of
    /// `lists` the stored targets and link values of each, by the object's row in the batch.
    private func storedObjects(_ index: Int, lists: [Int]) throws(PostgresError) -> (
        rows: [StoredObject?], lists: [[Int: (keys: [ObjectKey], values: [SQLValue])]]
    ) {
        let entity = plan.entities[index]
        let batch = batches[index]
        let toOne = entity.toOne.map { link in
            ProbedToOne(
                foreignKey: link.column, targetTable: plan.entities[link.target].table, targetKeyColumns: keyColumns(plan.entities[link.target]),
                primaryKey: Naming.primaryKey)
        }
        let toMany = lists.map { relationship in
            let link = entity.toMany[relationship]
            return ProbedToMany(
                joinTable: link.joinTable, ownerColumn: link.ownerColumn, targetColumn: link.targetColumn, positionColumn: Naming.position,
                linkColumns: link.linkAttributes.map(\.column), targetTable: plan.entities[link.target].table,
                targetKeyColumns: keyColumns(plan.entities[link.target]), primaryKey: Naming.primaryKey)
        }
        let probe = PostgresKeyProbe(table: entity.table, keyColumns: keyColumns(entity))
        let read = try probe.objects(
            of: batch.keys.flatMap(\.values), columns: entity.attributes.map(\.column), toOne: toOne, toMany: toMany, on: connection)
        var rows: [StoredObject?] = Array(repeating: nil, count: batch.keys.count)
        for (place, values) in read.rows {
            var object = StoredObject(values: Array(values.prefix(entity.attributes.count)), targets: [])
            var at = entity.attributes.count
            for link in toOne {
                let key = Array(values[at..<(at + link.targetKeyColumns.count)])
                object.targets.append(key.allSatisfy { $0 == .null } ? nil : ObjectKey(values: key))
                at += link.targetKeyColumns.count
            }
            rows[place] = object
        }
        var stored: [[Int: (keys: [ObjectKey], values: [SQLValue])]] = []
        for (place, link) in toMany.enumerated() {
            var byRow: [Int: (keys: [ObjectKey], values: [SQLValue])] = [:]
            for (row, values) in read.lists[place] {
                let width = link.targetKeyColumns.count
                byRow[row, default: ([], [])].keys.append(ObjectKey(values: Array(values.prefix(width))))
                byRow[row, default: ([], [])].values += values.dropFirst(width)
            }
            stored.append(byRow)
        }
        return (rows, stored)
    }
}
