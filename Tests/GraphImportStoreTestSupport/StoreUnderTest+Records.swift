import GraphImport
import GraphImportJSON
import GraphImportPostgres
import GraphImportSchema

/// Imports into either store with Swift hooks and skipped records seen, and the record error an
/// import stops with: what the tests of derived values, modes and hooks ask of both stores.
extension StoreUnderTest {
    /// Imports `json` with `plan` and `hooks`, calling `onSkip` for each record skipped; throws
    /// the `ImportError` either store gives.
    @discardableResult
    package func run(
        _ json: String, plan: ImportPlan, hooks: ImportHooks = ImportHooks(), options: ImportOptions = .init(),
        onSkip: (RecordError) -> Void = { _ in }
    ) throws -> ImportSummary {
        var options = options
        options.postgresBatchSize = batchSize
        options.digestsInSQLite = true
        return try GraphImporter(plan: plan, hooks: hooks).run(
            source: BytesSource(Array(json.utf8)), inputName: "feed", store: store, options: options, onSkip: onSkip)
    }

    /// The record error an import of `json` stops with; nil when it succeeds or fails otherwise.
    package func recordFailure(_ json: String, plan: ImportPlan, hooks: ImportHooks = ImportHooks(), options: ImportOptions = .init()) -> RecordError? {
        do {
            try run(json, plan: plan, hooks: hooks, options: options)
            return nil
        } catch {
            guard case .record(let record)? = error as? ImportError else { return nil }
            return record
        }
    }
}

extension MappedStore {
    /// Imports `json` with `hooks`, calling `onSkip` for each record skipped (`StoreUnderTest.run`).
    @discardableResult
    package func run(
        _ json: String, hooks: ImportHooks = ImportHooks(), options: ImportOptions = .init(), onSkip: (RecordError) -> Void = { _ in }
    ) throws -> ImportSummary {
        try store.run(json, plan: plan, hooks: hooks, options: options, onSkip: onSkip)
    }

    /// The record error an import of `json` stops with (`StoreUnderTest.recordFailure`).
    package func recordFailure(_ json: String, hooks: ImportHooks = ImportHooks(), options: ImportOptions = .init()) -> RecordError? {
        store.recordFailure(json, plan: plan, hooks: hooks, options: options)
    }

    /// The store's data tables, sorted: none after a first import that failed.
    package func tableNames() throws -> [String] { try store.tableNames() }
}
