import GraphImportJSON
import GraphImportSchema
import GraphImportStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One import run's SQLite store: the checks before it is opened for writing, the connection, its
/// run history and metadata, and the transaction (`BEGIN IMMEDIATE`, SQLite's write lock).
struct SQLiteSession: StoreSession {
    let store: Store

    var storeName: String { store.path }
    var takesLightRecords: Bool { true }
    /// `ImportOptions.digestsInSQLite`: off by default, measured (docs/unchanged-objects-plan.md).
    private(set) var takesDigests = false

    /// Opens the store at `path` for an import with `plan`, refusing one that cannot or must not be
    /// written (read-only, damaged, another program's) before anything is written into it.
    init(path: String, plan: ImportPlan, options: ImportOptions) throws(ImportError) {
        if let problem = Self.writeProblem(path) {
            throw .store(store: path, StoreFailure(kind: .readOnly, message: problem))
        }
        // A new store has nobody reading it yet: its first import goes through the rollback
        // journal, which writes each page once, where WAL writes it to the log and again into the
        // store when the connection closes. The next import turns the store to WAL, so that
        // readers never wait for an import of a store that holds data.
        let isNew = Self.isAbsentOrEmpty(path)
        // A store that is refused is left exactly as it was: the checks run on a read-only
        // connection first (one that writes cannot even close without a checkpoint), and the
        // writing connection enters WAL, which rewrites the file's header, only after them.
        var checked = false
        if !isNew { checked = try Self.refuseUnfit(readingOnly: path, plan: plan, options: options) }
        let store: Store
        do {
            store = try Store(path: path, options: Database.Options(create: true, readOnly: false, busyTimeout: options.busyTimeout, writeAheadLog: false))
        } catch {
            throw .store(store: path, StoreFailure(error))
        }
        if !checked { _ = try Self.refuseUnfit(store, plan: plan, options: options) }
        if !isNew {
            do { try store.database.enterWriteAheadLog() } catch { throw .store(store: path, StoreFailure(error)) }
        }
        if let kib = options.pageCacheKiB {
            do { try store.database.execute("PRAGMA cache_size = -\(max(1, kib))") } catch { throw .store(store: path, StoreFailure(error)) }
        }
        self.store = store
        takesDigests = options.digestsInSQLite
    }

    /// A session over a store already open for writing (`ObjectGraph.delete`'s), checked when it was opened.
    init(store: Store) {
        self.store = store
    }

    func beginRun(input: String, mapName: String, mapSHA256: String, pid: Int32, host: String) throws(ImportError) -> Int64 {
        do {
            return try store.beginRun(input: input, mapName: mapName, mapSHA256: mapSHA256, pid: pid, host: host)
        } catch {
            throw .store(store: store.path, StoreFailure(error, holder: Self.runningHolder(store.path)))
        }
    }

    func lastSucceededInputSHA256() throws(ImportError) -> String? {
        try step { () throws(StoreError) in try store.lastSucceededInputSHA256(input: nil) }
    }

    func open(claiming beganID: Int64) throws(ImportError) -> Int64 {
        try step { () throws(StoreError) in
            try store.database.beginImmediate()
            return try store.claimRunID(beganID)
        }
    }

    func migrate(to schema: SchemaDescription, formerly: SchemaDescription?, mapName: String, mapText: String) throws(ImportError) -> MigrationPlan {
        try step { () throws(StoreError) in try store.migrate(to: schema, formerly: formerly, mapName: mapName, mapText: mapText) }
    }

    func makeSink(decisions: ObjectDecisions, options: ImportOptions) throws(ImportError) -> SQLiteSink {
        let plan = decisions.plan
        let (emptyTables, deferred) = try step { () throws(StoreError) in
            // The digests' triggers stand aside while the run writes its drafts (`flush` lets them act).
            try store.holdDigestTriggers()
            let emptyTables = try store.emptyTables(in: plan.schema)
            return (emptyTables, try store.deferIndexes(of: emptyTables, in: plan.schema))
        }
        let writer = GraphWriter(
            decisions: decisions, database: store.database, emptyTables: emptyTables, objectsInMemory: max(1, options.objectsInMemory),
            changeLog: ChangeLog(options: options, entities: plan.entities.count))
        return SQLiteSink(store: store, writer: writer, deferredIndexes: deferred, schema: plan.schema)
    }

