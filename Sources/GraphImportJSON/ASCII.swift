/// The bytes the JSON grammar names (RFC 8259), so scanners compare against words, not numbers.
enum ASCII {
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let plus = UInt8(ascii: "+")
    static let comma = UInt8(ascii: ",")
    static let minus = UInt8(ascii: "-")
    static let dot = UInt8(ascii: ".")
    static let slash = UInt8(ascii: "/")
    static let zero = UInt8(ascii: "0")
    static let one = UInt8(ascii: "1")
    static let nine = UInt8(ascii: "9")
    static let colon = UInt8(ascii: ":")
    static let upperA = UInt8(ascii: "A")
    static let upperE = UInt8(ascii: "E")
    static let upperF = UInt8(ascii: "F")
    static let openBracket = UInt8(ascii: "[")
    static let backslash = UInt8(ascii: "\\")
    static let closeBracket = UInt8(ascii: "]")
    static let lowerA = UInt8(ascii: "a")
    static let lowerB = UInt8(ascii: "b")
    static let lowerE = UInt8(ascii: "e")
    static let lowerF = UInt8(ascii: "f")
    static let lowerN = UInt8(ascii: "n")
    static let lowerR = UInt8(ascii: "r")
    static let lowerT = UInt8(ascii: "t")
    static let lowerU = UInt8(ascii: "u")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let delete: UInt8 = 0x7F
    static let backspace: UInt8 = 0x08
    static let formFeed: UInt8 = 0x0C

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    /// The value of a hexadecimal digit, or nil.
    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt32? {
        if byte &- zero < 10 { return UInt32(byte &- zero) }
        if byte &- lowerA < 6 { return UInt32(byte &- lowerA) + 10 }
        if byte &- upperA < 6 { return UInt32(byte &- upperA) + 10 }
        return nil
    }
}
