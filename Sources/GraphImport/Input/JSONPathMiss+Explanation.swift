import GraphImportJSON
import GraphImportMapping

extension JSONPathMiss {
    /// What the input holds where the path stopped, in the map's words:
    /// "the top level is an object with keys data, meta", "`items` is a string".
    package var foundText: String {
        let place = level.components.isEmpty ? "the top level" : "`\(JSONPathMiss.mapText(level))`"
        switch reason {
        case .absent:
            return "\(place) is \(found.description)"
        case .wrongKind:
            let wanted: String
            switch pattern.components[depth] {
            case .key, .anyMember: wanted = "an object"
            case .index, .anyIndex: wanted = "an array"
            case .anyIndexOrOne: wanted = "an array or an object"
            }
            return "\(place) is \(found.description), not \(wanted)"
        }
    }

    /// A path close to the pattern that fits what the input holds at `level`, or nil when no guess is
    /// good: a key close by edit distance to the one missing, or the only member of the kind the
    /// path needs there; the level's own array for a key that met an array; the only array in
    /// an object that met `[*]`.
    package var suggestion: JSONPathPattern? {
        var components = pattern.components
        let step = components[depth]
        let rest = Array(components[(depth + 1)...])
        /// The kind the value after `step` must have for the rest of the path.
        let needed: JSONKind? =
            switch rest.first {
            case .key?, .anyMember?: .object
            case .index?, .anyIndex?, .anyIndexOrOne?: .array
            case nil: nil
            }
        switch (reason, found, step) {
        case (.absent, .object(let members), .key(let key)):
            let keys = members.map(\.key)
            if let close = closestMatch(to: key, among: keys) {
                components[depth] = .key(close)
            } else if let needed, case let fitting = members.filter({ $0.kind == needed }), fitting.count == 1 {
                components[depth] = .key(fitting[0].key)
            } else {
                return nil
            }
            return JSONPathPattern(components)
        case (.wrongKind, .array, .key):
            // `items[*]` on an array: the array itself holds the records.
            if case .anyIndex? = rest.first { return JSONPathPattern(Array(components[..<depth]) + rest) }
            return JSONPathPattern(Array(components[..<depth]) + [.anyIndex] + Array(components[depth...]))
        case (.wrongKind, .array, .anyMember):
            // `users{*}` on an array: its elements are the records.
            components[depth] = .anyIndex
            return JSONPathPattern(components)
        case (.wrongKind, .object(let members), .anyIndex), (.wrongKind, .object(let members), .index):
            let arrays = members.filter { $0.kind == .array }
            // An object whose members are all objects, keyed by id (`{"alice": {…}, "bob": {…}}`).
            if arrays.count != 1, case .anyIndex = step, !members.isEmpty, members.allSatisfy({ $0.kind == .object }) {
                components[depth] = .anyMember
                return JSONPathPattern(components)
            }
            guard arrays.count == 1 else { return nil }
            return JSONPathPattern(Array(components[..<depth]) + [.key(arrays[0].key)] + Array(components[depth...]))
        default:
            return nil
        }
    }

    /// A path as a map writes it: `data.children[*]`, `$[*]`, `$`.
    package static func mapText(_ path: JSONPathPattern) -> String {
        let text = path.description
        return text.hasPrefix("$.") ? String(text.dropFirst(2)) : text
    }
}
