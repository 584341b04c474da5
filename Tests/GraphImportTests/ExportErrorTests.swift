@testable import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore
import GraphImportStoreTestSupport
import Testing

/// A store failure of an export is one case whichever store had it, as an import's and a graph's
/// are: `.store` with its `StoreFailure` kind (the server's report kept in it), `.server` only
/// for what a SQLite file cannot have.
@Suite("Export: one store failure for both stores")
struct ExportErrorTests {
    /// An export of a store another connection holds exclusively fails at once as a busy store on
    /// both: SQLite's exclusive lock (in the rollback journal), or PostgreSQL's table lock past
    /// the reader's `lock_timeout`.
    @Test(arguments: StoreKind.testable)
    func aStoreHeldExclusivelyIsABusyStoreOnBoth(_ kind: StoreKind) throws {
        let fixture = try MappedStore(kind, map: "records at $[*] as Item\nentity Item\n  key id\n  id : Int\n")
        try fixture.importJSON(#"[{"id": 1}]"#)
        let failure: ExportError?
        switch kind {
        case .sqlite:
            let holder = try Database(path: fixture.store.location, options: Database.Options(create: false))
            // In WAL a writer never holds readers off; in the rollback journal its exclusive lock does.
            try holder.execute("PRAGMA journal_mode = DELETE")
            try holder.execute("BEGIN EXCLUSIVE")
            failure = Self.failure { () throws(ExportError) in
                try GraphExporter(plan: fixture.plan).run(storePath: fixture.store.location, request: ExportRequest(), busyTimeout: 0) { _ in }
            }
            try holder.execute("COMMIT")
        case .postgresql:
            let holder = try PostgresConnection(try #require(ConnectionString(fixture.store.location)))
            try holder.begin()
            try holder.execute("LOCK TABLE items IN ACCESS EXCLUSIVE MODE")
            failure = Self.failure { () throws(ExportError) in
                try GraphExporter(plan: fixture.plan).run(
                    storePath: fixture.store.location + " options='-c lock_timeout=100'", request: ExportRequest()
                ) { _ in }
            }
            holder.rollback()
        }
        guard case .store(let store)? = failure else {
            Issue.record("not a store failure: \(String(describing: failure))")
            return
        }
        #expect(store.kind == .busy)
        #expect(failure?.message == store.message)
        switch kind {
        case .sqlite: #expect(store.server == nil && store.sqlite?.isBusy == true)
        case .postgresql: #expect(store.server?.sqlState == "55P03" && failure?.serverReport == store.server)
        }
    }

    /// The server's failures are sorted by the rule an import's are (`ImportError.init(store:_:)`).
    @Test func theServersFailuresAreSortedAsAnImportsAre() {
        let kinds: [PostgresError.Kind] = [
            .busy, .diskFull, .permission, .constraint, .unreachable, .authentication, .noDatabase, .connectionLost, .commitUncertain, .timeout,
            .unstorable, .clientLibraryMissing, .badConnectionString, .other,
        ]
        for serverKind in kinds {
            let server = PostgresError(serverKind, message: "the server's words", sqlState: "00000")
            switch (ExportError(ReadError.server(server)), ImportError(store: "postgresql://db1/feeds", server)) {
            case (.store(let exported), .store(_, let imported)):
                #expect(exported == imported, "\(serverKind)")
            case (.server(let exported), .server(_, let imported)):
                #expect(exported == imported, "\(serverKind)")
            case let (exported, imported):
                Issue.record("\(serverKind): the export's \(exported), the import's \(imported)")
            }
        }
        let sqlite = ExportError(ReadError.sqlite(StoreError(extendedCode: 5, message: "database is locked")))  // SQLITE_BUSY
        guard case .store(let failure) = sqlite else {
            Issue.record("SQLite's busy is not a store failure: \(sqlite)")
            return
        }
        #expect(failure.kind == .busy && failure.sqlite?.code == 5 && sqlite.serverReport == nil)
    }

    private static func failure(_ body: () throws(ExportError) -> Void) -> ExportError? {
        do {
            try body()
            return nil
        } catch { return error }
    }
}
