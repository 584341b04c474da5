import GraphImportSchema
import GraphImportStore
import Testing

@Suite struct RunHistoryTests {
    private let mapSHA = String(repeating: "ab", count: 32)

    private func begin(_ store: Store, input: String = "feed.json") throws -> Int64 {
        try store.beginRun(input: input, mapName: "tweets.map", mapSHA256: mapSHA, pid: 4242, host: "cron-1")
    }

    private func finish(_ store: Store, _ id: Int64, _ outcome: RunOutcome, sha: String? = nil, error: String? = nil) throws {
        try store.finishRun(
            id, outcome: outcome, records: 3, skippedRecords: 1, inputBytes: 120, inputSHA256: sha,
            counts: #"{"Tweet":{"inserted":2,"updated":0,"unchanged":0,"skipped":1,"deleted":0}}"#, error: error)
    }

    /// A table the import writes into, so tests can tell data rollback from run-record survival.
    private func makeDataTable(_ store: Store) throws {
        try store.database.execute("CREATE TABLE \"tweet\" (\"id\" INTEGER PRIMARY KEY) STRICT")
    }

    @Test func beginRecordsARunningRun() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            let id = try begin(store)
            let runs = try Store(path: fixture.path).runs(last: nil)
            #expect(runs.count == 1)
            let run = try #require(runs.first)
            #expect(run.id == id)
            #expect(run.startedAt.count == 24 && run.startedAt.hasSuffix("Z"))
            let expected = RunRecord(
                id: id, startedAt: run.startedAt, finishedAt: nil, pid: 4242, host: "cron-1", input: "feed.json",
                inputBytes: nil, inputSHA256: nil, mapName: "tweets.map", mapSHA256: mapSHA, records: nil,
                skippedRecords: nil, counts: nil, outcome: .running, error: nil)
            #expect(run == expected)
        }
    }

    @Test func beginSurvivesARollbackOfTheImport() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try makeDataTable(store)
            let id = try begin(store)
            try store.database.beginImmediate()
            try store.database.run("INSERT INTO \"tweet\" (\"id\") VALUES (1)")
            store.database.rollback()
            let reopened = try Store(path: fixture.path)
            #expect(try reopened.database.scalar("SELECT count(*) FROM \"tweet\"") == .integer(0))
            #expect(try reopened.runs(last: nil).map(\.id) == [id])
            #expect(try reopened.runs(last: nil).map(\.outcome) == [.running])
        }
    }

    /// Under the write lock a run keeps its id when no later run began, takes the next one when
    /// one did, and is back at its own after a rollback; outside a transaction the claim is refused.
    @Test func claimMovesARunOvertakenByALaterOneAndARollbackMovesItBack() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            let first = try begin(store)
            try store.database.beginImmediate()
            #expect(try store.claimRunID(first) == first)
            store.database.rollback()
            let second = try begin(store)
            try store.database.beginImmediate()
            let moved = try store.claimRunID(first)
            #expect(moved == second + 1)
            #expect(try store.runs(last: nil).map(\.id) == [moved, second])
            store.database.rollback()
            #expect(try store.runs(last: nil).map(\.id) == [second, first])
            #expect(throws: StoreError.self) { try store.claimRunID(first) }
        }
    }

    @Test func beginRefusesAnOpenTransaction() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.database.beginImmediate()
            let error = #expect(throws: StoreError.self) { try begin(store) }
            #expect(
                error?.description
                    == "SQLite error 21: a run must begin outside a transaction, so that its record survives a rollback of the import")
            #expect(store.database.isInTransaction)
            store.database.rollback()
        }
    }

    @Test func successFinishedInsideTheTransactionCommitsWithTheData() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try makeDataTable(store)
            let id = try begin(store)
            try store.database.beginImmediate()
            try store.database.run("INSERT INTO \"tweet\" (\"id\") VALUES (1)")
            try finish(store, id, .succeeded, sha: "d00d")
            try store.database.commit()
            let run = try #require(try Store(path: fixture.path).runs(last: 1).first)
            #expect(run.outcome == .succeeded)
            #expect(run.finishedAt.map { $0 >= run.startedAt && $0.hasSuffix("Z") } == true)
            #expect(run.records == 3)
            #expect(run.skippedRecords == 1)
            #expect(run.inputBytes == 120)
            #expect(run.inputSHA256 == "d00d")
            #expect(run.counts == #"{"Tweet":{"inserted":2,"updated":0,"unchanged":0,"skipped":1,"deleted":0}}"#)
            #expect(run.error == nil)
        }
    }

    @Test func successRolledBackWithItsTransactionLeavesTheRunRunning() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            let id = try begin(store)
            try store.database.beginImmediate()
            try finish(store, id, .succeeded, sha: "d00d")
            store.database.rollback()
            let run = try #require(try store.runs(last: 1).first)
            #expect(run.outcome == .running)
            #expect(run.finishedAt == nil)
        }
    }

    @Test func failureFinishedAfterTheRollbackIsKept() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try makeDataTable(store)
            let id = try begin(store)
            try store.database.beginImmediate()
            try store.database.run("INSERT INTO \"tweet\" (\"id\") VALUES (1)")
            store.database.rollback()
            try finish(store, id, .failed, error: "feed.json:3:7: error: expected ',' or '}'")
            let run = try #require(try Store(path: fixture.path).runs(last: 1).first)
            #expect(run.outcome == .failed)
            #expect(run.error == "feed.json:3:7: error: expected ',' or '}'")
            #expect(run.finishedAt != nil)
            #expect(try store.database.scalar("SELECT count(*) FROM \"tweet\"") == .integer(0))
        }
    }

    @Test func runsAreNewestFirstAndLimited() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            var ids: [Int64] = []
            for index in 0..<5 {
                ids.append(try begin(store, input: "page-\(index).json"))
            }
            #expect(try store.runs(last: nil).map(\.id) == ids.reversed())
            #expect(try store.runs(last: 2).map(\.input) == ["page-4.json", "page-3.json"])
            #expect(try store.runs(last: 10).count == 5)
            #expect(try store.runs(last: 0).isEmpty)
            #expect(try store.runs(last: -1).isEmpty)
        }
    }

    @Test func storeWithoutRunsHasNoneAndStaysUntouched() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            #expect(try store.runs(last: nil).isEmpty)
            #expect(try store.lastSucceededInputSHA256(input: nil) == nil)
            #expect(try store.database.scalar("SELECT count(*) FROM sqlite_schema") == .integer(0))
        }
    }

    @Test func lastSucceededInputSHAIgnoresOtherOutcomes() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try finish(store, try begin(store), .succeeded, sha: "old")
            try finish(store, try begin(store), .succeeded, sha: "good")
            try finish(store, try begin(store), .failed, sha: "failed", error: "boom")
            try finish(store, try begin(store), .skipped, sha: "skipped")
            try finish(store, try begin(store), .dryRun, sha: "dry")
            _ = try begin(store)
            #expect(try store.lastSucceededInputSHA256(input: nil) == "good")
        }
    }

    @Test func lastSucceededInputSHAFiltersByInput() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try finish(store, try begin(store, input: "a.json"), .succeeded, sha: "sha-a")
            try finish(store, try begin(store, input: "b.json"), .succeeded, sha: "sha-b")
            #expect(try store.lastSucceededInputSHA256(input: "a.json") == "sha-a")
            #expect(try store.lastSucceededInputSHA256(input: "b.json") == "sha-b")
            #expect(try store.lastSucceededInputSHA256(input: nil) == "sha-b")
            #expect(try store.lastSucceededInputSHA256(input: "c.json") == nil)
        }
    }

    @Test func finishOfAnUnknownRunIsAnError() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            let error = #expect(throws: StoreError.self) { try finish(store, 7, .failed) }
            #expect(error?.description == "SQLite error 21: no run 7 is recorded in graphimport_runs")
            let id = try begin(store)
            let again = #expect(throws: StoreError.self) { try finish(store, id + 1, .failed) }
            #expect(again?.description == "SQLite error 21: no run \(id + 1) is recorded in graphimport_runs")
        }
    }

    @Test func finishRefusesRunningAndCountsThatAreNotJSON() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            let id = try begin(store)
            let running = #expect(throws: StoreError.self) { try finish(store, id, .running) }
            #expect(running?.description == "SQLite error 21: run \(id) cannot finish as running")
            let counts = #expect(throws: StoreError.self) {
                try store.finishRun(
                    id, outcome: .succeeded, records: nil, skippedRecords: nil, inputBytes: nil, inputSHA256: nil,
                    counts: "Tweet: 3", error: nil)
            }
            #expect(counts?.description == "SQLite error 20: the counts of run \(id) are not valid JSON: Tweet: 3")
            #expect(try store.runs(last: 1).map(\.outcome) == [.running])
        }
    }

    @Test func unknownOutcomeIsReported() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            let id = try begin(store)
            try store.database.run("UPDATE \"graphimport_runs\" SET \"outcome\" = 'paused'")
            let error = #expect(throws: StoreError.self) { try store.runs(last: nil) }
            #expect(
                error?.description
                    == "SQLite error 1: run \(id) in graphimport_runs cannot be read: its outcome 'paused' is unknown; "
                    + "the store was written by another program or version")
        }
    }

    @Test(arguments: RunOutcome.allCases)
    func everyOutcomeRoundTrips(outcome: RunOutcome) throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            let id = try begin(store)
            if outcome != .running { try finish(store, id, outcome) }
            #expect(try store.runs(last: 1).map(\.outcome) == [outcome])
        }
    }

    @Test func dryRunIsRecordedAsDryRun() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try finish(store, try begin(store), .dryRun)
            #expect(try store.database.scalar("SELECT \"outcome\" FROM \"graphimport_runs\"") == .text("dry-run"))
        }
    }
}
