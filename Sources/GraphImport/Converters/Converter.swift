import GraphImportMapping

/// A converter after its arguments were checked: applied to every value.
public typealias CompiledConverter = @Sendable (Value) throws(ConversionError) -> Value

/// A named converter: its signature (for the map parser) and how to compile a call's arguments once.
///
/// `compile` runs once per map line, so expensive work such as turning a date pattern into a
/// parser happens there and not per record.
public struct Converter: Sendable {
    public var signature: ConverterSignature
    public var compile: @Sendable ([Literal]) throws(ConversionError) -> CompiledConverter
    /// How `graphimport export` writes back what it produced; a converter registered without
    /// one has none, and export says so for the attributes that use it.
    public var inverse: ConverterInverse

    public init(
        signature: ConverterSignature, inverse: ConverterInverse = .none("it declares no inverse"),
        compile: @escaping @Sendable ([Literal]) throws(ConversionError) -> CompiledConverter
    ) {
        self.signature = signature
        self.inverse = inverse
        self.compile = compile
    }

    /// A converter without parameters: `apply` is the compiled converter itself.
    init(name: String, summary: String, apply: @escaping CompiledConverter) {
        self.init(signature: ConverterSignature(name: name, parameters: [], summary: summary)) { _ throws(ConversionError) in apply }
    }
}
