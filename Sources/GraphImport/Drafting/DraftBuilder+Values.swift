import GraphImportJSON
import GraphImportSchema

/// An attribute's value read in the object being drafted, from its tree or from its slot of the
/// record's table, with its rules (`missing`, conversion, `null`, `check`) written once for both.
extension DraftBuilder {
    /// The value to store for `attribute`, or nil to keep the stored one.
    mutating func value(of attribute: AttributePlan, in object: JSONObject, member: String) throws(RecordError) -> SQLValue? {
        guard let path = attribute.path else { return nil }
        if attribute.readsFallbacks { return try valueOfFirstPath(of: attribute, in: object, member: member) }
        // Read without pushing the path: the value has nothing below it, so only a failure needs
        // the path (pushing and popping each step's key cost a retain and a release per attribute).
        return try value(of: attribute, path: path, raw: try lookup(path, in: object, member: member, push: false), member: member)
    }

    /// `attribute`'s value read from the record's table: the slot `found` of its member in the
    /// object (`JSONSlots.member(_:of:)`; nil: absent).
    mutating func value(of attribute: AttributePlan, member: String, slot found: Int?) throws(RecordError) -> SQLValue? {
        guard hasRecordSlots, let path = attribute.path else { return nil }
        // Converted from the slot (ValuePipeline+Slots.swift): a String only for a value stored.
        var raw: ConvertedSlot?
        if let found { raw = ConvertedSlot(found, of: recordSlots, for: attribute) }
        return try value(of: attribute, path: path, raw: raw, member: member)
    }

    /// What the light walk (`lightWalk`) keeps of a non-key attribute read from the table (its
    /// member's slot `found`): its `missing` rule where the member is absent, else nil, nothing
    /// converted.
    mutating func unconvertedValue(of attribute: AttributePlan, member: String, slot found: Int?) throws(RecordError) -> SQLValue? {
        guard found == nil, let path = attribute.path else { return nil }
        return try value(of: attribute, path: path, raw: nil as JSONValue?, member: member)
    }

    /// The value to store for `attribute` when its path read `raw` (nil: absent): its `missing`,
    /// conversion, `null` and `check` rules. Inlined, so that the tree's read is the code it was
    /// before the table's read shared these rules.
    @inline(__always)
    mutating func value(of attribute: AttributePlan, path: [PathStep], raw: (some AttributeRead)?, member: String) throws(RecordError)
        -> SQLValue?
    {
        guard let raw else {
            switch attribute.onMissing {
            case .keep, .requiredOnInsert: return nil
            case .value(let value): return value
            case .reject:
                throw error(
                    member, "the object has no '\(attribute.sourceDescription)'",
                    hint: "the map's `missing reject` requires the key in every object: add it to the feed, or change the rule", below: path[...])
            }
        }
        // Converted here, not through `convert`: calling that method of `self` from this mutating
        // one copied the whole builder for every value.
        let value: SQLValue
        do throws(ConversionError) { value = try raw.sqlValue(for: attribute) } catch {
            throw self.error(member, error.message, hint: error.hint, below: path[...])
        }
        if case .null = value {
            switch attribute.onNull {
            case .store: return .null
            case .keep: return nil
            case .value(let replacement): return replacement
            case .reject:
                throw error(
                    member, "is required but the value is null", hint: "declare it optional: `: \(attribute.type.rawValue)?`", below: path[...])
            }
        }
        if let failure = attribute.failedCheck(value) {
            throw error(member, failure, hint: nil, value: value, below: path[...])
        }
        return value
    }

    /// The JSON value `attribute` reads in `object` (through its fallbacks), nothing pushed; nil when absent.
    mutating func rawValue(of attribute: AttributePlan, in object: JSONObject, member: String) throws(RecordError) -> JSONValue? {
        guard let path = attribute.path else { return nil }
        guard attribute.readsFallbacks else { return try lookup(path, in: object, member: member, push: false) }
        var taken = -1
        return try lookupFirst(path, attribute.fallbacks, in: object, member: member, taken: &taken)
    }

    /// `<- a, b`: the value read as the attribute of the one path `lookupFirst` chooses (the first
    /// path when none is there, so that the `missing` rule applies), with every rule of the attribute.
    mutating func valueOfFirstPath(of attribute: AttributePlan, in object: JSONObject, member: String) throws(RecordError)
        -> SQLValue?
    {
        var taken = -1
        _ = try lookupFirst(attribute.path ?? [], attribute.fallbacks, in: object, member: member, taken: &taken)
        return try value(of: attribute.singlePathPlans[taken + 1], in: object, member: member)
    }

    /// `below`: the steps from the top of `stack` to the value, when they were not pushed.
    func convert(
        _ raw: JSONValue, for attribute: AttributePlan, member: @autoclosure () -> String, below: ArraySlice<PathStep> = []
    ) throws(RecordError) -> SQLValue {
        do throws(ConversionError) {
            return try attribute.sqlValue(raw)
        } catch {
            throw self.error(member(), error.message, hint: error.hint, below: below)
        }
    }
}
