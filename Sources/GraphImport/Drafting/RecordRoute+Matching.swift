import GraphImportJSON
import GraphImportMapping

extension RecordRoute.Case {
    /// Whether a discriminator's JSON value selects this case: the same kind and the same value
    /// (an integer case matches a number only when it is exactly that integer).
    /// The `else` case matches no value by name.
    func matches(_ value: JSONValue) -> Bool {
        guard let expected = self.value else { return false }
        return switch (value, expected) {
        case (.string(let text), .string(let expected)): text == expected
        case (.number(let number), .int(let expected)): number.exactInt64 == expected
        case (.number(let number), .double(let expected)): number.double == expected
        case (.bool(let flag), .bool(let expected)): flag == expected
        default: false
        }
    }

    /// The case of `cases` that names `value`, else the `else` case, if the map has one.
    static func chosen(for value: JSONValue, among cases: [Self]) -> Self? {
        cases.first { $0.matches(value) } ?? cases.first { $0.value == nil }
    }
}
