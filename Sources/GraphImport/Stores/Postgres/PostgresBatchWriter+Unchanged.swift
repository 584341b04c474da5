import GraphImportPostgres
import GraphImportSchema

/// Unchanged objects are never sent. Before a batch is written, what the store holds of its
/// objects is read at once (one COPY of the keys and one query per entity, and one per to-many
/// the batch gives lists of, which joins the rows found by their row ids): each object's row
/// with its row id and foreign keys, and its lists. A stored object whose given values and
/// to-ones equal what is stored is not upserted, and a list equal to the stored one is not
/// written: a re-import of an unchanged feed writes (and locks) no row. Its key still goes into
/// the run's given keys (the counts, `always`, `delete missing`).
///
/// Equal here is `SQLValue`'s equality of the values as the store reads them back; a value the
/// store holds in another form than the feed gives it (never for the map's column types) only
/// counts as changed, and the upsert's own `IS DISTINCT FROM` then leaves the row as it is.
extension PostgresBatchWriter {
    /// What the store holds of one entity's batch, kept as the server sent it (`PostgresRows`):
    /// one result for the objects' rows and one per to-many the batch gives lists of, read in
    /// place. No array per row and no `String` per text value is made: a value is compared with
    /// the batch's where it lies, and decoded only where it is needed (a change list, a merged list).
    struct StoredBatch {
        /// The rows read: their key's place, the values in attribute order, the row id, the
        /// to-ones' foreign keys (row ids, NULL for none) and, for the change list only, their
        /// targets' keys (NULLs for none). Nil when nothing was read.
        let read: PostgresRows?
        /// Per object of the batch (by its row), its row in `read`; nil when it is new.
        let found: [Int?]
        /// The column of the row id in `read` (the attributes' are 1 up to it).
        let rowIDColumn: Int
        /// Per to-one, the columns of its target's key in `read` (empty without a change list).
        let targetColumns: [Range<Int>]
        /// The column of `stub_run` in `read`: after the to-ones' foreign keys; `content_digest` follows it.
        let stubRunColumn: Int
        /// Per to-many the batch gives lists of, the join rows read (their key's place, the
        /// target's key, the link values, in the key's and then `position` order), the width of
        /// the target's key and, per object, its join rows (an object without any has none).
        let lists: [(read: PostgresRows, keyWidth: Int, rows: [Range<Int>])?]
        /// Per object of the batch, the row id of a stored one found unchanged by its digest
        /// (`unchangedObjects`), which is not in `read`: nothing of it is read back or written.
        /// Empty when the digests were not compared.
        var unchangedIDs: [Int64?] = []

        func isNew(_ row: Int) -> Bool { found[row] == nil && !isUnchanged(row) }

        /// Whether the object is stored and unchanged by its digest: none of its values and lists was read.
        func isUnchanged(_ row: Int) -> Bool { !unchangedIDs.isEmpty && unchangedIDs[row] != nil }

        /// A stored object's row id.
        func rowID(_ row: Int) -> Int64 {
            if isUnchanged(row) { return unchangedIDs[row]! }
            return read!.integer(found[row]!, rowIDColumn)!
        }

        /// A stored object's `stub_run`: the run that made it a stub, `.null` when it is not one
        /// (an unchanged object never is).
        func stubRun(_ row: Int) -> SQLValue {
            if isUnchanged(row) { return .null }
            return read!.value(found[row]!, stubRunColumn)
        }

        /// The content digest a stored object read in full holds, nil for none.
        func storedDigest(_ row: Int) -> ContentDigest? { ContentDigest(byteaText: read!.bytes(found[row]!, stubRunColumn + 1)) }

        /// Whether the stored object at `row` holds `value` for `attribute`.
        func holds(_ value: SQLValue, row: Int, attribute: Int) -> Bool { read!.holds(value, found[row]!, 1 + attribute) }

        /// The stored object's value of `attribute`.
        func value(row: Int, attribute: Int) -> SQLValue { read!.value(found[row]!, 1 + attribute) }

        /// Whether the stored object's to-one `relationship` is `link` (a row id, `.null` for none).
        func holds(link: SQLValue, row: Int, relationship: Int) -> Bool { read!.holds(link, found[row]!, rowIDColumn + 1 + relationship) }

        /// The key of the stored object's to-one `relationship`'s target, nil for none (read with a change list only).
        func target(row: Int, relationship: Int) -> ObjectKey? {
            let key = targetColumns[relationship].map { read!.value(found[row]!, $0) }
            return key.allSatisfy { $0 == .null } ? nil : ObjectKey(values: key)
        }

