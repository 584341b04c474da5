import GraphImportPostgres
import GraphImportSchema

/// The doomed objects of a deletion on PostgreSQL, set-wise: the doomed row ids of each entity
/// are in a temporary table (`graphimport_doomed_N`), and each step of the delete rules
/// (`DeletionWalk`) is a statement over them, so that a deletion takes a few statements per
/// entity and relationship, never one per object.
///
/// As in SQLite, the foreign keys carry out `nullify` (`ON DELETE SET NULL`, join rows `ON DELETE
/// CASCADE`); `cascade`, `deny` and owned objects are followed by the walk, so that every object
/// deleted is counted and recorded.
struct PostgresDoomedObjects: DoomedObjects {
    let plan: ImportPlan
    let connection: PostgresConnection
    let runID: Int64
    /// How many objects of each entity are doomed.
    private var sizes: [Int]

    /// Doomed objects of `plan`'s entities, none yet; `prepare` makes their tables.
    init(plan: ImportPlan, connection: PostgresConnection, runID: Int64) {
        self.plan = plan
        self.connection = connection
        self.runID = runID
        sizes = Array(repeating: 0, count: plan.entities.count)
    }

    /// The row ids of entity `index`'s objects to delete.
    private func doomedTable(_ index: Int) -> String { quoteIdentifier("graphimport_doomed_\(index)") }

    /// Creates the doomed tables of the transaction, empty.
    func prepare() throws(PostgresError) {
        for index in plan.entities.indices {
            try connection.execute("CREATE TEMPORARY TABLE IF NOT EXISTS \(doomedTable(index)) (\(pk) BIGINT PRIMARY KEY) ON COMMIT DROP")
            try connection.execute("TRUNCATE \(doomedTable(index))")
        }
    }

    /// Dooms the objects of entity `index` whose row ids `select` gives (one column).
    mutating func doom(_ index: Int, _ select: String, _ parameters: [String?] = []) throws(PostgresError) {
        sizes[index] += try insertCount("INSERT INTO \(doomedTable(index)) (\(pk)) \(select) ON CONFLICT DO NOTHING", parameters)
    }

    func count(_ entity: Int) -> Int { sizes[entity] }

    /// Follows the link from every doomed object of its source, whatever `from`: the table skips those already doomed.
    mutating func doom(_ follower: DeletionFollower, from: Int) throws(PostgresError) -> Int {
        let link = follower.link
        let owner = plan.entities[link.owner]
        let destination = doomedTable(follower.destination)
        let source = doomedTable(follower.source)
        let select: String
        switch link.kind {
        case .toOne:
            let table = quoteIdentifier(owner.table)
            let column = quoteIdentifier(owner.toOne[link.index].column)
            select =
                follower.holders
                ? "SELECT e.\(pk) FROM \(table) e JOIN \(source) d ON d.\(pk) = e.\(column)"
                : "SELECT DISTINCT e.\(column) FROM \(table) e JOIN \(source) d ON d.\(pk) = e.\(pk) WHERE e.\(column) IS NOT NULL"
        case .toMany:
            let relationship = owner.toMany[link.index]
            let join = quoteIdentifier(relationship.joinTable)
            let (ownerColumn, targetColumn) = (quoteIdentifier(relationship.ownerColumn), quoteIdentifier(relationship.targetColumn))
            select =
                follower.holders
                ? "SELECT DISTINCT j.\(ownerColumn) FROM \(join) j JOIN \(source) d ON d.\(pk) = j.\(targetColumn)"
                : "SELECT DISTINCT j.\(targetColumn) FROM \(join) j JOIN \(source) d ON d.\(pk) = j.\(ownerColumn)"
        }
        let added = try insertCount("INSERT INTO \(destination) (\(pk)) \(select) ON CONFLICT DO NOTHING")
        sizes[follower.destination] += added
        return added
    }

