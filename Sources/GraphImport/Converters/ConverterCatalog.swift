import GraphImportJSON
import GraphImportMapping

/// The converters a map may name. `standard` holds the built-in ones; library users can register more.
///
/// Every compiled converter passes JSON `null` through unchanged, registered ones included,
/// so that `Date? | iso8601` accepts a null without each converter handling it.
public struct ConverterCatalog: Sendable {
    private var converters: [String: Converter] = [:]
    /// Names in registration order, so `signatures` lists converters the way they were added.
    private var order: [String] = []
    /// How a built-in converter reads a slot of the record's table without a `JSONValue` (see
    /// `SlotReader`), by name; registering a converter drops its name's, so that a replaced
    /// converter is never read the built-in way.
    private var slotReaders: [String: @Sendable ([Literal]) throws(ConversionError) -> SlotReader] = [:]
    /// The names whose converter is a built-in one, not replaced: a content digest may trust
    /// that such a converter reads the same bytes the same way in every run.
    private var builtIn: Set<String> = []

    /// An empty catalog; start from `standard` to keep the built-in converters.
    public init() {}

    /// The built-in converters, documented in `StandardConverters`.
    public static let standard: ConverterCatalog = {
        var catalog = ConverterCatalog()
        for var converter in StandardConverters.all {
            converter.inverse = StandardConverters.inverse(of: converter.signature.name)
            catalog.register(converter)
        }
        catalog.slotReaders = StandardConverters.slotReaders
        catalog.builtIn = Set(catalog.order)
        return catalog
    }()

    /// The signatures of every converter, in registration order, for the map parser.
    public var signatures: [ConverterSignature] { order.compactMap { converters[$0]?.signature } }

    /// Adds a converter, replacing one of the same name.
    public mutating func register(_ converter: Converter) {
        let name = converter.signature.name
        if converters.updateValue(converter, forKey: name) == nil { order.append(name) }
        slotReaders[name] = nil
        builtIn.remove(name)
    }

    /// Whether `name` is a built-in converter that no registration replaced.
    func isBuiltIn(_ name: String) -> Bool { builtIn.contains(name) }

    /// The converter with exactly this name, or nil.
    public func converter(named name: String) -> Converter? { converters[name] }

    /// Compiles a call (arguments already checked for count/kind by the map parser; their values,
    /// such as a date pattern, are checked here).
    package func compile(_ call: ConverterCall) throws(ConversionError) -> CompiledConverter {
        guard let converter = converters[call.name] else {
            throw ConversionError("unknown converter '\(call.name)'")
        }
        let apply = try converter.compile(call.arguments)
        return { value throws(ConversionError) in
            if case .json(.null) = value { return value }
            return try apply(value)
        }
    }

    /// How `call` reads a slot of the record's table (see `SlotReader`), when its converter is a
    /// built-in one that can; nil otherwise (the slot is then made a `JSONValue` for it).
    func slotReader(_ call: ConverterCall) -> SlotReader? {
        try? slotReaders[call.name]?(call.arguments)
    }
}