    func doomedObjects(plan: ImportPlan, runID: Int64, first rowID: Int64, of entity: Int) throws(ImportError) -> SQLiteDoomedObjects<SQLiteEntityStore> {
        let stores = plan.entities.map { SQLiteEntityStore($0, database: store.database, startedEmpty: false) }
        var doomed = SQLiteDoomedObjects(plan: plan, stores: stores, runID: runID)
        doomed.insert(rowID, of: entity)
        return doomed
    }

    func deletionError(_ error: DeletionFailure<StoreError>) -> ImportError {
        switch error {
        case .denied(let denied): .denied(denied)
        case .store(let error): .store(store: store.path, StoreFailure(error))
        }
    }

    func setMeta(_ key: String, _ value: MetaValue) throws(ImportError) {
        try step { () throws(StoreError) in try store.setMeta(key, value) }
    }

    func unsetMeta(_ key: String) throws(ImportError) {
        _ = try step { () throws(StoreError) in try store.unsetMeta(key) }
    }

    func finishRun(
        _ runID: Int64, outcome: RunOutcome, records: Int64?, skippedRecords: Int64, inputBytes: Int64?, inputSHA256: String?, counts: String?,
        error: String?
    ) throws(ImportError) {
        try step { () throws(StoreError) in
            try store.finishRun(
                runID, outcome: outcome, records: records, skippedRecords: skippedRecords, inputBytes: inputBytes, inputSHA256: inputSHA256,
                counts: counts, error: error)
        }
    }

    func commit(runID: Int64) throws(ImportError) {
        try step { () throws(StoreError) in try store.database.commit() }
    }

    func rollback() { store.database.rollback() }

    func recorderAfterFailure() -> SQLiteSession? { self }

    func explained(_ error: ImportError) -> ImportError {
        guard case .store(let path, let failure) = error, failure.kind == .busy else { return error }
        return .store(store: path, StoreFailure(failure, holder: Self.runningHolder(store.path)))
    }

    /// Runs store work, turning its errors into the import's.
    private func step<T>(_ body: () throws(StoreError) -> T) throws(ImportError) -> T {
        do { return try body() } catch { throw .store(store: store.path, StoreFailure(error)) }
    }

    /// `refuseUnfit` on a read-only connection to the existing store at `path`. False when such a
    /// connection cannot read the file as it is (a hot journal that only a writer may roll back):
    /// the writing connection must check it then, before it writes anything else.
    private static func refuseUnfit(readingOnly path: String, plan: ImportPlan, options: ImportOptions) throws(ImportError) -> Bool {
        let store: Store
        do {
            store = try Store(path: path, options: Database.Options(create: false, readOnly: true, busyTimeout: options.busyTimeout))
        } catch {
            if error.isReadOnly { return false }
            throw .store(store: path, StoreFailure(error))
        }
        return try refuseUnfit(store, plan: plan, options: options)
    }

    /// Refuses a damaged store, and another program's database unless `adoptStore`, before
    /// anything (even the run's record) is written into it. False when `store` is read-only and
    /// SQLite says that only a writer can read the file as it is.
    private static func refuseUnfit(_ store: Store, plan: ImportPlan, options: ImportOptions) throws(ImportError) -> Bool {
        let refusal: StoreRefusal?
        do {
            refusal = try store.refusal(for: plan.schema, fullCheck: options.checkStore, checkLimit: options.quickCheckLimit)
        } catch {
            if error.isReadOnly && store.database.isReadOnly { return false }
            throw .store(store: store.path, StoreFailure(error, holder: error.isBusy ? runningHolder(store.path) : nil))
        }
        switch refusal {
        case nil: return true
        case .damaged(let damage):
            throw .store(store: store.path, StoreFailure(kind: .corrupt, message: damage))
        case .foreign(let tables):
            guard !options.adoptStore else { return true }
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            throw .store(store: store.path, StoreFailure(kind: .foreign, message: "it holds tables of another program (\(shown)) and none of graphimport's"))
        }
    }

    /// Whether no file is at `path`, or an empty one (a store made by `touch`).
    private static func isAbsentOrEmpty(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) != 0 || ((info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0)
    }

    /// Why the store cannot be written by this process, found before SQLite is asked (it would
    /// only say "unable to open"): the file or its directory (where the journal goes) is read-only.
    private static func writeProblem(_ path: String) -> String? {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let directoryPath = directory.isEmpty ? "/" : directory
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, access(path, W_OK) != 0 {
            return "the store file is not writable by this user"
        }
        if stat(directoryPath, &info) == 0, access(directoryPath, W_OK) != 0 {
            return "the directory \(directoryPath) is not writable by this user (SQLite writes its journal beside the store)"
        }
        return nil
    }

