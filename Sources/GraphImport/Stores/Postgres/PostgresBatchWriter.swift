import GraphImportPostgres
import GraphImportSchema

/// The PostgreSQL store's writer: it takes the drafts of whole records, gathers them into a batch
/// (each object once, its occurrences merged as the SQLite writer would write them one after
/// another) and writes a batch with a few set-based statements per table, never a round trip per
/// object: what the store holds of the batch's objects is read at once and the unchanged ones
/// are left out (`PostgresBatchWriter+Unchanged`), then every entity's rows (objects, then stubs
/// for bare keys), then the to-one foreign keys and the to-many join rows, their targets found
/// by their natural keys.
///
/// Counts come from the run's stamps at the end (`counts()`): the keys of the objects the feed
/// gave, written or left out, are kept in a temporary table per entity.
///
/// What gathering changes for every object (the batches, the scratch stacks and their top, the
/// count, the pending and kept keys) skips Swift's run-time exclusivity check, a measurable part of
/// the writing thread (an entry in a per-thread access set, some ten per object): one thread
/// uses a writer, and no method holds an access to one of them while it calls another that
/// reaches the same (a nested draft is gathered before its parent's access to the scratch
/// begins).
final class PostgresBatchWriter {
    let plan: ImportPlan
    let connection: PostgresConnection
    private let runID: Int64
    /// Objects gathered before a batch is written.
    let batchSize: Int
    @exclusivity(unchecked) private(set) var batches: [EntityBatch]
    @exclusivity(unchecked) private var gathered = 0
    /// The batch's `link existing` keys whose objects were not in it when met, in feed order.
    @exclusivity(unchecked) var pendingLinks: [PendingLink] = []
    /// Keys that linked nothing (`link existing`), with their paths.
    let tally: PolicyTally

    /// The run's id and time, for `default run` and `default now`.
    let run: RunContext
    /// What the run keeps for `delete missing` besides the given keys.
    let deletionTables: PostgresDeletionTables
    /// `--verbose`'s list of changes, filled before each batch is written; nil: none is read.
    let changeLog: ChangeLog?
    /// Whether the store's tables held no row when the run began: its first batch then drops the
    /// foreign keys and secondary indexes for the load (`loadConstraints`), `finishLoad` makes them again.
    private var loadsStraight = false
    private var loadConstraints: PostgresLoadConstraints?
    /// A load into an empty store: the keys written so far (nil otherwise), so that a batch reads
    /// back only the objects an earlier batch may have written (`storedBatch`).
    private(set) var writtenKeys: PostgresWrittenKeys?
    /// Per entity: whether its next batch reads the rows' digests first (`storedBatch`): true
    /// until a batch finds most of its stored objects changed by their digests.
    var readsDigestsFirst: [Bool]
    /// Per entity and attribute: whether the upsert writes it from the feed (not a key part, and
    /// a value that may be a change: `ObjectDecisions.feedValueCounts`).
    let writtenFromFeed: [[Bool]]
    /// What a new object holds and what the engine sets on a stored one.
    let decisions: ObjectDecisions
    /// Per entity: the keys of the stubs the run made that the feed has not given since (`+Stubs`).
    var openStubs: [Set<ObjectKey>]
    /// Per entity: the stubs an earlier run made (marked in the store) that the feed gave and the run wrote.
    var storedStubsCompleted: [Int]
    /// Per entity: whether a new object's values are gathered as `ObjectDecisions.insert` made
    /// them (`PostgresRecordCompletion.completesEveryObject`); else a new row gets the map's
    /// values for a new object when it is COPYed.
    private let insertsCompleted: [Bool]
    /// The keys of the objects the record being gathered names but keeps as stored (`keep`).
    @exclusivity(unchecked) private var keptByMode: [(entity: Int, key: ObjectKey)] = []
    /// A query made while gathering that failed (`gatherOnce`), thrown by `add`.
    var gatheringError: PostgresError?
    /// Per entity: its to-ones that store a list of their target once (`ToManyPlan.foreignKey`).
    let storesListOnce: [Set<Int>]
    /// `gather`'s scratch: the to-ones and lists of the drafts being gathered, a nested draft's
    /// above its parent's, up to `gatheringTop`. The arrays only grow (kept between records so
    /// that gathering allocates none) and hold nil above the top: `take` moves each out, so
    /// that nothing is copied into the batch and nothing is released or destroyed here.
    @exclusivity(unchecked) private var gatheringToOnes: [GatheredToOne?] = []
    @exclusivity(unchecked) private var gatheringLists: [GatheredList?] = []
    @exclusivity(unchecked) private var gatheringTop = (toOnes: 0, lists: 0)
    /// Per entity and to-many: whether its lists merge (`ToManyPlan.mergesList`).
    private let mergesList: [[Bool]]
    /// The rows of the batch's COPYs, written straight in COPY's text format; one buffer, emptied
    /// and filled again for each COPY (`copy(into:columns:rows:)`).
    private var copyText = PostgresCopyText()

