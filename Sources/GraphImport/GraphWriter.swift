import GraphImportStore

/// Why writing a record's objects failed.
enum WriteError: Error {
    case store(StoreError)
    /// A `beforeSave` hook refused an object.
    case rejected(member: String, message: String)
    /// A `delete deny` rule forbids a deletion.
    case denied(DeletionDenied)
}

/// What the writer needs to know of the run: its id and its one instant.
struct RunContext: Sendable {
    let runID: Int64
    /// The import's time as stored (ISO 8601 text), the same for every `now` of the run.
    let now: SQLValue

    func value(_ planValue: PlanValue) -> SQLValue {
        switch planValue {
        case .sql(let value): value
        case .now: now
        case .run: .integer(runID)
        }
    }
}

/// Phase two of a record: writes drafts into the store, inserting, updating or leaving
/// each object alone, and remembers every object it met for the rest of the run.
///
/// An object that repeats across records (the same user on 500 tweets) is looked up in
/// SQLite once; later occurrences are compared against the remembered values.
///
/// Its mutable state, and `KnownObject`'s, is `@exclusivity(unchecked)`: Swift's run-time check
/// of each access to a class's stored property (an entry in a per-thread access set, found
/// through TLS) was 7% of a 10k re-import's writing thread (callgrind: 592M -> 551M
/// instructions). Both are used by the writing thread alone, and the whole test suite passed
/// with the checks on (no access overlaps another) before they were turned off. A method that
/// mutates one of these properties must not reach the same property again while it does.
final class GraphWriter {
    let plan: ImportPlan
    let database: Database
    let run: RunContext
    let hooks: ImportHooks
    /// Every object met in this run, per entity: the recent ones whole, the others as their fate.
    @exclusivity(unchecked) var objects: [KnownObjects]
    private let sql: [EntitySQL]
    /// Prepared INSERT and UPDATE statements per entity, by the set of columns they write.
    @exclusivity(unchecked) private var inserts: [[[Int]: Statement]]
    @exclusivity(unchecked) private var updates: [[[Int]: Statement]]
    /// The statements run for nearly every object, per entity (and per to-many), prepared on
    /// first use: looking them up by their SQL text hashed the text each time.
    @exclusivity(unchecked) private var selectsByKey: [Statement?]
    @exclusivity(unchecked) private var listInserts: [[Statement?]]
    @exclusivity(unchecked) private var listSelects: [[Statement?]]
    /// The (target, position) rows of the list last read, kept for its capacity.
    @exclusivity(unchecked) private var listRows: [(Int64, Int64)] = []
    @exclusivity(unchecked) private var linkInserts: [[Statement?]]
    /// Join rows not yet written, per entity and to-many, as (owner, target, position) triples
    /// back to back: they are written `EntitySQL.linksPerInsert` to a statement, which halved
    /// their cost. Everything that reads or deletes join rows writes them first (`writeLinks`).
    @exclusivity(unchecked) private var pendingLinks: [[[Int64]]]
    /// Whether `pendingLinks` may hold rows: what every read of join rows checks first.
    @exclusivity(unchecked) private var hasPendingLinks = false
    /// Per entity whose table was empty when the run began: the keys this run inserted (nil
    /// until the first insert), so that a key never seen needs no query (see `KeyFilter`).
    @exclusivity(unchecked) private var insertedKeys: [KeyFilter?]
    private let startedEmpty: [Bool]
    /// Per entity: whether an update that changes no value can stop at comparing (no derived or
    /// `always` attribute to compute, no `beforeSave` hook to call).
    private let comparesOnly: [Bool]
    /// Undo information for the record being written, when records may be rolled back one by one.
    @exclusivity(unchecked) private var journal: [(entity: Int, key: ObjectKey, before: KnownObject.Snapshot?)]?

