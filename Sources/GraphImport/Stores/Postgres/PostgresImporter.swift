import GraphImportJSON
import GraphImportMapping
import GraphImportPostgres
import GraphImportSchema

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Imports a feed into a PostgreSQL store with one plan: the whole run is one transaction under
/// the store's advisory lock, and objects are written a batch at a time (`PostgresBatchWriter`).
///
/// A map that PostgreSQL cannot hold as it is (a name longer than its 63 bytes) is refused before
/// anything is written (`ImportPlan.postgresOverlongNames`, `ImportPlan.postgresUnsupported`).
public struct PostgresImporter: Sendable {
    public let plan: ImportPlan
    let hooks: ImportHooks
    let entityHooks: [EntityHooks]
    /// Objects gathered before a batch is written (`defaultBatchSize` unless a test asks for fewer).
    public var batchSize = Self.defaultBatchSize
    /// Large enough that a batch's fixed cost (its staging COPYs, TRUNCATEs and statements) is
    /// small against its rows; measured in Benchmarks/README ("Session 11").
    public static let defaultBatchSize = 20000

    public init(plan: ImportPlan, hooks: ImportHooks = ImportHooks()) {
        self.plan = plan
        self.hooks = hooks
        entityHooks = EntityHooks.bind(hooks, to: plan)
    }

    /// Reads records from `source` and upserts them into the store at `location`. Either everything
    /// is committed or nothing is; the run is recorded in `graphimport_runs` whatever its outcome.
    public func run(
        source: some JSONByteSource, inputName: String, location: ConnectionString, options: ImportOptions,
        onSkip: (RecordError) -> Void = { _ in }, onProgress: ((Int, Int) -> Void)? = nil, onRunBegan: (Int64) -> Void = { _ in }
    ) throws(PostgresImportError) -> ImportSummary {
        let started = monotonicSeconds()
        try refuseUnsupported(store: location.description)
        let connection: PostgresConnection
        let runID: Int64
        do {
            connection = try PostgresConnection(location)
            runID = try connection.beginRun(
                input: inputName, mapName: plan.mapping.fileName, mapSHA256: SHA256.hash(Array(plan.mapping.textWithIncludes.utf8)),
                pid: getpid(), host: hostName(), wait: options.busyTimeout)
        } catch {
            throw .server(error)
        }
        onRunBegan(runID)
        var run = PostgresImportRun(plan: plan, connection: connection, runID: runID, inputName: inputName, store: location.description, options: options)
        run.batchSize = batchSize
        do {
            var summary = try run.perform(source: source, hooks: hooks, entityHooks: entityHooks, onSkip: onSkip, onProgress: onProgress)
            summary.seconds = monotonicSeconds() - started
            return summary
        } catch {
            connection.rollback()
            // A lost connection cannot record the failure; a new one can while the server is still
            // there (a terminated backend). After the server stopped, the run stays `running`.
            let recorder = connection.isConnected ? connection : try? connection.reopened()
            try? recorder?.finishRun(
                runID, outcome: .failed, records: Int64(run.records), skippedRecords: Int64(run.skippedRecords),
                inputBytes: Int64(run.tap.byteCount), inputSHA256: nil, counts: nil, error: run.describe(error))
            throw error
        }
    }

    private func refuseUnsupported(store: String) throws(PostgresImportError) {
        let refusals = plan.postgresUnsupported()
        if !refusals.isEmpty {
            throw .unsupported(store: store, message: "this map asks for what graphimport does not do on a PostgreSQL store yet", refusals: refusals)
        }
        let overlong = plan.postgresOverlongNames()
        if !overlong.isEmpty {
            throw .unsupported(store: store, message: "the map makes names longer than PostgreSQL keeps", refusals: overlong)
        }
    }
}

/// One run into PostgreSQL in progress.
struct PostgresImportRun {
    let plan: ImportPlan
    let connection: PostgresConnection
    /// The run's id from `beginRun`: its record's whenever the import's transaction is not open.
    let beganID: Int64
    /// The id the run writes and commits under (`PostgresConnection.claimRunID`), `beganID` until the lock is held.
    var runID: Int64
    let inputName: String
    let store: String
    let options: ImportOptions
    var batchSize = PostgresImporter.defaultBatchSize
    let tap = InputTapState()
    /// The records read so far, and those skipped.
    var loop: RecordLoop
    var records: Int { loop.records }
    var skippedRecords: Int { loop.skippedRecords }