    init(
        plan: ImportPlan, connection: PostgresConnection, run: RunContext, decisions: ObjectDecisions, batchSize: Int, changeLog: ChangeLog? = nil
    ) {
        self.plan = plan
        self.connection = connection
        self.run = run
        self.changeLog = changeLog
        runID = run.runID
        self.batchSize = max(1, batchSize)
        batches = plan.entities.map(EntityBatch.init)
        mergesList = plan.entities.map { $0.toMany.map(\.mergesList) }
        tally = PolicyTally(entities: plan.entities.count)
        deletionTables = PostgresDeletionTables(plan: plan)
        self.decisions = decisions
        openStubs = Array(repeating: [], count: plan.entities.count)
        readsDigestsFirst = Array(repeating: true, count: plan.entities.count)
        storedStubsCompleted = Array(repeating: 0, count: plan.entities.count)
        var storesListOnce = Array(repeating: Set<Int>(), count: plan.entities.count)
        for entity in plan.entities {
            for toMany in entity.toMany { if let toOne = toMany.foreignKey { storesListOnce[toMany.target].insert(toOne) } }
        }
        self.storesListOnce = storesListOnce
        insertsCompleted = PostgresRecordCompletion.completesEveryObject(decisions)
        writtenFromFeed = plan.entities.indices.map { index in
            let keys = Set(plan.entities[index].keyAttributes)
            return decisions.feedValueCounts[index].indices.map { !keys.contains($0) && decisions.feedValueCounts[index][$0] }
        }
    }

    /// One entity's objects of the batch, each once, in the order first met. What the batch holds
    /// of an object is kept in flat arrays, one row after another (`attributeCount` values,
    /// `toOneCount` to-ones, `toManyCount` lists to a row): no array of its own per object.
    struct EntityBatch {
        var rows: [ObjectKey: Int] = [:]
        var keys: [ObjectKey] = []
        /// Per object and attribute: its value (nil: not given, the stored value is kept).
        private var values: [SQLValue?] = []
        /// Per object: whether the feed gave it (a stub is only named by its key).
        var given: [Bool] = []
        /// Per object: whether the feed gave it and the run writes what it gave (not an object
        /// its mode keeps as stored), which completes a stub.
        var written: [Bool] = []
        /// Per object: whether its first occurrence in the batch was a reference (a stub if new).
        var madeByReference: [Bool] = []
        /// Per object: the content digest of its occurrences in the batch, in order
        /// (`ContentDigest.followed(by:)`): the one draft's when it occurs once; nil when one
        /// has none. Writing the same occurrences again over the row they made leaves it as it is.
        var digests: [ContentDigest?] = []
        /// Per object: the digest of its last occurrence.
        private var lastDigests: [ContentDigest?] = []
        /// Per object and to-one: nil when not given.
        private var toOnes: [GatheredToOne?] = []
        /// Per object and to-many: nil when not given; the feed's elements in order (`GatheredList`).
        private var lists: [GatheredList?] = []
        /// Per to-one that stores a list once (`ToManyPlan.foreignKey`), by the key of the
        /// object it links to: the objects whose gathered link is that one (`gatherOnce`).
        var holders: [Int: [ObjectKey: Set<ObjectKey>]] = [:]
        let attributeCount: Int
        let toOneCount: Int
        let toManyCount: Int

