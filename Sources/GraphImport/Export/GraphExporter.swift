import GraphImportJSON
import GraphImportMapping
import GraphImportStore

/// Writes a store's objects back as JSON in the shape a map reads: `graphimport export`.
///
/// The export reads one snapshot of the store (a read transaction): during an import it sees the
/// last import committed, never part of one, and holds up neither. It streams: objects are read
/// and written one at a time, so memory does not grow with the store.
public final class GraphExporter {
    public let plan: ExportPlan

    public init(plan: ImportPlan, converters: ConverterCatalog = .standard) {
        self.plan = ExportPlan(plan: plan, converters: converters)
    }

    /// What the map cannot write back so that it imports to the same graph.
    public var caveats: [ExportCaveat] { plan.caveats }

    /// Checks `request` against the map (the entity, the condition's names and values, the keys)
    /// without opening a store: what `run` would refuse before writing anything.
    public func validate(_ request: ExportRequest) throws(ExportError) {
        _ = try ExportSelection(request, plan: plan)
    }

    /// Writes the export of the store at `storePath` to `write`, in pieces as it goes; waits up to
    /// `busyTimeout` seconds for a store whose first import holds it. `shouldStop` is asked before
    /// each top-level object: true ends the export with `ExportError.interrupted`.
    @discardableResult
    public func run(
        storePath: String, request: ExportRequest, busyTimeout: Double = 30, shouldStop: @escaping () -> Bool = { false },
        write: @escaping (UnsafeRawBufferPointer) -> Void
    ) throws(ExportError) -> ExportSummary {
        let selection = try ExportSelection(request, plan: plan)
        let summary: ExportSummary?
        do throws(StoreError) {
            let store = try Store(path: storePath, options: Database.Options(create: false, readOnly: true, busyTimeout: busyTimeout))
            let database = store.database
            // An export reads each page about once, in order of the primary keys: a small page
            // cache keeps its memory flat, and pages read again come from the OS's file cache.
            try database.execute("PRAGMA cache_size = -8192")
            // One read transaction: every query sees the same committed state of the store.
            try database.execute("BEGIN")
            defer { if database.isInTransaction { try? database.execute("ROLLBACK") } }
            let out = JSONOutput(sink: write)
            let walk = ExportWalk(plan: plan, database: database, out: out, maxDepth: request.depth ?? Int.max, shouldStop: shouldStop)
            if let selection {
                try walk.writeEntity(selection, jsonLines: request.jsonLines)
            } else {
                try walk.writeDocument(store: store)
                out.newline()
            }
            out.flush()
            try database.execute("COMMIT")
            summary = walk.stopped ? nil : ExportSummary(objects: walk.objects)
        } catch {
            throw .store(error)
        }
        guard let summary else { throw .interrupted }
        return summary
    }
}
