import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

// An attribute's value converted straight from its slot of the record's table (`JSONSlots`,
// issue 34), without the `JSONValue` the tree's conversion takes: an integer from its payload,
// a boolean or null from its kind, a date parsed from its bytes, a String made only for a value
// stored as text. This answers only what it can answer exactly and cheaply; everything else (a
// converter that needs a value, a JSON attribute, every value refused) goes to the tree's
// conversion of `slots.value(at:)`, so each rule and each message stays in one place.

/// How a converter reads a slot of the record's table: the `Value` it converts the slot to, or
/// nil when it does not answer here (a kind it does not read, or a value it refuses, whose error
/// the converter itself then gives from the slot's `JSONValue`). Given only for built-in
/// converters that read bytes (`ConverterCatalog.slotReader(_:)`).
typealias SlotReader = @Sendable (_ slots: JSONSlots, _ slot: Int) -> Value?

/// An attribute's converters when the first reads slots: that reader, then the others, as
/// `ValuePipeline.converted` applies them to what it gives.
struct SlotConversion: Sendable {
    let read: SlotReader
    let rest: [CompiledConverter]
}

extension AttributePlan {
    /// The value of the slot converted and coerced as `sqlValue(slots.value(at: slot))` converts
    /// it: the same value, or the same error.
    @inline(__always)
    func sqlValue(slot: Int, in slots: JSONSlots) throws(ConversionError) -> SQLValue {
        if let slotConversion {
            if let read = slotConversion.read(slots, slot) {
                return try ValuePipeline.converted(read, converters: slotConversion.rest, type: type)
            }
        } else if converters.isEmpty, let value = Coercion.sqlValue(slot: slot, in: slots, as: type) {
            return value
        }
        return try sqlValue(slots.value(at: slot))
    }
}

extension Coercion {
    /// `sqlValue(json: slots.value(at: slot), as: type)` when the value is stored as it is read
    /// (null; a string as text or a URL; an integer or a finite number as a number; a boolean),
    /// else nil: the tree's coercion says what else it is or why it is refused.
    @inline(__always)
    static func sqlValue(slot: Int, in slots: JSONSlots, as type: ValueType) -> SQLValue? {
        switch (slots.kind(at: slot), type) {
        case (.null, _): return .null
        case (.string, .string): return .text(slots.string(at: slot))
        case (.integer, .int): return slots.integer(at: slot).map { .integer($0) }
        // `JSONNumber.double` of a number kept as its value.
        case (.integer, .double): return slots.integer(at: slot).map { .real(Double($0)) }
        case (.number, .double):
            // The literal read by the Double(_:) that `JSONNumber.double` reads it with; a literal
            // of up to 15 bytes is a small String, which allocates nothing.
            guard let number = Double(slots.string(at: slot)), number.isFinite else { return nil }
            return .real(number)
        case (.trueValue, .bool): return .integer(1)
        case (.falseValue, .bool): return .integer(0)
        case (.string, .url):
            let text = slots.string(at: slot)
            return hasScheme(text) ? .text(text) : nil
        default: return nil
        }
    }
}

/// A value an attribute's path found, as the read holds it (a tree's `JSONValue`, or a slot of
/// the record's table already converted): drafting's rules (`missing`, `null`, `check`) take
/// either, and ask it only for its value as stored.
protocol AttributeRead {
    func sqlValue(for attribute: AttributePlan) throws(ConversionError) -> SQLValue
}

extension JSONValue: AttributeRead {
    @inline(__always)
    func sqlValue(for attribute: AttributePlan) throws(ConversionError) -> SQLValue { try attribute.sqlValue(self) }
}

/// A slot's value converted (`AttributePlan.sqlValue(slot:in:)`) where the table was at hand:
/// a read that held the table itself copied it, retaining each of its arrays, for every value.
struct ConvertedSlot: AttributeRead {
    let converted: Result<SQLValue, ConversionError>

    @inline(__always)
    init(_ slot: Int, of slots: borrowing JSONSlots, for attribute: AttributePlan) {
        do throws(ConversionError) { converted = .success(try attribute.sqlValue(slot: slot, in: slots)) } catch { converted = .failure(error) }
    }

    @inline(__always)
    func sqlValue(for attribute: AttributePlan) throws(ConversionError) -> SQLValue { try converted.get() }
}

// MARK: - The built-in converters that read slots

extension StandardConverters {
    /// How each built-in converter that reads bytes reads a slot (see `SlotReader`), by name,
    /// from its call's arguments. The converters themselves give every error.
    static let slotReaders: [String: @Sendable ([Literal]) throws(ConversionError) -> SlotReader] = [
        "iso8601": { _ throws(ConversionError) in
            dateReader { bytes throws(DateParseFailure) in try ISO8601Parser.parse(bytes: bytes) }
        },
        "rfc1123": { _ throws(ConversionError) in
            dateReader { bytes throws(DateParseFailure) in try rfc1123Pattern.parse(bytes: bytes) }
        },
        "date": { arguments throws(ConversionError) in
            let pattern = try datePattern(arguments).pattern
            return dateReader { bytes throws(DateParseFailure) in try pattern.parse(bytes: bytes) }
        },
        "epochSeconds": { _ throws(ConversionError) in epochReader(powerOfTen: 3) },
        "epochMillis": { _ throws(ConversionError) in epochReader(powerOfTen: 0) },
        "epochMicros": { _ throws(ConversionError) in epochReader(powerOfTen: -3) },
        "epochNanos": { _ throws(ConversionError) in epochReader(powerOfTen: -6) },
    ]

    /// A date converter's reading of a string slot: `parse` over its bytes, no String made.
    private static func dateReader(
        _ parse: @escaping @Sendable (UnsafeBufferPointer<UInt8>) throws(DateParseFailure) -> Timestamp
    ) -> SlotReader {
        { slots, slot in
            guard slots.kind(at: slot) == .string else { return nil }
            let milliseconds = slots.withBytes(at: slot, reading: { bytes in (try? parse(bytes))?.milliseconds })
            return milliseconds.map { .date(Timestamp(milliseconds: $0)) }
        }
    }

    /// An epoch converter's reading of a number or string slot: the text `epoch` reads for its
    /// `JSONValue` (an integer's decimal form, a literal, a string), through `epochTimestamp`.
    private static func epochReader(powerOfTen: Int) -> SlotReader {
        { slots, slot in
            let text: String
            switch slots.kind(at: slot) {
            case .integer: text = String(slots.integer(at: slot)!)
            case .number, .string: text = slots.string(at: slot)
            default: return nil
            }
            return epochTimestamp(text, powerOfTen: powerOfTen).map { .date($0) }
        }
    }
}
