import Foundation
import GraphImport
import GraphImportJSON
import GraphImportPostgres
import GraphImportStore

/// What the deletion tests ask of either store: SQL run as another program would run it, query
/// results in their order, the record of deleted objects, and an import's error as the engine's.
extension StoreUnderTest {
    /// Runs `sql` against the store, outside any import (to set up a state an import must respect).
    public func execute(_ sql: String) throws {
        switch kind {
        case .sqlite: try Database(path: location).execute(sql)
        case .postgresql: try PostgresConnection(ConnectionString(location)!).execute(sql)
        }
    }

    /// The rows of `sql`, in the order it gives them, each as its values' text joined by `|` (NULL as `NULL`).
    public func select(_ sql: String) throws -> [String] {
        switch kind {
        case .sqlite:
            let database = try Database(path: location, options: .init(create: false, readOnly: true))
            return try database.rows(sql).map { row in
                row.map { value in
                    switch value {
                    case .null: "NULL"
                    case .integer(let number): String(number)
                    case .real(let number): "\(number)"
                    case .text(let text): text
                    case .blob(let bytes): "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
                    }
                }.joined(separator: "|")
            }
        case .postgresql:
            let connection = try PostgresConnection(ConnectionString(location)!)
            return try connection.rows(sql).map { row in row.map { $0 ?? "NULL" }.joined(separator: "|") }
        }
    }

    /// The one value of `sql`.
    public func value(_ sql: String) throws -> String? {
        try select(sql).first
    }

    /// `graphimport_deleted` as `run|entity|key`, in the order the rows were written (marker rows left out).
    public func deletedRows() throws -> [String] {
        try select("SELECT \"run\", \"entity\", \"key\" FROM graphimport_deleted WHERE \"entity\" IS NOT NULL ORDER BY \"run\", rowid")
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
            return error as? ImportError ?? .internalError("\(error)")
        }
    }
}
