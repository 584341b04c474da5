import GraphImport
import GraphImportJSON
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

/// What the migration tests ask of a store of either kind: an import whose failure is the
/// import's own error, SQL run by hand (a table added beside the map's), and the tables and rows as text.
extension StoreUnderTest {
    /// Imports `json` with the map text `map` (named `test.map`).
    @discardableResult
    package func importJSON(_ json: String, map: String, options: ImportOptions = .init()) throws -> ImportSummary {
        try importOrThrow(json, plan: ImportPlan.compile(text: map, fileName: "test.map"), options: options)
    }

    /// Imports `json` with `plan`, throwing the `ImportError` either store gives (a refused
    /// migration, a record error, the server's failure).
    @discardableResult
    package func importOrThrow(_ json: String, plan: ImportPlan, options: ImportOptions = .init()) throws(ImportError) -> ImportSummary {
        var options = options
        options.postgresBatchSize = batchSize
        options.digestsInSQLite = true
        return try GraphImporter(plan: plan).run(source: BytesSource(Array(json.utf8)), inputName: "feed", store: store, options: options)
    }

    /// The rows of `sql`, in its order, each as its values' text joined by `|` (NULL as `NULL`).
    package func lines(_ sql: String) throws -> [String] {
        switch kind {
        case .sqlite:
            let database = try Database(path: location, options: .init(create: false, readOnly: true))
            return try database.rows(sql).map { row in
                row.map { value in
                    switch value {
                    case .null: "NULL"
                    case .integer(let number): String(number)
                    case .real(let number): "\(number)"
                    case .text(let text): text
                    case .blob(let bytes): bytes.map { String($0, radix: 16) }.joined()
                    }
                }.joined(separator: "|")
            }
        case .postgresql:
            return try PostgresConnection(ConnectionString(location)!).rows(sql).map { row in row.map { $0 ?? "NULL" }.joined(separator: "|") }
        }
    }

    /// The store's data tables (not graphimport's own), sorted.
    package func tableNames() throws -> [String] {
        switch kind {
        case .sqlite: try lines("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'graphimport\\_%' ESCAPE '\\' ORDER BY name")
        case .postgresql:
            try lines(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename NOT LIKE 'graphimport\\_%' ESCAPE '\\' ORDER BY tablename COLLATE \"C\""
            )
        }
    }

    /// The columns of `table`, in order.
    package func columnNames(of table: String) throws -> [String] {
        switch kind {
        case .sqlite: try lines("SELECT name FROM pragma_table_info('\(table)') ORDER BY cid")
        case .postgresql:
            try lines(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '\(table)' ORDER BY ordinal_position"
            )
        }
    }
}

extension StoreUnderTest {
    /// How this store words a refused migration.
    package var migrationTarget: MigrationTarget { kind == .sqlite ? .sqlite : .postgresql }
}

extension StoreUnderTest {
    /// What `graphimport schema --map M [--store S]` prints for this kind of store.
    package func schemaSQL(for schema: SchemaDescription) -> [String] {
        kind == .sqlite ? SchemaSQL.createStatements(for: schema) : PostgresSchemaSQL.createStatements(for: schema)
    }
}
