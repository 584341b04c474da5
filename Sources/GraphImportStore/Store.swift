internal import CSQLite
import Foundation
import GraphImportSchema

/// The graph store: a database plus the schema history recorded in `graphimport_schema`.
package final class Store {
    /// The connection; the engine runs its upserts through it.
    package let database: Database
    /// The store file's path.
    package let path: String
    /// True when the file did not exist before opening, so a failed first import can remove it.
    package let createdFile: Bool

    /// Opens (and by default creates) the store at `path`. Nothing is written until `migrate`.
    package init(path: String, options: Database.Options = .init()) throws(StoreError) {
        self.path = path
        // A dangling symlink "exists" for lstat-minded callers; SQLite refuses it anyway.
        let existed = (try? FileManager.default.attributesOfItem(atPath: path)) != nil
        database = try Database(path: path, options: options)
        createdFile = !existed
    }

    /// The schema recorded by the latest migration, or nil when none was recorded.
    package func recordedSchema() throws(StoreError) -> SchemaDescription? {
        try latestRecord()?.schema
    }

    /// Plans the migration from the store's real tables (see `storedSchema`) to `schema` (renaming
    /// tables the store holds under their names in `formerly`: `Migrator.plan`); when there are no
    /// refusals, runs its statements and records `schema` (with the map for reference) if it
    /// differs from the latest record.
    /// Must be called inside the caller's transaction. Returns the plan either way.
    package func migrate(
        to schema: SchemaDescription, formerly: SchemaDescription? = nil, mapName: String, mapText: String
    ) throws(StoreError) -> MigrationPlan {
        // Outside a transaction each DDL statement would commit on its own, and a failure
        // half-way would leave a schema that matches no recorded version.
        guard database.isInTransaction else {
            throw StoreError(extendedCode: SQLITE_MISUSE, message: "the schema migration must run inside a transaction")
        }
        let latest = try latestRecord()
        let plan = Migrator.plan(from: try storedSchema(), to: schema, formerly: formerly, target: .sqlite)
        guard plan.refusals.isEmpty else { return plan }
        for statement in plan.statements {
            try database.execute(statement)
        }
        if latest == nil {
            try database.execute(
                "CREATE TABLE IF NOT EXISTS \(quoteIdentifier(InternalTable.schema)) (\"version\" INTEGER PRIMARY KEY, "
                    + "\"recorded_at\" TEXT, \"map_name\" TEXT, \"map_text\" TEXT, \"schema_json\" TEXT) STRICT")
        }
        if latest?.schema != schema || latest?.mapName != mapName || latest?.mapText != mapText {
            try record(schema, mapName: mapName, mapText: mapText)
        }
        return plan
    }

    private struct Record {
        var schema: SchemaDescription
        var mapName: String?
        var mapText: String?
    }

    private func latestRecord() throws(StoreError) -> Record? {
        let exists = try database.scalar(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(InternalTable.schema)])
        guard exists == .integer(1) else { return nil }
        guard
            let row = try database.rows(
                "SELECT \"version\", \"map_name\", \"map_text\", \"schema_json\" FROM \(quoteIdentifier(InternalTable.schema)) "
                    + "ORDER BY \"version\" DESC LIMIT 1"
            ).first
        else { return nil }
        guard case .text(let json) = row[3], let schema = try? JSONDecoder().decode(SchemaDescription.self, from: Data(json.utf8)) else {
            throw StoreError(
                extendedCode: SQLITE_ERROR,
                message: "the schema recorded in \(InternalTable.schema) version \(row[0]) cannot be read; the store was written by another program or version")
        }
        return Record(schema: schema, mapName: row[1].textValue, mapText: row[2].textValue)
    }

    private func record(_ schema: SchemaDescription, mapName: String, mapText: String) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json: String
        do {
            json = String(decoding: try encoder.encode(schema), as: UTF8.self)
        } catch {
            throw StoreError(extendedCode: SQLITE_ERROR, message: "the schema cannot be encoded: \(error)")
        }
        try database.run(
            "INSERT INTO \(quoteIdentifier(InternalTable.schema)) (\"recorded_at\", \"map_name\", \"map_text\", \"schema_json\") "
                + "VALUES (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), ?, ?, ?)",
            [.text(mapName), .text(mapText), .text(json)])
    }
}

extension SQLValue {
    /// The string of a `.text` value, nil otherwise.
    var textValue: String? {
        if case .text(let text) = self { text } else { nil }
    }
}
