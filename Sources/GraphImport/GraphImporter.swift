import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import GraphImportPostgres

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Imports a feed into a store (SQLite or PostgreSQL) with one plan: the whole run is one
/// transaction, recorded in the store's run history whatever its outcome.
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

    /// Reads records from `source` and upserts them into the store at `store`.
    ///
    /// Either everything is committed or nothing is: on any error the transaction is rolled back.
    /// The run is recorded in `graphimport_runs` whatever its outcome, so a failed run on a new
    /// SQLite store leaves a file that holds only that record.
    /// - Parameter onSkip: called for each record dropped under `skipInvalid`.
    /// - Parameter onRunBegan: called with the run's id in `graphimport_runs` once it is recorded,
    ///   so that a caller can name the run of an import that then fails.
    public func run(
        source: some JSONByteSource, inputName: String, store: StoreLocation, options: ImportOptions,
        onSkip: (RecordError) -> Void = { _ in }, onProgress: ((Int, Int) -> Void)? = nil, onRunBegan: (Int64) -> Void = { _ in }
    ) throws(ImportError) -> ImportSummary {
        let started = monotonicSeconds()
        switch store {
        case .sqlite(let path):
            let session = try SQLiteSession(path: path, plan: plan, options: options)
            return try run(session, started: started, source: source, inputName: inputName, options: options, onSkip, onProgress, onRunBegan)
        case .postgres(let location):
            let session = try PostgresSession(location: location, plan: plan, options: options)
            return try run(session, started: started, source: source, inputName: inputName, options: options, onSkip, onProgress, onRunBegan)
        }
    }

    /// Reads records from `source` and upserts them into the SQLite store at `storePath`
    /// (`run(source:inputName:store:options:)` with a SQLite location).
    public func run(
        source: some JSONByteSource, inputName: String, storePath: String, options: ImportOptions,
        onSkip: (RecordError) -> Void = { _ in }, onProgress: ((Int, Int) -> Void)? = nil, onRunBegan: (Int64) -> Void = { _ in }
    ) throws(ImportError) -> ImportSummary {
        try run(
            source: source, inputName: inputName, store: .sqlite(path: storePath), options: options, onSkip: onSkip, onProgress: onProgress,
            onRunBegan: onRunBegan)
    }

    /// Records the run, performs it, and records it as failed when it fails.
    private func run<Session: StoreSession>(
        _ session: Session, started: Double, source: some JSONByteSource, inputName: String, options: ImportOptions,
        _ onSkip: (RecordError) -> Void, _ onProgress: ((Int, Int) -> Void)?, _ onRunBegan: (Int64) -> Void
    ) throws(ImportError) -> ImportSummary {
        let runID = try session.beginRun(
            input: inputName, mapName: plan.mapping.fileName, mapSHA256: SHA256.hash(Array(plan.mapping.textWithIncludes.utf8)), pid: getpid(),
            host: hostName())
        onRunBegan(runID)
        var run = ImportRun(plan: plan, hooks: hooks, entityHooks: entityHooks, session: session, runID: runID, inputName: inputName, options: options)
        do {
            var summary = try run.perform(source: source, onSkip: onSkip, onProgress: onProgress)
            summary.seconds = monotonicSeconds() - started
            return summary
        } catch {
            run.recordFailure(error)
            throw session.explained(error)
        }
    }
}
