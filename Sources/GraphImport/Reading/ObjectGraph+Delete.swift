import GraphImportJSON
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
    /// nothing. Returns what was deleted, per entity. The same on a PostgreSQL store, under the
    /// store's advisory lock (`deleteOnPostgres`).
    @discardableResult
    public func delete(_ object: GraphObject) throws(GraphError) -> [Deletions] {
        guard !isClosed else { throw GraphError.closed }
        guard let store else { return try deleteOnPostgres(object) }
        let database = store.database
        let runID = try reading { () throws(StoreError) in
            try store.beginRun(input: Self.runInput(deleting: object), mapName: plan.mapping.fileName, mapSHA256: mapSHA256, pid: getpid(), host: hostName())
        }
        do throws(GraphError) {
            // The run's id from here on, under the write lock (`claimRunID`); `runID` again after a rollback.
            let claimedID = try reading { () throws(StoreError) in
                try database.beginImmediate()
                return try store.claimRunID(runID)
            }
            let stores = plan.entities.map { SQLiteEntityStore($0, database: database, startedEmpty: false) }
            var doomed = SQLiteDoomedObjects(plan: plan, stores: stores, runID: claimedID)
            doomed.insert(object.rowID, of: object.entityIndex)
            guard try reading({ () throws(StoreError) in try stores[object.entityIndex].key(of: object.rowID) }) == object.key else {
                throw GraphError.noLongerStored(object)
            }
            var walk = DeletionWalk(plan: plan, doomed: doomed)
            let deletions: [Deletions]
            do {
                deletions = try walk.delete(dryRun: false)
            } catch {
                switch error {
                case .denied(let denied): throw GraphError(denied)
                case .store(let error): throw GraphError(error)
                }
            }
            try reading { () throws(StoreError) in
                try store.finishRun(
                    claimedID, outcome: .succeeded, records: 0, skippedRecords: 0, inputBytes: nil, inputSHA256: nil,
                    counts: Self.counts(plan, deletions).jsonText, error: nil)
                try database.commit()
            }
            return deletions
        } catch {
            database.rollback()
            try? store.finishRun(
                runID, outcome: .failed, records: 0, skippedRecords: 0, inputBytes: nil, inputSHA256: nil, counts: nil, error: error.description)
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
