/// What one of a reader's patterns met in the input: values, only an empty array (or null) on
/// its way, or nothing, and then where its walk stopped.
package enum JSONPatternOutcome: Sendable, Equatable {
    /// At least one value was selected.
    case selected
    /// Nothing was selected, but the walk met an empty array, or null, where the path goes on
    /// (whatever kind the next step wanted): the input says "there are none".
    case empty
    /// Nothing was selected and nothing said "there are none": the path does not fit the input.
    case missed(JSONPathMiss)
    /// No JSON text was read.
    case unreached
}

/// Where a pattern's walk through the input stopped, and what the input holds there.
package struct JSONPathMiss: Sendable, Equatable {
    package enum Reason: Sendable, Equatable {
        /// The object at `level` has no member for the next step (or the array is too short for its index).
        case absent
        /// The value at `level` is not what the next step needs: an array for `[*]` or an index, an object for a key.
        case wrongKind
    }

    package var reason: Reason
    /// The pattern that missed.
    package var pattern: JSONPathPattern
    /// How many of the pattern's components the walk matched: `pattern.components[depth]` is the step that failed.
    package var depth: Int
    /// The concrete path of the value where the walk stopped (`$`, `$.data`, `$.data.children[2]`).
    package var level: JSONPathPattern
    /// What the input holds at `level`.
    package var found: JSONShape
    /// Where the value at `level` starts.
    package var position: JSONPosition

    package init(reason: Reason, pattern: JSONPathPattern, depth: Int, level: JSONPathPattern, found: JSONShape, position: JSONPosition) {
        self.reason = reason
        self.pattern = pattern
        self.depth = depth
        self.level = level
        self.found = found
        self.position = position
    }
}

/// The kind of a JSON value.
package enum JSONKind: Sendable, Equatable {
    case null, boolean, number, string, array, object

    /// The kind of the value that starts with `byte` (its first byte, not whitespace).
    init(firstByte byte: UInt8) {
        switch byte {
        case ASCII.openBrace: self = .object
        case ASCII.openBracket: self = .array
        case ASCII.quote: self = .string
        case ASCII.lowerN: self = .null
        case ASCII.lowerT, ASCII.lowerF: self = .boolean
        default: self = .number
        }
    }

    /// `an object`, `a string`, `null`.
    package var name: String {
        switch self {
        case .null: "null"
        case .boolean: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A value described one level deep: its kind, an object's members (key and kind) or an array's length.
package enum JSONShape: Sendable, Equatable {
    package struct Member: Sendable, Equatable {
        package var key: String
        package var kind: JSONKind

        package init(key: String, kind: JSONKind) {
            self.key = key
            self.kind = kind
        }
    }

    case object([Member])
    case array(count: Int)
    case scalar(JSONKind)

    /// The shape of a built value.
    package init(_ value: JSONValue) {
        switch value {
        case .object(let object): self = .object(object.members.map { Member(key: $0.key, kind: JSONKind(value: $0.value)) })
        case .array(let elements): self = .array(count: elements.count)
        default: self = .scalar(JSONKind(value: value))
        }
    }

    package var kind: JSONKind {
        switch self {
        case .object: .object
        case .array: .array
        case .scalar(let kind): kind
        }
    }

    /// `an object with keys data, meta`, `an array of 3 elements`, `an empty array`, `a string`.
    package var description: String {
        switch self {
        case .object(let members) where members.isEmpty: return "an empty object"
        case .object(let members):
            let shown = members.prefix(12).map(\.key).joined(separator: ", ")
            let more = members.count > 12 ? ", … (\(members.count) keys)" : ""
            return "an object with key\(members.count == 1 ? "" : "s") \(shown)\(more)"
        case .array(let count) where count == 0: return "an empty array"
        case .array(let count): return "an array of \(count) element\(count == 1 ? "" : "s")"
        case .scalar(let kind): return kind.name
        }
    }
}

extension JSONKind {
    init(value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .number: self = .number
        case .string: self = .string
        case .array: self = .array
        case .object: self = .object
        }
    }
}
