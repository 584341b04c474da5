/// The kinds of value the metadata table holds; the raw value is what its `type` column records.
public enum MetaType: String, Sendable, CaseIterable {
    case bool, integer, double, string, date, json

    /// The type with its article, for sentences: "a bool", "an integer", "JSON".
    public var phrase: String {
        switch self {
        case .bool: "a bool"
        case .integer: "an integer"
        case .double: "a double"
        case .string: "a string"
        case .date: "a date"
        case .json: "JSON"
        }
    }
}
