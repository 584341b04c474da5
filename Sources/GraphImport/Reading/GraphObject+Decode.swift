import Foundation
import GraphImportJSON
import GraphImportSchema

extension GraphObject {
    /// The object as a `Decodable` Swift type: its attributes by the map's names (a `Date`
    /// attribute decodes into `Date`, `Data` from base64, `Bool` as a Bool, `JSON` as its value),
    /// and, while `depth` allows, its relationships by name, inverses included: a to-one as an
    /// object or null, a to-many as an array. `depth` 0 is the attributes alone; a relationship
    /// past the depth is left out, so give it an optional property. Cycles (a tweet's author's
    /// tweets) end at the depth.
    public func decode<T: Decodable>(_ type: T.Type, depth: Int = 0) throws(GraphError) -> T {
        let json = try jsonValue(depth: depth)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = StoredDate(text)?.date else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a stored date")
            }
            return date
        }
        do {
            return try decoder.decode(T.self, from: Data(json.jsonText.utf8))
        } catch {
            throw GraphError(.decoding, "\(entity) \(key.keyText) does not decode as \(T.self): \(Self.describe(error))")
        }
    }

    /// The attributes as a JSON object, then the relationships to `depth`.
    func jsonValue(depth: Int) throws(GraphError) -> JSONValue {
        var members = attributeMembers()
        if depth > 0 {
            for (name, relation) in graph.names.relations[entityIndex] {
                let objects = try related(relation)
                var values: [JSONValue] = []
                for object in objects { values.append(try object.jsonValue(depth: depth - 1)) }
                if case .toOne = relation {
                    members.append(JSONMember(key: name, value: values.first ?? .null))
                } else {
                    members.append(JSONMember(key: name, value: .array(values)))
                }
            }
        }
        return .object(JSONObject(members))
    }

    /// Each attribute by name, as `StoredJSON` makes it.
    func attributeMembers() -> [JSONMember] {
        plan.attributes.enumerated().map { index, attribute in
            JSONMember(key: attribute.name, value: StoredJSON.value(row[1 + index], type: attribute.type))
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.isEmpty ? "" : " at " + context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): return "no value for '\(key.stringValue)'\(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.debugDescription + path(context)
        @unknown default: return "\(error)"
        }
    }
}
