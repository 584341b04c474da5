import GraphImportPostgres

extension PostgresImportRun {
    /// Deletes what a complete feed no longer holds (`PostgresMissingObjects`), once every batch is
    /// written and before the counts are read (an object deleted is not counted as inserted or
    /// updated, as in SQLite), and puts what it deleted, or would delete, in `summary`.
    ///
    /// A skipped record's objects were not seen, yet they are not missing from the feed: as for
    /// SQLite, deletion waits for a run that skipped nothing, and an empty feed deletes nothing.
    func deleteMissing(writer: PostgresBatchWriter, summary: inout ImportSummary) throws(PostgresImportError) {
        guard writer.deletionTables.deletes else { return }
        guard skippedRecords == 0 else {
            summary.deletionsSuspended = true
            return
        }
        guard records > 0 else { return }
        let missing = PostgresMissingObjects(plan: plan, tables: writer.deletionTables, givenTable: writer.givenTable)
        summary.deletions = try missing.delete(with: PostgresDoomedObjects(plan: plan, connection: connection, runID: runID), dryRun: options.dryRun)
    }
}
