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
        _ = try Selection(request, plan: plan)
    }

    /// Writes the export of the store at `storePath` to `write`, in pieces as it goes; waits up to
    /// `busyTimeout` seconds for a store whose first import holds it. `shouldStop` is asked before
    /// each top-level object: true ends the export with `ExportError.interrupted`.
    @discardableResult
    public func run(
        storePath: String, request: ExportRequest, busyTimeout: Double = 30, shouldStop: @escaping () -> Bool = { false },
        write: @escaping (UnsafeRawBufferPointer) -> Void
    ) throws(ExportError) -> ExportSummary {
        let selection = try Selection(request, plan: plan)
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

/// The objects of one entity a request asks for: the entity and the SQL condition that selects them.
struct Selection {
    let entity: ExportEntity
    /// Each `WHERE` clause with its values, run in order (one per key asked for, or one in all).
    let queries: [(sql: String, values: [SQLValue])]

    /// Nil for the document.
    init?(_ request: ExportRequest, plan: ExportPlan) throws(ExportError) {
        guard let name = request.entity else {
            if !request.keys.isEmpty || request.condition != nil {
                throw ExportError.badRequest("--key and --where need an entity", hint: "name the entity: graphimport export --map MAP ENTITY --key …")
            }
            return nil
        }
        let entity = try plan.entity(named: name)
        let entities = plan.importPlan.entities
        var base: (sql: String, values: [SQLValue])?
        if let text = request.condition {
            let condition = try ExportCondition(text, entity: entity.plan, entities: entities)
            base = (condition.sql, condition.values)
        }
        if request.keys.isEmpty {
            queries = [base ?? ("", [])]
        } else {
            let keyAttributes = entity.plan.keyAttributes.map { entity.plan.attributes[$0] }
            var queries: [(String, [SQLValue])] = []
            for key in request.keys {
                let parts = keyAttributes.count == 1 ? [Substring(key)] : key.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count == keyAttributes.count else {
                    throw ExportError.badRequest(
                        "the key '\(key)' has \(parts.count) values; \(entity.plan.name)'s key has \(keyAttributes.count) (\(keyAttributes.map(\.name).joined(separator: ", ")))",
                        hint: "give the values in key order, separated by commas")
                }
                var values: [SQLValue] = []
                for (attribute, part) in zip(keyAttributes, parts) {
                    values.append(try Self.keyValue(String(part), attribute: attribute, entity: entity.plan.name))
                }
                let clause = keyAttributes.map { "\(quoteIdentifier($0.column)) = ?" }.joined(separator: " AND ")
                if let base { queries.append(("\(clause) AND (\(base.sql))", values + base.values)) } else { queries.append((clause, values)) }
            }
            self.queries = queries
        }
        self.entity = entity
    }

    /// A key value given as text, as the column holds it: a number for Int, the text otherwise.
    static func keyValue(_ text: String, attribute: AttributePlan, entity: String) throws(ExportError) -> SQLValue {
        let literal: Literal =
            switch attribute.type {
            case .int: Int64(text).map(Literal.int) ?? .string(text)
            case .double: Double(text).map(Literal.double) ?? .string(text)
            case .bool: text == "true" ? .bool(true) : text == "false" ? .bool(false) : .string(text)
            default: .string(text)
            }
        do { return try literalValue(literal, as: attribute.type, converters: .standard) } catch {
            throw ExportError.badRequest(
                "the key '\(text)' is not a value of \(entity).\(attribute.name) (\(attribute.type.rawValue)): \(error.message)", hint: nil)
        }
    }
}