    /// `emptyTables`: the tables that held no rows when the run began (`Store.emptyTables`).
    init(
        plan: ImportPlan, database: Database, run: RunContext, hooks: ImportHooks = ImportHooks(), emptyTables: Set<String>,
        objectsInMemory: Int = ImportOptions.defaultObjectsInMemory
    ) {
        self.plan = plan
        self.database = database
        self.run = run
        self.hooks = hooks
        startedEmpty = plan.entities.map { emptyTables.contains($0.table) }
        comparesOnly = plan.entities.map { entity in
            entity.derivedAttributes.isEmpty && !entity.attributes.contains { $0.always != nil } && hooks.beforeSave[entity.name] == nil
        }
        insertedKeys = Array(repeating: nil, count: plan.entities.count)
        objects = Array(repeating: KnownObjects(generationSize: objectsInMemory), count: plan.entities.count)
        sql = plan.entities.map(EntitySQL.init)
        inserts = Array(repeating: [:], count: plan.entities.count)
        updates = Array(repeating: [:], count: plan.entities.count)
        selectsByKey = Array(repeating: nil, count: plan.entities.count)
        listInserts = plan.entities.map { Array(repeating: nil, count: $0.toMany.count) }
        listSelects = listInserts
        linkInserts = listInserts
        pendingLinks = plan.entities.map { Array(repeating: [], count: $0.toMany.count) }
    }

    /// What happened to the objects of each entity, counted once per object.
    ///
    /// An object met several times in one feed is updated only when its stored state at the end
    /// of the run differs from the start: two occurrences that disagree (a user's follower count
    /// on two tweets of one timeline) leave the last one stored but are not a change on re-import.
    func counts() -> [EntityCounts] {
        objects.enumerated().map { entity, known in
            var counts = EntityCounts()
            known.forEachFate(ignoring: sql[entity].unchangingColumns) { _, fate, _, _ in
                switch fate.status {
                case .inserted: counts.inserted += 1
                case .touched:
                    if fate.isNetUnchanged {
                        counts.unchanged += 1
                    } else {
                        counts.updated += 1
                    }
                case .referenced: break
                }
            }
            return counts
        }
    }

    /// Puts back `changed_run` and the `onchange` values of objects whose changes in this run
    /// cancelled out, so that "what did last night's run change?" does not name them.
    func restoreUnchangedMarkers() throws(StoreError) {
        for (entity, known) in objects.enumerated() {
            let statements = sql[entity]
            let columns = statements.onChangeColumns + [statements.insertedRunColumn + 1]
            try known.forEachFate(ignoring: statements.unchangingColumns) { pk, fate, markers, object throws(StoreError) in
                guard fate.status == .touched, fate.isNetUnchanged, let markers else { return }
                try updateStatement(entity, columns: columns).run(markers + [.integer(pk)])
                guard let object else { return }
                for (position, column) in statements.onChangeColumns.enumerated() { object.values[column] = markers[position] }
                object.markersWritten = false
            }
        }
    }

    /// Lets the older objects of each entity leave memory when there are many (see `KnownObjects`).
    /// Call between records only.
    func retireIfFull() {
        for entity in objects.indices {
            objects[entity].retireIfFull(ignoring: sql[entity].unchangingColumns)
        }
    }

    // MARK: Records that may be undone

    /// Starts a record whose writes can be undone with `rollbackRecord()` (under `--skip-invalid`).
    func beginRecord() throws(StoreError) {
        try writeLinks()
        try database.execute("SAVEPOINT graphimport_record")
        journal = []
    }

    func commitRecord() throws(StoreError) {
        try writeLinks()
        try database.execute("RELEASE graphimport_record")
        journal = nil
    }

    /// Undoes the record's writes in the store and in the run's memory.
    func rollbackRecord() throws(StoreError) {
        dropLinks()
        try database.execute("ROLLBACK TO graphimport_record; RELEASE graphimport_record")
        for entry in (journal ?? []).reversed() {
            if let before = entry.before {
                objects[entry.entity].object(for: entry.key)?.restore(before)
            } else {
                objects[entry.entity].remove(entry.key)
            }
        }
        journal = nil
    }

    private func remember(_ entity: Int, _ key: ObjectKey, _ object: KnownObject?) {
        guard journal != nil else { return }
        journal!.append((entity, key, object?.snapshot()))
    }

    // MARK: Writing