        /// The number of targets of the stored list `relationship` of the object at `row`.
        func listCount(_ relationship: Int, row: Int) -> Int { lists[relationship]?.rows[row].count ?? 0 }

        /// The stored list `relationship` of the object at `row`, decoded: its targets' keys and
        /// their link values one after another.
        func list(_ relationship: Int, row: Int) -> (keys: [ObjectKey], values: [SQLValue]) {
            guard let list = lists[relationship] else { return ([], []) }
            var keys: [ObjectKey] = []
            var values: [SQLValue] = []
            for joinRow in list.rows[row] {
                keys.append(ObjectKey(values: (1...list.keyWidth).map { list.read.value(joinRow, $0) }))
                for column in (1 + list.keyWidth)..<list.read.width { values.append(list.read.value(joinRow, column)) }
            }
            return (keys, values)
        }

        /// Whether the stored list `relationship` of the object at `row` is `list`, compared in place.
        func holds(_ list: ToManyList<ObjectKey>, relationship: Int, row: Int) -> Bool {
            guard let stored = lists[relationship] else { return list.targets.isEmpty }
            let joinRows = stored.rows[row]
            guard joinRows.count == list.targets.count else { return false }
            let width = stored.read.width - 1 - stored.keyWidth
            for (element, joinRow) in joinRows.enumerated() {
                for (column, value) in list.targets[element].enumerated() where !stored.read.holds(value, joinRow, 1 + column) {
                    return false
                }
                for column in 0..<width where !stored.read.holds(list.values[element * width + column], joinRow, 1 + stored.keyWidth + column) {
                    return false
                }
            }
            return true
        }
    }

    /// Reads what the store holds of the batch's objects of entity `index` (the to-ones'
    /// targets' keys only for the change list). A load into an empty store reads only the objects
    /// an earlier batch of the run may have written (`writtenKeys`): the others are new, and its
    /// first batch reads nothing.
    ///
    /// Compare first: where the entity's digests are trusted, the rows' `(row id, stub_run,
    /// content_digest)` are read first (`unchangedObjects`), and values and lists only of the
    /// stored objects that are not unchanged by their digest. Where most of the entity's objects
    /// in its last batch were not (`readsDigestsFirst`: a user met in several batches, each
    /// with other occurrences), the rows are read in full at once, with their digests, and the
    /// lists only of those that are not unchanged: a second read by key costs more than the
    /// values it leaves out.
    func storedBatch(_ index: Int) throws(PostgresError) -> StoredBatch {
        let batch = batches[index]
        var probed = writtenKeys.map { written in batch.keys.indices.filter { written.mayHold(batch.keys[$0], of: index) } }
        guard decisions.trustsDigest[index], batch.keys.indices.contains(where: { writtenDigest(index, row: $0) != nil }) else {
            return try readStoredBatch(index, probed: probed)
        }
        var unchanged: [Int64?]
        var stored: StoredBatch
        if readsDigestsFirst[index] {
            let compared = try unchangedObjects(index, among: probed)
            let found = compared.others.count + compared.unchanged.count { $0 != nil }
            probed = compared.others
            unchanged = compared.unchanged
            stored = try readStoredBatch(index, probed: probed)
            readsDigestsFirst[index] = found - compared.others.count >= compared.others.count
        } else {
            // `stub_run` after the place, the attributes, the row id and the to-ones' keys.
            let stubColumn = 2 + plan.entities[index].attributes.count + plan.entities[index].toOne.count
            stored = try readStoredBatch(index, probed: probed) { rows, readRow, row in
                !self.isUnchanged(index, row: row, rows: rows, readRow: readRow, stubColumn: stubColumn)
            }
            unchanged = Array(repeating: nil, count: batch.keys.count)
            var hits = 0
            for row in batch.keys.indices where !stored.isNew(row) && isUnchanged(index, row: row, stored: stored) {
                unchanged[row] = stored.rowID(row)
                hits += 1
            }
            readsDigestsFirst[index] = 2 * hits >= stored.found.count { $0 != nil }
        }
        stored.unchangedIDs = unchanged
        return stored
    }

    /// Whether the stored object at `row` of entity `index`, whose row is `readRow` of `rows`
    /// (`stub_run` at `stubColumn`, `content_digest` after it), is unchanged by its digest, or
    /// only named by the batch (a reference: nothing of it is written but links to it).
    private func isUnchanged(_ index: Int, row: Int, rows: PostgresRows, readRow: Int, stubColumn: Int) -> Bool {
        !batches[index].given[row]
            || decisions.isUnchanged(
                index, digest: writtenDigest(index, row: row), storedDigest: ContentDigest(byteaText: rows.bytes(readRow, stubColumn + 1)),
                storedStub: !rows.isNull(readRow, stubColumn))
    }

