import GraphImportPostgres
import GraphImportSchema

/// One import run's PostgreSQL store: a connection, the store's run history and metadata, and the
/// run's transaction under the store's advisory lock.
///
/// A map that PostgreSQL cannot hold as it is (a name longer than its 63 bytes) is refused before
/// anything is written (`ImportPlan.postgresOverlongNames`, `ImportPlan.postgresUnsupported`).
struct PostgresSession: StoreSession {
    let connection: PostgresConnection
    let location: ConnectionString
    /// How long to wait for the store's lock (`--wait`).
    let wait: Double
    /// Objects gathered before a batch is written.
    let batchSize: Int

    var storeName: String { location.description }
    /// Not yet: the batch writer reads what a batch's drafts name before writing them; a light
    /// record would need its keys and digests read the same way (docs/unchanged-objects-plan.md).
    var takesLightRecords: Bool { false }
    var takesDigests: Bool { true }

    /// Connects to the store at `location` for an import with `plan`, once the map is known to fit it.
    init(location: ConnectionString, plan: ImportPlan, options: ImportOptions) throws(ImportError) {
        let refusals = plan.postgresUnsupported()
        if !refusals.isEmpty {
            throw .unsupported(
                store: location.description, message: "this map asks for what graphimport does not do on a PostgreSQL store yet", refusals: refusals)
        }
        let overlong = plan.postgresOverlongNames()
        if !overlong.isEmpty {
            throw .unsupported(store: location.description, message: "the map makes names longer than PostgreSQL keeps", refusals: overlong)
        }
        do { connection = try PostgresConnection(location) } catch { throw ImportError(store: location.description, error) }
        self.location = location
        wait = options.busyTimeout
        batchSize = options.postgresBatchSize
    }

    /// A session over a connection already open (`ObjectGraph.delete`'s), which waits `wait`
    /// seconds for the store's lock.
    init(connection: PostgresConnection, wait: Double) {
        self.init(connection: connection, location: connection.location, wait: wait, batchSize: ImportOptions().postgresBatchSize)
    }

    private init(connection: PostgresConnection, location: ConnectionString, wait: Double, batchSize: Int) {
        self.connection = connection
        self.location = location
        self.wait = wait
        self.batchSize = batchSize
    }

    func beginRun(input: String, mapName: String, mapSHA256: String, pid: Int32, host: String) throws(ImportError) -> Int64 {
        try server { () throws(PostgresError) in
            try connection.beginRun(input: input, mapName: mapName, mapSHA256: mapSHA256, pid: pid, host: host)
        }
    }

    func lastSucceededInputSHA256() throws(ImportError) -> String? {
        try server { () throws(PostgresError) in try connection.lastSucceededInputSHA256() }
    }

    func open(claiming beganID: Int64) throws(ImportError) -> Int64 {
        try server { () throws(PostgresError) in
            try connection.begin()
            try connection.lockStore(wait: wait)
            return try connection.claimRunID(beganID)
        }
    }

    func migrate(to schema: SchemaDescription, formerly: SchemaDescription?, mapName: String, mapText: String) throws(ImportError) -> MigrationPlan {
        try server { () throws(PostgresError) in try connection.migrate(to: schema, formerly: formerly, mapName: mapName, mapText: mapText) }
    }

    func makeSink(decisions: ObjectDecisions, options: ImportOptions) throws(ImportError) -> PostgresSink {
        let (plan, run) = (decisions.plan, decisions.values.run)
        let writer = makeBatchWriter(plan: plan, run: run, decisions: decisions, options: options)
        try server { () throws(PostgresError) in
            // The digest triggers stand aside while the import writes its drafts, which set the
            // digests themselves (`PostgresDigestTriggers`); its deletions say off (`delete`), and
            // `ObjectGraph.delete`, which opens a run but makes no sink, never says on.
            try connection.setWritingDrafts(true)
            try writer.prepare()
        }
        return PostgresSink(plan: plan, connection: connection, storeName: storeName, runID: run.runID, writer: writer)
    }

    /// The batch writer of one run: the one place it is made.
    private func makeBatchWriter(plan: ImportPlan, run: RunContext, decisions: ObjectDecisions, options: ImportOptions) -> PostgresBatchWriter {
        PostgresBatchWriter(
            plan: plan, connection: connection, run: run, decisions: decisions, batchSize: batchSize,
            changeLog: ChangeLog(options: options, entities: plan.entities.count))
    }

    func doomedObjects(plan: ImportPlan, runID: Int64, first rowID: Int64, of entity: Int) throws(ImportError) -> PostgresDoomedObjects {
        var doomed = PostgresDoomedObjects(plan: plan, connection: connection, runID: runID)
        try server { () throws(PostgresError) in
            try doomed.prepare()
            try doomed.doom(entity, "SELECT $1::bigint", [String(rowID)])
        }
        return doomed
    }