    /// Writes `draft` and its nested objects; returns the object's row id.
    @discardableResult
    func write(_ draft: ObjectDraft) throws(WriteError) -> Int64 {
        // Provided values in column order: attributes, then to-one foreign keys.
        // Shared with the draft: growing it copies it, so only an entity with to-one links does
        // (callgrind: the copy was 6% of the writing thread on a re-import, most of it for
        // objects without any).
        var provided = draft.values
        if !draft.toOne.isEmpty {
            provided.reserveCapacity(draft.values.count + draft.toOne.count)
            for link in draft.toOne {
                provided.append(try link.map { link throws(WriteError) in try resolve(link) })
            }
        }
        var lists: [[Int64]?] = []
        lists.reserveCapacity(draft.toMany.count)
        for links in draft.toMany {
            guard let links else {
                lists.append(nil)
                continue
            }
            var list: [Int64] = []
            list.reserveCapacity(links.count)
            // Duplicates dropped, the first kept. Most lists are short: a search beats a set there.
            if links.count <= 16 {
                for link in links {
                    if case .integer(let pk) = try resolve(link), !list.contains(pk) { list.append(pk) }
                }
            } else {
                var seen = Set<Int64>(minimumCapacity: links.count)
                for link in links {
                    if case .integer(let pk) = try resolve(link), seen.insert(pk).inserted { list.append(pk) }
                }
            }
            lists.append(list)
        }
        if let (object, holdsProvided) = try storing({ () throws(StoreError) in try find(entity: draft.entity, key: draft.key, expecting: provided) }) {
            try update(object, draft: draft, provided: provided, holdsProvided: holdsProvided, lists: lists)
            return object.pk
        }
        return try insert(draft, provided: provided, lists: lists)
    }

    private func insert(_ draft: ObjectDraft, provided: [SQLValue?], lists: [[Int64]?]) throws(WriteError) -> Int64 {
        let entity = plan.entities[draft.entity]
        var values = provided
        for (index, attribute) in entity.attributes.enumerated() {
            if values[index] == nil, let value = attribute.defaultValue ?? attribute.onChange { values[index] = run.value(value) }
            if let value = attribute.always { values[index] = run.value(value) }
        }
        try derive(entity, &values)
        if let hook = hooks.onInsert[entity.name] {
            var objectValues = ObjectValues(entity: entity.name, names: entity.attributeNames, values: Array(values.prefix(entity.attributes.count)))
            hook(&objectValues)
            for index in objectValues.values.indices { values[index] = objectValues.values[index] }
        }
        try checkBeforeSave(entity, values)
        var columns: [Int] = []
        var bound: [SQLValue] = []
        columns.reserveCapacity(values.count + 2)
        bound.reserveCapacity(values.count + 2)
        for (index, value) in values.enumerated() {
            if let value {
                columns.append(index)
                bound.append(value)
            }
        }
        let runColumn = sql[draft.entity].insertedRunColumn
        columns.append(runColumn)
        columns.append(runColumn + 1)
        bound.append(.integer(run.runID))
        bound.append(.integer(run.runID))
        try storing { () throws(StoreError) in try insertStatement(draft.entity, columns: columns).run(bound) }
        let pk = database.lastInsertRowID
        let known = KnownObject(pk: pk, values: values.map { $0 ?? .null }, status: .inserted)
        for (index, list) in lists.enumerated() {
            guard let list else { continue }
            try storing { () throws(StoreError) in try writeList(list, owner: pk, entity: draft.entity, index: index) }
            known.setList(index, list)
        }
        remember(draft.entity, draft.key, nil)
        objects[draft.entity].add(known, for: draft.key)
        if startedEmpty[draft.entity] {
            if insertedKeys[draft.entity] == nil { insertedKeys[draft.entity] = KeyFilter() }
            insertedKeys[draft.entity]!.insert(draft.key)
        }
        return pk
    }