        init(attributes: Int, toOne: Int, toMany: Int) {
            attributeCount = attributes
            toOneCount = toOne
            toManyCount = toMany
        }

        /// Notes that the gathered to-one `toOne` of the object with `key`, which stores a list
        /// once, went from `previous` to `now`.
        /// A `link existing` key the batch had not met counts as the link: a list of its
        /// target later in the batch means the target is there.
        mutating func noteHolder(_ key: ObjectKey, toOne: Int, was previous: GatheredToOne?, now: GatheredToOne) {
            if let old = previous?.linkedKey { holders[toOne]?[old]?.remove(key) }
            if let new = now.linkedKey { holders[toOne, default: [:]][new, default: []].insert(key) }
        }

        init(_ entity: EntityPlan) { self.init(attributes: entity.attributes.count, toOne: entity.toOne.count, toMany: entity.toMany.count) }

        /// The object's row, a new one (nothing given yet) when the batch does not hold it: its key hashed once.
        mutating func row(for key: ObjectKey) -> Int {
            let next = keys.count
            let row = Self.insertingDefault(&rows[key, default: next])
            guard row == next else { return row }
            keys.append(key)
            values.append(contentsOf: repeatElement(nil, count: attributeCount))
            given.append(false)
            written.append(false)
            madeByReference.append(false)
            digests.append(nil)
            lastDigests.append(nil)
            toOnes.append(contentsOf: repeatElement(nil, count: toOneCount))
            lists.append(contentsOf: repeatElement(nil, count: toManyCount))
            return row
        }

        /// The value `rows[key, default: next]` holds once accessed for writing: the stored row,
        /// or `next`, inserted.
        private static func insertingDefault(_ row: inout Int) -> Int { row }

        func value(_ row: Int, _ attribute: Int) -> SQLValue? { values[row * attributeCount + attribute] }
        /// The object's values in attribute order.
        func values(of row: Int) -> ArraySlice<SQLValue?> { values[(row * attributeCount)..<((row + 1) * attributeCount)] }
        mutating func setValue(_ row: Int, _ attribute: Int, _ value: SQLValue) { values[row * attributeCount + attribute] = value }
        func toOne(_ row: Int, _ relationship: Int) -> GatheredToOne? { toOnes[row * toOneCount + relationship] }
        func list(_ row: Int, _ relationship: Int) -> GatheredList? { lists[row * toManyCount + relationship] }

        /// Forgets the objects, keeping the arrays' and the table's capacity for the next batch.
        mutating func removeAll() {
            rows.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            given.removeAll(keepingCapacity: true)
            written.removeAll(keepingCapacity: true)
            madeByReference.removeAll(keepingCapacity: true)
            digests.removeAll(keepingCapacity: true)
            lastDigests.removeAll(keepingCapacity: true)
            toOnes.removeAll(keepingCapacity: true)
            lists.removeAll(keepingCapacity: true)
            holders.removeAll()
        }

        /// Takes an occurrence of an object into its row (`row(for:)`): its given values, its
        /// to-ones and lists (gathered already, nil where not given: `links` from `toOneBase`
        /// on and `givenLists` from `listBase` on, each moved out and left nil), as a later
        /// write over the earlier ones would; a list of a to-many that `merges` is added to the
        /// earlier one; a to-one in `holdsOnce` notes its object as a holder (`noteHolder`).
        /// All in one access to the batch.
        mutating func take(
            _ draft: ObjectDraft, written isWritten: Bool, toOnes links: inout [GatheredToOne?], from toOneBase: Int,
            lists givenLists: inout [GatheredList?], from listBase: Int, merges: [Bool], holdsOnce: Set<Int>
        ) {
            let row = row(for: draft.key)
            if !given[row] {
                digests[row] = draft.contentDigest
            } else if let digest = draft.contentDigest, digest != lastDigests[row] {
                digests[row] = digests[row]?.followed(by: digest)
            } else if draft.contentDigest == nil {
                digests[row] = nil
            }
            lastDigests[row] = draft.contentDigest
            given[row] = true
            if isWritten { written[row] = true }
            var at = row * attributeCount
            for value in draft.values {
                if let value { values[at] = value }
                at += 1
            }
            at = row * toOneCount
            for index in 0..<toOneCount {
                if let link = links[toOneBase + index].take() {
                    let previous = toOnes[at]
                    let now = link.replacing(previous)
                    if !holdsOnce.isEmpty && holdsOnce.contains(index) { noteHolder(draft.key, toOne: index, was: previous, now: now) }
                    toOnes[at] = now
                }
                at += 1
            }
            at = row * toManyCount
            for index in 0..<toManyCount {
                if let list = givenLists[listBase + index].take() {
                    if merges[index], let earlier = lists[at].take() { lists[at] = earlier.appending(page: list) } else { lists[at] = list }
                }
                at += 1
            }
        }

