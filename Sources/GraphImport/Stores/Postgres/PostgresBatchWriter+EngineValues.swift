import GraphImportPostgres
import GraphImportSchema

extension PostgresBatchWriter {
    /// Sets `always` and `onchange` in the stored objects the run touched, one `UPDATE` per entity
    /// that has them (`PostgresEngineValues`), as the SQLite writer sets them object by object:
    /// `always` on every object the feed gave, `onchange` on those it changed. After the last
    /// batch (a later batch may still change an object) and after the run's deletions (no write
    /// to a row about to go); `changed_run` is left as the batches stamped it, so the counts are
    /// those of the feed's values, links and lists. A key attribute is never set. `always` goes
    /// only into entities whose `modes` update stored objects: the feed names the others' stored
    /// objects (so they count as unchanged) but leaves them as they are (`GraphWriter.leaveByMode`).
    func writeEngineValues(modes: EntityModes) throws(PostgresError) {
        for (index, entity) in plan.entities.enumerated() {
            let keys = Set(entity.keyAttributes)
            var always: [(column: String, value: SQLValue)] = []
            var onChange: [(column: String, value: SQLValue)] = []
            for (attributeIndex, attribute) in entity.attributes.enumerated() where !keys.contains(attributeIndex) {
                // `always` wins over `onchange` on one attribute, as on insert (`insertedValue`).
                if let value = attribute.always {
                    if modes.updates[index] { always.append((attribute.column, run.value(value))) }
                } else if let value = attribute.onChange {
                    onChange.append((attribute.column, run.value(value)))
                }
            }
            let values = PostgresEngineValues(
                table: entity.table, keyColumns: keyColumns(entity), givenTable: givenTable(index), always: always, onChange: onChange,
                insertedRunColumn: Naming.insertedRun, changedRunColumn: Naming.changedRun)
            try values.write(run: run.runID, on: connection)
        }
    }
}
