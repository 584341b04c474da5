/// Numbers written as text, read exactly over bytes: no rounding through Double on the way.
///
/// The grammar is JSON's with an optional leading `+` and leading zeros allowed, because numeric
/// strings in APIs are written by hand-rolled encoders: `[+-]? DIGIT+ ("." DIGIT+)? ([eE] [+-]? DIGIT+)?`.
enum DecimalText {
    /// The outcome of reading a number that must fit a 64-bit integer.
    enum Reading: Equatable {
        case value(Int64)
        /// Well formed, but too large for 64 bits.
        case outOfRange
        /// Not a number in the accepted grammar.
        case invalid
    }

    /// Reads integer syntax only, `[+-]? DIGIT+` ("42", "-7", "+3"); "4.0" and " 4" are invalid.
    static func integer(_ text: String) -> Reading {
        // Over the string's own bytes: `Substring`'s UTF-8 view made reading an `epochMillis`
        // text several times dearer (figures in Benchmarks/README.md).
        var text = text
        return text.withUTF8 { integer(bytes: $0) }
    }

    /// `integer(_:)` over UTF-8 bytes: invalid when any byte is not a digit, else out of range
    /// when the value does not fit 64 bits.
    static func integer(bytes: UnsafeBufferPointer<UInt8>) -> Reading {
        var index = 0
        var negative = false
        if let sign = bytes.first, sign == ASCII.minus || sign == ASCII.plus {
            negative = sign == ASCII.minus
            index = 1
        }
        guard index < bytes.count else { return .invalid }
        var magnitude: UInt64 = 0
        var overflow = false
        while index < bytes.count {
            let byte = bytes[index]
            guard ASCII.isDigit(byte) else { return .invalid }
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - ASCII.zero))
            overflow = overflow || overflow1 || overflow2
            magnitude = sum
            index += 1
        }
        return overflow ? .outOfRange : signed(magnitude, negative: negative, roundDown: false)
    }

    /// True when the text is a number in the accepted grammar.
    static func isNumber(_ text: String) -> Bool {
        parts(of: text) != nil
    }

    /// ⌊value × 10^power⌋ as an exact 64-bit integer: "1600000000.5" scaled by 3 is 1600000000500.
    /// Rounds toward negative infinity, so every instant maps into the millisecond that contains it.
    static func scaled(_ text: String, byPowerOfTen power: Int) -> Reading {
        // A plain integer scaled up (epoch seconds or milliseconds: nearly every input) is exact
        // without splitting it into digits; splitting cost two arrays per value read.
        if power >= 0, case .value(let value) = integer(text) {
            var result = value
            for _ in 0..<power {
                let (product, overflow) = result.multipliedReportingOverflow(by: 10)
                if overflow { return .outOfRange }
                result = product
            }
            return .value(result)
        }
        // A plain integer scaled down (epoch microseconds or nanoseconds): floored division.
        if power < 0, case .value(let value) = integer(text) {
            guard power >= -18 else { return .value(value < 0 ? -1 : 0) }
            var divisor: Int64 = 1
            for _ in 0..<(-power) { divisor *= 10 }
            return .value(CivilTime.floorDivide(value, divisor).quotient)
        }
        guard var number = parts(of: text) else { return .invalid }
        while let first = number.digits.first, first == 0 { number.digits.removeFirst() }
        if number.digits.isEmpty { return .value(0) }
        let shift = number.exponent + power  // value = digits × 10^shift
        var kept = number.digits
        var droppedNonzero = false
        if shift < 0 {
            let keep = max(0, kept.count + shift)
            droppedNonzero = kept[keep...].contains { $0 != 0 }
            kept.removeSubrange(keep...)
        } else {
            if kept.count + shift > 20 { return .outOfRange }
            kept.append(contentsOf: repeatElement(0, count: shift))
        }
        var magnitude: UInt64 = 0
        for digit in kept {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return .outOfRange }
            magnitude = sum
        }
        return signed(magnitude, negative: number.negative, roundDown: droppedNonzero)
    }

    /// A number split into sign, significant digits and a power of ten: value = ±digits × 10^exponent.
    private struct Parts {
        var negative: Bool
        var digits: [UInt8]
        var exponent: Int
    }

    /// Largest exponent read; beyond it every nonzero value is out of range anyway.
    private static let exponentCap = 100_000

    private static func parts(of text: String) -> Parts? {
        var bytes = Substring(text).utf8[...]
        var result = Parts(negative: false, digits: [], exponent: 0)
        if let sign = bytes.first, sign == ASCII.minus || sign == ASCII.plus {
            result.negative = sign == ASCII.minus
            bytes = bytes.dropFirst()
        }
        let integerDigits = bytes.prefix(while: ASCII.isDigit)
        guard !integerDigits.isEmpty else { return nil }
        result.digits = integerDigits.map { $0 - ASCII.zero }
        bytes = bytes.dropFirst(integerDigits.count)
        if bytes.first == ASCII.period {
            bytes = bytes.dropFirst()
            let fraction = bytes.prefix(while: ASCII.isDigit)
            guard !fraction.isEmpty else { return nil }
            result.digits += fraction.map { $0 - ASCII.zero }
            result.exponent = -fraction.count
            bytes = bytes.dropFirst(fraction.count)
        }
        if let marker = bytes.first, marker == ASCII.lowerE || marker == ASCII.upperE {
            bytes = bytes.dropFirst()
            var negativeExponent = false
            if let sign = bytes.first, sign == ASCII.minus || sign == ASCII.plus {
                negativeExponent = sign == ASCII.minus
                bytes = bytes.dropFirst()
            }
            let exponentDigits = bytes.prefix(while: ASCII.isDigit)
            guard !exponentDigits.isEmpty else { return nil }
            var exponent = 0
            for byte in exponentDigits { exponent = min(exponentCap, exponent * 10 + Int(byte - ASCII.zero)) }
            result.exponent += negativeExponent ? -exponent : exponent
            bytes = bytes.dropFirst(exponentDigits.count)
        }
        return bytes.isEmpty ? result : nil
    }

    /// ±magnitude, one less when digits were dropped from a negative number (rounding down).
    private static func signed(_ magnitude: UInt64, negative: Bool, roundDown: Bool) -> Reading {
        if !negative {
            return magnitude <= UInt64(Int64.max) ? .value(Int64(magnitude)) : .outOfRange
        }
        let (total, overflow) = roundDown ? magnitude.addingReportingOverflow(1) : (magnitude, false)
        if overflow || total > UInt64(Int64.max) + 1 { return .outOfRange }
        return .value(total == UInt64(Int64.max) + 1 ? .min : -Int64(total))
    }
}