        /// Whether some object of the batch has a list of to-many `relationship`.
        func listsAny(_ relationship: Int) -> Bool {
            stride(from: relationship, to: lists.count, by: toManyCount).contains { lists[$0] != nil }
        }
    }

    /// The temporary table of the keys the feed gave, per entity, for `counts()`.
    func givenTable(_ entity: Int) -> String { "graphimport_given_\(entity)" }

    /// Creates the run's temporary tables (dropped at the transaction's end).
    func prepare() throws(PostgresError) {
        for index in plan.entities.indices {
            try prepareKeyTable(givenTable(index), of: index)
        }
        try prepareOwned()
        try prepareStubs()
        try deletionTables.prepare(on: connection)
        loadsStraight = try PostgresLoadConstraints.areEmpty(plan.entities.map(\.table), on: connection)
        if loadsStraight { writtenKeys = PostgresWrittenKeys(entities: plan.entities.count) }
        // A load into an empty store makes them after the load, with its keys (`finishLoad`).
        if !loadsStraight { try connection.ensureDigestTriggers(plan.schema.digestWatches) }
    }

    /// An empty temporary table of an entity's key columns, and `extraColumns` (a select list's
    /// tail, such as `, 0::integer AS "n"`), dropped at the transaction's end.
    func prepareKeyTable(_ name: String, of entity: Int, extraColumns: String = "") throws(PostgresError) {
        let keys = keyColumns(plan.entities[entity]).map(quoteIdentifier).joined(separator: ", ")
        try connection.execute(
            "CREATE TEMPORARY TABLE IF NOT EXISTS \(quoteIdentifier(name)) ON COMMIT DROP AS "
                + "SELECT \(keys)\(extraColumns) FROM \(quoteIdentifier(plan.entities[entity].table)) WITH NO DATA")
        try connection.execute("TRUNCATE \(quoteIdentifier(name))")
    }

    /// The tables a load into an empty store drops the keys and indexes of: the entities' and their join tables.
    private var loadedTables: [String] { plan.entities.flatMap { [$0.table] + $0.toMany.filter { $0.foreignKey == nil }.map(\.joinTable) } }

    /// Makes the keys and indexes a first import into an empty store dropped again, each checked or
    /// built at once (`PostgresLoadConstraints`). Call after the last batch, before anything is deleted.
    func finishLoad() throws(PostgresError) {
        try loadConstraints?.restore(on: connection)
        if loadsStraight { try connection.ensureDigestTriggers(plan.schema.digestWatches) }
    }

    /// Adds a record's objects to the batch, and writes the batch when it is full. `kept`: the
    /// objects of the record its mode keeps as stored (`ObjectDecisions.Fate.keepStored`), named
    /// but not written.
    func add(_ draft: ObjectDraft, kept: [(entity: Int, key: ObjectKey)] = []) throws(PostgresError) {
        keptByMode = kept
        gather(draft)
        keptByMode = []
        if let error = gatheringError { throw error }
        if gathered >= batchSize { try flush() }
    }

    /// Whether the object with `key` is in the batch not yet written.
    func holds(_ entity: Int, _ key: ObjectKey) -> Bool { batches[entity].rows[key] != nil }