    /// `isUnchanged` of a stored object read in full.
    private func isUnchanged(_ index: Int, row: Int, stored: StoredBatch) -> Bool {
        isUnchanged(index, row: row, rows: stored.read!, readRow: stored.found[row]!, stubColumn: stored.stubRunColumn)
    }

    /// What the store holds of the batch's objects of entity `index` at `probed` (nil: all);
    /// `listsOf` says which of them have their lists read (by the batch's row): all unless it says otherwise.
    private func readStoredBatch(
        _ index: Int, probed: [Int]?, listsOf: ((PostgresRows, Int, Int) -> Bool)? = nil
    ) throws(PostgresError) -> StoredBatch {
        let entity = plan.entities[index]
        let batch = batches[index]
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
        let columns = entity.attributes.map(\.column) + [Naming.primaryKey] + entity.toOne.map(\.column) + [Naming.stubRun, Naming.contentDigest]
        let keys = probed.map { $0.flatMap { batch.keys[$0] } } ?? batch.keys.flatMap { $0 }
        let rowIDColumn = 1 + entity.attributes.count
        var targetColumns: [Range<Int>] = []
        // The target keys follow the to-ones' foreign keys, `stub_run` and `content_digest`.
        let stubRunColumn = rowIDColumn + 1 + entity.toOne.count
        var at = stubRunColumn + 2
        for link in toOne {
            targetColumns.append(at..<(at + link.targetKeyColumns.count))
            at += link.targetKeyColumns.count
        }
        var found: [Int?] = Array(repeating: nil, count: batch.keys.count)
        var lists: [(read: PostgresRows, keyWidth: Int, rows: [Range<Int>])?] = Array(repeating: nil, count: entity.toMany.count)
        let readsListsOf = listsOf.map { listsOf in
            { (rows: PostgresRows, readRow: Int) -> Bool in
                guard let place = rows.integer(readRow, 0) else { return true }
                return listsOf(rows, readRow, probed?[Int(place)] ?? Int(place))
            }
        }
        guard
            let read = try probe.objects(
                of: keys, columns: columns, rowID: rowIDColumn - 1, toOne: toOne, toMany: toMany, on: connection, listsOf: readsListsOf)
        else {
            return StoredBatch(read: nil, found: found, rowIDColumn: rowIDColumn, targetColumns: targetColumns, stubRunColumn: stubRunColumn, lists: lists)
        }
        // A read row's place is its key's among those probed.
        func row(_ rows: PostgresRows, _ index: Int) throws(PostgresError) -> Int {
            guard let place = rows.integer(index, 0) else {
                throw PostgresError(.other, message: "the rows of \(entity.table) read by key came without their place")
            }
            return probed?[Int(place)] ?? Int(place)
        }
        for readRow in 0..<read.rows.count {
            guard read.rows.integer(readRow, rowIDColumn) != nil else {
                throw PostgresError(.other, message: "a row of \(entity.table) read by key came without its row id")
            }
            found[try row(read.rows, readRow)] = readRow
        }
        for (place, relationship) in listed.enumerated() {
            let joinRows = read.lists[place]
            var ranges: [Range<Int>] = Array(repeating: 0..<0, count: batch.keys.count)
            var start = 0
            while start < joinRows.count {
                let owner = try row(joinRows, start)
                var end = start + 1
                while end < joinRows.count, try row(joinRows, end) == owner { end += 1 }
                ranges[owner] = start..<end
                start = end
            }
            lists[relationship] = (joinRows, toMany[place].targetKeyColumns.count, ranges)
        }
        return StoredBatch(read: read.rows, found: found, rowIDColumn: rowIDColumn, targetColumns: targetColumns, stubRunColumn: stubRunColumn, lists: lists)
    }

    /// The list to-many `relationship` of entity `index` ends with (`ToManyList`) from
    /// `gathered`, the batch's list, over the stored one of the object at `row`: a `merge` list
    /// is merged into it.
    func newList(
        _ index: Int, _ relationship: Int, _ gathered: GatheredList, row: Int, stored: StoredBatch, unknown: [Set<ObjectKey>]
    ) -> ToManyList<ObjectKey> {
        let toMany = plan.entities[index].toMany[relationship]
        let width = toMany.linkAttributes.count
        var over: ToManyList<ObjectKey>?
        if toMany.mergesList {
            let old = stored.list(relationship, row: row)
            over = ToManyList(unique: old.keys, values: old.values, width: width)
        }
        return gathered.resolved(unknown: unknown[toMany.target], width: width, over: over)
    }

