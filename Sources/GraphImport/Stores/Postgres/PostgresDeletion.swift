import GraphImportPostgres
import GraphImportSchema

/// Deletes a set of objects on PostgreSQL by the map's delete rules, whoever asks (`delete
/// missing` in an import, `PostgresMissingObjects`; `ObjectGraph.delete`), with the meaning of the
/// SQLite store's `GraphDeletion`, set-wise: the doomed row ids of each entity go into a temporary
/// table (`doom`), the delete rules add to them until nothing more follows, a `deny` that a kept
/// object holds refuses the whole deletion, and then each entity's doomed rows are recorded in
/// `graphimport_deleted` and deleted with one statement. A few statements per entity and
/// relationship, never one per object.
///
/// As in SQLite, the foreign keys carry out `nullify` (`ON DELETE SET NULL`, join rows `ON DELETE
/// CASCADE`); `cascade`, `deny` and owned objects are followed here, so that every object deleted
/// is counted and recorded.
struct PostgresDeletion {
    let plan: ImportPlan
    let connection: PostgresConnection
    let runID: Int64

    /// The row ids of entity `index`'s objects to delete.
    private func doomedTable(_ index: Int) -> String { quoteIdentifier("graphimport_doomed_\(index)") }

    /// Creates the doomed tables of the transaction, empty.
    func prepare() throws(PostgresError) {
        for index in plan.entities.indices {
            try connection.execute("CREATE TEMPORARY TABLE IF NOT EXISTS \(doomedTable(index)) (\(pk) BIGINT PRIMARY KEY) ON COMMIT DROP")
            try connection.execute("TRUNCATE \(doomedTable(index))")
        }
    }

    /// Dooms the objects of entity `index` whose row ids `select` gives (one column); how many it added.
    func doom(_ index: Int, _ select: String, _ parameters: [String?] = []) throws(PostgresError) -> Int {
        try insertCount("INSERT INTO \(doomedTable(index)) (\(pk)) \(select) ON CONFLICT DO NOTHING", parameters)
    }

    /// Deletes (unless `dryRun`) the doomed objects, `sizes` of them per entity, and what the
    /// delete rules take with them; says what was, or would be, deleted. Deny rules are checked
    /// for the whole set first, so a denied deletion deletes nothing.
    func delete(_ sizes: [Int], dryRun: Bool) throws(PostgresImportError) -> [Deletions] {
        var sizes = sizes
        if sizes.allSatisfy({ $0 == 0 }) { return [] }
        try server { () throws(PostgresError) in try addFollowers(&sizes) }
        try checkDenials(sizes)
        return try server { () throws(PostgresError) in
            var result: [Deletions] = []
            var keys: [[[SQLValue]]] = Array(repeating: [], count: plan.entities.count)
            for (index, entity) in plan.entities.enumerated() where sizes[index] > 0 {
                // Every key is read before anything is deleted: a foreign key's cascade may take a row first.
                keys[index] = try doomedKeys(index)
                result.append(Deletions(entity: entity.name, count: keys[index].count, sampleKeys: keys[index].prefix(Deletions.sampleLimit).map(\.keyText)))
            }
            guard !dryRun else { return result }
            try unlinkDeniedHolders(sizes)
            for (index, entity) in plan.entities.enumerated() where sizes[index] > 0 {
                try connection.recordDeletions(entity: entity.name, keys: keys[index].map { StoredJSON.key($0, of: entity).jsonText }, run: runID)
                // In the plan's order, as the SQLite store deletes.
                try connection.execute(
                    "DELETE FROM \(quoteIdentifier(entity.table)) AS e USING \(doomedTable(index)) d WHERE e.\(pk) = d.\(pk)")
            }
            return result
        }
    }

    private var pk: String { quoteIdentifier(Naming.primaryKey) }

    /// One way doomed objects of `source` doom objects of `target`: a statement adding them.
    private struct Follower {
        let source: Int
        let target: Int
        let sql: String
    }

    /// Adds the objects that follow the doomed ones (`cascade` holders, owned objects), until
    /// nothing more is added; a statement runs again only when its source has grown.
    private func addFollowers(_ sizes: inout [Int]) throws(PostgresError) {
        let followers = self.followers()
        var ranAt = Array(repeating: 0, count: followers.count)
        var grew = true
        while grew {
            grew = false
            for (number, follower) in followers.enumerated() where sizes[follower.source] > ranAt[number] {
                ranAt[number] = sizes[follower.source]
                let added = try insertCount(follower.sql)
                if added > 0 {
                    sizes[follower.target] += added
                    grew = true
                }
            }
        }
    }

