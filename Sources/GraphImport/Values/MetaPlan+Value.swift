import GraphImportJSON
import GraphImportSchema

extension MetaPlan {
    /// The response's value converted as the map says; nil for a null (the key is then removed).
    func metaValue(_ raw: JSONValue) throws(ConversionError) -> MetaValue? {
        let sql = try ValuePipeline.converted(.json(raw), converters: converters, type: type)
        switch (type, sql) {
        case (_, .null):
            if !isOptional { throw ConversionError("is required but the value is null", hint: "declare it optional: `: \(type.rawValue)?`") }
            return nil
        case (.bool, .integer(let flag)): return .bool(flag != 0)
        case (.int, .integer(let number)): return .integer(number)
        case (.double, .real(let number)): return .double(number)
        case (.date, .text(let text)): return .date(text)
        case (.json, .text(let text)): return .json(text)
        case (_, .text(let text)): return .string(text)
        default: throw ConversionError("cannot be kept as metadata")
        }
    }
}
