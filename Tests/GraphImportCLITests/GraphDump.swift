import Foundation
import GraphImport
import GraphImportSchema
import GraphImportStore

/// A store's graph as text to compare: every entity and join table's rows, with each object
/// named by its key instead of its `pk`, and without the provenance columns (`inserted_run`,
/// `changed_run`), so that two stores built by different runs compare equal when they hold the
/// same graph.
enum GraphDump {
    /// Table name -> its rows, each a line of quoted values, sorted.
    static func tables(_ store: String, plan: ImportPlan) throws -> [String: [String]] {
        let database = try Database(path: store, options: Database.Options(create: false, readOnly: true))
        var tables: [String: [String]] = [:]
        func keyOf(_ entity: EntityPlan, pk: String) -> String {
            let key = entity.keyAttributes.map { "quote(k.\(quoteIdentifier(entity.attributes[$0].column)))" }.joined(separator: " || ',' || ")
            return "(SELECT \(key) FROM \(quoteIdentifier(entity.table)) AS k WHERE k.\(quoteIdentifier(Naming.primaryKey)) = \(pk))"
        }
        for entity in plan.entities {
            let columns =
                entity.attributes.map { "quote(o.\(quoteIdentifier($0.column)))" }
                + entity.toOne.map { keyOf(plan.entities[$0.target], pk: "o.\(quoteIdentifier($0.column))") }
            tables[entity.table] = try rows(database, "SELECT \(columns.joined(separator: ", ")) FROM \(quoteIdentifier(entity.table)) AS o")
            for relationship in entity.toMany {
                let joinColumns =
                    [
                        keyOf(entity, pk: "j.\(quoteIdentifier(relationship.ownerColumn))"),
                        keyOf(plan.entities[relationship.target], pk: "j.\(quoteIdentifier(relationship.targetColumn))"),
                        "j.\(quoteIdentifier(Naming.position))",
                    ] + relationship.linkAttributes.map { "quote(j.\(quoteIdentifier($0.column)))" }
                tables[relationship.joinTable] = try rows(
                    database, "SELECT \(joinColumns.joined(separator: ", ")) FROM \(quoteIdentifier(relationship.joinTable)) AS j")
            }
        }
        return tables
    }

    private static func rows(_ database: Database, _ sql: String) throws -> [String] {
        try database.rows(sql).map { row in row.map(\.description).joined(separator: "\t") }.sorted()
    }

    /// The first differences between two dumps, table by table, for a failure message; empty when equal.
    static func differences(_ left: [String: [String]], _ right: [String: [String]]) -> [String] {
        var differences: [String] = []
        for table in Set(left.keys).union(right.keys).sorted() {
            let before = left[table] ?? []
            let after = right[table] ?? []
            guard before != after else { continue }
            let missing = Set(before).subtracting(after).sorted().prefix(2)
            let extra = Set(after).subtracting(before).sorted().prefix(2)
            differences.append(
                "\(table): \(before.count) rows before, \(after.count) after; only before: \(missing.joined(separator: " | ")); only after: \(extra.joined(separator: " | "))"
            )
        }
        return differences
    }
}
