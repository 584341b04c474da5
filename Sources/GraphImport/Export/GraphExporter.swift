import GraphImportJSON
import GraphImportMapping
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore

/// Writes a store's objects back as JSON in the shape a map reads: `graphimport export`.
///
/// The store is a SQLite file or a PostgreSQL database (a connection string), read alike through
/// `StoreReader`. The export reads one snapshot of the store (a read transaction): during an
/// import it sees the last import committed, never part of one, and holds up neither. It streams: objects are read
/// and written one at a time, so memory does not grow with the store.
public final class GraphExporter {
    package let plan: ExportPlan

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

    /// Writes the export of the store at `storePath` (a file, or a PostgreSQL connection string)
    /// to `write`, in pieces as it goes; waits up to `busyTimeout` seconds for a SQLite store whose
    /// first import holds it. `shouldStop` is asked before each top-level object: true ends the
    /// export with `ExportError.interrupted`.
    @discardableResult
    public func run(
        storePath: String, request: ExportRequest, busyTimeout: Double = 30, shouldStop: @escaping () -> Bool = { false },
        write: @escaping (UnsafeRawBufferPointer) -> Void
    ) throws(ExportError) -> ExportSummary {
        let reader: any StoreReader
        if case .postgres(let location) = StoreLocation(storePath) {
            do { reader = try PostgresReader(location) } catch { throw ExportError(server: error) }
        } else {
            do throws(StoreError) {
                let store = try Store(path: storePath, options: Database.Options(create: false, readOnly: true, busyTimeout: busyTimeout))
                // An export reads each page about once, in order of the primary keys: a small page
                // cache keeps its memory flat, and pages read again come from the OS's file cache.
                try store.database.execute("PRAGMA cache_size = -8192")
                reader = SQLiteReader(store: store)
            } catch {
                throw .store(StoreFailure(error))
            }
        }
        return try run(reader: reader, request: request, shouldStop: shouldStop, write: write)
    }

    /// Writes the export of the store `reader` reads, as `run(storePath:…)` does.
    package func run(
        reader: any StoreReader, request: ExportRequest, shouldStop: @escaping () -> Bool = { false }, write: @escaping (UnsafeRawBufferPointer) -> Void
    ) throws(ExportError) -> ExportSummary {
        let selection = try ExportSelection(request, plan: plan, dialect: reader.dialect)
        let stored: [String: Set<String>]
        do throws(ReadError) { stored = try reader.tables() } catch { throw ExportError(error) }
        if let former = plan.importPlan.formerTables(in: Set(stored.keys)).first {
            throw .storeMismatch(former.message, hint: ImportPlan.FormerTable.hint)
        }
        if let mismatch = ExportError.mismatch(of: stored, with: plan.importPlan.schema) { throw mismatch }
        let summary: ExportSummary?
        do throws(ReadError) {
            // One read transaction: every query sees the same committed state of the store.
            try reader.beginRead()
            defer { reader.endRead() }
            let out = JSONOutput(sink: write)
            let walk = ExportWalk(plan: plan, reader: reader, out: out, maxDepth: request.depth ?? Int.max, shouldStop: shouldStop)
            if let selection {
                try walk.writeEntity(selection, jsonLines: request.jsonLines)
            } else {
                try walk.writeDocument()
            }
            out.flush()
            summary = walk.stopped ? nil : ExportSummary(objects: walk.objects, unwritten: walk.unwritten)
        } catch {
            throw ExportError(error)
        }
        guard let summary else { throw .interrupted }
        return summary
    }
}