    init(plan: ImportPlan, connection: PostgresConnection, runID: Int64, inputName: String, store: String, options: ImportOptions) {
        self.plan = plan
        self.connection = connection
        beganID = runID
        self.runID = runID
        self.inputName = inputName
        self.store = store
        self.options = options
        loop = RecordLoop(plan: plan, options: options, tap: tap)
    }

    func describe(_ error: PostgresImportError) -> String {
        switch error {
        case .importing(let error): error.description
        case .server(let error): error.description
        case .unsupported(_, let message, let refusals): ([message] + refusals.map(\.description)).joined(separator: "\n")
        }
    }

    mutating func perform(
        source: some JSONByteSource, hooks: ImportHooks, entityHooks: [EntityHooks], onSkip: (RecordError) -> Void,
        onProgress: ((Int, Int) -> Void)?
    ) throws(PostgresImportError) -> ImportSummary {
        var summary = ImportSummary(input: inputName, store: store)
        summary.runID = runID
        summary.dryRun = options.dryRun
        if options.ifChanged, let known = options.knownInput,
            try server({ () throws(PostgresError) in try connection.lastSucceededInputSHA256() }) == known.sha256
        {
            summary.skipUnread(known, format: options.format)
            return try finishUnchanged(summary)
        }
        runID = try server { () throws(PostgresError) in
            try connection.begin()
            try connection.lockStore(wait: options.busyTimeout)
            return try connection.claimRunID(beganID)
        }
        summary.runID = runID
        let now = SQLValue.text(Coercion.isoText(Timestamp(milliseconds: currentMilliseconds())))
        let run = RunContext(runID: runID, now: now)
        let writer = PostgresBatchWriter(
            plan: plan, connection: connection, run: run, batchSize: batchSize, changeLog: ChangeLog(options: options, entities: plan.entities.count))
        summary.schemaChanges = try prepareSchema()
        try server { () throws(PostgresError) in try writer.prepare() }
        let modes = EntityModes(plan: plan, run: options.mode)
        let stored = PostgresStoredObjects(plan: plan, connection: connection)
        let completion = PostgresRecordCompletion(
            plan: plan, modes: modes, rules: ObjectValueRules(plan: plan, run: run, hooks: entityHooks), objects: stored)
        let required = PostgresRequiredCheck(plan: plan, modes: modes, stored: stored, batch: writer)
        let reader = plan.recordReader(source: InputTap(source, state: tap), projections: plan.projections(hooks: hooks), format: options.format)
        let pipeline = RecordPipeline(
            reader: reader, builder: DraftBuilder(plan: plan, hooks: entityHooks, modes: modes), routes: plan.routes, skipsMalformedLines: options.skipInvalid)
        defer { pipeline.stop() }
        do {
            let fetch = { (records: [DraftedRecord]) throws in try completion.fetch(records, held: writer.holds) }
            let ending = try loop.run(pipeline, onSkip: onSkip, onProgress: onProgress, beforeBatch: fetch) { record, draft in
                try completion.write(record, draft, into: writer, checking: required)
            }
            if case .emptyAllowed = ending { return try finish(summary, counts: nil, captured: [:]) }
        } catch let error as ImportError {
            throw .importing(error)
        } catch let error as PostgresError {
            throw .server(error)
        } catch {
            throw .importing(.internalError("\(error)"))
        }
        loop.fill(&summary)
        if options.ifChanged, try server({ () throws(PostgresError) in try connection.lastSucceededInputSHA256() }) == summary.inputSHA256 {
            rollback(&summary)
            return try finishUnchanged(summary)
        }
        try server { () throws(PostgresError) in
            try writer.flush()
            try writer.finishLoad()
        }
        // Before the counts: an object deleted in the run counts as deleted only, as in SQLite.
        let letGo = try server { () throws(PostgresError) in try writer.deleteLetGoOwned() }
        try deleteMissing(writer: writer, summary: &summary)
        summary.deletions = Deletions.combined(letGo + summary.deletions)
        try server { () throws(PostgresError) in try writer.writeEngineValues(modes: modes) }
        let counts = try server { () throws(PostgresError) in try writer.counts() }
        summary.unlinked = writer.tally.unlinked.filter { $0.count > 0 }
        summary.changes = writer.changeLog?.changes(names: plan.entities.map(\.name)) ?? []
        summary.entities = plan.entities.indices.map { index in
            var entityCounts = counts[index]
            entityCounts.notInserted = writer.tally.notInsertedCount(index)
            entityCounts.skipped = loop.skippedByEntity[index]
            entityCounts.deleted = summary.deletions.first { $0.entity == plan.entities[index].name }?.count ?? 0
            return (plan.entities[index].name, entityCounts)
        }
        return try finish(summary, counts: counts, captured: loop.captured)
    }

