import GraphImport
import GraphImportJSON
import GraphImportSchema
import GraphImportStore

/// Helpers shared by the lifecycle, deletion, polymorphic-record and hook tests.
extension EngineFixture {
    /// Runs SQL against the store as another program would, to set up a state an import must respect.
    func execute(_ sql: String) throws {
        try Database(path: storePath).execute(sql)
    }

    /// Imports `json` with Swift hooks, and with `plan` when the map was compiled with other catalogs.
    @discardableResult
    func importJSON(
        _ json: String, hooks: ImportHooks, plan: ImportPlan? = nil, options: ImportOptions = .init(),
        skipped: ((RecordError) -> Void)? = nil
    ) throws(ImportError) -> ImportSummary {
        try GraphImporter(plan: plan ?? self.plan, hooks: hooks).run(
            source: BytesSource(Array(json.utf8)), inputName: "test.json", storePath: storePath, options: options,
            onSkip: skipped ?? { _ in })
    }

    /// The error an import stops with, or nil when it succeeds.
    func importFailure(_ json: String, hooks: ImportHooks = ImportHooks(), options: ImportOptions = .init()) -> ImportError? {
        do {
            try importJSON(json, hooks: hooks, options: options)
            return nil
        } catch {
            return error
        }
    }

    /// The record error an import stops with, or nil when it succeeds or stops for another reason.
    func recordFailure(_ json: String, hooks: ImportHooks = ImportHooks(), options: ImportOptions = .init()) -> RecordError? {
        guard case .record(let error)? = importFailure(json, hooks: hooks, options: options) else { return nil }
        return error
    }
}

/// A date no import of these tests writes, to tell a value the engine set from one it left alone.
let longAgo = "2000-01-01T00:00:00.000Z"
