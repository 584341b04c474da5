/// The engine's named ASCII bytes, for every parser over bytes it has (converters, validators,
/// templates, metadata text). One table per target that scans bytes: the map language and the
/// JSON reader import nothing and keep their own; sharing theirs would also put the constants
/// behind another module's accessors, where the parsers on the hot path want them folded in.
enum ASCII {
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let plus = UInt8(ascii: "+")
    static let minus = UInt8(ascii: "-")
    static let period = UInt8(ascii: ".")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let space = UInt8(ascii: " ")
    static let hash = UInt8(ascii: "#")
    static let question = UInt8(ascii: "?")
    static let at = UInt8(ascii: "@")
    static let leftBracket = UInt8(ascii: "[")
    static let rightBracket = UInt8(ascii: "]")
    static let delete: UInt8 = 0x7F
    static let apostrophe = UInt8(ascii: "'")
    static let equals = UInt8(ascii: "=")
    static let slash = UInt8(ascii: "/")
    static let lowerE = UInt8(ascii: "e")
    static let upperE = UInt8(ascii: "E")
    static let upperT = UInt8(ascii: "T")
    static let lowerT = UInt8(ascii: "t")
    static let upperZ = UInt8(ascii: "Z")
    static let lowerZ = UInt8(ascii: "z")
    static let lowerA = UInt8(ascii: "a")
    static let lowerF = UInt8(ascii: "f")
    static let upperA = UInt8(ascii: "A")
    static let lowerM = UInt8(ascii: "m")
    static let lowerP = UInt8(ascii: "p")
    static let lowerU = UInt8(ascii: "u")
    /// Added to an upper-case ASCII letter to make it lower case.
    static let caseBit: UInt8 = 0x20

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }
    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool { (byte | caseBit) >= lowerA && (byte | caseBit) <= lowerZ }
    @inline(__always) static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | caseBit) >= lowerA && (byte | caseBit) <= lowerF) }
    @inline(__always) static func lowercased(_ byte: UInt8) -> UInt8 { isLetter(byte) ? byte | caseBit : byte }
}
