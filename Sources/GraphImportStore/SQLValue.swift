/// A value as SQLite stores it: one of its five storage classes.
public enum SQLValue: Equatable, Hashable, Sendable, CustomStringConvertible {
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
}

private let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
