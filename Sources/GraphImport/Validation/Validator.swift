import GraphImportMapping
import GraphImportSchema

/// A check after its arguments were compiled: nil when the value passes, else the default message.
///
/// The message is a short predicate ("must not be empty"); the engine puts the attribute before it
/// and the value after it, or replaces it with the map's own message.
public typealias CompiledValidator = @Sendable (SQLValue) -> String?

/// A named validator for the map's `check NAME(args)` clause: its signature (for the map parser)
/// and how to compile a clause's arguments once.
///
/// Validators judge the value as it would be stored, after conversion; `compile` runs once per
/// clause, so work such as building a regular expression happens there and not per record.
public struct Validator: Sendable {
    public var signature: ConverterSignature
    public var compile: @Sendable ([Literal]) throws(ConversionError) -> CompiledValidator

    public init(signature: ConverterSignature, compile: @escaping @Sendable ([Literal]) throws(ConversionError) -> CompiledValidator) {
        self.signature = signature
        self.compile = compile
    }

    /// A validator without parameters: `judge` is the compiled validator itself.
    init(name: String, summary: String, judge: @escaping CompiledValidator) {
        self.init(signature: ConverterSignature(name: name, parameters: [], summary: summary)) { arguments throws(ConversionError) in
            guard arguments.isEmpty else { throw ConversionError("check '\(name)' takes no arguments, found \(arguments.count)") }
            return judge
        }
    }
}
