import Foundation
import GraphImportMapping
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

/// A store read back as objects, through the map that wrote it: fetch by key or by a condition,
/// read attributes by name, follow relationships both ways (`inverse` names included), decode
/// into Swift types, delete by the map's delete rules.
///
///     let graph = try ObjectGraph(store: URL(filePath: "tweets.sqlite"), map: URL(filePath: "tweets.map"))
///     let english = try graph.objects("Tweet", where: .equals("lang", "en"), sortedBy: [.descending("createdAt")], limit: 10)
///     let author = try english[0].relatedObject("author")
///     let theirs = try author?.related("tweets")   // the inverse of Tweet.author
///
/// The store is a SQLite file or a PostgreSQL database (`postgresql://…`, or a libpq keyword
/// string), read alike through `StoreReader`.
///
/// A graph is one connection: use it from one thread at a time. Each call reads the store as it is
/// then committed; an import running meanwhile is not waited for (WAL on SQLite, MVCC on
/// PostgreSQL), and its changes are seen once it commits. `close()` ends the connection at once;
/// otherwise it ends when the graph and its objects are released.
public final class ObjectGraph {
    public let plan: ImportPlan
    private(set) var reader: any StoreReader
    /// The SQLite store, for `delete`; nil on PostgreSQL (`reader` holds the connection).
    private(set) var store: Store?
    /// True once `close()` was called: every read and `delete` then fails (`GraphError.Kind.misuse`).
    public private(set) var isClosed = false
    /// Whether `delete` is refused.
    let readOnly: Bool
    /// How long a write (`delete`) waits for the store: SQLite's busy timeout, PostgreSQL's lock.
    let waitSeconds: Double
    let names: GraphNames
    /// Per entity: `SELECT "t"."pk", the attributes, the to-ones, inserted_run, changed_run FROM "t"`;
    /// nil for an entity whose table the store does not have yet (it has no objects).
    private let selects: [String?]
    /// The store's tables (folded to lower case) and their columns, as they were when the graph was opened.
    private let storedColumns: [String: Set<String>]

    /// Opens the store at `store` (a file, or a `postgresql://` URL) with the map at `map` (its
    /// includes read as the command line reads them: regular files under the map's directory or
    /// one of `includePath`).
    public convenience init(store: URL, map: URL, includePath: [URL] = [], readOnly: Bool = false) throws {
        let text = try String(contentsOf: map, encoding: .utf8)
        let includes = MapFiles.includes(within: IncludeScope(map: map.path, allowing: includePath.map(\.path)))
        let plan = try ImportPlan.compile(text: text, fileName: map.path, includes: includes)
        try self.init(store: store.isFileURL ? store.path : store.absoluteString, plan: plan, readOnly: readOnly)
    }

    /// Opens the store at `path` (a file, which must exist, or a PostgreSQL connection string)
    /// with a compiled plan. `readOnly` refuses `delete`.
    public convenience init(store path: String, plan: ImportPlan, readOnly: Bool = false) throws(GraphError) {
        try self.init(store: path, plan: plan, readOnly: readOnly, wait: 30)
    }

    /// Opens the store at `path` as `init(store:plan:readOnly:)` does, a deletion waiting `wait`
    /// seconds for a store another import or deletion holds.
    package init(store path: String, plan: ImportPlan, readOnly: Bool, wait: Double) throws(GraphError) {
        self.plan = plan
        self.readOnly = readOnly
        waitSeconds = wait
        names = GraphNames(plan: plan)
        let reader: any StoreReader
        if case .postgres(let location) = StoreLocation(path) {
            do { reader = try PostgresReader(location) } catch { throw GraphError(.server(error)) }
            store = nil
        } else {
            let store = try reading { () throws(StoreError) in
                try Store(path: path, options: Database.Options(create: false, readOnly: readOnly, busyTimeout: wait))
            }
            self.store = store
            reader = SQLiteReader(store: store)
        }
        self.reader = reader
        let storedColumns = try reading { () throws(ReadError) in try reader.tables() }.mapValues { $0.union([Naming.primaryKey]) }
        self.storedColumns = storedColumns
        // A store no import has renamed yet would read as if it held no such objects.
        if let former = plan.formerTables(in: Set(storedColumns.keys)).first {
            throw GraphError(.storeMismatch, former.message, hint: ImportPlan.FormerTable.hint)
        }
        selects = plan.entities.map { entity in
            guard let stored = storedColumns[entity.table.lowercased()] else { return nil }
            let table = quoteIdentifier(entity.table)
            let columns = [Naming.primaryKey] + entity.attributes.map(\.column) + entity.toOne.map(\.column) + [Naming.insertedRun, Naming.changedRun]
            // A column the map adds and no import has made yet holds no values.
            return "SELECT " + columns.map { stored.contains($0.lowercased()) ? "\(table).\(quoteIdentifier($0))" : "NULL" }.joined(separator: ", ")
                + " FROM \(table)"
        }
    }

