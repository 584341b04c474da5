/// How a run ended, as the `outcome` column records it.
package enum RunOutcome: String, Sendable, CaseIterable {
    /// Begun and not finished: still running, or killed before it could record its end.
    case running
    /// Imported and committed.
    case succeeded
    /// Stopped by an error; the import was rolled back.
    case failed
    /// Not imported because the input was unchanged since the last successful run.
    case skipped
    /// Imported and rolled back on purpose.
    case dryRun = "dry-run"
}

/// One row of `graphimport_runs`: when a run started and ended, on what, with which map, and how.
package struct RunRecord: Equatable, Sendable {
    /// The row id, increasing with each run.
    package var id: Int64
    /// When the run began and ended, as UTC text like `2024-05-01T12:00:00.000Z`.
    package var startedAt: String, finishedAt: String?
    /// The process and machine that ran it.
    package var pid: Int32, host: String
    /// The input's name (a path, or `-` for stdin), its size and its SHA-256 as lowercase hex.
    package var input: String, inputBytes: Int64?, inputSHA256: String?
    /// The map file's name and the SHA-256 of its text.
    package var mapName: String, mapSHA256: String
    /// Records read, and those dropped as invalid.
    package var records: Int64?, skippedRecords: Int64?
    /// Per-entity counts as JSON text: `{"Tweet":{"inserted":1,"updated":0,…},…}`.
    package var counts: String?
    /// How the run ended.
    package var outcome: RunOutcome
    /// The error that stopped a failed run.
    package var error: String?

    /// A record with every field given.
    package init(
        id: Int64, startedAt: String, finishedAt: String?, pid: Int32, host: String,
        input: String, inputBytes: Int64?, inputSHA256: String?, mapName: String, mapSHA256: String,
        records: Int64?, skippedRecords: Int64?, counts: String?, outcome: RunOutcome, error: String?
    ) {
        self.id = id
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.pid = pid
        self.host = host
        self.input = input
        self.inputBytes = inputBytes
        self.inputSHA256 = inputSHA256
        self.mapName = mapName
        self.mapSHA256 = mapSHA256
        self.records = records
        self.skippedRecords = skippedRecords
        self.counts = counts
        self.outcome = outcome
        self.error = error
    }
}
