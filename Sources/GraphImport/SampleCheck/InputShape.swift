import GraphImportJSON
import GraphImportMapping

/// What a document holds where a records path stops matching, said in one clause
/// ("$.data is an object without 'childs'; its keys are 'after', 'children'"), and the key the
/// path probably meant, for a "did you mean".
enum InputShape {
    /// Most keys listed before "and N more".
    static let maxListedKeys = 8

    /// Follows `rest` down from `value`, found at `prefix` in the document, and describes the
    /// first step that does not match; nil when the whole path matches.
    static func describeMiss(of rest: some Collection<JSONPathPattern.Component>, in value: JSONValue, at prefix: JSONPathPattern)
        -> (description: String, suggestion: String?)?
    {
        var current = value
        var path = prefix
        for component in rest {
            switch (component, current) {
            case (.key(let key), .object(let object)):
                guard let next = object[key] else {
                    let keys = object.members.map(\.key)
                    if keys.isEmpty { return ("\(path) is an empty object, without '\(key)'", nil) }
                    return ("\(path) is an object without '\(key)'; its keys are \(listed(keys))", closestMatch(to: key, among: keys))
                }
                current = next
                path.components.append(.key(key))
            case (.key(let key), _):
                return ("\(path) is \(described(current)), not an object with '\(key)'", nil)
            case (.index(let index), .array(let elements)):
                guard index < elements.count else { return ("\(path) is \(described(current)), without [\(index)]", nil) }
                current = elements[index]
                path.components.append(.index(index))
            case (.anyIndex, .array(let elements)):
                guard let first = elements.first else { return ("\(path) is an empty array", nil) }
                current = first
                path.components.append(.index(0))
            case (.index, _), (.anyIndex, _):
                return ("\(path) is \(current.kindName), not an array", nil)
            }
        }
        return nil
    }

    /// "an array of 3 elements", "an object", "a string".
    static func described(_ value: JSONValue) -> String {
        guard case .array(let elements) = value else { return value.kindName }
        return "an array of \(elements.count) element\(elements.count == 1 ? "" : "s")"
    }

    /// `'a', 'b', 'c'` or `'a', 'b', … and 12 more`.
    static func listed(_ keys: [String]) -> String {
        let shown = keys.prefix(maxListedKeys).map { MessageText.quoted($0) }.joined(separator: ", ")
        return keys.count > maxListedKeys ? shown + " and \(keys.count - maxListedKeys) more" : shown
    }
}
