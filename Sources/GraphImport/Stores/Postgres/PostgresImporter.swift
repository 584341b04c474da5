import GraphImportJSON
import GraphImportPostgres

/// Imports a feed into a PostgreSQL store: `GraphImporter.run(source:inputName:store:options:)`
/// with a PostgreSQL location, its failures as `PostgresImportError`, for callers that name the
/// server's failures apart.
public struct PostgresImporter: Sendable {
    public let plan: ImportPlan
    let importer: GraphImporter
    /// Objects gathered before a batch is written (`defaultBatchSize` unless a test asks for fewer).
    public var batchSize = Self.defaultBatchSize
    public static let defaultBatchSize = ImportOptions.defaultPostgresBatchSize

    public init(plan: ImportPlan, hooks: ImportHooks = ImportHooks()) {
        self.plan = plan
        importer = GraphImporter(plan: plan, hooks: hooks)
    }

    /// Reads records from `source` and upserts them into the store at `location`. Either everything
    /// is committed or nothing is; the run is recorded in `graphimport_runs` whatever its outcome.
    public func run(
        source: some JSONByteSource, inputName: String, location: ConnectionString, options: ImportOptions,
        onSkip: (RecordError) -> Void = { _ in }, onProgress: ((Int, Int) -> Void)? = nil, onRunBegan: (Int64) -> Void = { _ in }
    ) throws(PostgresImportError) -> ImportSummary {
        var options = options
        options.postgresBatchSize = batchSize
        do {
            return try importer.run(
                source: source, inputName: inputName, store: .postgres(location), options: options, onSkip: onSkip, onProgress: onProgress,
                onRunBegan: onRunBegan)
        } catch {
            switch error {
            case .server(_, let error): throw .server(error)
            case .unsupported(let store, let message, let refusals): throw .unsupported(store: store, message: message, refusals: refusals)
            default: throw .importing(error)
            }
        }
    }
}
