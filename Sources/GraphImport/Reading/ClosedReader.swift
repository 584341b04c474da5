import GraphImportSchema

/// What a closed `ObjectGraph` reads through: every query fails, so that a graph used after
/// `close()` says so rather than reach a connection that is gone.
final class ClosedReader: StoreReader {
    /// The error every query throws, made `GraphError.closed` where the graph turns it into its own.
    struct Closed: Error, Sendable, CustomStringConvertible {
        var description: String { GraphError.closed.message }
    }

    let dialect: SQLDialect

    init(dialect: SQLDialect) {
        self.dialect = dialect
    }

    func rows(_ sql: String, _ values: [SQLValue]) throws(ReadError) -> [[SQLValue]] { throw .server(Closed()) }

    func scan(_ sql: String, _ values: [SQLValue], _ body: ([SQLValue]) throws(ReadError) -> Bool) throws(ReadError) { throw .server(Closed()) }

    func beginRead() throws(ReadError) { throw .server(Closed()) }

    func endRead() {}

    func tables() throws(ReadError) -> [String: Set<String>] { throw .server(Closed()) }

    func meta(_ key: String) throws(ReadError) -> MetaValue? { throw .server(Closed()) }
}
