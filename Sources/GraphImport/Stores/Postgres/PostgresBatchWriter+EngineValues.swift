import GraphImportPostgres
import GraphImportSchema

extension PostgresBatchWriter {
    /// Sets `always` and `onchange` in the stored objects the run touched, one `UPDATE` per entity
    /// that has them (`PostgresEngineValues`): `always` on every object the feed gave, `onchange`
    /// on those it changed (SQLite's writer sets the same values object by object). After the last
    /// batch (a later batch may still change an object) and after the run's deletions (no write
    /// to a row about to go); `changed_run` is left as the batches stamped it, so the counts are
    /// those of the feed's values, links and lists. Which values go where is decided once for
    /// both stores (`ObjectDecisions.engineValues`: never a key attribute, `always` only into
    /// entities whose mode updates stored objects).
    func writeEngineValues() throws(PostgresError) {
        for (index, entity) in plan.entities.enumerated() {
            let engine = decisions.engineValues[index]
            let values = PostgresEngineValues(
                table: entity.table, keyColumns: keyColumns(entity), givenTable: givenTable(index),
                always: engine.always.map { (entity.attributes[$0.attribute].column, $0.value) },
                onChange: engine.onChange.map { (entity.attributes[$0.attribute].column, $0.value) }, insertedRunColumn: Naming.insertedRun,
                changedRunColumn: Naming.changedRun)
            try values.write(run: run.runID, on: connection)
        }
    }
}
