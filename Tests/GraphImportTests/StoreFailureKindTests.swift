@testable import GraphImport
import GraphImportSchema
import GraphImportStore
import Testing

/// A failure both stores can have is one case whichever store had it, so that a caller handles it
/// once: the rule that sorts the server's failures, and a busy store read or deleted through an
/// `ObjectGraph`. (An import into a busy store, on both stores, is MigrationTests'.)
@Suite("Store failures: one case for both stores")
struct StoreFailureKindTests {
    static let sorted: [(PostgresError.Kind, StoreFailure.Kind?)] = [
        (.busy, .busy), (.diskFull, .diskFull), (.permission, .readOnly), (.constraint, .constraint),
        (.unreachable, nil), (.authentication, nil), (.noDatabase, nil), (.connectionLost, nil), (.commitUncertain, nil),
        (.timeout, nil), (.unstorable, nil), (.clientLibraryMissing, nil), (.badConnectionString, nil), (.other, nil),
    ]

    @Test func theServersFailuresThatSQLiteHasTooAreStoreFailures() {
        for (serverKind, kind) in Self.sorted {
            let server = PostgresError(serverKind, message: "the server's words", sqlState: "00000")
            switch ImportError(store: "postgresql://db1/feeds", server) {
            case .store(let store, let failure):
                #expect(store == "postgresql://db1/feeds")
                #expect(failure.kind == kind, "\(serverKind)")
                #expect(failure.server == server && failure.message == "the server's words")
            case .server(_, let error):
                #expect(kind == nil, "\(serverKind) is a server's failure")
                #expect(error == server)
            default: Issue.record("\(serverKind): neither .store nor .server")
            }
        }
    }

    @Test func aBusyStoreIsOneKindOfGraphErrorOnBothStores() {
        let sqlite = GraphError(StoreError(extendedCode: 5, message: "database is locked"))  // SQLITE_BUSY
        let server = GraphError(ReadError.server(PostgresError(.busy, message: "another import holds the store's lock", sqlState: "55P03")))
        for error in [sqlite, server] {
            #expect(error.kind == .busy)
            #expect(error.hint == "another import or deletion holds the store; retry later")
        }
        #expect(sqlite.store?.code == 5 && server.server?.sqlState == "55P03")
        #expect(GraphError(StoreError(extendedCode: 13, message: "database or disk is full")).kind == .store)
        #expect(GraphError(ReadError.server(PostgresError(.connectionLost, message: "gone"))).kind == .store)
    }
}
