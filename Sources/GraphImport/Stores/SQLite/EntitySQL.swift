import GraphImportSchema

/// The SQL text `SQLiteEntityStore` runs for one entity, built once per run. Names reach the
/// text only through `quoteIdentifier`.
struct EntitySQL {
    let table: String
    /// Attribute columns, then to-one foreign-key columns, then `inserted_run`, `changed_run`,
    /// `stub_run` and `content_digest`: the column indexes of `EntityColumns`.
    private let writableColumns: [String]
    /// `pk`, the values, `changed_run`, `stub_run`, `content_digest` of the object with a key.
    let selectByKey: String
    /// `pk`, `changed_run`, `stub_run`, `content_digest` of the object with a key: the light
    /// lookup of an object whose draft may be unchanged (no value read).
    let selectDigestByKey: String
    /// Per to-many: (target, position) of an owner's join rows, then its link attributes.
    let selectList: [String]
    let deleteList: [String]
    let insertList: [String]
    /// `insertList` for `linksPerInsert` rows at once.
    let insertLinks: [String]
    /// How many join rows one INSERT of `insertLinks` writes. Many rows to a statement take far
    /// less time than one each; past 16 they take no less (see Benchmarks/README.md).
    static let linksPerInsert = 16

    let selectAll: String
    /// Per to-one: (pk, target) of the objects where it is set.
    let selectToOne: [String]
    /// Per to-one: the objects pointing at one target.
    let selectToOneHolders: [String]
    /// Per to-many: the owners holding one target.
    let selectToManyHolders: [String]
    let deleteByPK: String
    let selectKey: String

    init(_ entity: EntityPlan) {
        let table = quoteIdentifier(entity.table)
        self.table = table
        let pk = quoteIdentifier(Naming.primaryKey)
        let columns = entity.attributes.map(\.column) + entity.toOne.map(\.column)
        writableColumns = columns + [Naming.insertedRun, Naming.changedRun, Naming.stubRun, Naming.contentDigest]
        let keyMatch = entity.keyAttributes.map { "\(quoteIdentifier(entity.attributes[$0].column)) = ?" }.joined(separator: " AND ")
        selectByKey =
            "SELECT "
            + ([Naming.primaryKey] + columns + [Naming.changedRun, Naming.stubRun, Naming.contentDigest]).map(quoteIdentifier)
            .joined(separator: ", ") + " FROM \(table) WHERE \(keyMatch)"
        selectDigestByKey =
            "SELECT " + [Naming.primaryKey, Naming.changedRun, Naming.stubRun, Naming.contentDigest].map(quoteIdentifier).joined(separator: ", ")
            + " FROM \(table) WHERE \(keyMatch)"
        // Without ORDER BY: the rows come by the (owner, target) key, and SQLite sorted every list
        // through a sorter of its own; the store puts the few rows of a list in order itself.
        selectList = entity.toMany.map {
            let links = $0.linkAttributes.map { ", " + quoteIdentifier($0.column) }.joined()
            return
                "SELECT \(quoteIdentifier($0.targetColumn)), \(quoteIdentifier(Naming.position))\(links) FROM \(quoteIdentifier($0.joinTable)) WHERE \(quoteIdentifier($0.ownerColumn)) = ?"
        }
        deleteList = entity.toMany.map {
            "DELETE FROM \(quoteIdentifier($0.joinTable)) WHERE \(quoteIdentifier($0.ownerColumn)) = ?"
        }
        let linkInserts = entity.toMany.map {
            let links = $0.linkAttributes.map { ", " + quoteIdentifier($0.column) }.joined()
            return
                "INSERT INTO \(quoteIdentifier($0.joinTable)) (\(quoteIdentifier($0.ownerColumn)), \(quoteIdentifier($0.targetColumn)), \(quoteIdentifier(Naming.position))\(links)) VALUES "
        }
        // One `?` per column: owner, target, position, then each link attribute.
        let rows = entity.toMany.map { "(" + Array(repeating: "?", count: 3 + $0.linkAttributes.count).joined(separator: ", ") + ")" }
        insertList = zip(linkInserts, rows).map { $0 + $1 }
        insertLinks = zip(linkInserts, rows).map { $0 + Array(repeating: $1, count: Self.linksPerInsert).joined(separator: ", ") }
        selectAll = "SELECT \(pk) FROM \(table)"
        selectToOne = entity.toOne.map {
            "SELECT \(pk), \(quoteIdentifier($0.column)) FROM \(table) WHERE \(quoteIdentifier($0.column)) IS NOT NULL"
        }
        selectToOneHolders = entity.toOne.map { "SELECT \(pk) FROM \(table) WHERE \(quoteIdentifier($0.column)) = ?" }
        selectToManyHolders = entity.toMany.map {
            "SELECT \(quoteIdentifier($0.ownerColumn)) FROM \(quoteIdentifier($0.joinTable)) WHERE \(quoteIdentifier($0.targetColumn)) = ?"
        }
        deleteByPK = "DELETE FROM \(table) WHERE \(pk) = ?"
        let keyColumns = entity.keyAttributes.map { quoteIdentifier(entity.attributes[$0].column) }.joined(separator: ", ")
        selectKey = "SELECT \(keyColumns) FROM \(table) WHERE \(pk) = ?"
    }

    /// `INSERT INTO "t" ("a", "b") VALUES (?, ?)` for the given column indexes.
    func insert(columns indexes: [Int]) -> String {
        let names = indexes.map { quoteIdentifier(writableColumns[$0]) }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: indexes.count).joined(separator: ", ")
        return "INSERT INTO \(table) (\(names)) VALUES (\(marks))"
    }

    /// `UPDATE "t" SET "a" = ?, "b" = ? WHERE "pk" = ?` for the given column indexes.
    func update(columns indexes: [Int]) -> String {
        let assignments = indexes.map { "\(quoteIdentifier(writableColumns[$0])) = ?" }.joined(separator: ", ")
        return "UPDATE \(table) SET \(assignments) WHERE \(quoteIdentifier(Naming.primaryKey)) = ?"
    }
}