    func deletionError(_ error: DeletionFailure<PostgresError>) -> ImportError { error.importError(store: storeName) }

    func setMeta(_ key: String, _ value: MetaValue) throws(ImportError) {
        try server { () throws(PostgresError) in try connection.setMeta(key, value) }
    }

    func unsetMeta(_ key: String) throws(ImportError) {
        try server { () throws(PostgresError) in try connection.unsetMeta(key) }
    }

    func finishRun(
        _ runID: Int64, outcome: RunOutcome, records: Int64?, skippedRecords: Int64, inputBytes: Int64?, inputSHA256: String?, counts: String?,
        error: String?
    ) throws(ImportError) {
        try server { () throws(PostgresError) in
            try connection.finishRun(
                runID, outcome: outcome, records: records, skippedRecords: skippedRecords, inputBytes: inputBytes, inputSHA256: inputSHA256,
                counts: counts, error: error)
        }
    }

    func commit(runID: Int64) throws(ImportError) {
        try server { () throws(PostgresError) in try connection.commitRun(runID) }
    }

    func rollback() { connection.rollback() }

    /// A lost connection cannot record the failure; a new one can while the server is still there
    /// (a terminated backend). After the server stopped, the run stays `running`.
    func recorderAfterFailure() -> PostgresSession? {
        if connection.isConnected { return self }
        guard let reopened = try? connection.reopened() else { return nil }
        return PostgresSession(connection: reopened, location: location, wait: wait, batchSize: batchSize)
    }

    func explained(_ error: ImportError) -> ImportError { error }

    /// Runs server work, turning its errors into the import's.
    private func server<T>(_ body: () throws(PostgresError) -> T) throws(ImportError) -> T {
        do { return try body() } catch { throw ImportError(store: storeName, error) }
    }
}

/// One run's writing into PostgreSQL: records completed one by one (`PostgresRecordCompletion`,
/// over what the store holds of each batch, read at once), gathered and written a batch at a time.
struct PostgresSink: StoreSink {
    let plan: ImportPlan
    let connection: PostgresConnection
    let storeName: String
    let runID: Int64
    let writer: PostgresBatchWriter

    var tally: PolicyTally { writer.tally }
    var changeLog: ChangeLog? { writer.changeLog }

    func writeRecords(
        _ loop: inout RecordLoop, from pipeline: RecordPipeline, options: ImportOptions, onSkip: (RecordError) -> Void,
        onProgress: ((Int, Int) -> Void)?
    ) throws(ImportError) -> RecordLoop.Ending {
        let writer = writer
        let stored = PostgresStoredObjects(
            plan: plan, connection: connection, runID: runID, readsLinks: PostgresRecordCompletion.comparesLinks(writer.decisions))
        let completion = PostgresRecordCompletion(decisions: writer.decisions, objects: stored, batch: writer)
        do {
            let fetch = { (records: [DraftedRecord]) throws in try completion.fetch(records, held: writer.holds) }
            return try loop.run(pipeline, onSkip: onSkip, onProgress: onProgress, beforeBatch: fetch) { record, draft in
                try completion.write(record, draft, into: writer)
            }
        } catch let error as ImportError {
            throw error
        } catch let error as PostgresError {
            throw ImportError(store: storeName, error)
        } catch {
            throw .internalError("\(error)")
        }
    }

    /// The last batch, then (after a first import's straight load) the foreign keys and indexes
    /// made again, before anything looks rows up by them.
    func flush() throws(ImportError) {
        try server { () throws(PostgresError) in
            try writer.flush()
            try writer.finishLoad()
        }
    }

    func delete(missing: Bool, dryRun: Bool) throws(ImportError) -> [Deletions] {
        let missing = missing && writer.deletionTables.deletes
        guard missing || writer.hasOwned else { return [] }
        let objects = PostgresMissingObjects(plan: plan, tables: writer.deletionTables, givenTable: writer.givenTable)
        let writer = writer
        // The deletions' cascades clear the digests of the lists and to-ones they change: the
        // triggers fire for them as for any other program's writes.
        try server { () throws(PostgresError) in try connection.setWritingDrafts(false) }
        let deletions = try objects.delete(
            with: PostgresDoomedObjects(plan: plan, connection: connection, runID: runID), store: storeName, dryRun: dryRun, missing: missing,
            letGo: { doomed throws(PostgresError) in try writer.doomLetGoOwned(&doomed) })
        try server { () throws(PostgresError) in try connection.setWritingDrafts(true) }
        return deletions
    }

    func counts() throws(ImportError) -> [EntityCounts] {
        try server { () throws(PostgresError) in
            try writer.writeEngineValues()
            return try writer.counts()
        }
    }

    private func server<T>(_ body: () throws(PostgresError) -> T) throws(ImportError) -> T {
        do { return try body() } catch { throw ImportError(store: storeName, error) }
    }
}