    /// Gathers a new stub with the values the importer made for it (defaults, derived values,
    /// hooks: `PostgresRecordCompletion`), before the record that names it by its key, which then
    /// finds it in the batch.
    func gatherStub(_ entity: Int, _ key: ObjectKey, values: [SQLValue?]) {
        let known = batches[entity].keys.count
        let row = batches[entity].row(for: key)
        if row == known { batches[entity].madeByReference[row] = true }
        for (index, value) in values.enumerated() {
            if let value { batches[entity].setValue(row, index, value) }
        }
        gathered += 1
    }

    @discardableResult
    func gather(_ draft: ObjectDraft) -> ObjectKey {
        let entity = plan.entities[draft.entity]
        // The links first (nested objects and stubs come before their parent in the batch), each
        // onto the scratch stacks, above those of the drafts being gathered around this one.
        let base = gatheringTop
        gatheringTop = (base.toOnes + draft.toOne.count, base.lists + draft.toMany.count)
        if gatheringToOnes.count < gatheringTop.toOnes { gatheringToOnes += repeatElement(nil, count: gatheringTop.toOnes - gatheringToOnes.count) }
        if gatheringLists.count < gatheringTop.lists { gatheringLists += repeatElement(nil, count: gatheringTop.lists - gatheringLists.count) }
        for (index, link) in draft.toOne.enumerated() {
            gatheringToOnes[base.toOnes + index] = link.map(gatherToOne)
        }
        for (index, links) in draft.toMany.enumerated() {
            // A list stored as its elements' foreign keys is gathered after its owner (`gatherOnce`).
            guard entity.toMany[index].foreignKey == nil, let links else { continue }
            gatheringLists[base.lists + index] = gatherList(links, values: draft.linkValues?[index], width: entity.toMany[index].linkAttributes.count)
        }
        // Occurrences merge as successive writes would: each given value, link or list replaces
        // (a list of a `merge` to-many adds to the earlier ones).
        let written = keptByMode.isEmpty || !keptByMode.contains(where: { $0.entity == draft.entity && $0.key == draft.key })
        batches[draft.entity].take(
            draft, written: written, toOnes: &gatheringToOnes, from: base.toOnes, lists: &gatheringLists, from: base.lists,
            merges: mergesList[draft.entity], holdsOnce: storesListOnce[draft.entity])
        gathered += 1
        gatheringTop = base
        if entity.storesListsOnce { gatherOnce(draft) }
        return draft.key
    }

    /// The key a link points at, gathering a nested object or a stub; nil for null. A key of
    /// `link existing` makes no stub (`gatherLink` finds whether it links).
    func target(of link: LinkDraft) -> ObjectKey? {
        switch link {
        case .null: return nil
        case .object(let nested): return gather(nested)
        case .existing(_, let key, _): return key
        case .reference(let entity, let key):
            let known = batches[entity].keys.count
            let row = batches[entity].row(for: key)
            if row == known {
                batches[entity].madeByReference[row] = true
                for (position, attribute) in plan.entities[entity].keyAttributes.enumerated() {
                    batches[entity].setValue(row, attribute, key[position])
                }
                gathered += 1
            }
            return key
        }
    }

    /// Writes the batch. Into a store that was empty when the run began, the first batch drops the
    /// tables' foreign keys and secondary indexes (`finishLoad` makes them again). What the store
    /// holds of the batch's objects is read first (`storedBatch`), with
    /// their row ids; the new objects get theirs from the table's identity sequence, so that every
    /// to-one's target has a known row id (`toOneValues`) and the foreign key is written with the
    /// row. Then, per entity: the keys of all objects are noted, the new objects are COPYed
    /// straight into the table (no staging, no `ON CONFLICT`), the stored ones whose values or
    /// to-ones differ are upserted, the unchanged ones are left out; then the lists that differ
    /// from the stored ones are written (their targets are all in the tables by then). The keys of
    /// `link existing` are looked for before the rows are written: the batch's own objects that
    /// come later in the feed than a key do not count as existing when it was met. The change
    /// list, when there is one, compares the batch with the same rows.
    ///
    /// The batch's statements run with index probes (`withIndexProbes`): a batch's few thousand
    /// keys against a table many times larger. Left to itself the planner hash-joins them over the
    /// whole table (a first import's tables are never analyzed inside its transaction), so each
    /// batch costs in proportion to the table and the import with the square of its size.
    func flush() throws(PostgresError) {
        guard gathered > 0 else { return }
        try connection.withIndexProbes { () throws(PostgresError) in try writeBatch() }
    }

