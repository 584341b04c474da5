import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import GraphImportStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Imports a feed into a store with one plan: the whole run is one transaction.
public struct GraphImporter: Sendable {
    public let plan: ImportPlan
    public let hooks: ImportHooks
    /// `hooks` by entity index, bound once here rather than looked up by name per object.
    let entityHooks: [EntityHooks]

    public init(plan: ImportPlan, hooks: ImportHooks = ImportHooks()) {
        self.plan = plan
        self.hooks = hooks
        entityHooks = EntityHooks.bind(hooks, to: plan)
    }

    /// Reads records from `source` and upserts them into the store at `storePath`.
    ///
    /// Either everything is committed or nothing is: on any error the transaction is rolled back.
    /// The run is recorded in `graphimport_runs` whatever its outcome, so a failed run on a new
    /// store leaves a file that holds only that record.
    /// - Parameter onSkip: called for each record dropped under `skipInvalid`.
    /// - Parameter onRunBegan: called with the run's id in `graphimport_runs` once it is recorded,
    ///   so that a caller can name the run of an import that then fails.
    public func run(
        source: some JSONByteSource, inputName: String, storePath: String, options: ImportOptions,
        onSkip: (RecordError) -> Void = { _ in }, onProgress: ((Int, Int) -> Void)? = nil, onRunBegan: (Int64) -> Void = { _ in }
    ) throws(ImportError) -> ImportSummary {
        let started = monotonicSeconds()
        if let problem = writeProblem(storePath) {
            throw .store(path: storePath, StoreFailure(kind: .readOnly, message: problem))
        }
        // A new store has nobody reading it yet: its first import goes through the rollback
        // journal, which writes each page once, where WAL writes it to the log and again into the
        // store when the connection closes. The next import turns the store to WAL, so that
        // readers never wait for an import of a store that holds data.
        let isNew = isAbsentOrEmpty(storePath)
        // A store that is refused is left exactly as it was: the checks run on a read-only
        // connection first (one that writes cannot even close without a checkpoint), and the
        // writing connection enters WAL, which rewrites the file's header, only after them.
        var checked = false
        if !isNew { checked = try refuseUnfit(readingOnly: storePath, options: options) }
        let store: Store
        do {
            store = try Store(
                path: storePath, options: Database.Options(create: true, readOnly: false, busyTimeout: options.busyTimeout, writeAheadLog: false))
        } catch {
            throw .store(path: storePath, StoreFailure(error))
        }
        if !checked { _ = try refuseUnfit(store, options: options) }
        if !isNew {
            do { try store.database.enterWriteAheadLog() } catch { throw .store(path: storePath, StoreFailure(error)) }
        }
        if let kib = options.pageCacheKiB {
            do { try store.database.execute("PRAGMA cache_size = -\(max(1, kib))") } catch { throw .store(path: storePath, StoreFailure(error)) }
        }
        let runID: Int64
        do {
            runID = try store.beginRun(
                input: inputName, mapName: plan.mapping.fileName, mapSHA256: SHA256.hash(Array(plan.mapping.textWithIncludes.utf8)),
                pid: getpid(), host: hostName())
        } catch {
            throw .store(path: storePath, StoreFailure(error, holder: runningHolder(storePath)))
        }
        onRunBegan(runID)
        var run = ImportRun(plan: plan, hooks: hooks, entityHooks: entityHooks, store: store, runID: runID, inputName: inputName, options: options)
        do {
            var summary = try run.perform(source: source, onSkip: onSkip, onProgress: onProgress)
            summary.seconds = monotonicSeconds() - started
            return summary
        } catch {
            // The store is never deleted, not even one this run created: another import may already
            // have it open, and removing it (or its journal) under that import loses its data.
            store.database.rollback()
            try? store.finishRun(
                runID, outcome: .failed, records: Int64(run.records), skippedRecords: Int64(run.skippedRecords),
                inputBytes: Int64(run.tap.byteCount), inputSHA256: nil, counts: nil, error: error.description)
            if case .store(let path, let failure) = error, failure.kind == .busy {
                throw .store(path: path, StoreFailure(failure, holder: runningHolder(storePath)))
            }
            throw error
        }
    }

