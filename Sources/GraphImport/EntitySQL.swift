import GraphImportStore

/// The SQL text the writer runs for one entity, built once; the store caches the prepared statements.
/// A class: the writer reads it for every object, and copying a struct of a dozen arrays and
/// strings cost a retain and a release of each.
final class EntitySQL {
    let table: String
    /// Attribute columns, then to-one foreign-key columns, as in `KnownObject.values`.
    let columns: [String]
    /// The index, in the column names `insert` and `update` take, of `inserted_run`; `changed_run` follows.
    let insertedRunColumn: Int
    /// Attributes set on every import (`always`), left out when telling changed from unchanged.
    let alwaysColumns: Set<Int>
    /// Attributes set when an object changes (`onchange`): left out when telling changed from
    /// unchanged, and restored with `changed_run` when a run's changes cancel out.
    let onChangeColumns: [Int]
    private let writableColumns: [String]

    /// Columns that do not tell whether an object changed: `always` and `onchange` values.
    let unchangingColumns: Set<Int>
    let selectByKey: String
    let selectList: [String]
    let deleteList: [String]
    let insertList: [String]
    /// `insertList` for `linksPerInsert` rows at once.
    let insertLinks: [String]
    /// How many join rows one INSERT of `insertLinks` writes. Measured with 300k join rows: one
    /// row per statement 0.94 s, 4 rows 0.48 s, 16 rows 0.41 s, 64 rows no better.
    static let linksPerInsert = 16

    init(_ entity: EntityPlan) {
        table = quoteIdentifier(entity.table)
        columns = entity.attributes.map(\.column) + entity.toOne.map(\.column)
        insertedRunColumn = columns.count
        writableColumns = columns + [Naming.insertedRun, Naming.changedRun]
        alwaysColumns = Set(entity.attributes.indices.filter { entity.attributes[$0].always != nil })
        onChangeColumns = entity.attributes.indices.filter { entity.attributes[$0].onChange != nil }
        unchangingColumns = alwaysColumns.union(onChangeColumns)
        let keyMatch = entity.keyAttributes.map { "\(quoteIdentifier(entity.attributes[$0].column)) = ?" }.joined(separator: " AND ")
        selectByKey =
            "SELECT " + ([Naming.primaryKey] + columns + [Naming.changedRun]).map(quoteIdentifier).joined(separator: ", ")
            + " FROM \(table) WHERE \(keyMatch)"
        // Without ORDER BY: the rows come by the (owner, target) key, and SQLite sorted every
        // list through a sorter of its own (leaving it out saved 8% of a re-import's writing
        // thread); the writer puts the few rows of a list in order itself.
        selectList = entity.toMany.map {
            "SELECT \(quoteIdentifier($0.targetColumn)), \(quoteIdentifier(Naming.position)) FROM \(quoteIdentifier($0.joinTable)) WHERE \(quoteIdentifier($0.ownerColumn)) = ?"
        }
        deleteList = entity.toMany.map {
            "DELETE FROM \(quoteIdentifier($0.joinTable)) WHERE \(quoteIdentifier($0.ownerColumn)) = ?"
        }
        let linkInserts = entity.toMany.map {
            "INSERT INTO \(quoteIdentifier($0.joinTable)) (\(quoteIdentifier($0.ownerColumn)), \(quoteIdentifier($0.targetColumn)), \(quoteIdentifier(Naming.position))) VALUES "
        }
        insertList = linkInserts.map { $0 + "(?, ?, ?)" }
        insertLinks = linkInserts.map { $0 + Array(repeating: "(?, ?, ?)", count: Self.linksPerInsert).joined(separator: ", ") }
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