    /// Compare first: reads the row id, `stub_run` and `content_digest` of the batch's objects of
    /// entity `index` at `probed` (nil: all), one COPY of their keys and one query; an object
    /// whose row holds its draft's digest is unchanged (`ObjectDecisions.isUnchanged`), and so is
    /// one the batch only names (a reference: nothing of it is written but links to it). Returns
    /// the others that are stored, for a full read, and per object the row id of an unchanged one.
    func unchangedObjects(_ index: Int, among probed: [Int]?) throws(PostgresError) -> (others: [Int], unchanged: [Int64?]) {
        let entity = plan.entities[index]
        let batch = batches[index]
        let candidates = probed ?? Array(batch.keys.indices)
        var unchanged = [Int64?](repeating: nil, count: batch.keys.count)
        let probe = PostgresKeyProbe(table: entity.table, keyColumns: keyColumns(entity))
        guard
            let read = try probe.objects(
                of: candidates.flatMap { batch.keys[$0] }, columns: [Naming.primaryKey, Naming.stubRun, Naming.contentDigest], rowID: 0, toOne: [],
                toMany: [], on: connection)
        else { return ([], unchanged) }
        let rows = read.rows
        var others: [Int] = []
        for readRow in 0..<rows.count {
            guard let place = rows.integer(readRow, 0), let id = rows.integer(readRow, 1) else {
                throw PostgresError(.other, message: "a row of \(entity.table) read by key came without its place or row id")
            }
            let row = candidates[Int(place)]
            if isUnchanged(index, row: row, rows: rows, readRow: readRow, stubColumn: 2) { unchanged[row] = id } else { others.append(row) }
        }
        others.sort()
        return (others, unchanged)
    }

    /// The digest a write of the batch's object at `row` of entity `index` stores and is
    /// compared by: its occurrences' (`EntityBatch.digests`) where the entity stores one
    /// (`ObjectDecisions.storesDigest`) and the run writes what the feed gave of it; nil (NULL)
    /// for a stub or an object kept as stored.
    func writtenDigest(_ index: Int, row: Int) -> ContentDigest? {
        let batch = batches[index]
        guard decisions.storesDigest[index], batch.written[row] else { return nil }
        return batch.digests[row].map(decisions.stamped)
    }

    /// Writes the digests of the batch's stored objects of entity `index` at `rows`, found equal
    /// value by value but holding another digest (NULL in a store made before digests): one
    /// statement, not a change (`changed_run` stays).
    func writeDigests(_ index: Int, rows: [Int], stored: StoredBatch) throws(PostgresError) {
        let table = quoteIdentifier(plan.entities[index].table)
        let pk = quoteIdentifier(Naming.primaryKey)
        let digest = quoteIdentifier(Naming.contentDigest)
        let values = rows.map { row in
            let text = writtenDigest(index, row: row).map { "decode('\($0.hexText)', 'hex')" } ?? "NULL::bytea"
            return "(\(stored.rowID(row))::bigint, \(text))"
        }
        try connection.execute(
            "UPDATE \(table) AS t SET \(digest) = v.d FROM (VALUES \(values.joined(separator: ", "))) AS v(id, d) WHERE t.\(pk) = v.id")
    }

    /// Whether the batch's object at `row` of entity `index` must be upserted: it is new, or a
    /// value the feed gives (its key and `always` values aside, which the upsert never writes) or
    /// a to-one that links (`links`, row ids) differs from what is stored.
    func rowDiffers(_ index: Int, row: Int, stored: StoredBatch, links: [SQLValue?]) -> Bool {
        guard !stored.isNew(row) else { return true }
        let fromFeed = writtenFromFeed[index]
        for (attribute, value) in batches[index].values(of: row).enumerated() {
            guard let value, fromFeed[attribute] else { continue }
            if !stored.holds(value, row: row, attribute: attribute) { return true }
        }
        let width = plan.entities[index].toOne.count
        for relationship in 0..<width {
            guard let link = links[row * width + relationship] else { continue }
            if !stored.holds(link: link, row: row, relationship: relationship) { return true }
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
            try copy(into: table, columns: columns) { text in
                for row in batch.keys.indices where batch.given[row] == given {
                    for value in batch.keys[row] { text.append(value) }
                    text.endRow()
                }
            }
        }
    }
}
