import GraphImportPostgres
import GraphImportSchema

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ObjectGraph {
    /// `delete` on a PostgreSQL store: a run in `graphimport_runs` as on SQLite, then one
    /// transaction under the store's advisory lock (imports and other deletions wait their turn)
    /// in which the import's own deletion (`DeletionWalk` over `PostgresDoomedObjects`) follows the delete rules
    /// set-wise from the one doomed object, records every deleted object in `graphimport_deleted`
    /// and deletes them, or deletes nothing when a `deny` refuses. A failed run is recorded as
    /// such after the rollback.
    func deleteOnPostgres(_ object: GraphObject) throws(GraphError) -> [Deletions] {
        guard let reader = reader as? PostgresReader else { throw GraphError(.misuse, "the graph has no store to delete from") }
        guard !readOnly else {
            throw GraphError(.misuse, "the graph was opened read-only; nothing was deleted", hint: "open it with readOnly: false")
        }
        let connection = reader.connection
        let runID = try serving { () throws(PostgresError) in
            try connection.beginRun(
                input: Self.runInput(deleting: object), mapName: plan.mapping.fileName, mapSHA256: mapSHA256, pid: getpid(), host: hostName())
        }
        do throws(GraphError) {
            // The run's id from here on, under the lock (`claimRunID`); `runID` again after a rollback.
            let claimedID = try serving { () throws(PostgresError) in
                try connection.begin()
                try connection.lockStore(wait: Self.waitSeconds)
                return try connection.claimRunID(runID)
            }
            // Read under the lock, in the transaction: the object as it is now.
            guard try self.object(object.entityIndex, pk: object.rowID)?.key == object.key else { throw GraphError.noLongerStored(object) }
            var doomed = PostgresDoomedObjects(plan: plan, connection: connection, runID: claimedID)
            try serving { () throws(PostgresError) in
                try doomed.prepare()
                try doomed.doom(object.entityIndex, "SELECT $1::bigint", [String(object.rowID)])
            }
            var walk = DeletionWalk(plan: plan, doomed: doomed)
            let deletions: [Deletions]
            do {
                deletions = try walk.delete(dryRun: false)
            } catch {
                switch error {
                case .denied(let denied): throw GraphError(denied)
                case .store(let error): throw GraphError(.server(error))
                }
            }
            try serving { () throws(PostgresError) in
                try connection.finishRun(
                    claimedID, outcome: .succeeded, records: 0, skippedRecords: 0, inputBytes: nil, inputSHA256: nil,
                    counts: Self.counts(plan, deletions).jsonText, error: nil)
                try connection.commitRun(claimedID)
            }
            return deletions
        } catch {
            connection.rollback()
            // A lost connection cannot record the failure; a new one can while the server is still there.
            let recorder = connection.isConnected ? connection : try? connection.reopened()
            try? recorder?.finishRun(
                runID, outcome: .failed, records: 0, skippedRecords: 0, inputBytes: nil, inputSHA256: nil, counts: nil, error: error.description)
            throw error
        }
    }
}

/// Runs server work of a deletion, turning its error into a `GraphError`.
private func serving<T>(_ body: () throws(PostgresError) -> T) throws(GraphError) -> T {
    do { return try body() } catch { throw GraphError(.server(error)) }
}
