import Foundation
package import GraphImportSchema

/// The store's own tables on PostgreSQL (`PostgresSchemaSQL.internalTables`): the schema a map
/// made, the run history and the metadata, with the SQLite store's names and text formats.
extension PostgresConnection {
    /// The current time as the SQLite store writes it (ISO 8601, UTC, milliseconds).
    static let nowText = "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

    /// Records the start of a run in its own committed transaction (so that the record outlives a
    /// rollback of the import), creating the store's own tables first if need be
    /// (`lockOwnTables`). Returns the run's id.
    ///
    /// It does not take the store's lock: a run is recorded, and reads its input, while another
    /// import holds that lock (`claimRunID` orders the commits).
    package func beginRun(input: String, mapName: String, mapSHA256: String, pid: Int32, host: String) throws(PostgresError) -> Int64 {
        try begin()
        do throws(PostgresError) {
            let tablesExist = try hasInternalTables()
            if !tablesExist {
                try lockOwnTables()
                for statement in PostgresSchemaSQL.internalTables { try execute(statement) }
            }
            let id = try scalar(
                "INSERT INTO \(quoteIdentifier(InternalTable.runs)) (\"started_at\", \"pid\", \"host\", \"input\", \"map_name\", \"map_sha256\", \"outcome\") "
                    + "VALUES (\(Self.nowText), $1, $2, $3, $4, $5, $6) RETURNING \"id\"",
                [String(pid), host, input, mapName, mapSHA256, RunOutcome.running.rawValue])
            guard let id, let number = Int64(id) else { throw PostgresError(.other, message: "the run's id was not returned") }
            if !tablesExist { try createDeletedTableIfMissing(run: number) }
            try commit()
            return number
        } catch {
            rollback()
            throw error
        }
    }

    /// True when the store's own tables (`PostgresSchemaSQL.internalTables` and the deletions') all exist.
    private func hasInternalTables() throws(PostgresError) -> Bool {
        let names = [InternalTable.schema, InternalTable.meta, InternalTable.runs, InternalTable.deleted].map(quoteIdentifier)
        let exist = names.indices.map { "to_regclass($\($0 + 1)) IS NOT NULL" }.joined(separator: " AND ")
        return try scalar("SELECT \(exist)", names) == "t"
    }

    /// The id run `began` (from `beginRun`) commits under: `began` itself, or a new one from the
    /// table's sequence when a run that began later holds a higher id. Call it in the transaction
    /// that holds the store's lock (`lockStore`), before anything is tagged with the run, as
    /// `Store.claimRunID` on SQLite: ids of committed runs then grow in commit order, which a
    /// reader of changes since a run relies on. A rollback undoes the move.
    package func claimRunID(_ began: Int64) throws(PostgresError) -> Int64 {
        // A READ COMMITTED statement sees every run committed before the lock was granted, and the
        // identity's next value is above each of them. A run whose record commits later (beginRun
        // takes no lock once the store's tables exist) claims its own id under the lock after this
        // run commits, so above this one.
        let runs = quoteIdentifier(InternalTable.runs)
        let moved = try scalar(
            "UPDATE \(runs) SET \"id\" = DEFAULT WHERE \"id\" = $1 AND EXISTS (SELECT 1 FROM \(runs) WHERE \"id\" > $1) RETURNING \"id\"",
            [String(began)])
        return moved.flatMap { Int64($0) } ?? began
    }

    /// Fills in the end of run `id`: inside the import's transaction for a success, after the
    /// rollback for a failure. `counts` is JSON text. A run that has ended already is left as it
    /// is (a commit whose reply was lost is not turned into a failure).
    package func finishRun(
        _ id: Int64, outcome: RunOutcome, records: Int64?, skippedRecords: Int64?, inputBytes: Int64?, inputSHA256: String?, counts: String?,
        error: String?
    ) throws(PostgresError) {
        _ = try rows(
            "UPDATE \(quoteIdentifier(InternalTable.runs)) SET \"finished_at\" = \(Self.nowText), \"outcome\" = $1, \"records\" = $2, "
                + "\"skipped_records\" = $3, \"input_bytes\" = $4, \"input_sha256\" = $5, \"counts\" = $6, \"error\" = $7 WHERE \"id\" = $8 "
                + "AND \"outcome\" = $9",
            [
                outcome.rawValue, records.map(String.init), skippedRecords.map(String.init), inputBytes.map(String.init), inputSHA256, counts, error,
                String(id), RunOutcome.running.rawValue,
            ])
    }

    /// The input fingerprint of the last run that succeeded, for `--if-changed`.
    package func lastSucceededInputSHA256() throws(PostgresError) -> String? {
        try scalar(
            "SELECT \"input_sha256\" FROM \(quoteIdentifier(InternalTable.runs)) WHERE \"outcome\" = $1 ORDER BY \"id\" DESC LIMIT 1",
            [RunOutcome.succeeded.rawValue])
    }

