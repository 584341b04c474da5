import GraphImportPostgres
import GraphImportSchema

/// A to-many's join rows, replaced set-wise: each owner of the batch gets exactly its list, in
/// order, `position` 0, 1, 2…; a target that occurs twice in one list keeps its first place.
/// Rows that stay are left alone, so an unchanged list writes nothing.
///
/// The batch names owners and targets by their natural keys (as the feed does), found by joining
/// on them. Every target must already be in the store (written earlier in the transaction, or as
/// a stub): one that is not is counted as unresolved, and the caller rolls back. Within a batch,
/// an owner that occurs more than once takes its last occurrence's list. (A to-one is a column of
/// its owner's row, written with it: the batch writer knows every target's row id before it writes.)
package struct PostgresToMany: PostgresLinkStaging, Sendable {
    package let joinTable: String
    package let ownerColumn: String
    package let targetColumn: String
    package let positionColumn: String
    package let table: String
    package let keyColumns: [String]
    package let targetTable: String
    package let targetKeyColumns: [String]
    package let primaryKey: String
    package let changedRunColumn: String
    /// A table (`"target" BIGINT`) that gets the row id of every target an owner's new list left
    /// out, for `delete missing within` the to-many's inverse; nil to keep none.
    package var droppedTargetsTable: String?

    package init(
        joinTable: String, ownerColumn: String, targetColumn: String, positionColumn: String, table: String, keyColumns: [String],
        targetTable: String, targetKeyColumns: [String], primaryKey: String, changedRunColumn: String
    ) {
        self.joinTable = joinTable
        self.ownerColumn = ownerColumn
        self.targetColumn = targetColumn
        self.positionColumn = positionColumn
        self.table = table
        self.keyColumns = keyColumns
        self.targetTable = targetTable
        self.targetKeyColumns = targetKeyColumns
        self.primaryKey = primaryKey
        self.changedRunColumn = changedRunColumn
    }

    package var stagingTable: String { stagingName("graphimport_list_", [], table: joinTable) }
    /// COPY's columns: the owner's occurrence, the element's place, the owner's key, the target's
    /// key (NULL: a row that only says the owner's list is empty).
    package var stagingColumns: [String] { [PostgresUpsert.ordinalColumn, "element"] + stagingKeyColumns }

    package var createStaging: String { createStaging(leading: [PostgresUpsert.ordinalColumn, "element"]) }

    /// `$1` is the run's id. Its row: how many owners' lists changed, how many targets or owners were not found.
    package var statement: String {
        let ordinal = quoteIdentifier(PostgresUpsert.ordinalColumn)
        let pk = quoteIdentifier(primaryKey)
        let join = quoteIdentifier(joinTable)
        let (owner, target, position) = (quoteIdentifier(ownerColumn), quoteIdentifier(targetColumn), quoteIdentifier(positionColumn))
        return """
            WITH batch AS (SELECT * FROM (SELECT *, max(\(ordinal)) OVER (PARTITION BY \(ownerKey)) AS last \
            FROM \(quoteIdentifier(stagingTable))) s WHERE \(ordinal) = last), \
            elements AS (SELECT o.\(pk) AS owner, t.\(pk) AS target, b."element", \(wanted) AS wanted FROM batch b \
            LEFT JOIN \(quoteIdentifier(table)) o ON \(ownerJoin) LEFT JOIN \(quoteIdentifier(targetTable)) t ON \(targetJoin)), \
            owners AS (SELECT DISTINCT owner FROM elements WHERE owner IS NOT NULL), \
            list AS (SELECT owner, target, row_number() OVER (PARTITION BY owner ORDER BY first) - 1 AS position \
            FROM (SELECT owner, target, min("element") AS first FROM elements WHERE target IS NOT NULL AND owner IS NOT NULL \
            GROUP BY owner, target) d), \
            removed AS (DELETE FROM \(join) AS j USING owners w WHERE j.\(owner) = w.owner \
            AND NOT EXISTS (SELECT 1 FROM list l WHERE l.owner = j.\(owner) AND l.target = j.\(target)) \
            RETURNING j.\(owner) AS owner, j.\(target) AS target), \
            \(droppedTargetsTable.map { "noted AS (INSERT INTO \(quoteIdentifier($0)) (\"target\") SELECT target FROM removed), " } ?? "")\
            written AS (INSERT INTO \(join) AS j (\(owner), \(target), \(position)) SELECT owner, target, position FROM list \
            ON CONFLICT (\(owner), \(target)) DO UPDATE SET \(position) = EXCLUDED.\(position) \
            WHERE j.\(position) IS DISTINCT FROM EXCLUDED.\(position) RETURNING j.\(owner) AS owner), \
            changed AS (SELECT owner FROM removed UNION SELECT owner FROM written), \
            stamped AS (UPDATE \(quoteIdentifier(table)) AS stored SET \(quoteIdentifier(changedRunColumn)) = $1::bigint \
            FROM changed c WHERE stored.\(pk) = c.owner AND stored.\(quoteIdentifier(changedRunColumn)) IS DISTINCT FROM $1::bigint RETURNING 1) \
            SELECT (SELECT count(*) FROM changed) + 0 * (SELECT count(*) FROM stamped), \
            (SELECT count(*) FROM elements WHERE owner IS NULL OR (wanted AND target IS NULL))
            """
    }

    /// Writes a batch: `rows` holds, row after row, the owner's occurrence in the batch, the
    /// element's place in its list, the owner's key values, then the target's (all NULL in the
    /// one row of an empty list). Returns how many owners' lists changed; throws when a target
    /// or an owner is not in the store.
    package func write(_ rows: [SQLValue], run: Int64, on connection: PostgresConnection) throws(PostgresError) -> Int {
        try stage(rows, columns: stagingColumns, create: createStaging, on: connection)
        return try changedCount(connection.rows(statement, [String(run)]), what: joinTable)
    }
}

