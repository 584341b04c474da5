import GraphImportPostgres
import GraphImportSchema

/// The check the SQLite writer makes before a record that lacks a required value is written
/// (`RequiredValuesCheck`, shared), for PostgreSQL: an object is known to the run when it is in
/// the batch not yet written or in the store, read for the record's batch a query per entity.
struct PostgresRequiredCheck {
    let plan: ImportPlan
    let modes: EntityModes
    let stored: PostgresStoredObjects
    let batch: PostgresBatchWriter

    /// The error for the record's first new object without a required value, or nil.
    func error(for record: ObjectDraft) throws(PostgresError) -> RecordError? {
        let check = RequiredValuesCheck(plan: plan, modes: modes) { (entity, key) throws(PostgresError) in try exists(entity, key) }
        return try check.error(for: record)
    }

    /// Whether the object is in the batch not yet written, or in the store (read with the
    /// record's batch: `PostgresRecordCompletion.fetch`).
    private func exists(_ entity: Int, _ key: ObjectKey) throws(PostgresError) -> Bool {
        if batch.holds(entity, key) { return true }
        return try stored.exists(entity, key)
    }
}