    /// `refuseUnfit` on a read-only connection to the existing store at `path`. False when such a
    /// connection cannot read the file as it is (a hot journal that only a writer may roll back):
    /// the writing connection must check it then, before it writes anything else.
    private func refuseUnfit(readingOnly path: String, options: ImportOptions) throws(ImportError) -> Bool {
        let store: Store
        do {
            store = try Store(path: path, options: Database.Options(create: false, readOnly: true, busyTimeout: options.busyTimeout))
        } catch {
            if error.isReadOnly { return false }
            throw .store(path: path, StoreFailure(error))
        }
        return try refuseUnfit(store, options: options)
    }

    /// Refuses a damaged store, and another program's database unless `adoptStore`, before
    /// anything (even the run's record) is written into it. False when `store` is read-only and
    /// SQLite says that only a writer can read the file as it is.
    private func refuseUnfit(_ store: Store, options: ImportOptions) throws(ImportError) -> Bool {
        let refusal: StoreRefusal?
        do {
            refusal = try store.refusal(for: plan.schema, fullCheck: options.checkStore, checkLimit: options.quickCheckLimit)
        } catch {
            if error.isReadOnly && store.database.isReadOnly { return false }
            throw .store(path: store.path, StoreFailure(error, holder: error.isBusy ? runningHolder(store.path) : nil))
        }
        switch refusal {
        case nil: return true
        case .damaged(let damage):
            throw .store(path: store.path, StoreFailure(kind: .corrupt, message: damage))
        case .foreign(let tables):
            guard !options.adoptStore else { return true }
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", …" : "")
            throw .store(path: store.path, StoreFailure(kind: .foreign, message: "it holds tables of another program (\(shown)) and none of graphimport's"))
        }
    }

    /// Whether no file is at `path`, or an empty one (a store made by `touch`).
    private func isAbsentOrEmpty(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) != 0 || ((info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0)
    }

    /// Why the store cannot be written by this process, found before SQLite is asked (it would
    /// only say "unable to open"): the file or its directory (where the journal goes) is read-only.
    private func writeProblem(_ path: String) -> String? {
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
    private func runningHolder(_ storePath: String) -> String? {
        guard let store = try? Store(path: storePath, options: Database.Options(create: false, readOnly: true, busyTimeout: 0.5)),
            let running = try? store.runs(last: 20).first(where: { $0.outcome == .running && $0.pid != getpid() && kill($0.pid, 0) == 0 })
        else { return nil }
        return "graphimport pid \(running.pid) on \(running.host), run \(running.id) started at \(running.startedAt)"
    }
}

/// One run in progress: the state the phases share, and the phases in order.
struct ImportRun {
    let plan: ImportPlan
    let hooks: ImportHooks
    let entityHooks: [EntityHooks]
    let store: Store
    /// The run's id from `beginRun`: its record's whenever the import's transaction is not open.
    let beganID: Int64
    /// The id the run writes and commits under (`Store.claimRunID`), `beganID` until the write lock is held.
    var runID: Int64
    let inputName: String
    let options: ImportOptions
    let tap = InputTapState()
    /// The records read so far, and those skipped.
    var loop: RecordLoop
    var records: Int { loop.records }
    var skippedRecords: Int { loop.skippedRecords }
    /// The tables that held no rows when the run began (after migrating).
    var emptyTables = Set<String>()
    /// Their plain indexes, built again before the run commits.
    var deferredIndexes = DeferredIndexes.none

    init(plan: ImportPlan, hooks: ImportHooks, entityHooks: [EntityHooks], store: Store, runID: Int64, inputName: String, options: ImportOptions) {
        self.plan = plan
        self.hooks = hooks
        self.entityHooks = entityHooks
        self.store = store
        beganID = runID
        self.runID = runID
        self.inputName = inputName
        self.options = options
        loop = RecordLoop(plan: plan, options: options, tap: tap)
    }

