import GraphImportPostgres
import GraphImportSchema

/// What a PostgreSQL store holds of the objects a record batch names, as the run has left them,
/// known before those records are written. The SQLite writer finds each object as it writes it;
/// here the rows a batch of records needs are read at once, with one query per entity
/// (`fetch`), and the run's writes since are laid over them.
///
/// The invariant: `stored` answers for an object as the store will hold it once everything the
/// run wrote so far is written, for every key fetched for the current record batch and every
/// object noted since. The run's writes are kept until the writer has sent them (a later
/// batch's fetch then reads them from the server), and a record's own until it is kept or refused.
///
/// For the entities whose links an update compares before it is written (`readsLinks`: those
/// with a `beforeSave` hook, which sees `onchange` moved by a change of a to-one or a list as on
/// SQLite), the same holds of their links (`links`): the rows are read with their to-ones'
/// targets' keys and their lists, in the same query and one more per to-many. Other entities
/// read nothing more.
final class PostgresStoredObjects {
    let plan: ImportPlan
    let connection: PostgresConnection
    /// Per entity: the rows fetched for the current record batch, by key (nil: no such row).
    private var fetched: [[ObjectKey: [SQLValue]?]]
    /// Per entity: what the run wrote of objects, in attribute order (nil: a value the run did
    /// not give, the row's is kept). An object noted here is stored.
    private var written: [[ObjectKey: [SQLValue?]]]
    /// Per entity: what the record being completed writes, kept by `commitRecord`.
    private var pending: [[ObjectKey: [SQLValue?]]]
    /// The run, and per entity the fetched rows it inserted (written by an earlier batch).
    private let runID: Int64
    private var fetchedInserted: [Set<ObjectKey>]
    /// Per entity: whether its objects' links are read and laid over as their values are.
    let readsLinks: [Bool]
    /// Per entity that `readsLinks`: the links of the rows fetched (a row without an entry has
    /// none), of the objects the run wrote, and of those the record being completed writes.
    private var fetchedLinks: [[ObjectKey: StoredLinks]]
    private var writtenLinks: [[ObjectKey: StoredLinks]]
    private var pendingLinks: [[ObjectKey: StoredLinks]]
    /// Per entity: the stored objects whose `onchange` values the run moved, kept for the whole
    /// run (the values reach the rows only at its end), and those the record being completed moves.
    private var changedByRun: [Set<ObjectKey>]
    private var pendingChanged: [Set<ObjectKey>]

    init(plan: ImportPlan, connection: PostgresConnection, runID: Int64, readsLinks: [Bool]) {
        self.plan = plan
        self.connection = connection
        self.runID = runID
        self.readsLinks = readsLinks
        fetched = Array(repeating: [:], count: plan.entities.count)
        written = fetched.map { _ in [:] }
        pending = written
        fetchedInserted = Array(repeating: [], count: plan.entities.count)
        fetchedLinks = fetched.map { _ in [:] }
        writtenLinks = fetchedLinks
        pendingLinks = fetchedLinks
        changedByRun = Array(repeating: [], count: plan.entities.count)
        pendingChanged = changedByRun
    }

    /// Starts a record batch: forgets the rows of the last one and the writes the writer has sent
    /// (`held` says which it still holds), then reads the rows of `keys` (per entity), one query
    /// per entity that has any.
    func fetch(_ keys: [[ObjectKey]], held: (Int, ObjectKey) -> Bool) throws(PostgresError) {
        for entity in plan.entities.indices {
            if !fetched[entity].isEmpty { fetched[entity] = [:] }
            if !fetchedInserted[entity].isEmpty { fetchedInserted[entity] = [] }
            if !written[entity].isEmpty { written[entity] = written[entity].filter { held(entity, $0.key) } }
            if !fetchedLinks[entity].isEmpty { fetchedLinks[entity] = [:] }
            if !writtenLinks[entity].isEmpty { writtenLinks[entity] = writtenLinks[entity].filter { held(entity, $0.key) } }
            if !keys[entity].isEmpty { try read(entity, keys[entity]) }
        }
    }

    private func read(_ entity: Int, _ keys: [ObjectKey]) throws(PostgresError) {
        let plan = self.plan.entities[entity]
        let probe = PostgresKeyProbe(table: plan.table, keyColumns: plan.keyAttributes.map { plan.attributes[$0].column })
        for key in keys { fetched[entity][key] = .some(nil) }
        if readsLinks[entity] { return try readWithLinks(entity, keys, probe: probe) }
        let attributes = plan.attributes.count
        for (place, values) in try probe.rows(of: keys.flatMap { $0 }, columns: plan.attributes.map(\.column) + [Naming.insertedRun], on: connection) {
            fetched[entity][keys[place]] = Array(values.prefix(attributes))
            if values[attributes] == .integer(runID) { fetchedInserted[entity].insert(keys[place]) }
        }
    }

    /// Reads at once the rows of those of `keys` that the record batch's fetch did not name, which
    /// `stored` and `links` would read one by one.
    func fetchMissing(_ entity: Int, _ keys: [ObjectKey]) throws(PostgresError) {
        let missing = keys.filter { fetched[entity][$0] == nil }
        if !missing.isEmpty { try read(entity, missing) }
    }