    /// `holdsProvided`: the object's values were just read from its row and found to be `provided`'s.
    private func update(_ object: KnownObject, draft: ObjectDraft, provided: [SQLValue?], holdsProvided: Bool, lists: [[Int64]?]) throws(WriteError) {
        let entity = plan.entities[draft.entity]
        let statements = sql[draft.entity]
        remember(draft.entity, draft.key, object)
        // What its values were is kept only if they are written (`keepOriginal`).
        if object.status == .referenced { object.status = .touched }
        if comparesOnly[draft.entity],
            try storing({ () throws(StoreError) in
                try isUnchanged(object, provided: provided, valuesHeld: holdsProvided, lists: lists, entity: draft.entity)
            })
        {
            return
        }
        var merged = object.values.map { Optional($0) }
        for (index, value) in provided.enumerated() where value != nil { merged[index] = value }
        try derive(entity, &merged)
        var listChanged = false
        var storedLists: [[Int64]?] = []
        for (index, list) in lists.enumerated() {
            guard let list else {
                storedLists.append(nil)
                continue
            }
            let stored = try storing { () throws(StoreError) in try storedList(of: object, entity: draft.entity, index: index) }
            storedLists.append(stored)
            if stored != list { listChanged = true }
        }
        var changedColumns: [Int] = []
        for index in merged.indices where merged[index]! != object.values[index] && !statements.alwaysColumns.contains(index) {
            changedColumns.append(index)
        }
        let changed = !changedColumns.isEmpty || listChanged
        for (index, attribute) in entity.attributes.enumerated() {
            if changed, let value = attribute.onChange { merged[index] = run.value(value) }
            if let value = attribute.always { merged[index] = run.value(value) }
        }
        try checkBeforeSave(entity, merged)
        var columns: [Int] = []
        var bound: [SQLValue] = []
        // A change writes a value here or a list below; after a list was rewritten the object
        // counts as updated whatever its values, so only a value's write needs the original kept.
        for index in merged.indices where merged[index]! != object.values[index] {
            object.keepOriginal(ignoring: statements.unchangingColumns, markerColumns: statements.onChangeColumns)
            columns.append(index)
            bound.append(merged[index]!)
            object.values[index] = merged[index]!
        }
        if changed {
            columns.append(statements.insertedRunColumn + 1)
            bound.append(.integer(run.runID))
            object.markersWritten = true
        }
        if !columns.isEmpty {
            bound.append(.integer(object.pk))
            try storing { () throws(StoreError) in try updateStatement(draft.entity, columns: columns).run(bound) }
        }
        for (index, list) in lists.enumerated() {
            guard let list else { continue }
            if storedLists[index] != list {
                object.listChanged = true
                try storing { () throws(StoreError) in
                    try writeLinks()
                    try database.statement(statements.deleteList[index]).run([.integer(object.pk)])
                    try writeList(list, owner: object.pk, entity: draft.entity, index: index)
                }
            }
            object.setList(index, list)
        }
    }

    /// Whether the draft's values and lists are what `object` already holds: the common case
    /// (a user on each of their tweets, every object of a re-import), answered without copying.
    /// `valuesHeld`: the values were just found in the object's row, so only its lists are left
    /// to compare.
    private func isUnchanged(_ object: KnownObject, provided: [SQLValue?], valuesHeld: Bool, lists: [[Int64]?], entity: Int) throws(StoreError) -> Bool {
        if !valuesHeld {
            for index in provided.indices {
                if let value = provided[index], value != object.values[index] { return false }
            }
        }
        for (index, list) in lists.enumerated() {
            guard let list else { continue }
            if try !holdsList(list, object: object, entity: entity, index: index) { return false }
        }
        return true
    }

    /// Computes the entity's derived attributes from the other values, through their converters and checks.
    private func derive(_ entity: EntityPlan, _ values: inout [SQLValue?]) throws(WriteError) {
        for index in entity.derivedAttributes {
            let attribute = entity.attributes[index]
            guard let template = attribute.derived else { continue }
            let snapshot = values
            let rendered = template.render { snapshot[$0] ?? .null }
            guard case .text(let text) = rendered else {
                values[index] = .null
                continue
            }
            let member = "\(entity.name).\(attribute.name)"
            var value = Value.string(text)
            let stored: SQLValue
            do {
                for converter in attribute.converters { value = try converter(value) }
                stored = try Coercion.sqlValue(value, as: attribute.type)
            } catch {
                throw .rejected(member: member, message: error.message)
            }
            for check in attribute.checks {
                if let failure = check.validate(stored) {
                    throw .rejected(member: member, message: (check.message ?? failure) + " (value: \(stored.shown))")
                }
            }
            values[index] = stored
        }
    }