    /// Stores `value` under `key` in the metadata, `updated_at` moving only when it changes.
    package func setMeta(_ key: String, _ value: MetaValue) throws(PostgresError) {
        let table = quoteIdentifier(InternalTable.meta)
        _ = try rows(
            "INSERT INTO \(table) (\"key\", \"type\", \"value\", \"updated_at\") VALUES ($1, $2, $3, \(Self.nowText)) "
                + "ON CONFLICT (\"key\") DO UPDATE SET \"type\" = EXCLUDED.\"type\", \"value\" = EXCLUDED.\"value\", \"updated_at\" = EXCLUDED.\"updated_at\" "
                + "WHERE \(table).\"type\" IS DISTINCT FROM EXCLUDED.\"type\" OR \(table).\"value\" IS DISTINCT FROM EXCLUDED.\"value\"",
            [key, value.type.rawValue, Self.metaText(value)])
    }

    /// Removes `key` from the metadata.
    package func unsetMeta(_ key: String) throws(PostgresError) {
        _ = try rows("DELETE FROM \(quoteIdentifier(InternalTable.meta)) WHERE \"key\" = $1", [key])
    }

    /// A metadata value as the `value` column holds it (a bool as 1 or 0, as in the SQLite store).
    static func metaText(_ value: MetaValue) -> String {
        switch value {
        case .bool(let flag): flag ? "1" : "0"
        case .integer(let number): String(number)
        case .double(let number): "\(number)"
        case .string(let text), .date(let text), .json(let text): text
        }
    }

    /// The newest `last` runs, newest first; none when no import made the store's tables yet.
    package func runs(last: Int) throws(PostgresError) -> [RunRecord] {
        guard try scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(InternalTable.runs)]) == "t" else { return [] }
        let rows = try rows(
            "SELECT \"id\", \"started_at\", \"finished_at\", \"pid\", \"host\", \"input\", \"input_bytes\", \"input_sha256\", "
                + "\"map_name\", \"map_sha256\", \"records\", \"skipped_records\", \"counts\", \"outcome\", \"error\" "
                + "FROM \(quoteIdentifier(InternalTable.runs)) ORDER BY \"id\" DESC LIMIT $1", [String(max(0, last))])
        return rows.map { row in
            RunRecord(
                id: row[0].flatMap { Int64($0) } ?? 0, startedAt: row[1] ?? "", finishedAt: row[2], pid: row[3].flatMap { Int32($0) } ?? 0,
                host: row[4] ?? "", input: row[5] ?? "", inputBytes: row[6].flatMap { Int64($0) }, inputSHA256: row[7], mapName: row[8] ?? "",
                mapSHA256: row[9] ?? "", records: row[10].flatMap { Int64($0) }, skippedRecords: row[11].flatMap { Int64($0) }, counts: row[12],
                outcome: row[13].flatMap { RunOutcome(rawValue: $0) } ?? .failed, error: row[14])
        }
    }

    /// Every metadata key with its value, sorted by key bytewise (as the SQLite store lists them).
    package func allMeta() throws(PostgresError) -> [(key: String, value: MetaValue)] {
        guard try scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(InternalTable.meta)]) == "t" else { return [] }
        return try rows("SELECT \"key\", \"type\", \"value\" FROM \(quoteIdentifier(InternalTable.meta)) ORDER BY \"key\" COLLATE \"C\"").compactMap { row in
            guard let key = row[0], let value = Self.metaValue(type: row[1], text: row[2]) else { return nil }
            return (key, value)
        }
    }

    /// The value of metadata `key`, or nil when it is not set.
    package func meta(_ key: String) throws(PostgresError) -> MetaValue? {
        guard try scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(InternalTable.meta)]) == "t" else { return nil }
        guard let row = try rows("SELECT \"type\", \"value\" FROM \(quoteIdentifier(InternalTable.meta)) WHERE \"key\" = $1", [key]).first else {
            return nil
        }
        return Self.metaValue(type: row[0], text: row[1])
    }

    /// Runs `body` in a transaction under the store's lock, the store's own tables made first.
    package func writeMeta(wait: Double, _ body: (PostgresConnection) throws(PostgresError) -> Void) throws(PostgresError) {
        try begin()
        do throws(PostgresError) {
            try lockStore(wait: wait)
            try lockOwnTables()
            for statement in PostgresSchemaSQL.internalTables { try execute(statement) }
            try body(self)
            try commit()
        } catch {
            rollback()
            throw error
        }
    }

    static func metaValue(type: String?, text: String?) -> MetaValue? {
        guard let type = type.flatMap(MetaType.init(rawValue:)), let text else { return nil }
        switch type {
        case .bool: return text == "1" ? .bool(true) : text == "0" ? .bool(false) : nil
        case .integer: return Int64(text).map { .integer($0) }
        case .double: return Double(text).map { .double($0) }
        case .string: return .string(text)
        case .date: return .date(text)
        case .json: return .json(text)
        }
    }
}
