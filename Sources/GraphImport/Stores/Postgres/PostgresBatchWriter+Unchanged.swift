import GraphImportPostgres
import GraphImportSchema

/// Unchanged objects are never sent. Before a batch is written, what the store holds of its
/// objects is read at once (one COPY of the keys and one query per entity, and one per to-many
/// the batch gives lists of): each object's row with its row id and foreign keys, and its lists.
/// A stored object whose given values and to-ones equal what is stored is not upserted, and a
/// list equal to the stored one is not written: a re-import of an unchanged feed writes (and
/// locks) no row. Its key still goes into the run's given keys (the counts, `always`, `delete
/// missing`).
///
/// Equal here is `SQLValue`'s equality of the values as the store reads them back; a value the
/// store holds in another form than the feed gives it (never for the map's column types) only
/// counts as changed, and the upsert's own `IS DISTINCT FROM` then leaves the row as it is.
extension PostgresBatchWriter {
    /// A stored object as a batch compares it: its values in attribute order (the row as read:
    /// what follows them shares its storage), its row id, its to-ones' foreign keys (row ids,
    /// `.null` for none) and, for the change list only, their targets' keys (nil for none).
    struct StoredObject {
        var values: [SQLValue]
        var rowID: Int64
        var links: ArraySlice<SQLValue>
        var targets: [ObjectKey?]
        /// `stub_run`: the run that made the object a stub, `.null` when it is not one.
        var stubRun: SQLValue = .null
    }

    /// What the store holds of one entity's batch: per object (by its row in the batch) its row,
    /// nil when it is new; per to-many, the stored lists by row (read only for the to-manys the
    /// batch gives lists of; an object without stored join rows has none).
    struct StoredBatch {
        var rows: [StoredObject?]
        var lists: [[Int: (keys: [ObjectKey], values: [SQLValue])]]

        func list(_ relationship: Int, row: Int) -> (keys: [ObjectKey], values: [SQLValue]) { lists[relationship][row] ?? ([], []) }
    }

    /// Reads what the store holds of the batch's objects of entity `index` (the to-ones'
    /// targets' keys only for the change list). A load into an empty store reads only the objects
    /// an earlier batch of the run may have written (`writtenKeys`): the others are new, and its
    /// first batch reads nothing.
    func storedBatch(_ index: Int) throws(PostgresError) -> StoredBatch {
        let entity = plan.entities[index]
        let batch = batches[index]
        let probed = writtenKeys.map { written in batch.keys.indices.filter { written.mayHold(batch.keys[$0], of: index) } }
        let listed = entity.toMany.indices.filter { relationship in batch.listsAny(relationship) }
        let toOne = (changeLog == nil ? [] : entity.toOne).map { link in
            ProbedToOne(
                foreignKey: link.column, targetTable: plan.entities[link.target].table, targetKeyColumns: keyColumns(plan.entities[link.target]),
                primaryKey: Naming.primaryKey)
        }
        let toMany = listed.map { relationship in
            let link = entity.toMany[relationship]
            return ProbedToMany(
                joinTable: link.joinTable, ownerColumn: link.ownerColumn, targetColumn: link.targetColumn, positionColumn: Naming.position,
                linkColumns: link.linkAttributes.map(\.column), targetTable: plan.entities[link.target].table,
                targetKeyColumns: keyColumns(plan.entities[link.target]), primaryKey: Naming.primaryKey)
        }
        let probe = PostgresKeyProbe(table: entity.table, keyColumns: keyColumns(entity))
        let columns = entity.attributes.map(\.column) + [Naming.primaryKey] + entity.toOne.map(\.column) + [Naming.stubRun]
        let keys = probed.map { $0.flatMap { batch.keys[$0].values } } ?? batch.keys.flatMap(\.values)
        let read = try probe.objects(of: keys, columns: columns, toOne: toOne, toMany: toMany, on: connection)
        // A read row's place is its key's among those probed.
        let row = { (place: Int) in probed?[place] ?? place }
        var rows: [StoredObject?] = Array(repeating: nil, count: batch.keys.count)
        let attributes = entity.attributes.count
        for (place, values) in read.rows {
            guard case .integer(let rowID) = values[attributes] else {
                throw PostgresError(.other, message: "a row of \(entity.table) read by key came without its row id")
            }
            var object = StoredObject(
                values: values, rowID: rowID, links: values[(attributes + 1)..<(attributes + 1 + entity.toOne.count)],
                targets: [], stubRun: values[attributes + 1 + entity.toOne.count])
            object.targets.reserveCapacity(toOne.count)
            var at = attributes + 2 + entity.toOne.count
            for link in toOne {
                let key = Array(values[at..<(at + link.targetKeyColumns.count)])
                object.targets.append(key.allSatisfy { $0 == .null } ? nil : ObjectKey(values: key))
                at += link.targetKeyColumns.count
            }
            rows[row(place)] = object
        }
        var lists: [[Int: (keys: [ObjectKey], values: [SQLValue])]] = Array(repeating: [:], count: entity.toMany.count)
        for (place, relationship) in listed.enumerated() {
            let width = toMany[place].targetKeyColumns.count
            for (listed, values) in read.lists[place] {
                // A join row without link values is the target's key as read: no copy.
                let key = ObjectKey(values: values.count == width ? values : Array(values.prefix(width)))
                lists[relationship][row(listed), default: ([], [])].keys.append(key)
                if values.count > width { lists[relationship][row(listed), default: ([], [])].values += values.dropFirst(width) }
            }
        }
        return StoredBatch(rows: rows, lists: lists)
    }

