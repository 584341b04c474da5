import GraphImportMapping
import GraphImportPostgres
import GraphImportSchema

extension ImportPlan {
    /// Each table, column or index name of the map longer than PostgreSQL keeps
    /// (`PostgresSchemaSQL.overlongNames`), at the map line that makes it: cut short, two names
    /// could become one, so such a map is refused before anything is written, as `schema` refuses it.
    func postgresOverlongNames() -> [Diagnostic] {
        var found: [Diagnostic] = []
        for table in schema.tables {
            for name in PostgresSchemaSQL.overlongNames(in: SchemaDescription(tables: [table])) {
                // An index is named after its table and columns: shown at the table's entity.
                let column = table.columns.first { $0.name == name }?.name
                let refusal = MigrationRefusal(
                    table: table.name, column: column,
                    message: "\(column == nil ? "name" : "column") \(name) is longer than PostgreSQL's \(PostgresSchemaSQL.maxNameBytes) bytes",
                    hint: "give the entity a shorter `table` name, or the attribute or relationship a shorter name")
                found.append(diagnostic(for: refusal))
            }
        }
        return found
    }
}