    private func checkBeforeSave(_ entity: EntityPlan, _ values: [SQLValue?]) throws(WriteError) {
        guard let hook = hooks.beforeSave[entity.name] else { return }
        let objectValues = ObjectValues(entity: entity.name, names: entity.attributeNames, values: Array(values.prefix(entity.attributes.count)))
        do { try hook(objectValues) } catch { throw .rejected(member: entity.name, message: error.message) }
    }

    /// The row id a link stands for, writing nested objects and making stubs for unknown keys.
    private func resolve(_ link: LinkDraft) throws(WriteError) -> SQLValue {
        switch link {
        case .null:
            return .null
        case .object(let draft):
            return .integer(try write(draft))
        case .reference(let entity, let key):
            if let (object, _) = try storing({ () throws(StoreError) in try find(entity: entity, key: key) }) { return .integer(object.pk) }
            // A stub: only the key is known, but it is inserted like any new object (defaults, hooks).
            let plan = self.plan.entities[entity]
            var values = [SQLValue?](repeating: nil, count: plan.attributes.count)
            for (position, attribute) in plan.keyAttributes.enumerated() { values[attribute] = key.values[position] }
            let stub = ObjectDraft(
                entity: entity, key: key, values: values, toOne: Array(repeating: nil, count: plan.toOne.count),
                toMany: Array(repeating: nil, count: plan.toMany.count))
            return .integer(try insert(stub, provided: values + Array(repeating: nil, count: plan.toOne.count), lists: stub.toMany.map { _ in nil }))
        }
    }

    /// The object with `key`, from this run's memory or else from the store. Values read from the
    /// store that are those `expected` (the feed's, in column order) are shared with it: most
    /// objects of a re-import are unchanged, and each of their texts was copied out of the row
    /// only to be found equal and freed (2% of a 10k re-import's writing thread, in callgrind).
    /// Also says whether the object was just read and its row holds every value `expected`
    /// gives: the caller need not compare them again (another 2.6%).
    private func find(entity: Int, key: ObjectKey, expecting expected: [SQLValue?] = []) throws(StoreError) -> (KnownObject, holdsExpected: Bool)? {
        if let known = objects[entity].object(for: key) { return (known, false) }
        // A table empty at the start holds only what this run inserted.
        if startedEmpty[entity] && !(insertedKeys[entity]?.mightContain(key) ?? false) { return nil }
        let statement = try prepared(&selectsByKey[entity], sql[entity].selectByKey)
        // Taken apart at once: `row` must be the array's only reference, or removing its ends copies it.
        guard case (var row, let holdsExpected)? = try statement.firstRowHolding(key.values, expecting: expected, from: 1) else { return nil }
        // pk, the values, changed_run: the values stay in the row's array.
        let storedChangedRun = row.removeLast()
        let pk = row.removeFirst().integerValue
        let known = KnownObject(pk: pk, values: row, status: .referenced)
        known.storedChangedRun = storedChangedRun
        if let (fate, markers) = objects[entity].fate(of: known.pk) {
            // Met earlier in the run and since moved out of memory: the store holds its values.
            known.status = fate.status
            // The store holds the values the object had when it left memory: unless the run
            // changed them, those it had when the feed first touched it (its original digest is
            // then taken if it is written).
            if fate.status == .touched, let digests = fate.changedDigests {
                known.originalDigest = digests.original
                known.currentDigest = digests.final
            }
            known.listChanged = fate.listChanged
            known.markersWritten = fate.markersWritten
            known.originalMarkers = markers
        }
        remember(entity, key, nil)
        objects[entity].add(known, for: key)
        return (known, holdsExpected)
    }

    /// The target row ids `object` holds for to-many `index`: from memory, else read (and kept).
    private func storedList(of object: KnownObject, entity: Int, index: Int) throws(StoreError) -> [Int64] {
        if let known = object.list(index) { return known }
        try readList(owner: object.pk, entity: entity, index: index)
        let stored = listRows.map(\.0)
        object.setList(index, stored)
        return stored
    }

    /// Whether `object` holds `list` for to-many `index` (read, and kept, when not in memory).
    /// Equal is the common case: the object then keeps `list` itself, and nothing is allocated.
    private func holdsList(_ list: [Int64], object: KnownObject, entity: Int, index: Int) throws(StoreError) -> Bool {
        if let known = object.list(index) { return known == list }
        try readList(owner: object.pk, entity: entity, index: index)
        let equal = listRows.count == list.count && zip(listRows, list).allSatisfy { $0.0 == $1 }
        object.setList(index, equal ? list : listRows.map(\.0))
        return equal
    }

