import GraphImportPostgres
import GraphImportSchema

/// The temporary tables in which a PostgreSQL run keeps what its `delete missing` needs at the
/// end, beyond the keys of the objects the feed gave (`PostgresBatchWriter.givenTable`): the keys
/// of the objects it only named (links by key, whose stubs the batches write), and the targets
/// that the lists of a to-many scoping a deletion (`within INVERSE`) left out. The SQLite writer
/// keeps both in memory (`ObjectMemory.metPKs`, `GraphWriter.droppedFromLists`).
///
/// Nothing is kept for a map without `delete missing`.
struct PostgresDeletionTables {
    let plan: ImportPlan
    /// Per entity: whether a deletion asks which of its objects the run met.
    let keepsNamed: [Bool]
    /// Per entity, the to-manys whose left-out targets are kept.
    let keepsDropped: [Set<Int>]

    init(plan: ImportPlan) {
        self.plan = plan
        var named = Array(repeating: false, count: plan.entities.count)
        var dropped = Array(repeating: Set<Int>(), count: plan.entities.count)
        for (index, entity) in plan.entities.enumerated() {
            switch entity.deletionScope {
            case nil: continue
            case .all: named[index] = true
            case .toOne(let relationship):
                named[index] = true
                // Its children are considered when the run met the parent, given or named.
                named[entity.toOne[relationship].target] = true
            case .parentList(let owner, let toMany):
                named[index] = true
                dropped[owner].insert(toMany)
            }
        }
        keepsNamed = named
        keepsDropped = dropped
    }

    /// Whether the map deletes anything at all.
    var deletes: Bool { plan.entities.contains { $0.deletionScope != nil } }

    /// The keys of entity `index`'s objects the run named without giving them (stubs), when kept
    /// (`PostgresBatchWriter.noteKeys` fills it).
    func namedTable(_ index: Int) -> String? { keepsNamed[index] ? "graphimport_named_\(index)" : nil }

    /// The row ids of the targets that lists of to-many `toMany` of entity `owner` left out, when kept.
    func droppedTable(owner: Int, toMany: Int) -> String? {
        keepsDropped[owner].contains(toMany) ? "graphimport_dropped_\(owner)_\(toMany)" : nil
    }

    /// Creates the tables (dropped at the transaction's end), empty.
    func prepare(on connection: PostgresConnection) throws(PostgresError) {
        for (index, entity) in plan.entities.enumerated() {
            if let table = namedTable(index) {
                let keys = entity.keyAttributes.map { quoteIdentifier(entity.attributes[$0].column) }.joined(separator: ", ")
                try connection.execute(
                    "CREATE TEMPORARY TABLE IF NOT EXISTS \(quoteIdentifier(table)) ON COMMIT DROP AS "
                        + "SELECT \(keys) FROM \(quoteIdentifier(entity.table)) WITH NO DATA")
                try connection.execute("TRUNCATE \(quoteIdentifier(table))")
            }
            for toMany in keepsDropped[index].sorted() {
                let table = quoteIdentifier(droppedTable(owner: index, toMany: toMany)!)
                try connection.execute("CREATE TEMPORARY TABLE IF NOT EXISTS \(table) (\"target\" BIGINT NOT NULL) ON COMMIT DROP")
                try connection.execute("TRUNCATE \(table)")
            }
        }
    }
}