    /// Closes the connection to the store now, rather than when the graph and every object read
    /// through it are released (on SQLite, the last connection to close removes the -wal and -shm
    /// files). Reads and `delete` then fail; closing again does nothing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        reader = ClosedReader(dialect: reader.dialect)
        store = nil
    }

    /// Whether the store has `column` of `table` (or, without a column, the table).
    func stores(_ table: String, column: String? = nil) -> Bool {
        guard let columns = storedColumns[table.lowercased()] else { return false }
        return column.map { columns.contains($0.lowercased()) } ?? true
    }

    /// The object of `entity` with this key (one value per key attribute, in the map's order), or nil.
    public func object(_ entity: String, key: any GraphValue...) throws(GraphError) -> GraphObject? {
        let index = try names.entity(entity)
        let plan = self.plan.entities[index]
        guard key.count == plan.keyAttributes.count else {
            let names = plan.keyAttributes.map { plan.attributes[$0].name }.joined(separator: ", ")
            throw GraphError(
                .misuse, "\(entity) is keyed by \(plan.keyAttributes.count) value\(plan.keyAttributes.count == 1 ? "" : "s") (\(names)); \(key.count) given")
        }
        let condition = plan.keyAttributes.map { "\(quoteIdentifier(plan.table)).\(quoteIdentifier(plan.attributes[$0].column)) = ?" }
        return try fetch(index, where: condition.joined(separator: " AND "), key.map(\.storedValue)).first
    }

    /// The objects of `entity` that `condition` holds for (all without one), in `sortedBy` order
    /// (then by row id, so that the order is stable), at most `limit` of them.
    public func objects(_ entity: String, where condition: Condition? = nil, sortedBy: [SortKey] = [], limit: Int? = nil) throws(GraphError)
        -> [GraphObject]
    {
        let index = try names.entity(entity)
        let table = quoteIdentifier(plan.entities[index].table)
        let column = { (name: String) throws(GraphError) -> String in
            let column = self.plan.entities[index].attributes[try self.names.attribute(name, of: index)].column
            return self.stores(self.plan.entities[index].table, column: column) ? "\(table).\(quoteIdentifier(column))" : "NULL"
        }
        let compiled = try condition.map { (condition) throws(GraphError) in
            try CompiledCondition(condition, dialect: reader.dialect) { name throws(GraphError) in
                try self.names.conditionTerm(name, of: index) { table, column in
                    self.stores(table, column: column) ? "\(quoteIdentifier(table)).\(quoteIdentifier(column))" : nil
                }
            }
        }
        var order: [String] = []
        for key in sortedBy { order.append(try column(key.name) + (key.ascending ? " ASC" : " DESC")) }
        order.append("\(table).\(quoteIdentifier(Naming.primaryKey))")
        var values = compiled?.values ?? []
        var tail = " ORDER BY " + order.joined(separator: ", ")
        if let limit {
            tail += " LIMIT ?"
            values.append(.integer(Int64(max(0, limit))))
        }
        return try fetch(index, where: compiled?.sql, values, tail: tail)
    }

    /// Rows of entity `index` as objects: `join`, `where` and `tail` complete its SELECT, `values`
    /// are bound. None when the store lacks its table, or `joinTable`, yet.
    func fetch(_ index: Int, joinTable: String? = nil, join: String = "", where condition: String?, _ values: [SQLValue], tail: String = "") throws(GraphError)
        -> [GraphObject]
    {
        guard let select = selects[index], join.isEmpty || joinTable.map({ stores($0) }) ?? true else { return [] }
        let sql = select + join + (condition.map { " WHERE " + $0 } ?? "") + tail
        let rows = try reading { () throws(ReadError) in try reader.rows(sql, values) }
        return rows.map { GraphObject(graph: self, entityIndex: index, row: $0) }
    }

    /// The object of entity `index` with row id `pk`, if it is stored.
    func object(_ index: Int, pk: Int64) throws(GraphError) -> GraphObject? {
        try fetch(index, where: "\(quoteIdentifier(plan.entities[index].table)).\(quoteIdentifier(Naming.primaryKey)) = ?", [.integer(pk)]).first
    }
}