    private func writeBatch() throws(PostgresError) {
        if loadsStraight && loadConstraints == nil { loadConstraints = try PostgresLoadConstraints.drop(on: loadedTables, connection: connection) }
        let pending = try pendingTargets()
        let entities = plan.entities.indices.filter { !batches[$0].keys.isEmpty }
        var stored: [StoredBatch?] = Array(repeating: nil, count: plan.entities.count)
        for index in entities { stored[index] = try storedBatch(index) }
        if let changeLog { logChanges(to: changeLog, unknown: pending.unknown, stored: stored) }
        try noteOwners()
        var ids: [[Int64]] = Array(repeating: [], count: plan.entities.count)
        for index in entities { ids[index] = try rowIDs(index, stored: stored[index]!) }
        for index in entities {
            let stored = stored[index]!
            let links = try toOneValues(index, ids: ids, pending: pending)
            try noteKeys(index)
            try noteStubs(index, stored: stored)
            var new: [Int] = []
            var changed: [Int] = []
            // Stored, equal value by value, and holding another digest than the draft's.
            var redigested: [Int] = []
            for row in batches[index].keys.indices {
                if stored.isNew(row) {
                    new.append(row)
                } else if stored.isUnchanged(row) {
                    continue
                } else if rowDiffers(index, row: row, stored: stored, links: links) {
                    changed.append(row)
                } else if redigests(index, row: row, stored: stored) {
                    redigested.append(row)
                }
            }

            if !new.isEmpty { try copyNewRows(index, rows: new, ids: ids[index], links: links) }
            if writtenKeys != nil { for row in new { writtenKeys!.insert(batches[index].keys[row], of: index) } }
            if !changed.isEmpty { try updateRows(index, rows: changed, links: links) }
            if !redigested.isEmpty { try writeDigests(index, rows: redigested, stored: stored) }
        }
        for index in entities {
            for relationship in plan.entities[index].toMany.indices where plan.entities[index].toMany[relationship].foreignKey == nil {
                try writeToMany(index, relationship, pending: pending, stored: stored[index]!, ids: ids)
            }
        }
        for index in batches.indices { batches[index].removeAll() }
        gathered = 0
    }

    /// Whether the stored object at `row` of entity `index`, found equal value by value, takes the
    /// digest its write would store (`ObjectDecisions.replacesStoredDigest`).
    private func redigests(_ index: Int, row: Int, stored: StoredBatch) -> Bool {
        guard batches[index].written[row] else { return false }
        return decisions.replacesStoredDigest(stored.storedDigest(row), with: writtenDigest(index, row: row))
    }

    /// Sends into `columns` of `table` the rows `rows` writes into the writer's COPY buffer
    /// (emptied first; nothing is sent when it writes none). The buffer is a local while it is
    /// filled: every access to a stored property of a class is checked for exclusivity at run
    /// time, and an append per value made that check a measurable part of the writing thread.
    func copy(
        into table: String, columns: [String], rows: (inout PostgresCopyText) throws(PostgresError) -> Void
    ) throws(PostgresError) {
        var text = PostgresCopyText()
        swap(&text, &copyText)
        defer { swap(&text, &copyText) }
        text.removeAll()
        try rows(&text)
        if !text.isEmpty { try connection.copy(into: table, columns: columns, text: text) }
    }

    func keyColumns(_ entity: EntityPlan) -> [String] { entity.keyAttributes.map { entity.attributes[$0].column } }

