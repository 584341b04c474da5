import GraphImportPostgres
import GraphImportSchema

/// A to-many's join rows when they carry link values (`link` attributes), written a batch at a
/// time as `PostgresToMany` writes plain lists: each owner of the batch once, with its list in
/// order, each target once. The owner gets exactly the batch's list (a `merge` list comes with
/// the stored targets in it, decided by the engine), `position` 0, 1, 2…, with its link values;
/// rows whose position and values stay are left alone.
///
/// An owner whose rows change is stamped with the run (`changed_run`).
package struct PostgresJoinRows: PostgresLinkStaging, Sendable {
    package let joinTable: String
    package let ownerColumn: String
    package let targetColumn: String
    package let positionColumn: String
    /// The link attributes' columns of the join table, in the order of each row's values.
    package let linkColumns: [String]
    package let table: String
    package let keyColumns: [String]
    package let targetTable: String
    package let targetKeyColumns: [String]
    package let primaryKey: String
    package let changedRunColumn: String

    package init(
        joinTable: String, ownerColumn: String, targetColumn: String, positionColumn: String, linkColumns: [String],
        table: String, keyColumns: [String], targetTable: String, targetKeyColumns: [String], primaryKey: String, changedRunColumn: String
    ) {
        self.joinTable = joinTable
        self.ownerColumn = ownerColumn
        self.targetColumn = targetColumn
        self.positionColumn = positionColumn
        self.linkColumns = linkColumns
        self.table = table
        self.keyColumns = keyColumns
        self.targetTable = targetTable
        self.targetKeyColumns = targetKeyColumns
        self.primaryKey = primaryKey
        self.changedRunColumn = changedRunColumn
    }

    package var stagingTable: String { stagingName("graphimport_rows_", linkColumns, table: joinTable) }

    /// A link column as the staging table and the statement's steps name it (never one of their own names).
    private func staged(_ column: String) -> String { quoteIdentifier("link_" + column) }

    /// COPY's columns: the element's place in its list, the owner's key, the target's key (NULL:
    /// a row that only says the owner's list is empty), the link values.
    package var stagingColumns: [String] { ["element"] + stagingKeyColumns + linkColumns.map { "link_" + $0 } }

    /// The staging table, typed after the key and link columns; dropped at commit.
    package var createStaging: String {
        let owner = keyColumns.map { "o.\(quoteIdentifier($0)) AS \(quoteIdentifier("owner_" + $0))" }
        let target = targetKeyColumns.map { "t.\(quoteIdentifier($0)) AS \(quoteIdentifier("target_" + $0))" }
        let links = linkColumns.map { "j.\(quoteIdentifier($0)) AS \(staged($0))" }
        return "CREATE TEMPORARY TABLE IF NOT EXISTS \(quoteIdentifier(stagingTable)) ON COMMIT DROP AS SELECT "
            + "\((["0::bigint AS \"element\""] + owner + target + links).joined(separator: ", ")) "
            + "FROM \(quoteIdentifier(table)) o, \(quoteIdentifier(targetTable)) t, \(quoteIdentifier(joinTable)) j WITH NO DATA"
    }

    /// `$1` is the run's id. Its row: how many owners' rows changed, how many targets or owners were not found.
    package var statement: String {
        let pk = quoteIdentifier(primaryKey)
        let links = linkColumns.map(staged)
        func list(_ alias: String) -> String { links.map { ", \(alias).\($0)" }.joined() }
        let elements =
            "WITH elements AS (SELECT o.\(pk) AS owner, t.\(pk) AS target, b.\"element\"\(list("b")), \(wanted) AS wanted "
            + "FROM \(quoteIdentifier(stagingTable)) b LEFT JOIN \(quoteIdentifier(table)) o ON \(ownerJoin) "
            + "LEFT JOIN \(quoteIdentifier(targetTable)) t ON \(targetJoin)), "
            + "named AS (SELECT * FROM elements WHERE owner IS NOT NULL AND target IS NOT NULL), "
        let missing = "(SELECT count(*) FROM elements WHERE owner IS NULL OR (wanted AND target IS NULL))"
        return elements + replaceSteps + " SELECT (SELECT count(*) FROM changed) + 0 * (SELECT count(*) FROM stamped), \(missing)"
    }

    /// The join table's columns written, and the staged names of their values.
    private var writtenColumns: (stored: [String], staged: [String]) {
        (
            [ownerColumn, targetColumn, positionColumn].map(quoteIdentifier) + linkColumns.map(quoteIdentifier),
            ["owner", "target", "position"] + linkColumns.map(staged)
        )
    }

    /// Writes the rows of step `list` into the join table, updating a stored row whose position or values differ.
    private func upsert(from list: String) -> String {
        let (stored, values) = writtenColumns
        let (owner, target) = (quoteIdentifier(ownerColumn), quoteIdentifier(targetColumn))
        let updated = Array(stored.dropFirst(2))
        let assignments = updated.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        return "INSERT INTO \(quoteIdentifier(joinTable)) AS j (\(stored.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(list) "
            + "ON CONFLICT (\(owner), \(target)) DO UPDATE SET \(assignments) "
            + "WHERE ROW(\(updated.map { "j.\($0)" }.joined(separator: ", "))) IS DISTINCT FROM ROW(\(updated.map { "EXCLUDED.\($0)" }.joined(separator: ", "))) "
            + "RETURNING j.\(owner) AS owner"
    }

    private var stamp: String {
        let pk = quoteIdentifier(primaryKey)
        let changedRun = quoteIdentifier(changedRunColumn)
        return "stamped AS (UPDATE \(quoteIdentifier(table)) AS stored SET \(changedRun) = $1::bigint FROM changed c "
            + "WHERE stored.\(pk) = c.owner AND stored.\(changedRun) IS DISTINCT FROM $1::bigint RETURNING 1)"
    }

    /// Each owner gets exactly its list: targets it no longer holds are removed.
    private var replaceSteps: String {
        let join = quoteIdentifier(joinTable)
        let (owner, target) = (quoteIdentifier(ownerColumn), quoteIdentifier(targetColumn))
        let links = linkColumns.map(staged).map { ", \($0)" }.joined()
        return """
            owners AS (SELECT DISTINCT owner FROM elements WHERE owner IS NOT NULL), \
            list AS (SELECT owner, target, row_number() OVER (PARTITION BY owner ORDER BY "element") - 1 AS position\(links) FROM named), \
            removed AS (DELETE FROM \(join) AS j USING owners w WHERE j.\(owner) = w.owner \
            AND NOT EXISTS (SELECT 1 FROM list l WHERE l.owner = j.\(owner) AND l.target = j.\(target)) RETURNING j.\(owner) AS owner), \
            written AS (\(upsert(from: "list"))), \
            changed AS (SELECT owner FROM removed UNION SELECT owner FROM written), \(stamp)
            """
    }

    /// Writes a batch: `rows` holds, row after row, the element's place in its list, the owner's
    /// key values, the target's (all NULL in the one row of an empty list, which only a list that
    /// replaces has), then the link values. Each owner's elements come together, each target
    /// once. Returns how many owners' rows changed; throws when a target or an owner is not in
    /// the store.
    package func write(_ rows: [SQLValue], run: Int64, on connection: PostgresConnection) throws(PostgresError) -> Int {
        try stage(rows, columns: stagingColumns, create: createStaging, on: connection)
        return try changedCount(connection.rows(statement, [String(run)]), what: joinTable)
    }
}
