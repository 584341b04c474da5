import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import GraphImportStore

/// How an import treats bad records, what it keeps, and what it writes beside the data.
public struct ImportOptions: Sendable {
    /// Skip records that do not fit the map (each reported), and commit the rest.
    public var skipInvalid = false
    /// Do everything, report it, and roll it back.
    public var dryRun = false
    /// JSON, JSON Lines, or decided from the input.
    public var format: JSONInputFormat = .auto
    /// How long to wait for another process's write lock, in seconds.
    public var busyTimeout: Double = 30
    /// Accept an input that holds no JSON at all (zero bytes or only whitespace).
    /// Off by default: from cron, an empty feed usually means a failed download.
    public var allowEmpty = false
    /// Skip the import (recorded as `skipped`) when the input's SHA-256 equals the last successful run's.
    public var ifChanged = false
    /// The input's fingerprint when the caller already knows it (a file hashed first), so that
    /// `ifChanged` can skip before reading; otherwise it is computed while importing. The command
    /// line's, for a regular file.
    package var knownInput: InputFingerprint?
    /// Metadata written in the same transaction as the data (`--set-meta`).
    public var setMeta: [(key: String, value: MetaValue)] = []
    /// Import into a SQLite file that holds other tables and none of graphimport's (`--adopt-store`):
    /// the map's tables and graphimport's own are added beside them. Off: such a file is refused.
    public var adoptStore = false
    /// Run `PRAGMA quick_check` before importing whatever the store's size (`--check-store`);
    /// without it, only stores up to `Store.quickCheckLimit` bytes are checked.
    public var checkStore = false
    /// The largest store checked without `checkStore`: tests make it small.
    var quickCheckLimit = Store.quickCheckLimit
    /// The page cache in KiB instead of the store's default: tests make it small, so that a small
    /// import spills changed pages before it commits as a big one does.
    var pageCacheKiB: Int?
    /// Read each record into a `JSONSlots` table and draft from it, making a tree only for the
    /// objects whose reads need one (issue 34, docs/slot-table-plan.md): on. Off, each record is
    /// read as a tree and drafted from it, as before the table: tests compare the two ways
    /// (SlotDraftingTests), and a build with `-Xswiftc -DGRAPHIMPORT_TREE_DRAFTING` turns it off
    /// for every import, so that the existing suites can run through the tree's path.
    #if GRAPHIMPORT_TREE_DRAFTING
        var readsSlotTable = false
    #else
        var readsSlotTable = true
    #endif
    /// Whether records may be handed to the writer light, as their objects' keys and digests
    /// (`LightRecord`): as the writer's reports advise (`HandOverAdvice`), the default; always or
    /// never for the tests that hold both ways to one store. A build with
    /// `-Xswiftc -DGRAPHIMPORT_LIGHT_RECORDS` hands every record it can over light, so that the
    /// existing suites run through the light path (and the writer's drafting of changed ones).
    #if GRAPHIMPORT_LIGHT_RECORDS
        var handsOverLight = LightHandOver.always
    #else
        var handsOverLight = LightHandOver.advised
    #endif
    /// Asked between records; true stops the import (rolled back) with `ImportError.interrupted`.
    public var isCancelled: (@Sendable () -> Bool)?
    /// How many objects of each entity the run keeps whole in memory (twice over: the objects met
    /// most recently, and those met before them), so that repeats are compared without a query.
    /// Older ones leave memory, remembered in a byte each (a changed one also by its digests and
    /// old markers); one met again is read back from the store. Smaller saves memory and costs a
    /// query per repeat of an object that left; below 1 counts as 1.
    public var objectsInMemory = ImportOptions.defaultObjectsInMemory
    /// 2048: as fast as 8192 on the tweet benchmark, in less memory (figures in Benchmarks/README.md).
    public static let defaultObjectsInMemory = 2048
    /// Objects a PostgreSQL run gathers before a batch is written.
    public var postgresBatchSize = ImportOptions.defaultPostgresBatchSize
    /// Large enough that a batch's fixed cost (its staging COPYs, TRUNCATEs and statements) is
    /// small against its rows; measured in Benchmarks/README ("Session 11").
    public static let defaultPostgresBatchSize = 20000
    /// `--mode`: narrows what the map's `mode` lets the run do to each entity (nil: as the map says).
    public var mode: ImportMode?
    /// Whether an import into SQLite takes content digests (docs/unchanged-objects-plan.md): off.
    /// Measured at 10k tweets, taking them cost the reading thread, which paces SQLite's imports,
    /// more than comparing by them saved the writing thread (a re-import's CPU the same, its time
    /// longer); PostgreSQL's server saves more, and takes them. The tests turn it on, so that the
    /// path stays whole for a digest cheap enough to pay on SQLite (`StoreUnderTest` imports with
    /// it, the command line's tests without).
    package var digestsInSQLite = false
    /// Compare every object value by value, as if no stored content digest matched
    /// (`--compare-all`): for a run after something changed that no digest covers (a library's
    /// converter or hook whose code changed). Each object written still stores its new digest.
    public var comparesAll = false
    /// Keep each inserted or changed object, with its changed fields, in `ImportSummary.changes`:
    /// this many per entity, the rest counted (`--verbose`). nil keeps none, at no cost.
    public var changeLimit: Int?

