import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// How a stored value is written back: read as its type, then through the inverses of its
/// converters, last converter first; what no inverse turns into JSON is written as the store holds
/// it (a date as its ISO 8601 text, bytes as base64).
struct ExportValue: Sendable {
    let type: ValueType
    /// The inverses in the order they apply (the map's last converter first); empty when the
    /// stored value is written as it is.
    let inverses: [CompiledInverse]

    /// Compiles the inverses of `calls`; a converter without one is reported in `problem` and its
    /// value written as stored.
    init(type: ValueType, calls: [ConverterCall], converters: ConverterCatalog, problem: (String) -> Void) {
        self.type = type
        var inverses: [CompiledInverse] = []
        for call in calls.reversed() {
            do {
                if let inverse = try converters.compileInverse(call) { inverses.append(inverse) }
            } catch {
                problem(error.message)
                inverses = []
                break
            }
        }
        self.inverses = inverses
    }

    func write(_ stored: SQLValue, to out: JSONOutput) {
        if inverses.isEmpty {
            writeStored(stored, to: out)
            return
        }
        var value: Value
        switch (type, stored) {
        case (_, .null): return out.null()
        case (.date, .text(let text)):
            guard let timestamp = try? ISO8601Parser.parse(text) else { return out.string(text) }
            value = .date(timestamp)
        case (.bool, .integer(let number)): value = .bool(number != 0)
        case (.json, .text(let text)): return out.raw(text)
        case (_, .integer(let number)): value = .int(number)
        case (_, .real(let number)): value = .double(number)
        case (_, .text(let text)): value = .string(text)
        case (_, .blob(let bytes)): value = .data(bytes)
        }
        for inverse in inverses { value = inverse(value) }
        Self.write(value, to: out)
    }

    /// The stored value as JSON of the attribute's type.
    private func writeStored(_ stored: SQLValue, to out: JSONOutput) {
        switch stored {
        case .null: out.null()
        case .integer(let number): if type == .bool { out.bool(number != 0) } else { out.integer(number) }
        case .real(let number): out.double(number)
        case .text(let text): if type == .json { out.raw(text) } else { out.string(text) }
        case .blob(let bytes): out.string(Base64.encode(bytes))
        }
    }

    static func write(_ value: Value, to out: JSONOutput) {
        switch value {
        case .json(let json): out.raw(json.jsonText)
        case .string(let text): out.string(text)
        case .int(let number): out.integer(number)
        case .double(let number): out.double(number)
        case .bool(let flag): out.bool(flag)
        case .date(let timestamp): out.string(Coercion.isoText(timestamp))
        case .data(let bytes): out.string(Base64.encode(bytes))
        }
    }
}

extension Literal {
    /// The literal as a JSON value, as the map's comparisons read it.
    var jsonValue: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .int(let number): .number(JSONNumber(integer: number))
        case .double(let number): .number(JSONNumber(literal: String(number)))
        case .bool(let flag): .bool(flag)
        }
    }
}
