import Foundation
import GraphImport
import GraphImportJSON
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore
import GraphImportTestSupport
import Testing

/// The two stores an import can write, for tests that must hold for both.
package enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgresql

    package var testDescription: String { rawValue }

    /// The stores this machine can test: PostgreSQL only where the server binaries are installed
    /// (`needsPostgres` says once, in a test of its own, why it is left out).
    package static let testable: [StoreKind] = PostgresTestCluster.isAvailable ? allCases : [.sqlite]
}

/// The trait of every test that needs the throwaway server: skipped, saying why, without its binaries.
package let needsPostgres = Testing.ConditionTrait.enabled(if: PostgresTestCluster.isAvailable, Comment(rawValue: PostgresTestCluster.skipReason))

/// A fresh store of either kind, with imports into it and its rows as text.
package final class StoreUnderTest {
    package let kind: StoreKind
    package let directory = TemporaryDirectory()
    private var database: ScratchDatabase?
    /// Objects per batch on PostgreSQL.
    package let batchSize: Int

    package init(_ kind: StoreKind, batchSize: Int = 5000) throws {
        self.kind = kind
        self.batchSize = batchSize
        if kind == .postgresql { database = try PostgresTestCluster.shared().makeDatabase() }
    }

    package var location: String { database?.connectionString ?? directory.path("store.sqlite") }

    /// Imports `json` with `plan`; the error as text when it fails. `onSkip` hears each record
    /// skipped, `onRunBegan` the run's id once it is recorded (before the import takes the lock).
    package func importJSON(
        _ json: String, plan: ImportPlan, options: ImportOptions = .init(), onSkip: (RecordError) -> Void = { _ in },
        onRunBegan: (Int64) -> Void = { _ in }
    ) -> Result<ImportSummary, ImportFailureText> {
        var options = options
        options.postgresBatchSize = batchSize
        // SQLite takes content digests as PostgreSQL does, so that both stores' suites run the
        // digest path (off by default on SQLite: `ImportOptions.digestsInSQLite`).
        options.digestsInSQLite = true
        do {
            return .success(
                try GraphImporter(plan: plan).run(
                    source: BytesSource(Array(json.utf8)), inputName: "feed", store: store, options: options, onSkip: onSkip, onRunBegan: onRunBegan))
        } catch {
            return .failure(ImportFailureText(text: error.description))
        }
    }

    /// The store as the engine names it: the SQLite file, or the throwaway database's connection string.
    package var store: StoreLocation { StoreLocation(location) }

    /// Every row of every entity and join table of `plan`, row ids aside: a to-one is shown by its
    /// target's key, a join row by its owner's and target's keys, its position and its link values. Sorted.
    package func rows(plan: ImportPlan) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        func keys(_ entity: EntityPlan, alias: String) -> [String] {
            entity.keyAttributes.map { "\(alias).\(quoteIdentifier(entity.attributes[$0].column))" }
        }
        for entity in plan.entities {
            var columns = entity.attributes.map { "e.\(quoteIdentifier($0.column))" } + ["e.\"inserted_run\"", "e.\"changed_run\""]
            var joins = ""
            for (index, toOne) in entity.toOne.enumerated() {
                let target = plan.entities[toOne.target]
                columns += keys(target, alias: "t\(index)")
                joins += " LEFT JOIN \(quoteIdentifier(target.table)) t\(index) ON t\(index).\"pk\" = e.\(quoteIdentifier(toOne.column))"
            }
            result[entity.table] = try query("SELECT \(columns.joined(separator: ", ")) FROM \(quoteIdentifier(entity.table)) e\(joins)")
            for toMany in entity.toMany {
                let target = plan.entities[toMany.target]
                let columns =
                    keys(entity, alias: "o") + keys(target, alias: "t") + ["j.\"position\""] + toMany.linkAttributes.map { "j.\(quoteIdentifier($0.column))" }
                result[toMany.joinTable] = try query(
                    "SELECT \(columns.joined(separator: ", ")) FROM \(quoteIdentifier(toMany.joinTable)) j "
                        + "JOIN \(quoteIdentifier(entity.table)) o ON o.\"pk\" = j.\(quoteIdentifier(toMany.ownerColumn)) "
                        + "JOIN \(quoteIdentifier(target.table)) t ON t.\"pk\" = j.\(quoteIdentifier(toMany.targetColumn))")
            }
        }
        return result
    }

    private func query(_ sql: String) throws -> [String] {
        let lines: [String]
        switch kind {
        case .sqlite:
            let database = try Database(path: location, options: .init(create: false, readOnly: true))
            lines = try database.rows(sql).map { row in row.map(Self.text).joined(separator: "|") }
        case .postgresql:
            let connection = try PostgresConnection(ConnectionString(location)!)
            lines = try connection.rows(sql).map { row in row.map { $0 ?? "NULL" }.joined(separator: "|") }
        }
        return lines.sorted()
    }

    static func text(_ value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): String(number)
        // As PostgreSQL prints a double: an integral one without its fraction.
        case .real(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
        case .text(let text): text
        case .blob(let bytes): "\\x" + bytes.map { String(format: "%02x", $0) }.joined()
        }
    }
}

package struct ImportFailureText: Error, Equatable {
    package let text: String
}

/// Counts per entity as `[inserted, updated, unchanged, skipped]`, by entity name.
package func countsByEntity(_ summary: ImportSummary) -> [String: [Int]] {
    Dictionary(
        uniqueKeysWithValues: summary.entities.map { ($0.name, [$0.counts.inserted, $0.counts.updated, $0.counts.unchanged, $0.counts.skipped]) })
}
