import GraphImportSchema

/// What a store does for one run, in the order `ImportRun` (or `ObjectGraph.delete`) asks: record
/// the run, open the run's transaction under the store's write lock, migrate, make the sink that
/// writes the objects (or the doomed objects of a deletion), save metadata, record the run's end,
/// commit or roll back. Every decision about the run (`--if-changed`, an empty feed, `delete
/// missing`'s suspension, a dry run, a failure) is the run's; a session only executes, and says
/// its failures as `ImportError`s.
///
/// A new store conforms a session and a sink (`Stores/NAME/`) and gets a case of `StoreLocation`.
protocol StoreSession {
    associatedtype Sink: StoreSink
    associatedtype Doomed: DoomedObjects

    /// The store as messages and the summary show it (a connection string without its password).
    var storeName: String { get }

    /// Whether the sink takes light records (`LightRecord`: keys and digests, drafted only when
    /// an object may have changed); a store whose sink does not gets every record drafted.
    var takesLightRecords: Bool { get }

    /// Whether the run's drafts take content digests and the sink stores and trusts them
    /// (`ObjectDecisions.storesDigest`); where false, no digest is taken on the reading thread
    /// and every object is compared value by value.
    var takesDigests: Bool { get }

    /// Records the run as running, outside the run's transaction, so that a failed run stays recorded.
    func beginRun(input: String, mapName: String, mapSHA256: String, pid: Int32, host: String) throws(ImportError) -> Int64

    /// The input hash of the last run that succeeded, for `--if-changed`.
    func lastSucceededInputSHA256() throws(ImportError) -> String?

    /// Begins the run's transaction and takes the store's write lock; returns the id the run
    /// writes and commits under (the store's `claimRunID` of `beganID`).
    func open(claiming beganID: Int64) throws(ImportError) -> Int64

    /// Migrates the store to `schema` inside the run's transaction, renaming the tables it holds
    /// under their names in `formerly` (`ImportPlan.formerSchema`); refusals are returned, not thrown.
    func migrate(to schema: SchemaDescription, formerly: SchemaDescription?, mapName: String, mapText: String) throws(ImportError) -> MigrationPlan

    /// Makes the sink that writes this run's objects, once the store is migrated: it executes
    /// `decisions`, made once for the run (its plan, modes, run context and hooks).
    func makeSink(decisions: ObjectDecisions, options: ImportOptions) throws(ImportError) -> Sink

    /// The doomed objects of a deletion in the run `runID` (`ObjectGraph.delete`), the stored
    /// object `rowID` of entity `entity` doomed first.
    func doomedObjects(plan: ImportPlan, runID: Int64, first rowID: Int64, of entity: Int) throws(ImportError) -> Doomed

    /// A failure of the deletion walk over this store's doomed objects, as the run's.
    func deletionError(_ error: DeletionFailure<Doomed.Failure>) -> ImportError

    func setMeta(_ key: String, _ value: MetaValue) throws(ImportError)
    func unsetMeta(_ key: String) throws(ImportError)

    /// Records the run's end (inside the transaction when it is open, so it commits with the data).
    func finishRun(
        _ runID: Int64, outcome: RunOutcome, records: Int64?, skippedRecords: Int64, inputBytes: Int64?, inputSHA256: String?, counts: String?,
        error: String?
    ) throws(ImportError)

    func commit(runID: Int64) throws(ImportError)
    func rollback()

    /// The session that records a failed run: this one, or one that reconnects to a store whose
    /// connection was lost; nil when the store cannot be reached at all.
    func recorderAfterFailure() -> Self?

    /// The failure as the caller sees it (SQLite names the import that holds a busy store's lock).
    func explained(_ error: ImportError) -> ImportError
}

extension StoreSession {
    /// Rolls the run's transaction back and records the run `beganID` (its id outside the
    /// transaction) as failed with `error`: through a new connection when this one was lost, and
    /// not at all when the store cannot be reached. The same for an import and a deletion.
    func recordFailure(
        of beganID: Int64, error: String, records: Int64 = 0, skippedRecords: Int64 = 0, inputBytes: Int64? = nil
    ) {
        rollback()
        try? recorderAfterFailure()?.finishRun(
            beganID, outcome: .failed, records: records, skippedRecords: skippedRecords, inputBytes: inputBytes, inputSHA256: nil, counts: nil,
            error: error)
    }
}

/// Writes one run's objects into a store: the write loop, and what is left once the feed is read.
/// It holds no rule of the run's own; `ImportRun` calls it in order.
protocol StoreSink {
    var tally: PolicyTally { get }
    var changeLog: ChangeLog? { get }

    /// Writes each record `loop` reads from `pipeline`; a record the sink refuses is undone and skipped
    /// under `--skip-invalid`.
    func writeRecords(
        _ loop: inout RecordLoop, from pipeline: RecordPipeline, options: ImportOptions, onSkip: (RecordError) -> Void,
        onProgress: ((Int, Int) -> Void)?
    ) throws(ImportError) -> RecordLoop.Ending

    /// Writes what is still pending once the feed is read (links, deferred indexes, the last batch),
    /// before metadata and deletions.
    func flush() throws(ImportError)

    /// Deletes (unless `dryRun`) the owned objects their owners let go of, and with `missing` what
    /// a complete feed no longer holds; says what was, or would be, deleted.
    func delete(missing: Bool, dryRun: Bool) throws(ImportError) -> [Deletions]

    /// Writes the engine's values left for the run's end, and counts each entity's objects as the
    /// store knows them (inserted, updated, unchanged, stubs); what the run's shared state counts
    /// (skipped, passed over, not inserted by a mode) `ImportRun` adds.
    func counts() throws(ImportError) -> [EntityCounts]

    /// How many times an object was found unchanged by its content digest alone (for tests).
    var unchangedByDigest: Int { get }
}

extension StoreSink {
    var unchangedByDigest: Int { 0 }
}
