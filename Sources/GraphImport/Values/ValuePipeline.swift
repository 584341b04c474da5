import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// The one path of a value to its column: convert (the map's `| converter`s, in order), coerce
/// to the declared type (`Coercion`, strictly), check (the map's `check`s, on the stored value).
///
/// Drafts, derived values and metadata all go through here, so a value is judged the same way
/// whoever asks. The steps are separate functions because drafting decides what a null means
/// (`null keep`, `null -> value`, required) between coercing and checking; a caller with nothing
/// to decide there calls `stored`. Static and inlined: drafting calls them for every value.
enum ValuePipeline {
    /// `value` converted by `converters` and coerced to `type`.
    @inline(__always)
    static func converted(_ value: Value, converters: [CompiledConverter], type: ValueType) throws(ConversionError) -> SQLValue {
        var value = value
        for converter in converters { value = try converter(value) }
        return try Coercion.sqlValue(value, as: type)
    }

    /// `converted(.json(raw), …)`, without wrapping the value when there is no converter (most
    /// attributes have none; see `Coercion.sqlValue(json:as:)`).
    @inline(__always)
    static func converted(json raw: JSONValue, converters: [CompiledConverter], type: ValueType) throws(ConversionError) -> SQLValue {
        guard !converters.isEmpty else { return try Coercion.sqlValue(json: raw, as: type) }
        return try converted(.json(raw), converters: converters, type: type)
    }

    /// The message of the first check `value` fails (the map's own, else the validator's), or nil
    /// when it passes them all.
    @inline(__always)
    static func failedCheck(_ value: SQLValue, checks: [CompiledCheck]) -> String? {
        for check in checks {
            if let failure = check.validate(value) { return check.message ?? failure }
        }
        return nil
    }

    /// `value` converted, coerced and checked: what is stored, or why it cannot be.
    static func stored(
        _ value: Value, converters: [CompiledConverter], type: ValueType, checks: [CompiledCheck]
    ) throws(ValueFailure) -> SQLValue {
        let stored: SQLValue
        do { stored = try converted(value, converters: converters, type: type) } catch { throw .conversion(error) }
        if let failure = failedCheck(stored, checks: checks) { throw .check(message: failure, value: stored) }
        return stored
    }
}

/// Why a value cannot be stored: its conversion failed, or a check refused the converted value.
enum ValueFailure: Error, Equatable {
    case conversion(ConversionError)
    case check(message: String, value: SQLValue)

    /// As a message shows it: a refused value follows the check's message (`must be positive (value: -1)`).
    var message: String {
        switch self {
        case .conversion(let error): error.message
        case .check(let message, let value): message + " (value: \(value.shown))"
        }
    }
}

/// The pipeline with an attribute's own converters, type and checks.
extension AttributePlan {
    /// `raw` through the attribute's converters, left to right, then coerced to its type.
    @inline(__always)
    func sqlValue(_ raw: JSONValue) throws(ConversionError) -> SQLValue {
        try ValuePipeline.converted(json: raw, converters: converters, type: type)
    }

    /// Why `value` fails the attribute's `check` clauses (the map's message when it gives one),
    /// or nil when it passes them all.
    @inline(__always)
    func failedCheck(_ value: SQLValue) -> String? {
        ValuePipeline.failedCheck(value, checks: checks)
    }

    /// Whether an explicit JSON null is refused (a required attribute with no `null` rule).
    var refusesNull: Bool { onNull == .reject }

    /// `value` (a derived template's text, say) converted, coerced and checked as this attribute says.
    func storedValue(_ value: Value) throws(ValueFailure) -> SQLValue {
        try ValuePipeline.stored(value, converters: converters, type: type, checks: checks)
    }
}