/// What a to-one's and a to-many's batches share: a staging table holding each row's owner key
/// (`owner_…`) and target key (`target_…`) after some numbering columns, and the joins that find
/// the rows those keys name (`o` the owners, `t` the targets, `b` the batch).
protocol PostgresLinkStaging {
    var table: String { get }
    var keyColumns: [String] { get }
    var targetTable: String { get }
    var targetKeyColumns: [String] { get }
    var stagingTable: String { get }
}

extension PostgresLinkStaging {
    /// The owner's key columns, then the target's, as the staging table names them.
    var stagingKeyColumns: [String] { keyColumns.map { "owner_" + $0 } + targetKeyColumns.map { "target_" + $0 } }
    var ownerKey: String { keyColumns.map { quoteIdentifier("owner_" + $0) }.joined(separator: ", ") }
    var ownerJoin: String { keyColumns.map { "o.\(quoteIdentifier($0)) = b.\(quoteIdentifier("owner_" + $0))" }.joined(separator: " AND ") }
    var targetJoin: String {
        targetKeyColumns.map { "t.\(quoteIdentifier($0)) = b.\(quoteIdentifier("target_" + $0))" }.joined(separator: " AND ")
    }
    /// Whether the batch row names a target (all NULL: none).
    var wanted: String { "b.\(quoteIdentifier("target_" + targetKeyColumns[0])) IS NOT NULL" }

    /// The staging table, typed after the owner's and target's key columns, `leading` bigint
    /// columns first; dropped at commit.
    func createStaging(leading: [String]) -> String {
        let owner = keyColumns.map { "o.\(quoteIdentifier($0)) AS \(quoteIdentifier("owner_" + $0))" }
        let target = targetKeyColumns.map { "t.\(quoteIdentifier($0)) AS \(quoteIdentifier("target_" + $0))" }
        let numbers = leading.map { "0::bigint AS \(quoteIdentifier($0))" }
        return "CREATE TEMPORARY TABLE IF NOT EXISTS \(quoteIdentifier(stagingTable)) ON COMMIT DROP AS SELECT "
            + "\((numbers + owner + target).joined(separator: ", ")) "
            + "FROM \(quoteIdentifier(table)) o, \(quoteIdentifier(targetTable)) t WITH NO DATA"
    }

    /// Empties the staging table (made if need be) and copies `rows` into it.
    func stage(_ rows: [SQLValue], columns: [String], create: String, on connection: PostgresConnection) throws(PostgresError) {
        try connection.execute(create)
        try connection.execute("TRUNCATE \(quoteIdentifier(stagingTable))")
        try connection.copy(into: stagingTable, columns: columns, values: rows)
    }
}

/// The changed count of a link statement's row, or the error when some key was not found.
func changedCount(_ rows: [[String?]], what: String) throws(PostgresError) -> Int {
    guard let row = rows.first, row.count == 2, let changed = row[0].flatMap({ Int($0) }), let missing = row[1].flatMap({ Int($0) }) else {
        throw PostgresError(.other, message: "the links of \(what) returned no counts")
    }
    guard missing == 0 else {
        throw PostgresError(.other, message: "\(missing) link\(missing == 1 ? "" : "s") of \(what) name an object that is not in the store")
    }
    return changed
}
