import GraphImportMapping
import GraphImportSchema

extension StandardValidators {
    /// `range(0, 5)`: a number (integer or real) from the minimum to the maximum, both included.
    /// An integer is compared exactly, even beyond 2^53.
    static let range = Validator(
        signature: ConverterSignature(name: "range", parameters: [.double, .double], summary: "a number from the minimum to the maximum, inclusive")
    ) { arguments throws(ConversionError) in
        guard arguments.count == 2, let minimum = number(arguments[0]), let maximum = number(arguments[1]) else {
            throw ConversionError("check 'range' needs two numbers, such as range(0, 5)")
        }
        let (low, high) = (ValidationText.number(minimum), ValidationText.number(maximum))
        guard minimum <= maximum else {
            throw ConversionError("range(\(low), \(high)) admits no value: the minimum is greater than the maximum")
        }
        let message = "must be between \(low) and \(high)"
        return { value in
            switch value {
            case .integer(let integer): isAtLeast(integer, minimum) && isAtMost(integer, maximum) ? nil : message
            case .real(let real): real >= minimum && real <= maximum ? nil : message
            default: ValidationText.cannotCheck("range", value)
            }
        }
    }

    /// `length(1, 280)`: text of that many characters (as a person counts them: `é` and `👍🏽` are
    /// one each), or data of that many bytes, both bounds included.
    static let length = Validator(
        signature: ConverterSignature(name: "length", parameters: [.int, .int], summary: "text of min to max characters, or data of min to max bytes")
    ) { arguments throws(ConversionError) in
        guard arguments.count == 2, case .int(let minimum) = arguments[0], case .int(let maximum) = arguments[1], minimum >= 0 else {
            throw ConversionError("check 'length' needs two whole numbers from 0 on, such as length(1, 280)")
        }
        guard minimum <= maximum else {
            throw ConversionError("length(\(minimum), \(maximum)) admits no value: the minimum is greater than the maximum")
        }
        let span = minimum == maximum ? "\(minimum)" : "\(minimum) to \(maximum)"
        let unitIsOne = minimum == maximum && minimum == 1
        let characters = "must be \(span) character\(unitIsOne ? "" : "s") long"
        let bytes = "must be \(span) byte\(unitIsOne ? "" : "s") long"
        let allowed = Int(clamping: minimum)...Int(clamping: maximum)
        return { value in
            switch value {
            case .text(let text): allowed.contains(text.count) ? nil : characters
            case .blob(let data): allowed.contains(data.count) ? nil : bytes
            default: ValidationText.cannotCheck("length", value)
            }
        }
    }

    /// `oneOf("open", "closed")`, `oneOf(1, 2, 3)`: a value equal to one of the literals, kind by
    /// kind: a string matches text exactly; a number matches an integer or real of the same value;
    /// `true`/`false` match the integers 1/0 that booleans are stored as.
    static let oneOf = Validator(
        signature: ConverterSignature(
            name: "oneOf", parameters: [.string], requiredCount: 1, summary: "a value equal to one of the given ones", isVariadic: true)
    ) { arguments throws(ConversionError) in
        guard !arguments.isEmpty else { throw ConversionError("check 'oneOf' needs at least one value, such as oneOf(\"open\", \"closed\")") }
        var texts: Set<String> = []
        var numbers: [Double] = []
        var integers: Set<Int64> = []
        for argument in arguments {
            switch argument {
            case .string(let text): texts.insert(text)
            case .int(let integer): integers.insert(integer)
            case .double(let real): numbers.append(real)
            case .bool(let flag): integers.insert(flag ? 1 : 0)
            }
        }
        let message = "must be one of " + arguments.map(ValidationText.literal).joined(separator: ", ")
        let judgesNumbers = !numbers.isEmpty || !integers.isEmpty
        // Frozen copies: the compiled validator runs concurrently and may capture only constants.
        let (textSet, realList, integerSet) = (texts, numbers, integers)
        return { value in
            switch value {
            case .text(let text) where !textSet.isEmpty:
                return textSet.contains(text) ? nil : message
            case .integer(let integer) where judgesNumbers:
                let found = integerSet.contains(integer) || realList.contains { isAtLeast(integer, $0) && isAtMost(integer, $0) }
                return found ? nil : message
            case .real(let real) where judgesNumbers:
                let found = realList.contains(real) || (Int64(exactly: real).map(integerSet.contains) ?? false)
                return found ? nil : message
            default:
                return ValidationText.cannotCheck("oneOf", value)
            }
        }
    }

    /// A numeric literal as a Double (the map parser already turned integers into doubles).
    private static func number(_ literal: Literal) -> Double? {
        switch literal {
        case .double(let value) where !value.isNaN: value
        case .int(let value): Double(value)
        default: nil
        }
    }

    /// `integer >= bound`, exactly: for a whole `integer`, that is `integer >= ceil(bound)`.
    static func isAtLeast(_ integer: Int64, _ bound: Double) -> Bool {
        if bound.isNaN { return false }
        if bound < -0x1p63 { return true }
        if bound >= 0x1p63 { return false }
        return integer >= Int64(bound.rounded(.up))
    }

    /// `integer <= bound`, exactly: for a whole `integer`, that is `integer <= floor(bound)`.
    static func isAtMost(_ integer: Int64, _ bound: Double) -> Bool {
        if bound.isNaN { return false }
        if bound >= 0x1p63 { return true }
        if bound < -0x1p63 { return false }
        return integer <= Int64(bound.rounded(.down))
    }
}