    /// Reads to-many `index` of `owner` into `listRows`, in order: (target, position) pairs.
    private func readList(owner: Int64, entity: Int, index: Int) throws(StoreError) {
        try writeLinks()
        try prepared(&listSelects[entity][index], sql[entity].selectList[index]).integerPairs(binding: owner, into: &listRows)
        // Insertion sort by position: lists are short, and mostly read in order already.
        for next in listRows.indices.dropFirst() {
            var slot = next
            let row = listRows[next]
            while slot > 0 && listRows[slot - 1].1 > row.1 {
                listRows[slot] = listRows[slot - 1]
                slot -= 1
            }
            listRows[slot] = row
        }
    }

    /// Queues the join rows of `list`; full statements' worth are written at once.
    private func writeList(_ list: [Int64], owner: Int64, entity: Int, index: Int) throws(StoreError) {
        // The queue, taken out while it grows and is written (and put back, even on a failure).
        var queue: [Int64] = []
        swap(&queue, &pendingLinks[entity][index])
        defer { swap(&queue, &pendingLinks[entity][index]) }
        for (position, target) in list.enumerated() {
            queue.append(owner)
            queue.append(target)
            queue.append(Int64(position))
        }
        hasPendingLinks = true
        let batch = EntitySQL.linksPerInsert * 3
        guard queue.count >= batch else { return }
        let insert = try prepared(&linkInserts[entity][index], sql[entity].insertLinks[index])
        var start = 0
        while queue.count - start >= batch {
            try insert.run(integers: queue[start..<start + batch])
            start += batch
        }
        queue.removeFirst(start)
    }

    /// Writes every queued join row. Runs before anything reads or deletes join rows, and at the
    /// end of the records (the importer calls it), so the store never lacks a row when asked.
    func writeLinks() throws(StoreError) {
        guard hasPendingLinks else { return }
        for entity in pendingLinks.indices {
            for index in pendingLinks[entity].indices where !pendingLinks[entity][index].isEmpty {
                let insert = try prepared(&listInserts[entity][index], sql[entity].insertList[index])
                // Taken out while written, so that emptying it keeps its memory instead of copying.
                var rows: [Int64] = []
                swap(&rows, &pendingLinks[entity][index])
                for start in stride(from: 0, to: rows.count, by: 3) {
                    try insert.run(integers: rows[start..<start + 3])
                }
                rows.removeAll(keepingCapacity: true)
                swap(&rows, &pendingLinks[entity][index])
            }
        }
        hasPendingLinks = false
    }

    /// The statement held in `slot`, prepared from `sql` the first time.
    private func prepared(_ slot: inout Statement?, _ sql: @autoclosure () -> String) throws(StoreError) -> Statement {
        if let statement = slot { return statement }
        let statement = try database.statement(sql())
        slot = statement
        return statement
    }

    /// Drops the queued join rows of a record being undone (they were queued after its savepoint).
    private func dropLinks() {
        for entity in pendingLinks.indices {
            for index in pendingLinks[entity].indices { pendingLinks[entity][index].removeAll(keepingCapacity: true) }
        }
        hasPendingLinks = false
    }

    /// The INSERT for these columns of `entity`, prepared once per run.
    private func insertStatement(_ entity: Int, columns: [Int]) throws(StoreError) -> Statement {
        if let statement = inserts[entity][columns] { return statement }
        let statement = try database.statement(sql[entity].insert(columns: columns))
        inserts[entity][columns] = statement
        return statement
    }

    /// The UPDATE of these columns of `entity`, prepared once per run.
    private func updateStatement(_ entity: Int, columns: [Int]) throws(StoreError) -> Statement {
        if let statement = updates[entity][columns] { return statement }
        let statement = try database.statement(sql[entity].update(columns: columns))
        updates[entity][columns] = statement
        return statement
    }
}

/// Runs store work inside a write, so that its error becomes the write's.
func storing<T>(_ body: () throws(StoreError) -> T) throws(WriteError) -> T {
    do { return try body() } catch { throw .store(error) }
}