    /// The object's values (in attribute order) when it is stored or written earlier in the run,
    /// nil when it is new. A value of an object the run wrote without reading is nil where the
    /// run gave none and the row is not known.
    func stored(_ entity: Int, _ key: ObjectKey) throws(PostgresError) -> [SQLValue?]? {
        let laid = pending[entity][key] ?? written[entity][key]
        // A key its batch did not name (none should be): read alone rather than answered wrong.
        if fetched[entity][key] == nil && laid == nil { try read(entity, [key]) }
        guard let row = fetched[entity][key] ?? nil else { return laid }
        guard let laid else { return row }
        return row.indices.map { laid[$0] ?? row[$0] }
    }

    /// `read` for an entity that `readsLinks`: the rows with their to-ones' targets' keys, and
    /// the lists of each to-many with a join table (a list stored once, as its targets' foreign
    /// key, is not read: `StoredLinks`).
    private func readWithLinks(_ entity: Int, _ keys: [ObjectKey], probe: PostgresKeyProbe) throws(PostgresError) {
        let plan = self.plan.entities[entity]
        let keyColumns = { (target: EntityPlan) in target.keyAttributes.map { target.attributes[$0].column } }
        let toOne = plan.toOne.map { link in
            ProbedToOne(
                foreignKey: link.column, targetTable: self.plan.entities[link.target].table,
                targetKeyColumns: keyColumns(self.plan.entities[link.target]), primaryKey: Naming.primaryKey)
        }
        let listed = plan.toMany.indices.filter { plan.toMany[$0].foreignKey == nil }
        let toMany = listed.map { index in
            let link = plan.toMany[index]
            return ProbedToMany(
                joinTable: link.joinTable, ownerColumn: link.ownerColumn, targetColumn: link.targetColumn, positionColumn: Naming.position,
                linkColumns: link.linkAttributes.map(\.column), targetTable: self.plan.entities[link.target].table,
                targetKeyColumns: keyColumns(self.plan.entities[link.target]), primaryKey: Naming.primaryKey)
        }
        guard
            let read = try probe.objects(
                of: keys.flatMap { $0 }, columns: plan.attributes.map(\.column) + [Naming.insertedRun, Naming.primaryKey],
                rowID: plan.attributes.count + 1, toOne: toOne, toMany: toMany, on: connection)
        else { return }
        // Each row read: its key's place, the attributes, `inserted_run`, the row id, the to-ones' targets' keys.
        let place = { (rows: PostgresRows, row: Int) throws(PostgresError) -> Int in
            guard let place = rows.integer(row, 0) else {
                throw PostgresError(.other, message: "the rows of \(plan.table) read by key came without their place")
            }
            return Int(place)
        }
        let attributes = plan.attributes.count
        var lists = [ToManyList<ObjectKey>?](repeating: nil, count: plan.toMany.count)
        for index in listed { lists[index] = ToManyList(width: plan.toMany[index].linkAttributes.count) }
        for row in 0..<read.rows.count {
            let key = keys[try place(read.rows, row)]
            fetched[entity][key] = (0..<attributes).map { read.rows.value(row, 1 + $0) }
            if read.rows.value(row, 1 + attributes) == .integer(runID) { fetchedInserted[entity].insert(key) }
            var links = StoredLinks(toOne: [], lists: lists)
            var at = 3 + attributes
            for link in toOne {
                let target = (at..<(at + link.targetKeyColumns.count)).map { read.rows.value(row, $0) }
                links.toOne.append(target.allSatisfy { $0 == .null } ? nil : ObjectKey(values: target))
                at += link.targetKeyColumns.count
            }
            fetchedLinks[entity][key] = links
        }
        for (probed, index) in listed.enumerated() {
            // Each join row read: its owner's key's place, the target's key, the link values.
            let width = toMany[probed].targetKeyColumns.count
            let joinRows = read.lists[probed]
            for row in 0..<joinRows.count {
                let owner = keys[try place(joinRows, row)]
                let target = ObjectKey(values: (1...width).map { joinRows.value(row, $0) })
                let values = ((1 + width)..<joinRows.width).map { joinRows.value(row, $0) }
                // A row's join rows come after its row: its links are there.
                fetchedLinks[entity][owner]?.lists[index]?.append(target, values: values[...])
            }
        }
    }

    /// What the object links to once everything the run wrote so far is written, for an entity
    /// that `readsLinks`: a new object (or a stub) links nothing.
    func links(_ entity: Int, _ key: ObjectKey) throws(PostgresError) -> StoredLinks {
        if let laid = pendingLinks[entity][key] ?? writtenLinks[entity][key] { return laid }
        if fetched[entity][key] == nil { try read(entity, [key]) }
        if let links = fetchedLinks[entity][key] { return links }
        let plan = self.plan.entities[entity]
        return StoredLinks(
            toOne: Array(repeating: nil, count: plan.toOne.count),
            lists: plan.toMany.map { $0.foreignKey == nil ? ToManyList(width: $0.linkAttributes.count) : nil })
    }

