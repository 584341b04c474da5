import Foundation
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// A stored value as JSON, by the attribute's type: the one way the read side (changes, decoding,
/// deleted keys) turns a column back into JSON. Bool 0/1 is `true`/`false`, Data is base64 text
/// (as feeds give it), a JSON attribute is its JSON, dates stay their stored UTC text.
enum StoredJSON {
    static func value(_ value: SQLValue, type: ValueType) -> JSONValue {
        switch value {
        case .null: return .null
        case .integer(let integer):
            return type == .bool ? .bool(integer != 0) : .number(JSONNumber(integer: integer))
        case .real(let real):
            return real.isFinite ? .number(JSONNumber(literal: "\(real)")) : .null
        case .text(let text):
            if type == .json, let parsed = try? JSONParser.parse(text) { return parsed }
            return .string(text)
        case .blob(let bytes): return .string(Data(bytes).base64EncodedString())
        }
    }

    /// An object's key as a JSON object of its key attributes, `{"id": 42}` or `{"owner": "octocat", "name": "hello"}`.
    static func key(_ values: [SQLValue], of entity: EntityPlan) -> JSONValue {
        .object(
            JSONObject(
                zip(entity.keyAttributes, values).map { index, value in
                    JSONMember(key: entity.attributes[index].name, value: Self.value(value, type: entity.attributes[index].type))
                }))
    }
}