    /// The row ids of the batch's objects of entity `index`: a stored object's own, a new one's
    /// taken from the table's identity sequence, in the order the batch first met them.
    private func rowIDs(_ index: Int, stored: StoredBatch) throws(PostgresError) -> [Int64] {
        var ids = [Int64](repeating: 0, count: stored.found.count)
        var new: [Int] = []
        for row in stored.found.indices {
            if stored.isNew(row) { new.append(row) } else { ids[row] = stored.rowID(row) }
        }
        let reserved = try connection.reserveRowIDs(table: plan.entities[index].table, column: Naming.primaryKey, count: new.count)
        for (row, id) in zip(new, reserved) { ids[row] = id }
        return ids
    }

    /// Per object of entity `index` and to-one, row after row (`toOne.count` to a row): the row
    /// id its foreign key gets, `.null` for none, nil where the batch gives no link that links
    /// (the stored one stays). A target is in the batch (a nested object, a stub, a `link
    /// existing` key met in it) or a `link existing` key found in the store (`pending`).
    private func toOneValues(_ index: Int, ids: [[Int64]], pending: PendingTargets) throws(PostgresError) -> [SQLValue?] {
        let entity = plan.entities[index]
        let batch = batches[index]
        let width = entity.toOne.count
        guard width > 0 else { return [] }
        var values = [SQLValue?](repeating: nil, count: batch.keys.count * width)
        for row in batch.keys.indices {
            for (relationship, toOne) in entity.toOne.enumerated() {
                guard let link = batch.toOne(row, relationship)?.resolved(pending.unknown[toOne.target]) else { continue }
                guard let key = link else {
                    values[row * width + relationship] = .null
                    continue
                }
                values[row * width + relationship] = .integer(try rowID(toOne.target, key, ids: ids, pending: pending))
            }
        }
        return values
    }

    /// COPYs the batch's new objects of entity `index` (`rows`) straight into the table, with
    /// their row ids, their to-ones' row ids and the run's stamps: no staging table, no
    /// `ON CONFLICT` (the batch read that none is stored, under the store's lock). An attribute
    /// holds what a new object holds: as gathered when the insert was decided before
    /// (`insertsCompleted`, what `onInsert` set included), else `ObjectDecisions.newValue`; else NULL.
    private func copyNewRows(_ index: Int, rows: [Int], ids: [Int64], links: [SQLValue?]) throws(PostgresError) {
        let entity = plan.entities[index]
        let batch = batches[index]
        var keyPlace = [Int?](repeating: nil, count: entity.attributes.count)
        for (place, attribute) in entity.keyAttributes.enumerated() { keyPlace[attribute] = place }
        let width = entity.toOne.count
        let columns =
            [Naming.primaryKey] + entity.attributes.map(\.column) + entity.toOne.map(\.column) + [
                Naming.insertedRun, Naming.changedRun, Naming.stubRun, Naming.contentDigest,
            ]
        let completed = insertsCompleted[index]
        try copy(into: entity.table, columns: columns) { text in
            for row in rows {
                text.append(ids[row])
                for attribute in entity.attributes.indices {
                    if let place = keyPlace[attribute] {
                        text.append(batch.keys[row][place])
                    } else {
                        let given = batch.value(row, attribute)
                        if completed, let given {
                            text.append(given)
                        } else {
                            text.append(decisions.newValue(index, attribute, feedGives: given != nil) ?? given ?? .null)
                        }
                    }
                }
                for relationship in 0..<width { text.append(links[row * width + relationship] ?? .null) }
                text.append(runID)
                text.append(runID)
                // Marked a stub until the feed gives it (`noteStubs` clears the mark), as `noteStubs` decides.
                var stub = decisions.stubState(ofNewObjectFromReference: batch.madeByReference[row])
                if batch.written[row] { stub = decisions.stubStateOnceGiven(stub) }
                if stub == .stub { text.append(runID) } else { text.append(SQLValue.null) }
                text.append(writtenDigest(index, row: row)?.storedValue ?? .null)
                text.endRow()
            }
        }
    }

