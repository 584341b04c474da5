/// The ASCII bytes the metadata readers look for, named so the parsing code reads as its grammar.
enum ASCIIByte {
    static let zero = UInt8(ascii: "0")
    static let nine = UInt8(ascii: "9")
    static let plus = UInt8(ascii: "+")
    static let minus = UInt8(ascii: "-")
    static let period = UInt8(ascii: ".")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let space = UInt8(ascii: " ")
    static let upperE = UInt8(ascii: "E")
    static let lowerE = UInt8(ascii: "e")
    static let upperT = UInt8(ascii: "T")
    static let lowerT = UInt8(ascii: "t")
    static let upperZ = UInt8(ascii: "Z")
    static let lowerZ = UInt8(ascii: "z")

    /// True for `0`...`9`.
    static func isDigit(_ byte: UInt8) -> Bool { byte >= zero && byte <= nine }
}