    public init(
        skipInvalid: Bool = false, dryRun: Bool = false, format: JSONInputFormat = .auto, busyTimeout: Double = 30,
        allowEmpty: Bool = false, ifChanged: Bool = false, setMeta: [(key: String, value: MetaValue)] = []
    ) {
        self.skipInvalid = skipInvalid
        self.dryRun = dryRun
        self.format = format
        self.busyTimeout = busyTimeout
        self.allowEmpty = allowEmpty
        self.ifChanged = ifChanged
        self.setMeta = setMeta
    }
}

/// How records reach the writer (`ImportOptions.handsOverLight`).
enum LightHandOver: Sendable {
    case advised, always, never
}

/// An input's SHA-256 and size, known before it is imported (a file hashed first).
package struct InputFingerprint: Sendable, Equatable {
    package var sha256: String
    package var bytes: Int

    package init(sha256: String, bytes: Int) {
        self.sha256 = sha256
        self.bytes = bytes
    }
}

/// What a run that finished did, in one word (`--json`'s `outcome`; a run that fails throws instead).
public enum ImportOutcome: String, Sendable {
    /// Objects were inserted, updated or deleted.
    case imported
    /// The records went in and no object changed (also for an empty feed, or every record skipped).
    case unchanged
    /// `ifChanged` found the input of the last successful run: nothing was imported.
    case skippedUnchangedInput = "skipped_unchanged_input"
    /// `dryRun`: the import was done, counted and rolled back; the counts say what it would do.
    case dryRun = "dry_run"
}

/// What an import did.
public struct ImportSummary: Sendable {
    public var input: String
    public var store: String
    /// The id of this run in the store's `graphimport_runs`.
    public var runID: Int64 = 0
    public var records = 0
    public var skippedRecords = 0
    /// Records a `-> ignore` case of a polymorphic `records … by` line passed over.
    public var ignoredRecords = 0
    /// Per entity, in the map's order.
    public var entities: [(name: String, counts: EntityCounts)] = []
    /// Objects deleted by `delete missing` and its cascades (in a dry run: that would be).
    public var deletions: [Deletions] = []
    /// True when `delete missing` was not applied because records were skipped.
    public var deletionsSuspended = false
    /// How many times the store found an object unchanged by its content digest alone, with no
    /// value or list read back: for tests that hold the fast path was taken.
    package var objectsUnchangedByDigest = 0
    /// Records handed over light (`LightRecord`) that the store found unchanged, for the tests.
    package var recordsKeptLight = 0
    /// Per relationship with `unkeyed skip` that left elements out, in the order first met.
    public var skippedElements: [SkippedElements] = []
    /// Per entity with `extras`: the unmapped JSON keys kept there, with how many objects had each.
    public var extrasKeys: [(entity: String, keys: [(key: String, count: Int)])] = []
    /// Metadata the map took from the response and the caller set (nil value: removed).
    public var meta: [(key: String, value: MetaValue?)] = []
    /// Schema changes made to the store (`add table hashtag`).
    public var schemaChanges: [String] = []
    public var format: JSONInputFormat = .auto
    public var bytesRead = 0
    public var inputSHA256 = ""
    public var seconds = 0.0
    public var dryRun = false
    /// True when `ifChanged` found the same input as the last successful run and imported nothing.
    public var unchangedInput = false
    /// False when `ifChanged` skipped the input by the fingerprint the caller knew (a file hashed
    /// first), without parsing it: `records` is then not counted.
    package var inputParsed = true
    /// Per relationship that links only existing objects: the keys of the feed that linked nothing.
    public var unlinked: [UnlinkedLinks] = []
    /// With `ImportOptions.changeLimit`: per entity, the objects inserted or changed (in a dry run: that would be).
    public var changes: [EntityChanges] = []

