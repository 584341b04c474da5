internal import CSQLite
import GraphImportSchema

/// Run history in `graphimport_runs`: every run leaves a row, even one that fails or is killed.
///
/// The start is committed on its own, before the import's transaction; the end is written in the
/// import's transaction on success (so it commits with the data) or after the rollback on failure.
/// A run killed in between stays `running`.
extension Store {
    /// Records the start of a run in its own small committed transaction, so the record survives a
    /// rollback of the import and shows a killed run as `running`. Must be called when no
    /// transaction is open. Returns the run's id for `finishRun`.
    package func beginRun(input: String, mapName: String, mapSHA256: String, pid: Int32, host: String) throws(StoreError) -> Int64 {
        guard !database.isInTransaction else {
            throw StoreError(
                extendedCode: SQLITE_MISUSE,
                message: "a run must begin outside a transaction, so that its record survives a rollback of the import")
        }
        try database.beginImmediate()
        do {
            try createIfMissing(InternalTable.runs, Store.createRunsTable)
            try database.run(
                "INSERT INTO \(quoteIdentifier(InternalTable.runs)) "
                    + "(\"started_at\", \"pid\", \"host\", \"input\", \"map_name\", \"map_sha256\", \"outcome\") "
                    + "VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?, ?, ?, ?, ?)",
                [.integer(Int64(pid)), .text(host), .text(input), .text(mapName), .text(mapSHA256), .text(RunOutcome.running.rawValue)])
            let id = database.lastInsertRowID
            // From this run on, the store knows which objects are deleted (`graphimport_deleted`).
            try Store.createDeletedTableIfMissing(run: id, in: database)
            try database.commit()
            return id
        } catch {
            database.rollback()
            throw error
        }
    }

    /// The id run `began` (from `beginRun`) commits under: `began` itself, or the next id when a
    /// run that began later holds a higher one. Call it in the transaction that holds the write
    /// lock, before anything is tagged with the run. Ids are taken in their own transaction before
    /// that lock, so runs can reach it out of order; taken again under it, the ids of committed
    /// runs grow in commit order, which a reader of changes since a run relies on (a later id
    /// never commits before an earlier one). A rollback undoes the move: the run is `began` again.
    package func claimRunID(_ began: Int64) throws(StoreError) -> Int64 {
        guard database.isInTransaction else {
            throw StoreError(extendedCode: SQLITE_MISUSE, message: "run \(began) must claim its id inside the transaction that holds the write lock")
        }
        let runs = quoteIdentifier(InternalTable.runs)
        try database.run(
            "UPDATE \(runs) SET \"id\" = (SELECT max(\"id\") + 1 FROM \(runs)) WHERE \"id\" = ?1 AND EXISTS (SELECT 1 FROM \(runs) WHERE \"id\" > ?1)",
            [.integer(began)])
        guard database.changes == 1 else { return began }
        // Under the write lock the moved run holds the highest id.
        guard let claimed = try database.scalar("SELECT max(\"id\") FROM \(runs)")?.integerValue else {
            throw StoreError(extendedCode: SQLITE_ERROR, message: "run \(began) lost its record in \(InternalTable.runs)")
        }
        return claimed
    }

    /// Fills in the end of run `id`. Call it inside the import's transaction for a success (so it
    /// commits with the data), or after the rollback for a failure. `counts` must be JSON text.
    package func finishRun(
        _ id: Int64, outcome: RunOutcome, records: Int64?, skippedRecords: Int64?, inputBytes: Int64?, inputSHA256: String?,
        counts: String?, error: String?
    ) throws(StoreError) {
        guard outcome != .running else {
            throw StoreError(extendedCode: SQLITE_MISUSE, message: "run \(id) cannot finish as running")
        }
        if let counts, try !database.isValidJSON(counts) {
            throw StoreError(extendedCode: SQLITE_MISMATCH, message: "the counts of run \(id) are not valid JSON: \(counts)")
        }
        if try tableExists(InternalTable.runs) {
            try database.run(
                "UPDATE \(quoteIdentifier(InternalTable.runs)) SET \"finished_at\" = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), "
                    + "\"outcome\" = ?, \"records\" = ?, \"skipped_records\" = ?, \"input_bytes\" = ?, \"input_sha256\" = ?, "
                    + "\"counts\" = ?, \"error\" = ? WHERE \"id\" = ?",
                [
                    .text(outcome.rawValue), optional(records), optional(skippedRecords), optional(inputBytes),
                    optional(inputSHA256), optional(counts), optional(error), .integer(id),
                ])
            if database.changes == 1 { return }
        }
        throw StoreError(extendedCode: SQLITE_MISUSE, message: "no run \(id) is recorded in \(InternalTable.runs)")
    }

