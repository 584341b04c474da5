import Foundation
import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

extension StoreUnderTest {
    /// The rows of `sql` (written for both stores: quote names such as `"user"`), in the query's
    /// order, each value as text the same way on both: NULL, a number without a fraction for an
    /// integral real (as PostgreSQL prints it), text as it is.
    package func select(_ sql: String) throws -> [[String]] {
        switch kind {
        case .sqlite:
            let database = try Database(path: location, options: .init(create: false, readOnly: true))
            return try database.rows(sql).map { row in row.map(Self.text) }
        case .postgresql:
            let connection = try PostgresConnection(ConnectionString(location)!)
            return try connection.rows(sql).map { row in row.map { $0 ?? "NULL" } }
        }
    }

    /// The one value of `sql`.
    package func value(_ sql: String) throws -> String? { try select(sql).first?.first }

    /// Whether the store holds no data: no entity or join table, only graphimport's own tables and
    /// failed runs. What a failed import into a new store leaves behind.
    package func holdsNoData() throws -> Bool {
        try tableNames() == [] && value("SELECT count(*) FROM graphimport_runs WHERE outcome <> 'failed'") == "0"
    }

    /// Runs `sql` (a change made by hand, as another program would make it).
    package func execute(_ sql: String) throws {
        switch kind {
        case .sqlite: try Database(path: location).execute(sql)
        case .postgresql: try PostgresConnection(ConnectionString(location)!).execute(sql)
        }
    }
}

/// The keys that linked nothing, per relationship: `[member, target, count]`.
package func unlinkedCounts(_ summary: ImportSummary) -> [[String]] {
    summary.unlinked.map { [$0.member, $0.target, String($0.count)] }
}

/// A fresh store of either kind with one map's plan: what a test of one behaviour on both stores needs.
package struct MappedStore {
    package let store: StoreUnderTest
    package let plan: ImportPlan

    package init(_ kind: StoreKind, map: String, batchSize: Int = 5000) throws {
        store = try StoreUnderTest(kind, batchSize: batchSize)
        plan = try ImportPlan.compile(text: map, fileName: "test.map")
    }

    /// Imports `json`; throws the failure's text when it fails.
    @discardableResult
    package func importJSON(_ json: String, options: ImportOptions = .init(), onSkip: (RecordError) -> Void = { _ in }) throws -> ImportSummary {
        try store.importJSON(json, plan: plan, options: options, onSkip: onSkip).get()
    }

    package func select(_ sql: String) throws -> [[String]] { try store.select(sql) }

    package func value(_ sql: String) throws -> String? { try store.value(sql) }

    package func execute(_ sql: String) throws { try store.execute(sql) }

    /// Every row of the map's tables (`StoreUnderTest.rows(plan:)`).
    package func rows() throws -> [String: [String]] { try store.rows(plan: plan) }
}
