import Foundation
import GraphImport
import GraphImportJSON
import GraphImportPostgres
import GraphImportSchema

/// What the deletion tests ask of either store: the record of deleted objects, and an import's
/// error as the engine's.
extension StoreUnderTest {
    /// `graphimport_deleted` as `run|entity|key`, in the order the rows were written (marker rows left out).
    public func deletedRows() throws -> [String] {
        try lines("SELECT \"run\", \"entity\", \"key\" FROM graphimport_deleted WHERE \"entity\" IS NOT NULL ORDER BY \"run\", rowid")
    }

    /// The error an import of `json` stops with, as the engine gives it for either store (a
    /// server's failure as `internalError` with its text); nil when the import succeeds.
    public func importError(_ json: String, plan: ImportPlan, options: ImportOptions = .init()) -> ImportError? {
        let source = BytesSource(Array(json.utf8))
        do {
            switch kind {
            case .sqlite:
                _ = try GraphImporter(plan: plan).run(source: source, inputName: "feed", storePath: location, options: options)
            case .postgresql:
                var importer = PostgresImporter(plan: plan)
                importer.batchSize = batchSize
                do {
                    _ = try importer.run(source: source, inputName: "feed", location: ConnectionString(location)!, options: options)
                } catch {
                    switch error {
                    case .importing(let error): return error
                    case .server(let error): return .internalError("server: \(error)")
                    case .unsupported(_, let message, _): return .internalError(message)
                    }
                }
            }
            return nil
        } catch {
            return error
        }
    }
}
