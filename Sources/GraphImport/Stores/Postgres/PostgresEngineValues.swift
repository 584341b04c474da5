import GraphImportPostgres
import GraphImportSchema

/// The values the engine sets (`always`, `onchange`) in the stored rows a run touched, written at
/// the run's end with one `UPDATE` per entity. New rows got theirs when inserted, as insert-only
/// columns of `PostgresUpsert`; this is for the rows stored before the run.
///
/// `always` columns go to every row stored before the run whose key the feed gave (the run's
/// temporary table of given keys); `onchange` columns to those of them the run changed
/// (`changed_run` is the run: a value, a to-one or a list). A row the run inserted keeps what its
/// insert gave it (the engine decides so for both stores). Only rows whose value differs are written, and
/// `changed_run` is left alone: neither counts as a change, so a re-import that changes nothing
/// leaves its objects unchanged.
package struct PostgresEngineValues: Sendable {
    /// The entity's table.
    package let table: String
    /// The columns of its unique key.
    package let keyColumns: [String]
    /// The temporary table of the keys the feed gave in this run (duplicates allowed).
    package let givenTable: String
    /// The `always` columns and their values.
    package let always: [(column: String, value: SQLValue)]
    /// The `onchange` columns and their values.
    package let onChange: [(column: String, value: SQLValue)]
    /// The run's provenance columns (`inserted_run`, `changed_run`).
    package let insertedRunColumn: String
    package let changedRunColumn: String

    package init(
        table: String, keyColumns: [String], givenTable: String, always: [(column: String, value: SQLValue)],
        onChange: [(column: String, value: SQLValue)], insertedRunColumn: String, changedRunColumn: String
    ) {
        precondition(!keyColumns.isEmpty, "the rows are found by their key")
        self.table = table
        self.keyColumns = keyColumns
        self.givenTable = givenTable
        self.always = always
        self.onChange = onChange
        self.insertedRunColumn = insertedRunColumn
        self.changedRunColumn = changedRunColumn
    }

    /// Whether there is anything to set.
    package var isEmpty: Bool { always.isEmpty && onChange.isEmpty }

    /// The update; `$1` is the run's id, then the `always` values, then the `onchange` values.
    package var statement: String {
        var number = 1
        func parameter() -> String {
            number += 1
            return "$\(number)"
        }
        let changedHere = "stored.\(quoteIdentifier(changedRunColumn)) = $1::bigint"
        let storedBefore = "stored.\(quoteIdentifier(insertedRunColumn)) IS DISTINCT FROM $1::bigint"
        var assignments: [String] = []
        var differs: [String] = []
        for (column, _) in always {
            let (name, value) = (quoteIdentifier(column), parameter())
            assignments.append("\(name) = \(value)")
            differs.append("stored.\(name) IS DISTINCT FROM \(value)")
        }
        var onChangeDiffers: [String] = []
        for (column, _) in onChange {
            let (name, value) = (quoteIdentifier(column), parameter())
            assignments.append("\(name) = CASE WHEN \(changedHere) THEN \(value) ELSE stored.\(name) END")
            onChangeDiffers.append("stored.\(name) IS DISTINCT FROM \(value)")
        }
        if !onChangeDiffers.isEmpty { differs.append("(\(changedHere) AND (\(onChangeDiffers.joined(separator: " OR "))))") }
        let given = keyColumns.map { "g.\(quoteIdentifier($0)) = stored.\(quoteIdentifier($0))" }.joined(separator: " AND ")
        return "UPDATE \(quoteIdentifier(table)) AS stored SET \(assignments.joined(separator: ", ")) "
            + "WHERE EXISTS (SELECT 1 FROM \(quoteIdentifier(givenTable)) g WHERE \(given)) AND \(storedBefore) AND (\(differs.joined(separator: " OR ")))"
    }

    /// Sets the values of run `run`, inside its transaction, after its last batch.
    package func write(run: Int64, on connection: PostgresConnection) throws(PostgresError) {
        guard !isEmpty else { return }
        _ = try connection.values(statement, [.integer(run)] + always.map(\.value) + onChange.map(\.value), statement: nil)
    }
}
