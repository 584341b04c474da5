import GraphImportMapping
import GraphImportSchema

/// The objects of one entity a request asks for: the entity and the SQL condition that selects them.
struct ExportSelection {
    let entity: ExportEntity
    /// Each `WHERE` clause with its values, run in order (one per key asked for, or one in all).
    let queries: [(sql: String, values: [SQLValue])]

    /// Nil for the document. `dialect` is the store's the queries are for.
    init?(_ request: ExportRequest, plan: ExportPlan, dialect: SQLDialect = .sqlite) throws(ExportError) {
        guard let name = request.entity else {
            if !request.keys.isEmpty || request.condition != nil {
                throw ExportError.badRequest("--key and --where need an entity", hint: "name the entity: graphimport export --map MAP ENTITY --key …")
            }
            return nil
        }
        let entity = try plan.entity(named: name)
        var base: (sql: String, values: [SQLValue])?
        if let text = request.condition {
            // The read API's condition: its text form, its names and its SQL, one rule for both.
            let names = GraphNames(plan: plan.importPlan)
            do throws(GraphError) {
                let compiled = try CompiledCondition(try Condition(parsing: text), dialect: dialect) { name throws(GraphError) in
                    try names.conditionTerm(name, of: entity.index) { "\(quoteIdentifier($0)).\(quoteIdentifier($1))" }
                }
                base = (compiled.sql, compiled.values)
            } catch {
                throw ExportError(error)
            }
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
