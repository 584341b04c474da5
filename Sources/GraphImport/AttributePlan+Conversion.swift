import GraphImportJSON
import GraphImportStore

/// The one way a JSON value becomes what an attribute stores, whoever asks: the import's
/// drafting and `graphimport check --sample` both call these.
extension AttributePlan {
    /// `raw` through the attribute's converters, left to right, then coerced to its type.
    @inline(__always)
    func sqlValue(_ raw: JSONValue) throws(ConversionError) -> SQLValue {
        guard !converters.isEmpty else { return try Coercion.sqlValue(json: raw, as: type) }
        var value = Value.json(raw)
        for converter in converters { value = try converter(value) }
        return try Coercion.sqlValue(value, as: type)
    }

    /// Why `value` fails the attribute's `check` clauses (the map's message when it gives one),
    /// or nil when it passes them all.
    func failedCheck(_ value: SQLValue) -> String? {
        for check in checks {
            if let failure = check.validate(value) { return check.message ?? failure }
        }
        return nil
    }

    /// Whether an explicit JSON null is refused (a required attribute with no `null` rule).
    var refusesNull: Bool { onNull == .reject }
}