    /// Migrates the store to the map, as the SQLite store is migrated (`PostgresConnection.migrate`):
    /// inside the run's transaction, so that a failed or dry run leaves the tables as they were.
    private func prepareSchema() throws(PostgresImportError) -> [String] {
        let migration = try server { () throws(PostgresError) in
            try connection.migrate(to: plan.schema, mapName: plan.mapping.fileName, mapText: plan.mapping.textWithIncludes)
        }
        if !migration.refusals.isEmpty {
            throw .importing(.migration(store: store, refusals: migration.refusals.map(plan.diagnostic(for:))))
        }
        return migration.changes
    }

    /// Saves the metadata, records the run's end and commits (or rolls back a dry run).
    private mutating func finish(_ summary: ImportSummary, counts: [EntityCounts]?, captured: [Int: JSONValue]) throws(PostgresImportError) -> ImportSummary {
        var summary = summary
        if counts == nil {
            summary.entities = plan.entities.map { ($0.name, EntityCounts()) }
            summary.inputSHA256 = SHA256.hex(tap.hash.finish())
        }
        var saved: [(key: String, value: MetaValue?)] = []
        for (index, field) in plan.meta.enumerated() {
            guard let raw = captured[index] else { continue }
            do {
                saved.append((field.name, try field.metaValue(raw)))
            } catch {
                throw .importing(.meta(name: field.name, message: error.message, hint: error.hint))
            }
        }
        saved += options.setMeta.map { ($0.key, $0.value) }
        summary.meta = saved
        try server { () throws(PostgresError) in
            for (key, value) in saved {
                if let value { try connection.setMeta(key, value) } else { try connection.unsetMeta(key) }
            }
        }
        if options.dryRun {
            rollback(&summary)
            let finished = summary
            try server { () throws(PostgresError) in try record(finished, outcome: .dryRun) }
        } else {
            let finished = summary
            try server { () throws(PostgresError) in
                try record(finished, outcome: .succeeded)
                try connection.commitRun(runID)
            }
        }
        return summary
    }

    private func finishUnchanged(_ summary: ImportSummary) throws(PostgresImportError) -> ImportSummary {
        var summary = summary
        summary.skipAsUnchangedInput(entities: plan.entities.map(\.name))
        let finished = summary
        try server { () throws(PostgresError) in try record(finished, outcome: .skipped) }
        return summary
    }

    /// Rolls the import's transaction back: the run is its record's `beganID` again.
    private mutating func rollback(_ summary: inout ImportSummary) {
        connection.rollback()
        runID = beganID
        summary.runID = runID
    }

    private func record(_ summary: ImportSummary, outcome: RunOutcome) throws(PostgresError) {
        try connection.finishRun(
            runID, outcome: outcome, records: summary.inputParsed ? Int64(summary.records) : nil, skippedRecords: Int64(summary.skippedRecords),
            inputBytes: Int64(summary.bytesRead), inputSHA256: summary.inputSHA256, counts: summary.countsJSON, error: nil)
    }

    /// Runs server work, turning its errors into the import's.
    private func server<T>(_ body: () throws(PostgresError) -> T) throws(PostgresImportError) -> T {
        do { return try body() } catch { throw .server(error) }
    }
}