    func firstKeptHolding(_ link: DeletionLink) throws(PostgresError) -> (key: [SQLValue], holders: Int)? {
        let owner = plan.entities[link.owner]
        let holders: String
        switch link.kind {
        case .toOne:
            let column = quoteIdentifier(owner.toOne[link.index].column)
            holders =
                "SELECT e.\(column) AS target, e.\(pk) AS holder FROM \(quoteIdentifier(owner.table)) e "
                + "JOIN \(doomedTable(link.target)) d ON d.\(pk) = e.\(column)"
        case .toMany:
            let relationship = owner.toMany[link.index]
            let (ownerColumn, targetColumn) = (quoteIdentifier(relationship.ownerColumn), quoteIdentifier(relationship.targetColumn))
            holders =
                "SELECT j.\(targetColumn) AS target, j.\(ownerColumn) AS holder FROM \(quoteIdentifier(relationship.joinTable)) j "
                + "JOIN \(doomedTable(link.target)) d ON d.\(pk) = j.\(targetColumn)"
        }
        let found = try connection.rows(
            "SELECT h.target, count(*) FROM (\(holders)) h "
                + "WHERE NOT EXISTS (SELECT 1 FROM \(doomedTable(link.owner)) x WHERE x.\(pk) = h.holder) "
                + "GROUP BY h.target ORDER BY h.target LIMIT 1")
        guard let row = found.first, let targetPK = row[0], let count = row[1].flatMap({ Int($0) }) else { return nil }
        let key = try keys(of: link.target, "WHERE e.\(pk) = $1", [targetPK]).first ?? [.text(targetPK)]
        return (key, count)
    }

    func keys(_ entity: Int) throws(PostgresError) -> [[SQLValue]] {
        try keys(of: entity, "JOIN \(doomedTable(entity)) d ON d.\(pk) = e.\(pk)", [])
    }

    func unlinkDoomed(_ link: DeletionLink) throws(PostgresError) {
        let owner = plan.entities[link.owner]
        switch link.kind {
        case .toOne:
            let column = quoteIdentifier(owner.toOne[link.index].column)
            try connection.execute(
                "UPDATE \(quoteIdentifier(owner.table)) AS e SET \(column) = NULL FROM \(doomedTable(link.owner)) d "
                    + "WHERE e.\(pk) = d.\(pk) AND e.\(column) IN (SELECT \(pk) FROM \(doomedTable(link.target)))")
        case .toMany:
            let relationship = owner.toMany[link.index]
            let (ownerColumn, targetColumn) = (quoteIdentifier(relationship.ownerColumn), quoteIdentifier(relationship.targetColumn))
            try connection.execute(
                "DELETE FROM \(quoteIdentifier(relationship.joinTable)) AS j USING \(doomedTable(link.owner)) d "
                    + "WHERE j.\(ownerColumn) = d.\(pk) AND j.\(targetColumn) IN (SELECT \(pk) FROM \(doomedTable(link.target)))")
        }
    }

    mutating func deleteDoomed(_ entity: Int, keys: [String]) throws(PostgresError) {
        try connection.recordDeletions(entity: plan.entities[entity].name, keys: keys, run: runID)
        try connection.execute(
            "DELETE FROM \(quoteIdentifier(plan.entities[entity].table)) AS e USING \(doomedTable(entity)) d WHERE e.\(pk) = d.\(pk)")
    }

    private var pk: String { quoteIdentifier(Naming.primaryKey) }

    /// The keys of entity `index`'s rows that `clause` (joins or a condition on `e`) selects, in row id order.
    private func keys(of index: Int, _ clause: String, _ parameters: [String?]) throws(PostgresError) -> [[SQLValue]] {
        let entity = plan.entities[index]
        let columns = entity.keyAttributes.map { "e.\(quoteIdentifier(entity.attributes[$0].column))" }.joined(separator: ", ")
        let types = entity.keyAttributes.map { ImportPlan.columnType(entity.attributes[$0].type) }
        return try connection.rows("SELECT \(columns) FROM \(quoteIdentifier(entity.table)) e \(clause) ORDER BY e.\(pk)", parameters).map { row in
            zip(row, types).map { SQLValue(postgresText: $0, type: $1) }
        }
    }

    /// Runs an `INSERT` and returns how many rows it added.
    private func insertCount(_ insert: String, _ parameters: [String?] = []) throws(PostgresError) -> Int {
        let count = try connection.scalar("WITH added AS (\(insert) RETURNING 1) SELECT count(*) FROM added", parameters)
        return count.flatMap { Int($0) } ?? 0
    }
}

extension DeletionFailure<PostgresError> {
    /// The failure as an import's into `store` (as shown).
    func importError(store: String) -> ImportError {
        switch self {
        case .denied(let denied): .denied(denied)
        case .store(let error): ImportError(store: store, error)
        }
    }
}