    /// Upserts the batch's stored objects of entity `index` that changed (`rows`), a staging table
    /// per set of given attributes and to-ones, so that an attribute or a to-one not given keeps
    /// its stored value. An `always` attribute is never written from the feed, and so never
    /// counts as a change; stored rows get `always` and `onchange` at the run's end
    /// (`writeEngineValues`).
    private func updateRows(_ index: Int, rows: [Int], links: [SQLValue?]) throws(PostgresError) {
        let entity = plan.entities[index]
        let batch = batches[index]
        let fromFeed = writtenFromFeed[index]
        let width = entity.toOne.count
        var groups: [[Bool]: [Int]] = [:]
        var order: [[Bool]] = []
        for row in rows {
            let shape =
                entity.attributes.indices.map { fromFeed[$0] && batch.value(row, $0) != nil } + (0..<width).map { links[row * width + $0] != nil }
            if groups[shape] == nil { order.append(shape) }
            groups[shape, default: []].append(row)
        }
        for shape in order {
            let rows = groups[shape]!
            let attributes = entity.attributes.indices.filter { shape[$0] }
            let toOnes = entity.toOne.indices.filter { shape[entity.attributes.count + $0] }
            let upsert = PostgresUpsert(
                table: entity.table, keyColumns: keyColumns(entity),
                valueColumns: attributes.map { entity.attributes[$0].column } + toOnes.map { entity.toOne[$0].column },
                insertedRunColumn: Naming.insertedRun, changedRunColumn: Naming.changedRun, digestColumn: Naming.contentDigest)
            var values: [SQLValue] = []
            values.reserveCapacity(rows.count * (entity.keyAttributes.count + attributes.count + toOnes.count + 1))
            for row in rows {
                values += batch.keys[row]
                for attribute in attributes { values.append(batch.value(row, attribute)!) }
                for relationship in toOnes { values.append(links[row * width + relationship]!) }
                values.append(writtenDigest(index, row: row)?.storedValue ?? .null)
            }
            _ = try upsert.write(values, run: runID, on: connection)
        }
    }

    /// What happened to each entity's objects in the run, as the SQLite writer counts them: new
    /// rows (stubs included) inserted; objects the feed gave that the run changed, updated; the
    /// other objects it gave, unchanged.
    func counts() throws(PostgresError) -> [EntityCounts] {
        var result: [EntityCounts] = []
        for (index, entity) in plan.entities.enumerated() {
            let table = quoteIdentifier(entity.table)
            let keys = keyColumns(entity).map(quoteIdentifier)
            let join = keys.map { "s.\($0) = g.\($0)" }.joined(separator: " AND ")
            let inserted = quoteIdentifier(Naming.insertedRun)
            let changed = quoteIdentifier(Naming.changedRun)
            // Autovacuum never analyzes a temporary table: without statistics the planner guesses a
            // few keys and looks each one up in the unique index instead of hashing them all.
            try connection.execute("ANALYZE \(quoteIdentifier(givenTable(index)))")
            let row = try connection.rows(
                "SELECT (SELECT count(*) FROM \(table) WHERE \(inserted) = $1::bigint), "
                    + "count(*) FILTER (WHERE s.\(inserted) = $1::bigint), "
                    + "count(*) FILTER (WHERE s.\(changed) = $1::bigint AND s.\(inserted) IS DISTINCT FROM $1::bigint), count(*) "
                    + "FROM (SELECT DISTINCT \(keys.joined(separator: ", ")) FROM \(quoteIdentifier(givenTable(index)))) g "
                    + "JOIN \(table) s ON \(join)", [String(runID)]
            ).first
            let numbers = (row ?? []).map { $0.flatMap { Int($0) } ?? 0 }
            guard numbers.count == 4 else { throw PostgresError(.other, message: "the counts of \(entity.table) could not be read") }
            var counts = EntityCounts()
            counts.inserted = numbers[0]
            counts.updated = numbers[2]
            counts.unchanged = numbers[3] - numbers[1] - numbers[2]
            (counts.stubs, counts.stubsCompleted) = try stubCounts(index)
            counts.stubsCompleted += storedStubsCompleted[index]
            result.append(counts)
        }
        return result
    }
}