    mutating func perform(
        source: some JSONByteSource, onSkip: (RecordError) -> Void, onProgress: ((Int, Int) -> Void)?
    ) throws(ImportError) -> ImportSummary {
        var summary = ImportSummary(input: inputName, store: store.path)
        summary.runID = runID
        summary.dryRun = options.dryRun
        let database = store.database
        try storeStep {
            if options.ifChanged, let known = options.knownInput, try store.lastSucceededInputSHA256(input: nil) == known.sha256 {
                summary.skipUnread(known, format: options.format)
            }
        }
        if !summary.inputParsed { return try finishUnchanged(summary) }
        try storeStep {
            try database.beginImmediate()
            runID = try store.claimRunID(beganID)
            summary.runID = runID
            let migration = try store.migrate(to: plan.schema, mapName: plan.mapping.fileName, mapText: plan.mapping.textWithIncludes)
            if !migration.refusals.isEmpty {
                throw ImportError.migration(store: store.path, refusals: migration.refusals.map(plan.diagnostic(for:)))
            }
            summary.schemaChanges = migration.changes
            emptyTables = try store.emptyTables(in: plan.schema)
            deferredIndexes = try store.deferIndexes(of: emptyTables, in: plan.schema)
        }
        let now = SQLValue.text(Coercion.isoText(Timestamp(milliseconds: currentMilliseconds())))
        let modes = EntityModes(plan: plan, run: options.mode)
        let writer = GraphWriter(
            plan: plan, database: database, run: RunContext(runID: runID, now: now), hooks: entityHooks, emptyTables: emptyTables,
            objectsInMemory: max(1, options.objectsInMemory), modes: modes,
            changeLog: ChangeLog(options: options, entities: plan.entities.count))
        let reader = plan.recordReader(source: InputTap(source, state: tap), projections: plan.projections(hooks: hooks), format: options.format)
        let undoable = options.skipInvalid && writer.mayRefuseObjects
        let pipeline = RecordPipeline(
            reader: reader, builder: DraftBuilder(plan: plan, hooks: entityHooks, modes: modes), routes: plan.routes, skipsMalformedLines: options.skipInvalid)
        defer { pipeline.stop() }
        do {
            let ending = try loop.run(pipeline, onSkip: onSkip, onProgress: onProgress) { record, draft in
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
            if case .emptyAllowed = ending { return try finishEmpty(summary) }
        } catch let error as ImportError {
            throw error
        } catch let error as WriteError {
            throw importError(error)
        } catch let error as StoreError {
            throw .store(path: store.path, StoreFailure(error))
        } catch {
            throw .internalError("\(error)")
        }
        loop.fill(&summary)
        if options.ifChanged, try storeStep({ try store.lastSucceededInputSHA256(input: nil) }) == summary.inputSHA256 {
            rollback(&summary)
            return try finishUnchanged(summary)
        }
        // Before anything that may look rows up by a foreign key (deletions and their cascades).
        try storeStep {
            try writer.writeLinks()
            try store.rebuild(deferredIndexes)
            try writer.restoreUnchangedMarkers()
        }
        summary.meta = try saveMeta(captured: loop.captured)
        // A skipped record's objects were not seen, yet they are not missing from the feed: deleting
        // "missing" objects after skipping any record would lose data, so deletion waits for a clean run.
        if records > 0 && skippedRecords == 0 {
            do { summary.deletions = try writer.deleteMissing(dryRun: options.dryRun) } catch { throw importError(error) }
        } else if skippedRecords > 0 {
            summary.deletionsSuspended = plan.entities.contains { $0.deletionScope != nil }
            // Owned objects their owners let go of go all the same: the records that did so were written.
            if writer.owns.contains(true) {
                do { summary.deletions = try writer.deleteMissing(dryRun: options.dryRun, missing: false) } catch { throw importError(error) }
            }
        }
        let counts = writer.counts()
        let skipped = loop.skippedByEntity
        summary.unlinked = writer.tally.unlinked.filter { $0.count > 0 }
        summary.changes = writer.changeLog?.changes(names: plan.entities.map(\.name)) ?? []
        summary.entities = plan.entities.indices.map { index in
            var entityCounts = counts[index]
            entityCounts.skipped = skipped[index]
            entityCounts.deleted = summary.deletions.first { $0.entity == plan.entities[index].name }?.count ?? 0
            return (plan.entities[index].name, entityCounts)
        }
        try storeStep {
            if options.dryRun {
                rollback(&summary)
                try finish(summary, outcome: .dryRun)
            } else {
                try finish(summary, outcome: .succeeded)
                try database.commit()
            }
        }
        return summary
    }

    /// Writes the response's metadata (from the map) and the caller's, in the import's transaction.
    private func saveMeta(captured: [Int: JSONValue]) throws(ImportError) -> [(key: String, value: MetaValue?)] {
        var saved: [(key: String, value: MetaValue?)] = []
        for (index, field) in plan.meta.enumerated() {
            guard let raw = captured[index] else { continue }
            let value: MetaValue?
            do {
                value = try field.metaValue(raw)
            } catch {
                throw .meta(name: field.name, message: error.message, hint: error.hint)
            }
            saved.append((field.name, value))
        }
        saved += options.setMeta.map { ($0.key, $0.value) }
        try storeStep {
            for (key, value) in saved {
                if let value { try store.setMeta(key, value) } else { try store.unsetMeta(key) }
            }
        }
        return saved
    }

    /// Rolls the import's transaction back: the run is its record's `beganID` again.
    private mutating func rollback(_ summary: inout ImportSummary) {
        store.database.rollback()
        runID = beganID
        summary.runID = runID
    }

    /// Records the run's end; a success inside the transaction, so it commits with the data.
    private func finish(_ summary: ImportSummary, outcome: RunOutcome) throws(StoreError) {
        try store.finishRun(
            runID, outcome: outcome, records: summary.inputParsed ? Int64(summary.records) : nil, skippedRecords: Int64(summary.skippedRecords),
            inputBytes: Int64(summary.bytesRead), inputSHA256: summary.inputSHA256, counts: summary.countsJSON, error: nil)
    }

    private func finishUnchanged(_ summary: ImportSummary) throws(ImportError) -> ImportSummary {
        var summary = summary
        summary.skipAsUnchangedInput(entities: plan.entities.map(\.name))
        try storeStep { try finish(summary, outcome: .skipped) }
        return summary
    }

    /// The summary of an input that held nothing, committing the schema so the store exists.
    private mutating func finishEmpty(_ summary: ImportSummary) throws(ImportError) -> ImportSummary {
        var summary = summary
        summary.entities = plan.entities.map { ($0.name, EntityCounts()) }
        summary.inputSHA256 = SHA256.hex(tap.hash.finish())
        try storeStep {
            if options.dryRun {
                rollback(&summary)
                try finish(summary, outcome: .dryRun)
            } else {
                try store.rebuild(deferredIndexes)
                try finish(summary, outcome: .succeeded)
                try store.database.commit()
            }
        }
        return summary
    }

    private func importError(_ error: WriteError) -> ImportError {
        switch error {
        case .store(let error): .store(path: store.path, StoreFailure(error))
        case .denied(let denied): .denied(denied)
        case .lacksRequired(let error): .record(error)
        case .rejected(let member, let message), .invalidDerived(let member, let message):
            .record(
                RecordError(
                    recordIndex: 0, position: JSONPosition(offset: 0, line: 1, column: 1), path: "$", member: member, message: message,
                    hint: error.refusalHint))
        }
    }

    /// Runs store work, turning its errors into the import's.
    private func storeStep<T>(_ body: () throws -> T) throws(ImportError) -> T {
        do {
            return try body()
        } catch let error as ImportError {
            throw error
        } catch let error as StoreError {
            throw .store(path: store.path, StoreFailure(error))
        } catch {
            throw .internalError("\(error)")
        }
    }
}
