/// A JSON value as read from the input, with object members in document order.
///
/// Numbers keep their literal text so that integers stay exact to 64 bits and
/// nothing is rounded before a mapping decides what the number means.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The JSON type's name as a person says it, for messages ("expected a string, found an object").
    package var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON number, kept as its literal text (`-12`, `3.25e2`).
///
/// An integer literal of up to 18 digits (ids and counts: nearly every number of a web API) is
/// kept as its value, and its text, which is that value's canonical decimal form, made only when
/// asked for: making a String of every number read, and parsing it again to store it, cost an
/// allocation for every 19-digit id.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible {
    private enum Storage: Sendable {
        case integer(Int64)
        case literal(String)
    }

    /// An enum of the two, not a struct of both: a JSONValue stays 24 bytes to a slot.
    private let storage: Storage

    public init(literal: String) { storage = .literal(literal) }

    /// The number written as `value` in decimal (`-0` is a literal, not an integer).
    public init(integer value: Int64) { storage = .integer(value) }

    /// The number exactly as written in the input; always a valid RFC 8259 number.
    public var literal: String {
        switch storage {
        case .integer(let value): String(value)
        case .literal(let text): text
        }
    }

    /// The value when the number is kept as one (see above), else nil: such a number's literal is
    /// that value's decimal form, which `JSONSlots` relies on to keep it as a value.
    var integerValue: Int64? {
        if case .integer(let value) = storage { return value }
        return nil
    }

    /// True when the literal has neither a fraction nor an exponent.
    public var isIntegerLiteral: Bool {
        if case .integer = storage { return true }
        return !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The value as a 64-bit integer when it is mathematically an integer in range
    /// (`1`, `1.0`, `1e0`, `-0`), else nil. Never rounds.
    public var exactInt64: Int64? {
        if case .integer(let value) = storage { return value }
        if isIntegerLiteral { return Int64(literal) }
        return JSONNumber.exactInteger(fromDecimalLiteral: literal)
    }

    /// The nearest Double (correctly rounded; an integer's conversion rounds as its text's would).
    public var double: Double {
        if case .integer(let value) = storage { return Double(value) }
        return Double(literal) ?? .nan
    }

    public var description: String { literal }

    /// Equal when the literals are: `1` and `1.0` are two numbers, as they are two texts.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        if case .integer(let left) = lhs.storage, case .integer(let right) = rhs.storage { return left == right }
        return lhs.literal == rhs.literal
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(literal)
    }

    /// Decides exactly whether a literal with a fraction or exponent is an integer in Int64 range.
    static func exactInteger(fromDecimalLiteral text: String) -> Int64? {
        var negative = false
        var digits: [UInt8] = []  // significant digits, integer and fraction parts concatenated
        var pointShift = 0  // digits after the decimal point
        var exponent = 0
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
        var sawPoint = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") { sawPoint = true; continue }
            digits.append(byte - UInt8(ascii: "0"))
            if sawPoint { pointShift += 1 }
        }
        if !bytes.isEmpty {
            bytes = bytes.dropFirst()
            var expNegative = false
            if bytes.first == UInt8(ascii: "-") {
                expNegative = true; bytes = bytes.dropFirst()
            } else if bytes.first == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            for byte in bytes {
                exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                if exponent > 400 { break }
            }
            if expNegative { exponent = -exponent }
        }
        // value = digits * 10^(exponent - pointShift)
        var scale = exponent - pointShift
        while scale < 0, let last = digits.last, last == 0 { digits.removeLast(); scale += 1 }
        if scale < 0 { return digits.allSatisfy { $0 == 0 } ? 0 : nil }
        while let first = digits.first, first == 0 { digits.removeFirst() }
        if digits.isEmpty { return 0 }
        if digits.count + scale > 19 { return nil }
        var magnitude: UInt64 = 0
        for digit in digits { magnitude = magnitude * 10 + UInt64(digit) }
        for _ in 0..<scale {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            magnitude = product
        }
        if negative {
            if magnitude <= UInt64(Int64.max) { return -Int64(magnitude) }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }
}

/// One `"key": value` pair of an object.
public struct JSONMember: Equatable, Sendable {
    public var key: String
    public var value: JSONValue
    public init(key: String, value: JSONValue) {
        self.key = key
        self.value = value
    }
}

/// A JSON object: its members in document order. Keys are unique (the reader rejects duplicates).
public struct JSONObject: Equatable, Sendable {
    public var members: [JSONMember]

    public init(_ members: [JSONMember] = []) { self.members = members }

    /// The value for `key`, or nil when the object has no such member.
    /// - Complexity: O(n) in the number of members; objects in API payloads are small.
    public subscript(key: String) -> JSONValue? {
        // Lengths first: String's == on two different strings takes a slow path through
        // Unicode comparison, and most keys of an object differ in length.
        // Through the buffer: a `for member in members` loop copied every member it passed
        // (retaining its key and value) to look at its key.
        let length = key.utf8.count
        return members.withUnsafeBufferPointer { members in
            for index in members.indices where members[index].key.utf8.count == length && members[index].key == key {
                return members[index].value
            }
            return nil
        }
    }
}

/// A path into a JSON document: keys, indexes, and `[*]` for every element of an array.
///
/// Written `$`, `statuses[*]`, `data.children[*].data`, `geometry.coordinates[1]`.
public struct JSONPathPattern: Equatable, Hashable, Sendable, CustomStringConvertible {
    public enum Component: Equatable, Hashable, Sendable {
        case key(String)
        case index(Int)
        case anyIndex
        /// Every element of an array, or a lone object as the one element (the last step only).
        case anyIndexOrOne
        /// Every member of an object, in document order (`{*}`).
        case anyMember
    }

    public var components: [Component]

    public init(_ components: [Component]) { self.components = components }

    /// `$`: the whole document.
    public static let root = JSONPathPattern([])
    /// `$[*]`: each element of the top-level array.
    public static let everyElement = JSONPathPattern([.anyIndex])

    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .key(let key):
                if key.utf8.allSatisfy({ isIdentifierByte($0) }) && !key.isEmpty {
                    text += ".\(key)"
                } else {
                    text += "[\"" + key.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\"]"
                }
            case .index(let index): text += "[\(index)]"
            case .anyIndex: text += "[*]"
            case .anyIndexOrOne: text += "[*?]"
            case .anyMember: text += "{*}"
            }
        }
        return text
    }
}

@inline(__always)
func isIdentifierByte(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

extension JSONValue {
    /// The value as compact JSON text, members in their original order, strings escaped minimally.
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let number): out += number.literal
        case .string(let text): JSONValue.writeString(text, to: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += "," }
                element.write(to: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // C1 controls and the line separators too: valid raw in JSON, but they break lines and
            // drive terminals wherever this text is shown.
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