    /// The latest `last` runs (every run when nil), newest first; none when the table is missing.
    package func runs(last: Int?) throws(StoreError) -> [RunRecord] {
        guard try tableExists(InternalTable.runs) else { return [] }
        // LIMIT -1 is SQLite's "no limit"; a negative request means none, not all.
        let limit = last.map { Int64(max(0, $0)) } ?? -1
        let rows = try database.rows(
            "SELECT \"id\", \"started_at\", \"finished_at\", \"pid\", \"host\", \"input\", \"input_bytes\", \"input_sha256\", "
                + "\"map_name\", \"map_sha256\", \"records\", \"skipped_records\", \"counts\", \"outcome\", \"error\" "
                + "FROM \(quoteIdentifier(InternalTable.runs)) ORDER BY \"id\" DESC LIMIT ?",
            [.integer(limit)])
        var records: [RunRecord] = []
        records.reserveCapacity(rows.count)
        for row in rows {
            records.append(try Store.runRecord(row))
        }
        return records
    }

    /// The input SHA-256 of the newest succeeded run (of `input` when given), so an unchanged
    /// input can be skipped. Failed, skipped, dry and unfinished runs are ignored.
    package func lastSucceededInputSHA256(input: String?) throws(StoreError) -> String? {
        guard try tableExists(InternalTable.runs) else { return nil }
        return try database.scalar(
            "SELECT \"input_sha256\" FROM \(quoteIdentifier(InternalTable.runs)) "
                + "WHERE \"outcome\" = ?1 AND (?2 IS NULL OR \"input\" = ?2) ORDER BY \"id\" DESC LIMIT 1",
            [.text(RunOutcome.succeeded.rawValue), optional(input)]
        )?.textValue
    }

    private static func runRecord(_ row: [SQLValue]) throws(StoreError) -> RunRecord {
        guard case .integer(let id) = row[0] else { throw unreadableRun(row[0], "its id is not an integer") }
        guard let outcome = row[13].textValue.flatMap(RunOutcome.init(rawValue:)) else {
            throw unreadableRun(row[0], "its outcome \(row[13]) is unknown")
        }
        guard let startedAt = row[1].textValue, case .integer(let pid) = row[3], let host = row[4].textValue,
            let input = row[5].textValue, let mapName = row[8].textValue, let mapSHA256 = row[9].textValue
        else { throw unreadableRun(row[0], "a required column is missing") }
        return RunRecord(
            id: id, startedAt: startedAt, finishedAt: row[2].textValue, pid: Int32(truncatingIfNeeded: pid), host: host,
            input: input, inputBytes: row[6].integerValue, inputSHA256: row[7].textValue, mapName: mapName,
            mapSHA256: mapSHA256, records: row[10].integerValue, skippedRecords: row[11].integerValue,
            counts: row[12].textValue, outcome: outcome, error: row[14].textValue)
    }

    private static func unreadableRun(_ id: SQLValue, _ reason: String) -> StoreError {
        StoreError(
            extendedCode: SQLITE_ERROR,
            message: "run \(id) in \(InternalTable.runs) cannot be read: \(reason); the store was written by another program or version")
    }
}

extension SQLValue {
    /// The integer of an `.integer` value, nil otherwise.
    var integerValue: Int64? {
        if case .integer(let integer) = self { integer } else { nil }
    }
}

/// `.null` for nil, the value otherwise.
private func optional(_ value: Int64?) -> SQLValue { value.map(SQLValue.integer) ?? .null }

/// `.null` for nil, the text otherwise.
private func optional(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
