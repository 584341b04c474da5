import Foundation
import GraphImport
import GraphImportStoreTestSupport
import Testing

@Suite("Read API: close")
struct ObjectGraphCloseTests {
    /// `close()` ends the connection while the graph and its objects are still held: every read
    /// and `delete` then says the graph was closed, and closing again does nothing.
    @Test(arguments: StoreKind.testable)
    func readsAfterCloseSayTheGraphWasClosed(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            let tweet = try #require(try graph.object("Tweet", key: 1))
            #expect(!graph.isClosed)
            graph.close()
            graph.close()
            #expect(graph.isClosed)
            #expect(throws: GraphError.closed) { try graph.object("Tweet", key: 2) }
            #expect(throws: GraphError.closed) { try graph.objects("Tweet") }
            #expect(throws: GraphError.closed) { try tweet.related("hashtags") }
            #expect(throws: GraphError.closed) { try graph.delete(tweet) }
            #expect(GraphError.closed.kind == .misuse)
            #expect(GraphError.closed.description == "the graph was closed; open a new ObjectGraph to read the store again")
        }
    }

    /// On SQLite, a graph's connection, the store's last, removes the -wal and -shm files when it
    /// closes, read-only or not (a store is in WAL mode from its second import on).
    @Test(arguments: [true, false])
    func closingTheLastConnectionLeavesNoJournalFiles(readOnly: Bool) throws {
        let plan = try ImportPlan.compile(text: graphMap, fileName: "test.map")
        let store = try StoreUnderTest(.sqlite)
        _ = try store.importJSON(graphFeed, plan: plan).get()
        _ = try store.importJSON(graphFeed, plan: plan).get()
        let files = [store.location + "-wal", store.location + "-shm"]
        #expect(files.filter { FileManager.default.fileExists(atPath: $0) } == [])
        let graph = try ObjectGraph(store: store.location, plan: plan, readOnly: readOnly)
        #expect(try graph.objects("Tweet").count == 3)
        #expect(files.filter { FileManager.default.fileExists(atPath: $0) } == files)
        graph.close()
        #expect(files.filter { FileManager.default.fileExists(atPath: $0) } == [])
        withExtendedLifetime(graph) {}
    }
}
