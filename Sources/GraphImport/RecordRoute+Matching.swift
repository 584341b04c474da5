import GraphImportJSON
import GraphImportMapping

extension RecordRoute.Case {
    /// Whether a discriminator's JSON value selects this case: the same kind and the same value
    /// (an integer case matches a number only when it is exactly that integer).
    func matches(_ value: JSONValue) -> Bool {
        switch (value, self.value) {
        case (.string(let text), .string(let expected)): text == expected
        case (.number(let number), .int(let expected)): number.exactInt64 == expected
        case (.number(let number), .double(let expected)): number.double == expected
        case (.bool(let flag), .bool(let expected)): flag == expected
        default: false
        }
    }
}
