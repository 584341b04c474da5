import GraphImport
import GraphImportStoreTestSupport

/// What the engine's tests ask of a store of either kind after an import failed.
extension MappedStore {
    /// The error an import of `json` stops with, or nil when it succeeds.
    func failure(_ json: String, options: ImportOptions = .init()) -> ImportError? {
        store.importError(json, plan: plan, options: options)
    }

    /// Whether the store holds no data: no table of the map's, and no run but failed ones. What a
    /// failed first import leaves behind, on either store (its tables were made in its transaction).
    func holdsNoData() throws -> Bool {
        try store.tableNames().isEmpty && value("SELECT count(*) FROM graphimport_runs WHERE outcome <> 'failed'") == "0"
    }
}
