import GraphImportJSON
import GraphImportMapping

/// How `graphimport export` writes back what a converter produced: each converter says its inverse
/// or that it has none (`Converter.inverse`; the standard set's in `StandardConverters+Inverses`).
public enum ConverterInverse: Sendable {
    /// The stored value, written as JSON of its type, is read back by the converter as itself
    /// (`int`: a number; `lowercase`: text already in lower case).
    case storedValue
    /// A function of the call's arguments, from the value the converter produced to the JSON
    /// value it reads (`date("…")`: a date back to its pattern).
    case function(@Sendable ([Literal]) throws(ConversionError) -> CompiledInverse)
    /// No inverse, and why: export then writes the stored value (a date as ISO 8601 text) and
    /// says that the attribute may not import again to the same value.
    case none(String)
}

/// An inverse compiled for one map line: from the converter's output back to its input.
public typealias CompiledInverse = @Sendable (Value) -> Value

extension ConverterCatalog {
    /// The inverse of a call, nil when the stored value is its own inverse; throws the reason a
    /// converter has none.
    package func compileInverse(_ call: ConverterCall) throws(ConversionError) -> CompiledInverse? {
        guard let converter = converter(named: call.name) else { throw ConversionError("unknown converter '\(call.name)'") }
        switch converter.inverse {
        case .storedValue: return nil
        case .function(let compile): return try compile(call.arguments)
        case .none(let reason): throw ConversionError("`\(call.name)` has no inverse: \(reason)")
        }
    }
}