    /// Notes what the object links to once the record being completed is written (`links` as
    /// the draft leaves them over the stored ones).
    func noteLinks(_ entity: Int, _ key: ObjectKey, _ links: StoredLinks) {
        pendingLinks[entity][key] = links
    }

    /// Notes that the record being completed moves the object's `onchange` values (an update
    /// that changes it): a later occurrence in the run finds them so (`changedByRun`).
    func noteChanged(_ entity: Int, _ key: ObjectKey) {
        pendingChanged[entity].insert(key)
    }

    /// Whether the run moved the object's `onchange` values earlier (`noteChanged`): it holds
    /// them from then on, though its row gets them only at the run's end.
    func changedByRun(_ entity: Int, _ key: ObjectKey) -> Bool {
        changedByRun[entity].contains(key) || pendingChanged[entity].contains(key)
    }

    /// Whether the run inserted the object (a stub too), stored or written earlier in the run: a
    /// row an earlier batch wrote, or one the run wrote that no batch fetched as stored.
    func insertedByRun(_ entity: Int, _ key: ObjectKey) throws(PostgresError) -> Bool {
        if fetched[entity][key] == nil { try read(entity, [key]) }
        if case .some(.some) = fetched[entity][key] { return fetchedInserted[entity].contains(key) }
        return (pending[entity][key] ?? written[entity][key]) != nil
    }

    /// Whether the object is stored or written earlier in the run.
    func exists(_ entity: Int, _ key: ObjectKey) throws(PostgresError) -> Bool {
        try stored(entity, key) != nil
    }

    /// Notes what the record being completed writes of an object: `values` in attribute order,
    /// nil where it gives none.
    func note(_ entity: Int, _ key: ObjectKey, _ values: [SQLValue?]) {
        let attributes = plan.entities[entity].attributes.count
        var laid = pending[entity][key] ?? written[entity][key] ?? Array(repeating: nil, count: attributes)
        for index in 0..<attributes where values[index] != nil { laid[index] = values[index] }
        pending[entity][key] = laid
    }

    /// Keeps what the record wrote: it is in the writer's batch now. Objects of `draft` that a
    /// batch fetched as not stored count as stored from now on.
    func commitRecord(_ draft: ObjectDraft?) {
        for entity in pending.indices where !pending[entity].isEmpty {
            written[entity].merge(pending[entity]) { $1 }
            pending[entity] = [:]
        }
        for entity in pendingLinks.indices where !pendingLinks[entity].isEmpty {
            writtenLinks[entity].merge(pendingLinks[entity]) { $1 }
            pendingLinks[entity] = [:]
        }
        for entity in pendingChanged.indices where !pendingChanged[entity].isEmpty {
            changedByRun[entity].formUnion(pendingChanged[entity])
            pendingChanged[entity] = []
        }
        if let draft, fetched.contains(where: { !$0.isEmpty }) { noteNew(draft) }
    }

    /// Forgets what the record would have written: it was refused.
    func discardRecord() {
        for entity in pending.indices where !pending[entity].isEmpty { pending[entity] = [:] }
        for entity in pendingLinks.indices where !pendingLinks[entity].isEmpty { pendingLinks[entity] = [:] }
        for entity in pendingChanged.indices where !pendingChanged[entity].isEmpty { pendingChanged[entity] = [] }
    }

    /// Notes each object of the tree (stubs included) that was fetched as not stored: the record
    /// wrote it (the required check of a later record finds it so).
    private func noteNew(_ draft: ObjectDraft) {
        func visit(_ link: LinkDraft?) {
            switch link {
            case .object(let nested)?: noteNew(nested)
            case .reference(let entity, let key)?: noteIfNew(entity, key)
            default: break
            }
        }
        for link in draft.toOne { visit(link) }
        for links in draft.toMany { for link in links ?? [] { visit(link) } }
        noteIfNew(draft.entity, draft.key)
    }

    private func noteIfNew(_ entity: Int, _ key: ObjectKey) {
        guard case .some(nil) = fetched[entity][key], written[entity][key] == nil else { return }
        written[entity][key] = Array(repeating: nil, count: plan.entities[entity].attributes.count)
    }
}

/// What an object links to, as an update's change check compares it with what a record gives:
/// per to-one its target's key (nil: none), per to-many its list (`ToManyList`, the one rule for
/// what a list ends with); nil for a list stored once as its targets' foreign key, which is not
/// compared here.
struct StoredLinks {
    var toOne: [ObjectKey?]
    var lists: [ToManyList<ObjectKey>?]
}

/// What the decisions about an object ask a PostgreSQL store (`StoredObjectsView`): an object is
/// known to the run when it is in the batch not yet written, or stored (read with the record's
/// batch, the run's writes laid over: `PostgresStoredObjects`).
struct PostgresStoredView: StoredObjectsView {
    let objects: PostgresStoredObjects
    let batch: PostgresBatchWriter

    func exists(_ entity: Int, _ key: ObjectKey) throws(PostgresError) -> Bool {
        if batch.holds(entity, key) { return true }
        return try objects.exists(entity, key)
    }
}
