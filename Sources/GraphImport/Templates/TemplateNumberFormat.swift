import Foundation

/// A printf-style format for a template's `{count:%,d}` or `{price:%.2f €}`, compiled once.
///
/// One conversion, `%[flags][width][.precision]conversion`, with text around it (`%%` is a percent
/// sign). Flags: `-` left-aligns, `0` pads with zeros, `+` always shows the sign, `,` groups
/// thousands with commas. Conversions: `d`/`i` (decimal) and `x`/`X` (hexadecimal, negative numbers
/// as 64-bit two's complement) for Int; `f` (default precision 6) for Int and Double.
struct TemplateNumberFormat: Sendable {
    /// The conversion letter's meaning.
    enum Conversion: Sendable, Equatable {
        case decimal
        case hexadecimal(uppercase: Bool)
        case fixed(precision: Int)
    }

    let prefix: String
    let suffix: String
    let conversion: Conversion
    let leftAligned: Bool
    let zeroPadded: Bool
    let showsPlus: Bool
    let grouped: Bool
    let width: Int
    /// `%.2f` for Foundation, built once: the digits of a fixed conversion, without sign or grouping.
    private let fixedFormat: String

    /// Whether the format needs a whole number (`d`, `x`), so that it cannot show a Double.
    var needsInteger: Bool { if case .fixed = conversion { false } else { true } }

    /// Parses a format; nil when it is not one conversion this type supports.
    init?(_ format: String) {
        let characters = Array(format)
        var prefix = ""
        var index = 0
        // The text before the conversion, `%%` read as "%".
        while index < characters.count {
            if characters[index] == "%" {
                guard index + 1 < characters.count, characters[index + 1] == "%" else { break }
                index += 1
            }
            prefix.append(characters[index])
            index += 1
        }
        guard index < characters.count else { return nil }
        index += 1
        var flags: Set<Character> = []
        while index < characters.count, "-+0,".contains(characters[index]) {
            flags.insert(characters[index])
            index += 1
        }
        var width = 0
        while index < characters.count, let digit = characters[index].wholeNumberValue, characters[index].isASCII, width < 1000 {
            width = width * 10 + digit
            index += 1
        }
        var precision: Int?
        if index < characters.count, characters[index] == "." {
            index += 1
            var value = 0
            while index < characters.count, let digit = characters[index].wholeNumberValue, characters[index].isASCII, value < 100 {
                value = value * 10 + digit
                index += 1
            }
            precision = value
        }
        guard index < characters.count else { return nil }
        switch (characters[index], precision) {
        case ("d", nil), ("i", nil): conversion = .decimal
        case ("x", nil), ("X", nil):
            guard !flags.contains(",") else { return nil }
            conversion = .hexadecimal(uppercase: characters[index] == "X")
        case ("f", let precision): conversion = .fixed(precision: precision ?? 6)
        default: return nil
        }
        var suffix = ""
        index += 1
        while index < characters.count {
            if characters[index] == "%" {
                guard index + 1 < characters.count, characters[index + 1] == "%" else { return nil }
                index += 1
            }
            suffix.append(characters[index])
            index += 1
        }
        self.prefix = prefix
        self.suffix = suffix
        leftAligned = flags.contains("-")
        zeroPadded = flags.contains("0")
        showsPlus = flags.contains("+")
        grouped = flags.contains(",")
        self.width = width
        fixedFormat = "%.\(precision ?? 6)f"
    }

    /// Appends an integer formatted.
    func format(_ value: Int64, into out: inout String) {
        switch conversion {
        case .decimal: pad(sign: value < 0 ? "-" : showsPlus ? "+" : "", digits: group(String(value.magnitude)), into: &out)
        case .hexadecimal(let uppercase):
            pad(sign: "", digits: String(UInt64(bitPattern: value), radix: 16, uppercase: uppercase), into: &out)
        case .fixed: format(Double(value), into: &out)
        }
    }

    /// Appends a real number formatted (only a fixed conversion is ever given one).
    func format(_ value: Double, into out: inout String) {
        guard value.isFinite else {
            pad(sign: value < 0 ? "-" : showsPlus && !value.isNaN ? "+" : "", digits: value.isNaN ? "nan" : "inf", into: &out, zeros: false)
            return
        }
        // As printf: the sign comes from the sign bit, so -0.001 with %.2f is "-0.00".
        let digits = String(format: fixedFormat, value.magnitude)
        pad(sign: value.sign == .minus ? "-" : showsPlus ? "+" : "", digits: group(digits), into: &out)
    }

    /// Commas every three digits of the integer part, when the `,` flag asks for them.
    private func group(_ digits: String) -> String {
        guard grouped else { return digits }
        let integerPart = digits.prefix { $0 != "." }
        guard integerPart.count > 3 else { return digits }
        var out = ""
        for (offset, digit) in integerPart.enumerated() {
            if offset > 0, (integerPart.count - offset) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out + digits.dropFirst(integerPart.count)
    }

    /// Prefix, the sign and digits padded to `width`, suffix.
    private func pad(sign: String, digits: String, into out: inout String, zeros: Bool = true) {
        out += prefix
        let fill = width - sign.count - digits.count
        if fill <= 0 {
            out += sign + digits
        } else if leftAligned {
            out += sign + digits + String(repeating: " ", count: fill)
        } else if zeroPadded && zeros {
            out += sign + String(repeating: "0", count: fill) + digits
        } else {
            out += String(repeating: " ", count: fill) + sign + digits
        }
        out += suffix
    }
}
