import GraphImportJSON
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ObjectGraph {
    /// Deletes `object` as Core Data's delete rules would, in one transaction recorded as a run in
    /// `graphimport_runs`: objects whose relationship to it says `delete cascade` go too (and
    /// theirs, in turn), `delete nullify` links are removed, and a `delete deny` link from an
    /// object that stays refuses the whole deletion (`GraphError.Kind.denied`), which then changes
    /// nothing. Returns what was deleted, per entity. The same on both stores: the run takes the
    /// store's write lock as an import does (waiting for one that holds it), and a deletion that
    /// fails is rolled back and recorded as a failed run.
    @discardableResult
    public func delete(_ object: GraphObject) throws(GraphError) -> [Deletions] {
        guard !isClosed else { throw GraphError.closed }
        guard !readOnly else {
            throw GraphError(.misuse, "the graph was opened read-only; nothing was deleted", hint: "open it with readOnly: false")
        }
        if let store { return try delete(object, in: SQLiteSession(store: store)) }
        guard let reader = reader as? PostgresReader else { throw GraphError(.misuse, "the graph has no store to delete from") }
        return try delete(object, in: PostgresSession(connection: reader.connection, wait: waitSeconds))
    }

    /// The deletion as one run of `session`, in the steps an import's run takes (`ImportRun`):
    /// recorded, the lock taken and the run's id claimed, the walk, then the run finished and
    /// committed, or rolled back and recorded as failed (`StoreSession.recordFailure`).
    private func delete<Session: StoreSession>(_ object: GraphObject, in session: Session) throws(GraphError) -> [Deletions] {
        let runID = try running { () throws(ImportError) in
            try session.beginRun(input: Self.runInput(deleting: object), mapName: plan.mapping.fileName, mapSHA256: mapSHA256, pid: getpid(), host: hostName())
        }
        do throws(GraphError) {
            // The run's id from here on, under the write lock; `runID` again after a rollback.
            let claimedID = try running { () throws(ImportError) in try session.open(claiming: runID) }
            // Read under the lock, in the transaction: the object as it is now.
            guard try self.object(object.entityIndex, pk: object.rowID)?.key == object.key else { throw GraphError.noLongerStored(object) }
            var walk = DeletionWalk(
                plan: plan,
                doomed: try running { () throws(ImportError) in
                    try session.doomedObjects(plan: plan, runID: claimedID, first: object.rowID, of: object.entityIndex)
                })
            let deletions: [Deletions]
            do { deletions = try walk.delete(dryRun: false) } catch { throw GraphError(session.deletionError(error)) }
            try running { () throws(ImportError) in
                try session.finishRun(
                    claimedID, outcome: .succeeded, records: 0, skippedRecords: 0, inputBytes: nil, inputSHA256: nil,
                    counts: Self.counts(plan, deletions).jsonText, error: nil)
                try session.commit(runID: claimedID)
            }
            return deletions
        } catch {
            session.recordFailure(of: runID, error: error.description)
            throw error
        }
    }

    /// The run's input in the run history: `delete Repo 'core'`.
    static func runInput(deleting object: GraphObject) -> String { "delete \(object.entity) \(object.key.keyText)" }

    /// The map's fingerprint in the run history.
    var mapSHA256: String { SHA256.hash(Array(plan.mapping.textWithIncludes.utf8)) }

    /// Counts per entity in the run history's shape, every entity of the map with its deletions.
    static func counts(_ plan: ImportPlan, _ deletions: [Deletions]) -> JSONValue {
        .object(
            JSONObject(
                plan.entities.map { entity in
                    let deleted = deletions.first { $0.entity == entity.name }?.count ?? 0
                    return JSONMember(
                        key: entity.name,
                        value: .object(
                            JSONObject(
                                ["inserted", "updated", "unchanged", "skipped", "deleted"].map {
                                    JSONMember(key: $0, value: .number(JSONNumber(integer: Int64($0 == "deleted" ? deleted : 0))))
                                })))
                }))
    }
}

extension GraphError {
    /// A deletion that a `delete deny` rule refused, on either store.
    init(_ denied: DeletionDenied) {
        self.init(.denied, denied.message, hint: denied.hint)
    }

    /// A deletion of an object that another deletion or import took meanwhile.
    static func noLongerStored(_ object: GraphObject) -> GraphError {
        GraphError(.misuse, "\(object.entity) \(object.key.keyText) is no longer stored", hint: "fetch it again")
    }
}

/// Runs a step of a run, turning its error into a `GraphError`.
private func running<T>(_ body: () throws(ImportError) -> T) throws(GraphError) -> T {
    do { return try body() } catch { throw GraphError(error) }
}
