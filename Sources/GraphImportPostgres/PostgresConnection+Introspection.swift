package import GraphImportSchema

/// The store's tables as they are, read from PostgreSQL's catalog into the descriptions the SQLite
/// store reads from its own (`Store.storedSchema`), so that `Migrator` compares a map with either
/// store alike: several maps may feed one store, and a store made with `graphimport schema … | psql`
/// imports as if graphimport had made it.
extension PostgresConnection {
    /// The data tables of the connection's current schema (not `graphimport_…`), their columns,
    /// keys, references and indexes; every name of the schema's relations and types; and the schema
    /// recorded by the latest migration.
    package func storedSchema() throws(PostgresError) -> StoredSchema {
        let namespace = "(SELECT oid FROM pg_namespace WHERE nspname = current_schema())"
        var names: [(name: String, type: String)] = []
        var tables: [(oid: String, name: String)] = []
        // Tables, indexes, sequences, views and types share one namespace per schema: a new table or
        // index may take none of their names.
        for row in try rows("SELECT oid::text, relname, relkind::text FROM pg_class WHERE relnamespace = \(namespace) ORDER BY oid") {
            guard let oid = row[0], let name = row[1], let kind = row[2] else { continue }
            names.append((name, Self.relationType(kind)))
            if kind == "r" || kind == "p", !name.lowercased().hasPrefix("graphimport_") { tables.append((oid, name)) }
        }
        for row in try rows("SELECT typname FROM pg_type WHERE typnamespace = \(namespace) AND typrelid = 0 AND typcategory <> 'A'") {
            if let name = row[0] { names.append((name, "type")) }
        }
        var described: [TableDescription] = []
        for table in tables { described.append(try describeTable(oid: table.oid, name: table.name)) }
        return StoredSchema(
            schema: SchemaDescription(tables: described), names: StoredSchema.foldedNames(names), recorded: try latestSchemaRecord()?.schema)
    }

    private func describeTable(oid: String, name: String) throws(PostgresError) -> TableDescription {
        var columns: [ColumnDescription] = []
        var identity: Set<String> = []
        let columnRows = try rows(
            "SELECT a.attname, format_type(a.atttypid, NULL), a.attnotnull, a.attidentity <> '' OR coalesce(pg_get_expr(d.adbin, d.adrelid) LIKE 'nextval(%', false) "
                + "FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
                + "WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum", [oid])
        for row in columnRows {
            guard let column = row[0] else { continue }
            if row[3] == "t" { identity.insert(column) }
            columns.append(ColumnDescription(name: column, type: Self.columnType(declared: row[1] ?? ""), notNull: row[2] == "t"))
        }
        let keyRows = try rows(
            "SELECT a.attname, format_type(a.atttypid, NULL) FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n) "
                + "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum WHERE i.indrelid = $1::oid AND i.indisprimary ORDER BY k.n", [oid])
        let keyColumns = keyRows.compactMap { $0[0] }
        let primaryKey: PrimaryKey
        // The SQLite store's rowid key is, on PostgreSQL, a BIGINT that numbers itself (an identity
        // column, or a serial's sequence): new rows leave it out.
        if keyRows.count == 1, keyRows[0][1] == "bigint", identity.contains(keyColumns[0]) {
            primaryKey = .rowid(keyColumns[0])
            columns.removeAll { $0.name == keyColumns[0] }
        } else {
            primaryKey = .columns(keyColumns)
        }
        // Only single-column references are ours; a composite one stays out of the description and
        // so can never look compatible, as in the SQLite store.
        var references: [String: ForeignKey] = [:]
        let keys = try rows(
            "SELECT a.attname, t.relname, ta.attname, c.confdeltype::text FROM pg_constraint c "
                + "JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1] "
                + "JOIN pg_class t ON t.oid = c.confrelid JOIN pg_attribute ta ON ta.attrelid = c.confrelid AND ta.attnum = c.confkey[1] "
                + "WHERE c.conrelid = $1::oid AND c.contype = 'f' AND cardinality(c.conkey) = 1", [oid])
        for row in keys {
            guard let from = row[0], let target = row[1], let to = row[2] else { continue }
            references[from] = ForeignKey(table: target, column: to, onDelete: Self.deleteAction(row[3] ?? ""))
        }
        for index in columns.indices {
            columns[index].references = references[columns[index].name]
        }
        // Indexes on columns only: not the primary key's, nor partial or expression ones, which are
        // no list of columns a map asks for; an index's INCLUDE columns are not among its keys.
        var uniqueKeys: [[String]] = []
        var indexes: [[String]] = []
        var current: (oid: String, unique: Bool, columns: [String])?
        func close() {
            guard let index = current else { return }
            if index.unique { uniqueKeys.append(index.columns) } else { indexes.append(index.columns) }
        }
        let indexRows = try rows(
            "SELECT i.indexrelid::text, i.indisunique, a.attname FROM pg_index i CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, n) "
                + "JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum "
                + "WHERE i.indrelid = $1::oid AND NOT i.indisprimary AND i.indisvalid AND i.indpred IS NULL AND i.indexprs IS NULL AND k.n <= i.indnkeyatts "
                + "ORDER BY i.indexrelid, k.n", [oid])
        for row in indexRows {
            guard let index = row[0], let column = row[2] else { continue }
            if current?.oid != index {
                close()
                current = (index, row[1] == "t", [])
            }
            current?.columns.append(column)
        }
        close()
        return TableDescription(name: name, primaryKey: primaryKey, columns: columns, uniqueKeys: uniqueKeys, indexes: indexes)
    }

    /// What a `pg_class.relkind` names, as a refusal says it ("the store already has an index named …").
    static func relationType(_ kind: String) -> String {
        switch kind {
        case "r", "p": "table"
        case "i", "I": "index"
        case "S": "sequence"
        case "v": "view"
        case "m": "materialized view"
        case "f": "foreign table"
        case "c": "type"
        default: "relation"
        }
    }

    /// The column type of a PostgreSQL type, read as the SQLite store reads a declared type by its
    /// affinity: any integer is INTEGER, any character type TEXT. A type graphimport does not write
    /// (numeric, timestamp, jsonb, …) is ANY, which matches no type of a map.
    static func columnType(declared: String) -> ColumnType {
        switch declared {
        case "bigint", "integer", "smallint": .integer
        case "double precision", "real": .real
        case "text", "character varying", "character": .text
        case "bytea": .blob
        default: .any
        }
    }

    /// A foreign key's `confdeltype`; SET DEFAULT, which graphimport never writes, reads as NO ACTION,
    /// as the SQLite store reads an action it does not know.
    static func deleteAction(_ code: String) -> DeleteAction {
        switch code {
        case "c": .cascade
        case "n": .setNull
        case "r": .restrict
        default: .noAction
        }
    }
}
