import GraphImportJSON
import GraphImportMapping

/// A `where` condition compiled once per map: the field's steps and a test that reads the JSON
/// value where it is, so that testing an element allocates nothing. A class, as the member plans
/// are: a struct's copy retained each of its arrays for every element tested.
final class FilterPlan: Sendable {
    let field: [PathStep]
    let test: Test
    /// The condition as the map writes it, for messages.
    let description: String

    enum Test: Sendable {
        case equals([Literal])
        case hasPrefix([UInt8])
        case hasSuffix([UInt8])
        case matches(Glob)
        case isPresent, isAbsent, isNull
        /// A polymorphic relationship's branch: the elements its case lines choose for this entity.
        case chosen(ChoicePlan, entity: Int)
    }

    init(_ filter: ElementFilter) {
        field = ImportPlan.steps(filter.field)
        description = filter.description
        test =
            switch filter.test {
            case .equals(let values): .equals(values)
            case .hasPrefix(let text): .hasPrefix(Array(text.utf8))
            case .hasSuffix(let text): .hasSuffix(Array(text.utf8))
            case .matches(let pattern): .matches(Glob(pattern))
            case .isPresent: .isPresent
            case .isAbsent: .isAbsent
            case .isNull: .isNull
            }
    }

    /// The branch of a polymorphic relationship to entity `entity`: takes what `choice` chooses for it.
    init(choice: ChoicePlan, entity: Int) {
        field = choice.discriminator
        description = "by \(choice.description)"
        test = .chosen(choice, entity: entity)
    }

    /// Whether the condition holds for `element`. A field the element does not have (a key absent,
    /// or a scalar where the path goes on) is absent; a null or `""` on the way reads as null, as
    /// a member's path reads it.
    func takes(_ element: JSONValue) -> Bool {
        let found = Self.value(at: field, in: element)
        switch test {
        case .isPresent: return found != nil
        case .isAbsent: return found == nil
        case .isNull:
            if case .null? = found { return true }
            return false
        case .equals(let values):
            guard let found else { return false }
            return values.contains { found.equals($0) }
        case .hasPrefix(let prefix):
            guard case .string(let text)? = found else { return false }
            return text.utf8.starts(with: prefix)
        case .hasSuffix(let suffix):
            guard case .string(let text)? = found else { return false }
            let utf8 = text.utf8
            return utf8.count >= suffix.count && utf8.suffix(suffix.count).elementsEqual(suffix)
        case .matches(let glob):
            guard case .string(let text)? = found else { return false }
            return glob.matches(text)
        case .chosen(let choice, let entity):
            return choice.outcome(for: found) == .entity(entity)
        }
    }

    /// For a to-one: the value itself when it is not an array, the first element the condition
    /// holds for when it is (with its index), `.null` when there is none.
    func pick(_ value: JSONValue) -> (value: JSONValue, index: Int?) {
        switch value {
        case .null: return (.null, nil)
        case .array(let elements):
            guard let index = elements.firstIndex(where: takes) else { return (.null, nil) }
            return (elements[index], index)
        default: return takes(value) ? (value, nil) : (.null, nil)
        }
    }

    static func value(at path: [PathStep], in element: JSONValue) -> JSONValue? {
        var current = element
        for step in path {
            switch (step, current) {
            case (_, .null), (_, .string("")): return .null
            case (.key(let key), .object(let object)):
                guard let next = object[key] else { return nil }
                current = next
            case (.index(let index), .array(let elements)):
                guard index < elements.count else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return current
    }
}

extension JSONValue {
    /// Whether the value is `literal`: the same kind and the same value (an integer literal
    /// matches a number only when it is exactly that integer). How `where` and `records … by`
    /// compare.
    func equals(_ literal: Literal) -> Bool {
        switch (self, literal) {
        case (.string(let text), .string(let expected)): text == expected
        case (.number(let number), .int(let expected)): number.exactInt64 == expected
        case (.number(let number), .double(let expected)): number.double == expected
        case (.bool(let flag), .bool(let expected)): flag == expected
        default: false
        }
    }
}

/// `matches "t?_*"`: `*` stands for any text (none included), `?` for one character; every other
/// character for itself. Matched over UTF-8 bytes, against the whole string.
struct Glob: Sendable {
    private let pattern: [UInt8]

    init(_ text: String) { pattern = Array(text.utf8) }

    func matches(_ text: String) -> Bool {
        if let answer = text.utf8.withContiguousStorageIfAvailable(matches) { return answer }
        return Array(text.utf8).withUnsafeBufferPointer(matches)
    }

    /// Backtracks only to the last `*`, so the time is at most the product of the two lengths.
    private func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var p = 0
        var t = 0
        var star: (pattern: Int, text: Int)?
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = (p, t)
                p += 1
            } else if p < pattern.count, pattern[p] == UInt8(ascii: "?") {
                p += 1
                t = Self.nextCharacter(in: text, after: t)
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let last = star {
                let next = Self.nextCharacter(in: text, after: last.text)
                star = (last.pattern, next)
                p = last.pattern + 1
                t = next
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }

    /// The index after the UTF-8 sequence that starts at `index`.
    private static func nextCharacter(in text: UnsafeBufferPointer<UInt8>, after index: Int) -> Int {
        var next = index + 1
        while next < text.count, text[next] & 0xC0 == 0x80 { next += 1 }
        return next
    }
}
