internal import CLibPQ
import Foundation
package import GraphImportSchema

/// Migrating a PostgreSQL store to a map: the plan is both stores' (`Migrator`, from the tables
/// as they are), the DDL PostgreSQL's (`PostgresSchemaSQL.statements(for:)`).
extension PostgresConnection {
    /// Whether a transaction is open on the connection.
    package var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Plans the migration from the store's tables as they are (`storedSchema`) to `schema` (renaming
    /// tables it holds under their names in `formerly`: `Migrator.plan`); when
    /// nothing is refused, runs its DDL and records `schema` (with the map, for reference) in
    /// `graphimport_schema` if it differs from the latest record. Returns the plan either way.
    ///
    /// Must run inside the import's transaction, under the store's lock: PostgreSQL's DDL is
    /// transactional, so an import that fails after migrating leaves the tables as they were, and
    /// two imports never migrate at once.
    package func migrate(
        to schema: SchemaDescription, formerly: SchemaDescription? = nil, mapName: String, mapText: String
    ) throws(PostgresError) -> MigrationPlan {
        guard isInTransaction else { throw PostgresError(.other, message: "the schema migration must run inside a transaction") }
        let latest = try latestSchemaRecord()
        let plan = Migrator.plan(from: try storedSchema(), to: schema, formerly: formerly, target: .postgresql)
        guard plan.refusals.isEmpty else { return plan }
        for statement in PostgresSchemaSQL.statements(for: plan.steps) { try execute(statement) }
        if latest?.schema != schema || latest?.mapName != mapName || latest?.mapText != mapText {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            guard let json = try? encoder.encode(schema) else { throw PostgresError(.other, message: "the schema cannot be encoded") }
            _ = try rows(
                "INSERT INTO \(quoteIdentifier(InternalTable.schema)) (\"recorded_at\", \"map_name\", \"map_text\", \"schema_json\") "
                    + "VALUES (\(Self.nowText), $1, $2, $3)",
                [mapName, mapText, String(decoding: json, as: UTF8.self)])
        }
        return plan
    }

    /// The schema, map name and map text of the latest record in `graphimport_schema`, if any. A
    /// record that cannot be read is an error, as in the SQLite store: what the store holds is unknown.
    func latestSchemaRecord() throws(PostgresError) -> (schema: SchemaDescription, mapName: String?, mapText: String?)? {
        guard try scalar("SELECT to_regclass($1) IS NOT NULL", [quoteIdentifier(InternalTable.schema)]) == "t" else { return nil }
        guard
            let row = try rows(
                "SELECT \"version\", \"map_name\", \"map_text\", \"schema_json\" FROM \(quoteIdentifier(InternalTable.schema)) ORDER BY \"version\" DESC LIMIT 1"
            ).first
        else { return nil }
        guard let json = row[3], let schema = try? JSONDecoder().decode(SchemaDescription.self, from: Data(json.utf8)) else {
            throw PostgresError(
                .other,
                message:
                    "the schema recorded in \(InternalTable.schema) version \(row[0] ?? "?") cannot be read; the store was written by another program or version"
            )
        }
        return (schema, row[1], row[2])
    }
}