    /// The pid and start of another import still marked running in the store, for a busy message.
    private static func runningHolder(_ storePath: String) -> String? {
        guard let store = try? Store(path: storePath, options: Database.Options(create: false, readOnly: true, busyTimeout: 0.5)),
            let running = try? store.runs(last: 20).first(where: { $0.outcome == .running && $0.pid != getpid() && kill($0.pid, 0) == 0 })
        else { return nil }
        return "graphimport pid \(running.pid) on \(running.host), run \(running.id) started at \(running.startedAt)"
    }
}

/// One run's writing into SQLite: `GraphWriter` record by record, each record undoable under
/// `--skip-invalid` (a savepoint) when the writer may refuse an object.
struct SQLiteSink: StoreSink {
    let store: Store
    let writer: GraphWriter<SQLiteEntityStore>
    /// The plain indexes of the tables that held no rows when the run began, built again before it commits.
    let deferredIndexes: DeferredIndexes
    /// The schema whose digest triggers the store gets before the drafts' writes end (`flush`).
    let schema: SchemaDescription

    var tally: PolicyTally { writer.tally }
    var changeLog: ChangeLog? { writer.changeLog }
    var unchangedByDigest: Int { writer.unchangedByDigest }

    func writeRecords(
        _ loop: inout RecordLoop, from pipeline: RecordPipeline, options: ImportOptions, onSkip: (RecordError) -> Void,
        onProgress: ((Int, Int) -> Void)?
    ) throws(ImportError) -> RecordLoop.Ending {
        let writer = writer
        let undoable = options.skipInvalid && writer.mayRefuseObjects
        do {
            // A light record is done when its objects are unchanged; it writes nothing, so it
            // needs no undo.
            let touch = { (_: DraftedRecord, light: LightRecord) throws -> Bool in
                defer { writer.retireIfFull() }
                return try writer.keepIfUnchanged(light)
            }
            return try loop.run(pipeline, onSkip: onSkip, onProgress: onProgress, touch: touch) { record, draft in
                defer { writer.retireIfFull() }
                if undoable { try writer.beginRecord() }
                var failure: WriteError?
                do throws(WriteError) { try writer.write(draft) } catch { failure = error }
                switch failure {
                case nil:
                    if undoable { try writer.commitRecord() }
                    return .written
                case .rejected?, .invalidDerived?:
                    let error = failure!.recordError(for: record)!
                    guard undoable else { throw ImportError.record(error) }
                    try writer.rollbackRecord()
                    return .refused(error)
                case .lacksRequired(let error)?:
                    // Found before the record wrote anything: skipping it undoes nothing but the savepoint.
                    if undoable { try writer.rollbackRecord() }
                    return .refused(error)
                case let other?:
                    throw other
                }
            }
        } catch let error as ImportError {
            throw error
        } catch let error as WriteError {
            throw importError(error)
        } catch let error as StoreError {
            throw .store(store: store.path, StoreFailure(error))
        } catch {
            throw .internalError("\(error)")
        }
    }

    func flush() throws(ImportError) {
        do throws(StoreError) {
            try writer.writeLinks()
            try store.rebuild(deferredIndexes)
            try writer.restoreUnchangedMarkers()
            // The drafts are written: from here on (deletions and their cascades, other programs
            // after COMMIT) a write clears the digests it makes stale. Made now rather than before
            // the run, so that a first import's rows pay nothing for them, as deferred indexes.
            try store.makeDigestTriggers(for: schema)
            try store.releaseDigestTriggers()
        } catch {
            throw .store(store: store.path, StoreFailure(error))
        }
    }

    func delete(missing: Bool, dryRun: Bool) throws(ImportError) -> [Deletions] {
        guard missing || writer.owns.contains(true) else { return [] }
        do throws(WriteError) {
            return try writer.deleteMissing(dryRun: dryRun, missing: missing)
        } catch {
            throw importError(error)
        }
    }

    func counts() throws(ImportError) -> [EntityCounts] { writer.counts() }

    private func importError(_ error: WriteError) -> ImportError {
        switch error {
        case .store(let error): .store(store: store.path, StoreFailure(error))
        case .denied(let denied): .denied(denied)
        case .lacksRequired(let error): .record(error)
        case .rejected(let member, let message), .invalidDerived(let member, let message):
            .record(
                RecordError(
                    recordIndex: 0, position: JSONPosition(offset: 0, line: 1, column: 1), path: "$", member: member, message: message,
                    hint: error.refusalHint))
        }
    }
}
