#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value as SQLite stores it: one of its five storage classes.
///
/// Two texts are equal when their UTF-8 bytes are, as SQLite compares them (its BINARY
/// collation, which unique indexes use): "é" precomposed and "e" with a combining accent are two
/// keys and two values, as in the store. Swift's String equality would call them one (canonical
/// equivalence), and would normalise every text to NFC to hash it.
public enum SQLValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        case .blob(let bytes): "X'" + bytes.map { hexDigits[Int($0 >> 4)] + hexDigits[Int($0 & 15)] }.joined() + "'"
        }
    }

    public var isNull: Bool { if case .null = self { true } else { false } }

    public static func == (lhs: SQLValue, rhs: SQLValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.integer(let left), .integer(let right)): left == right
        case (.real(let left), .real(let right)): left == right
        case (.text(let left), .text(let right)): sameUTF8(left, right)
        case (.blob(let left), .blob(let right)): left == right
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0 as UInt8)
        case .integer(let value): hasher.combine(1 as UInt8); hasher.combine(value)
        case .real(let value): hasher.combine(2 as UInt8); hasher.combine(value)
        case .text(var value):
            hasher.combine(3 as UInt8)
            value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case .blob(let bytes):
            hasher.combine(4 as UInt8)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}

/// Whether two strings hold the same UTF-8 bytes.
@inline(__always)
func sameUTF8(_ left: String, _ right: String) -> Bool {
    var left = left, right = right
    return left.withUTF8 { leftBytes in
        right.withUTF8 { rightBytes in sameBytes(leftBytes.baseAddress, count: leftBytes.count, as: UnsafeRawBufferPointer(rightBytes)) }
    }
}

/// Whether the `count` bytes at `start` are `bytes`; SQLite's `Statement` compares a bound text with it.
@inlinable
package func sameBytes(_ start: UnsafeRawPointer?, count: Int, as bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count == count && (count == 0 || memcmp(start!, bytes.baseAddress!, count) == 0)
}

private let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
