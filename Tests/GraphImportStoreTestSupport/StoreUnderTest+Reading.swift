import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

/// The read side on a store of either kind: its export, and a write left open meanwhile.
extension StoreUnderTest {
    /// The export of the store as text.
    package func export(plan: ImportPlan, _ request: ExportRequest = ExportRequest()) throws(ExportError) -> String {
        let collected = ExportedBytes()
        try GraphExporter(plan: plan).run(storePath: location, request: request, busyTimeout: 0) { collected.bytes += $0 }
        return String(decoding: collected.bytes, as: UTF8.self)
    }

    /// Runs `sql` in a write transaction of another connection, left open while `body` runs, then commits it.
    package func whileWriting(_ sql: String, _ body: () throws -> Void) throws {
        switch kind {
        case .sqlite:
            let writer = try Database(path: location, options: Database.Options(create: false))
            try writer.execute("BEGIN IMMEDIATE")
            try writer.execute(sql)
            try body()
            try writer.execute("COMMIT")
        case .postgresql:
            let writer = try PostgresConnection(ConnectionString(location)!)
            try writer.begin()
            try writer.execute(sql)
            try body()
            try writer.commit()
        }
    }

    /// Holds the store as an import holds it (SQLite's write lock, PostgreSQL's advisory lock)
    /// from another connection while `body` runs, then lets it go.
    package func whileLocked(_ body: () throws -> Void) throws {
        switch kind {
        case .sqlite:
            try whileWriting("SELECT 1", body)
        case .postgresql:
            let holder = try PostgresConnection(ConnectionString(location)!)
            try holder.begin()
            try holder.lockStore(wait: 0)
            try body()
            try holder.commit()
        }
    }
}

private final class ExportedBytes: @unchecked Sendable {
    var bytes: [UInt8] = []
}