    /// The list to-many `relationship` of entity `index` ends with (`ToManyList`) from
    /// `gathered`, the batch's list, over `old`, the stored one: a `merge` list is merged into it.
    func newList(
        _ index: Int, _ relationship: Int, _ gathered: GatheredList, over old: (keys: [ObjectKey], values: [SQLValue]), unknown: [Set<ObjectKey>]
    ) -> ToManyList<ObjectKey> {
        let toMany = plan.entities[index].toMany[relationship]
        let width = toMany.linkAttributes.count
        let stored = toMany.mergesList ? ToManyList(unique: old.keys, values: old.values, width: width) : nil
        return gathered.resolved(unknown: unknown[toMany.target], width: width, over: stored)
    }

    /// Whether the batch's object at `row` of entity `index` must be upserted: it is new, or a
    /// value the feed gives (its key and `always` values aside, which the upsert never writes) or
    /// a to-one that links (`links`, row ids) differs from what is stored.
    func rowDiffers(_ index: Int, row: Int, stored: StoredBatch, links: [SQLValue?]) -> Bool {
        guard let object = stored.rows[row] else { return true }
        let fromFeed = writtenFromFeed[index]
        for (attribute, value) in batches[index].values(of: row).enumerated() {
            guard let value, fromFeed[attribute] else { continue }
            if value != object.values[attribute] { return true }
        }
        let width = plan.entities[index].toOne.count
        for relationship in 0..<width {
            guard let link = links[row * width + relationship] else { continue }
            if link != object.links[object.links.startIndex + relationship] { return true }
        }
        return false
    }

    /// Notes the keys of the batch's objects of entity `index` in the run's tables: those the
    /// feed gave (the counts, `always`, `delete missing`) and, when a deletion asks, those it only
    /// named. Every object's, written or left out as unchanged.
    func noteKeys(_ index: Int) throws(PostgresError) {
        let batch = batches[index]
        let columns = keyColumns(plan.entities[index])
        for (table, given) in [(givenTable(index), true), (deletionTables.namedTable(index), false)] {
            guard let table else { continue }
            copyText.removeAll()
            for row in batch.keys.indices where batch.given[row] == given {
                copyText.append(batch.keys[row].values)
                copyText.endRow()
            }
            if !copyText.isEmpty { try copy(into: table, columns: columns) }
        }
    }
}
