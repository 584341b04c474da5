import GraphImportSchema
import GraphImportStore

/// The objects of one entity in a SQLite store: its SQL, the statements it runs (prepared once
/// each, kept here and nowhere else), its join rows (`SQLiteJoinRows`), and the key filter that
/// spares a first import a query per new object.
final class SQLiteEntityStore: EntityStore {
    let sql: EntitySQL
    /// The entity's name in the map, as deleted objects are recorded under it.
    private let entityName: String
    private let database: Database
    private var selectByKey: StatementSlot
    private var selectDigestByKey: StatementSlot
    /// INSERT and UPDATE statements by the set of columns they write.
    private var inserts: [[Int]: Statement] = [:]
    private var updates: [[Int]: Statement] = [:]
    private let joins: [SQLiteJoinRows]
    private var selectAll: StatementSlot
    private var selectToOne: [StatementSlot]
    private var selectToOneHolders: [StatementSlot]
    private var deleteByPK: StatementSlot
    private var selectKey: StatementSlot
    /// Whether the table held no rows when the run began: it then holds only what this run inserted.
    private let startedEmpty: Bool
    /// The keys this run inserted into a table that began empty (nil until the first insert), so
    /// that a key never seen needs no query (see `KeyFilter`).
    private var insertedKeys: KeyFilter?

    /// `startedEmpty`: the entity's table held no rows when the run began (`Store.emptyTables`).
    init(_ entity: EntityPlan, database: Database, startedEmpty: Bool) {
        let sql = EntitySQL(entity)
        self.sql = sql
        entityName = entity.name
        self.database = database
        self.startedEmpty = startedEmpty
        selectByKey = StatementSlot(sql.selectByKey)
        selectDigestByKey = StatementSlot(sql.selectDigestByKey)
        joins = entity.toMany.indices.map {
            SQLiteJoinRows(database: database, sql: sql, relationship: $0, linkAttributes: entity.toMany[$0].linkAttributes.count)
        }
        selectAll = StatementSlot(sql.selectAll)
        selectToOne = sql.selectToOne.map(StatementSlot.init)
        selectToOneHolders = sql.selectToOneHolders.map(StatementSlot.init)
        deleteByPK = StatementSlot(sql.deleteByPK)
        selectKey = StatementSlot(sql.selectKey)
    }

    func find(_ key: ObjectKey, expecting expected: [SQLValue?]) throws(StoreError) -> StoredObject? {
        if startedEmpty && !(insertedKeys?.mightContain(key) ?? false) { return nil }
        let statement = try selectByKey.statement(database)
        // Taken apart at once: `row` must be the array's only reference, or removing its ends copies it.
        guard case (var row, let holdsExpected)? = try statement.firstRowHolding(binding: key.count, { key[$0] }, expecting: expected, from: 1) else {
            return nil
        }
        // pk, the values, changed_run, stub_run, content_digest: the values stay in the row's array.
        let contentDigest = row.removeLast()
        let stubRun = row.removeLast()
        let changedRun = row.removeLast()
        let pk = row.removeFirst().integerValue
        return StoredObject(
            pk: pk, values: row, changedRun: changedRun, isStub: stubRun != .null, holdsExpected: holdsExpected, contentDigest: contentDigest)
    }

    func findDigest(_ key: ObjectKey) throws(StoreError) -> StoredDigest? {
        if startedEmpty && !(insertedKeys?.mightContain(key) ?? false) { return nil }
        let statement = try selectDigestByKey.statement(database)
        guard let row = try statement.firstRowHolding(binding: key.count, { key[$0] }, expecting: [], from: 0)?.row else { return nil }
        return StoredDigest(pk: row[0].integerValue, changedRun: row[1], isStub: row[2] != .null, contentDigest: row[3])
    }

    func insert(_ key: ObjectKey, columns: [Int], values: [SQLValue]) throws(StoreError) -> Int64 {
        let statement: Statement
        if let cached = inserts[columns] {
            statement = cached
        } else {
            statement = try database.prepare(sql.insert(columns: columns))
            inserts[columns] = statement
        }
        try statement.run(values)
        if startedEmpty {
            if insertedKeys == nil { insertedKeys = KeyFilter() }
            insertedKeys!.insert(key)
        }
        return database.lastInsertRowID
    }

    func update(_ pk: Int64, columns: [Int], values: consuming [SQLValue]) throws(StoreError) {
        let statement: Statement
        if let cached = updates[columns] {
            statement = cached
        } else {
            statement = try database.prepare(sql.update(columns: columns))
            updates[columns] = statement
        }
        values.append(.integer(pk))
        try statement.run(values)
    }

    func list(of owner: Int64, relationship: Int, expecting expected: [Int64]?) throws(StoreError) -> (list: [Int64], isExpected: Bool) {
        try joins[relationship].list(of: owner, expecting: expected)
    }

    func setList(_ list: [Int64], of owner: Int64, relationship: Int, replacing: Bool) throws(StoreError) {
        try joins[relationship].set(list, of: owner, replacing: replacing)
    }

    func list(of owner: Int64, withValuesOf relationship: Int) throws(StoreError) -> (list: [Int64], values: [SQLValue]) {
        try joins[relationship].listWithValues(of: owner)
    }

    func setList(_ list: [Int64], values: [SQLValue], of owner: Int64, relationship: Int, replacing: Bool) throws(StoreError) {
        try joins[relationship].set(list, values: values, of: owner, replacing: replacing)
    }

    func flush() throws(StoreError) {
        for join in joins { try join.flush() }
    }

    func discardQueued() {
        for join in joins { join.discardQueued() }
    }

    func allObjects() throws(StoreError) -> [Int64] {
        try selectAll.statement(database).rows([]).map { $0[0].integerValue }
    }

    func links(ofToOne relationship: Int) throws(StoreError) -> [(pk: Int64, target: Int64)] {
        try selectToOne[relationship].statement(database).rows([]).map { ($0[0].integerValue, $0[1].integerValue) }
    }

    func holders(ofToOne relationship: Int, targets: [Int64]) throws(StoreError) -> [(pk: Int64, target: Int64)] {
        let statement = try selectToOneHolders[relationship].statement(database)
        var found: [(pk: Int64, target: Int64)] = []
        for target in targets {
            for row in try statement.rows([.integer(target)]) { found.append((row[0].integerValue, target)) }
        }
        return found
    }

    func holders(ofToMany relationship: Int, targets: [Int64]) throws(StoreError) -> [(pk: Int64, target: Int64)] {
        try joins[relationship].holders(of: targets)
    }

    func delete(_ pks: [Int64]) throws(StoreError) -> Int {
        try flush()
        let statement = try deleteByPK.statement(database)
        var deleted = 0
        for pk in pks {
            try statement.run([.integer(pk)])
            deleted += database.changes
        }
        return deleted
    }

    func key(of pk: Int64) throws(StoreError) -> [SQLValue] {
        try selectKey.statement(database).firstRow([.integer(pk)]) ?? []
    }

    func recordDeleted(keys: [String], run: Int64) throws(StoreError) {
        try Store.recordDeletions(entity: entityName, keys: keys, run: run, in: database)
    }
}
