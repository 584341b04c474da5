import GraphImportMapping
import GraphImportSchema

/// The validators a map's `check` clauses may name. `standard` holds the built-in ones; library
/// users can register more.
///
/// Every compiled validator lets NULL pass, registered ones included: whether a value may be null
/// is the attribute's `null` rule, not a check's.
public struct ValidatorCatalog: Sendable {
    private var validators: [String: Validator] = [:]
    /// Names in registration order, so `signatures` lists validators the way they were added.
    private var order: [String] = []

    /// An empty catalog; start from `standard` to keep the built-in validators.
    public init() {}

    /// The built-in validators, documented in `StandardValidators`.
    public static let standard: ValidatorCatalog = {
        var catalog = ValidatorCatalog()
        for validator in StandardValidators.all { catalog.register(validator) }
        return catalog
    }()

    /// The signatures of every validator, in registration order, for the map parser.
    public var signatures: [ConverterSignature] { order.compactMap { validators[$0]?.signature } }

    /// Adds a validator, replacing one of the same name.
    public mutating func register(_ validator: Validator) {
        let name = validator.signature.name
        if validators.updateValue(validator, forKey: name) == nil { order.append(name) }
    }

    /// The validator with exactly this name, or nil.
    public func validator(named name: String) -> Validator? { validators[name] }

    /// Compiles a clause (arguments already checked for count and kind by the map parser; their
    /// values, such as a regular expression, are checked here). The clause's own message is not
    /// applied here: the engine uses it in place of the one the validator returns.
    package func compile(_ check: Check) throws(ConversionError) -> CompiledValidator {
        guard let validator = validators[check.name] else {
            throw ConversionError("unknown check '\(check.name)'")
        }
        let judge = try validator.compile(check.arguments)
        return { value in value.isNull ? nil : judge(value) }
    }
}
