import Foundation
import GraphImport
import GraphImportJSON
import GraphImportPostgres
import GraphImportSchema

/// What the deletion tests ask of either store: the record of deleted objects, and an import's
/// error as the engine's.
extension StoreUnderTest {
    /// `graphimport_deleted` as `run|entity|key`, in the order the rows were written (marker rows left out).
    package func deletedRows() throws -> [String] {
        try lines("SELECT \"run\", \"entity\", \"key\" FROM graphimport_deleted WHERE \"entity\" IS NOT NULL ORDER BY \"run\", rowid")
    }

    /// The error an import of `json` stops with, as the engine gives it for either store; nil
    /// when the import succeeds.
    package func importError(_ json: String, plan: ImportPlan, options: ImportOptions = .init()) -> ImportError? {
        do {
            try importOrThrow(json, plan: plan, options: options)
            return nil
        } catch {
            return error
        }
    }
}