    private func followers() -> [Follower] {
        var found: [Follower] = []
        for (ownerIndex, owner) in plan.entities.enumerated() {
            let table = quoteIdentifier(owner.table)
            for relationship in owner.toOne {
                let column = quoteIdentifier(relationship.column)
                if relationship.deleteRule == .cascade {
                    found.append(
                        Follower(
                            source: relationship.target, target: ownerIndex,
                            sql: "INSERT INTO \(doomedTable(ownerIndex)) (\(pk)) SELECT e.\(pk) FROM \(table) e "
                                + "JOIN \(doomedTable(relationship.target)) d ON d.\(pk) = e.\(column) ON CONFLICT DO NOTHING"))
                }
                if relationship.ownsTarget {
                    // An owned object goes with its owner, whatever the relationship's rule.
                    found.append(
                        Follower(
                            source: ownerIndex, target: relationship.target,
                            sql: "INSERT INTO \(doomedTable(relationship.target)) (\(pk)) SELECT DISTINCT e.\(column) FROM \(table) e "
                                + "JOIN \(doomedTable(ownerIndex)) d ON d.\(pk) = e.\(pk) WHERE e.\(column) IS NOT NULL ON CONFLICT DO NOTHING"))
                }
            }
            for relationship in owner.toMany {
                let join = quoteIdentifier(relationship.joinTable)
                let (ownerColumn, targetColumn) = (quoteIdentifier(relationship.ownerColumn), quoteIdentifier(relationship.targetColumn))
                if relationship.deleteRule == .cascade {
                    found.append(
                        Follower(
                            source: relationship.target, target: ownerIndex,
                            sql: "INSERT INTO \(doomedTable(ownerIndex)) (\(pk)) SELECT DISTINCT j.\(ownerColumn) FROM \(join) j "
                                + "JOIN \(doomedTable(relationship.target)) d ON d.\(pk) = j.\(targetColumn) ON CONFLICT DO NOTHING"))
                }
                if relationship.ownsTarget {
                    found.append(
                        Follower(
                            source: ownerIndex, target: relationship.target,
                            sql: "INSERT INTO \(doomedTable(relationship.target)) (\(pk)) SELECT DISTINCT j.\(targetColumn) FROM \(join) j "
                                + "JOIN \(doomedTable(ownerIndex)) d ON d.\(pk) = j.\(ownerColumn) ON CONFLICT DO NOTHING"))
                }
            }
        }
        return found
    }

    /// Throws when an object that is not itself doomed links to a doomed one through a `delete
    /// deny` relationship, naming the first such (in row id order), as the SQLite store does.
    private func checkDenials(_ sizes: [Int]) throws(PostgresImportError) {
        for (ownerIndex, owner) in plan.entities.enumerated() {
            let table = quoteIdentifier(owner.table)
            var links: [(name: String, target: Int, holders: String)] = []
            for relationship in owner.toOne where relationship.deleteRule == .deny {
                let column = quoteIdentifier(relationship.column)
                links.append(
                    (
                        relationship.name, relationship.target,
                        "SELECT e.\(column) AS target, e.\(pk) AS holder FROM \(table) e JOIN \(doomedTable(relationship.target)) d ON d.\(pk) = e.\(column)"
                    ))
            }
            for relationship in owner.toMany where relationship.deleteRule == .deny {
                let (ownerColumn, targetColumn) = (quoteIdentifier(relationship.ownerColumn), quoteIdentifier(relationship.targetColumn))
                links.append(
                    (
                        relationship.name, relationship.target,
                        "SELECT j.\(targetColumn) AS target, j.\(ownerColumn) AS holder FROM \(quoteIdentifier(relationship.joinTable)) j "
                            + "JOIN \(doomedTable(relationship.target)) d ON d.\(pk) = j.\(targetColumn)"
                    ))
            }
            for link in links where sizes[link.target] > 0 {
                let found = try server { () throws(PostgresError) in
                    try connection.rows(
                        "SELECT h.target, count(*) FROM (\(link.holders)) h "
                            + "WHERE NOT EXISTS (SELECT 1 FROM \(doomedTable(ownerIndex)) x WHERE x.\(pk) = h.holder) "
                            + "GROUP BY h.target ORDER BY h.target LIMIT 1")
                }
                guard let row = found.first, let targetPK = row[0], let count = row[1].flatMap({ Int($0) }) else { continue }
                let target = plan.entities[link.target]
                let key = try server { () throws(PostgresError) in
                    try keys(of: link.target, "WHERE e.\(pk) = $1", [targetPK]).first?.keyText ?? targetPK
                }
                throw .importing(.denied(DeletionDenied(target: target.name, key: key, owner: owner.name, relationship: link.name, holders: count)))
            }
        }
    }

    /// Removes the `delete deny` links that doomed objects hold to doomed objects, as the SQLite
    /// store does (`GraphDeletion`): the foreign key (`ON DELETE RESTRICT`, never deferred) would
    /// otherwise refuse a target deleted before its holder.
    private func unlinkDeniedHolders(_ sizes: [Int]) throws(PostgresError) {
        for (ownerIndex, owner) in plan.entities.enumerated() where sizes[ownerIndex] > 0 {
            for relationship in owner.toOne where relationship.deleteRule == .deny && sizes[relationship.target] > 0 {
                let column = quoteIdentifier(relationship.column)
                try connection.execute(
                    "UPDATE \(quoteIdentifier(owner.table)) AS e SET \(column) = NULL FROM \(doomedTable(ownerIndex)) d "
                        + "WHERE e.\(pk) = d.\(pk) AND e.\(column) IN (SELECT \(pk) FROM \(doomedTable(relationship.target)))")
            }
            for relationship in owner.toMany where relationship.deleteRule == .deny && sizes[relationship.target] > 0 {
                let (ownerColumn, targetColumn) = (quoteIdentifier(relationship.ownerColumn), quoteIdentifier(relationship.targetColumn))
                try connection.execute(
                    "DELETE FROM \(quoteIdentifier(relationship.joinTable)) AS j USING \(doomedTable(ownerIndex)) d "
                        + "WHERE j.\(ownerColumn) = d.\(pk) AND j.\(targetColumn) IN (SELECT \(pk) FROM \(doomedTable(relationship.target)))")
            }
        }
    }

    /// The keys of entity `index`'s doomed objects, in row id order.
    private func doomedKeys(_ index: Int) throws(PostgresError) -> [[SQLValue]] {
        try keys(of: index, "JOIN \(doomedTable(index)) d ON d.\(pk) = e.\(pk)", [])
    }

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

    private func server<T>(_ body: () throws(PostgresError) -> T) throws(PostgresImportError) -> T {
        do { return try body() } catch { throw .server(error) }
    }
}
