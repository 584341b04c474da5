internal import CLibPQ

/// A connection that broke in the middle of a run (the server stopped, its backend was
/// terminated, the network dropped it), and a new one to record how the run ended.
extension PostgresConnection {
    /// False once libpq has seen the connection break; every statement on it fails from then on.
    package var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// A new connection to the same database, giving up after `connectTimeout` seconds where the
    /// server's host does not answer (unless the connection string sets `connect_timeout`).
    package func reopened(connectTimeout seconds: Int = 10) throws(PostgresError) -> PostgresConnection {
        try PostgresConnection(location, defaults: [("connect_timeout", String(seconds))])
    }
}