    /// Records that went into the store (in a dry run: would have): neither skipped nor ignored by a
    /// `-> ignore` case; none when the input was skipped as unchanged.
    public var importedRecords: Int { unchangedInput ? 0 : records - skippedRecords - ignoredRecords }

    /// What the run did: skipped, a dry run, or whether any object changed.
    public var outcome: ImportOutcome {
        if unchangedInput { return .skippedUnchangedInput }
        if dryRun { return .dryRun }
        return changed ? .imported : .unchanged
    }

    /// Skips an input by the fingerprint the caller knew, without parsing it (its format as the
    /// options give it: from a file's extension, or `auto`).
    mutating func skipUnread(_ known: InputFingerprint, format: JSONInputFormat) {
        inputParsed = false
        self.format = format
        inputSHA256 = known.sha256
        bytesRead = known.bytes
    }

    /// The summary of a run that `ifChanged` skipped: what was read of the input (its size and
    /// fingerprint, and its records when it was parsed to be hashed), and nothing imported.
    mutating func skipAsUnchangedInput(entities names: [String]) {
        unchangedInput = true
        skippedRecords = 0
        ignoredRecords = 0
        entities = names.map { ($0, EntityCounts()) }
        deletions = []
        deletionsSuspended = false
        skippedElements = []
        extrasKeys = []
        meta = []
        schemaChanges = []
        unlinked = []
        changes = []
    }

    /// True when any object was inserted, updated or deleted.
    public var changed: Bool {
        entities.contains { $0.counts.inserted + $0.counts.updated + $0.counts.deleted > 0 }
    }
}

extension ImportSummary {
    /// Counts per entity as JSON text, for the run history.
    var countsJSON: String { countsValue.jsonText }

    /// Counts per entity as one JSON object (`{"Tweet": {"inserted": 3, …}}`): the one shape the
    /// run history and `--json` share.
    package var countsValue: JSONValue {
        func number(_ value: Int) -> JSONValue { .number(JSONNumber(literal: String(value))) }
        return JSONValue.object(
            JSONObject(
                entities.map { entity in
                    JSONMember(
                        key: entity.name,
                        value: .object(
                            JSONObject(
                                [
                                    JSONMember(key: "inserted", value: number(entity.counts.inserted)),
                                    JSONMember(key: "updated", value: number(entity.counts.updated)),
                                    JSONMember(key: "unchanged", value: number(entity.counts.unchanged)),
                                    JSONMember(key: "skipped", value: number(entity.counts.skipped)),
                                    JSONMember(key: "deleted", value: number(entity.counts.deleted)),
                                ]
                                    // Only where a mode left new objects out: the shape of every other run is as it was.
                                    + (entity.counts.notInserted > 0 ? [JSONMember(key: "not_inserted", value: number(entity.counts.notInserted))] : [])
                                    + (entity.counts.passedOver > 0 ? [JSONMember(key: "passed_over", value: number(entity.counts.passedOver))] : [])
                                    // Only where the run made stubs (of `inserted`), or completed some.
                                    + (entity.counts.stubs > 0 || entity.counts.stubsCompleted > 0
                                        ? [
                                            JSONMember(key: "stubs", value: number(entity.counts.stubs)),
                                            JSONMember(key: "stubs_completed", value: number(entity.counts.stubsCompleted)),
                                        ] : [])
                            )))
                })
        )
    }
}
