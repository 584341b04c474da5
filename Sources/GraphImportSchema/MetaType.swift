/// The kinds of value the metadata table holds; the raw value is what its `type` column records.
public enum MetaType: String, Sendable, CaseIterable {
    case bool, integer, double, string, date, json

    /// The name a map gives the type (`meta since : Int`), which the command line shows and takes.
    public var name: String {
        switch self {
        case .bool: "Bool"
        case .integer: "Int"
        case .double: "Double"
        case .string: "String"
        case .date: "Date"
        case .json: "JSON"
        }
    }

    /// The type a map's name (`Int`) or the stored name (`integer`) stands for, in any case.
    package init?(name: String) {
        let lowered = name.lowercased()
        guard let type = Self.allCases.first(where: { $0.name.lowercased() == lowered || $0.rawValue == lowered }) else { return nil }
        self = type
    }

    /// The type with its article, for sentences: "a bool", "an integer", "JSON".
    package var phrase: String {
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
