@testable import GraphImport
import CSQLite
import GraphImportSchema
@testable import GraphImportStore

/// A small graph: posts with an author and tags. Entities are in the map's order: Post 0, User 1, Tag 2.
let writingMap = """
    records at $[*] as Post
    entity Post
      key id
      delete missing
      id : Int
      title : String
      author <- user : User
      tags : [Tag] inverse posts
    entity User
      key id
      id : Int
      name : String?
    entity Tag
      key name
      name : String
    """

/// A SQLite store migrated to `writingMap`'s schema, for driving SQLite's writing side without
/// the reader: for tests of that sink alone (its statements, rows and memory).
final class WritingFixture {
    let engine: EngineFixture
    let store: Store
    var plan: ImportPlan { engine.plan }
    var database: Database { store.database }

    init(map: String = writingMap) throws {
        engine = try EngineFixture(map: map)
        store = try Store(path: engine.storePath)
        try store.database.beginImmediate()
        _ = try store.migrate(to: engine.plan.schema, mapName: "test.map", mapText: map)
        try store.database.commit()
    }

    /// A writer for run `run` (its id, and its `now`), as an import makes one.
    func writer(run: Int64, objectsInMemory: Int = 100) throws -> GraphWriter<SQLiteEntityStore> {
        let values = ObjectValueRules(
            plan: plan, run: RunContext(runID: run, now: .text("2026-01-0\(run)T00:00:00.000Z")), hooks: EntityHooks.bind(ImportHooks(), to: plan))
        return GraphWriter(
            decisions: ObjectDecisions(plan: plan, modes: EntityModes(plan: plan, run: nil), values: values), database: database,
            emptyTables: try store.emptyTables(in: plan.schema), objectsInMemory: objectsInMemory)
    }

    /// The entity store of `entity` for a run, as the writer makes it.
    func entityStore(_ entity: Int, startedEmpty: Bool) -> SQLiteEntityStore {
        SQLiteEntityStore(plan.entities[entity], database: database, startedEmpty: startedEmpty)
    }

    func rows(_ sql: String) throws -> [[String]] {
        try database.rows(sql).map { $0.map(\.description) }
    }
}

func key(_ value: Int64) -> ObjectKey { ObjectKey(values: [.integer(value)]) }
func key(_ value: String) -> ObjectKey { ObjectKey(values: [.text(value)]) }

/// A post draft of `writingMap`: its author nested whole, its tags given by key.
func postDraft(_ id: Int64, title: String, author: Int64, name: String? = nil, tags: [String]) -> ObjectDraft {
    let user = ObjectDraft(entity: 1, key: key(author), values: [.integer(author), name.map { .text($0) }], toOne: [], toMany: [])
    return ObjectDraft(
        entity: 0, key: key(id), values: [.integer(id), .text(title)], toOne: [.object(user)],
        toMany: [tags.map { .reference(entity: 2, key: key($0)) }])
}

/// Every statement SQLite starts on a connection while the log is open, as its SQL text
/// (what GRDB's tests read as `sqlQueries`).
final class SQLLog {
    private(set) var statements: [String] = []
    private let database: Database

    init(_ database: Database) {
        self.database = database
        sqlite3_trace_v2(
            // Once per run of a statement, when it ends (a statement's start is traced again for
            // each foreign-key action it runs).
            database.handle, UInt32(SQLITE_TRACE_PROFILE),
            { _, context, statement, _ in
                let sql = String(cString: sqlite3_sql(OpaquePointer(statement)))
                Unmanaged<SQLLog>.fromOpaque(context!).takeUnretainedValue().statements.append(sql)
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The statements logged so far, and an empty log for what follows.
    func take() -> [String] {
        defer { statements = [] }
        return statements
    }

    func close() { sqlite3_trace_v2(database.handle, 0, nil, nil) }
}
