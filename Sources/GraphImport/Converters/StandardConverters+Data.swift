import GraphImportJSON

extension StandardConverters {
    /// `base64`: strict base64 text (RFC 4648 §4, see `Base64`) -> its bytes, for a `Data` attribute.
    /// What a `Data` attribute without a converter reads; writing it says so in the map.
    static let base64 = Converter(name: "base64", summary: "base64 text -> the bytes it encodes (Data)") { value throws(ConversionError) in
        guard let text = value.stringValue else { throw ConversionError.expected("base64 text", found: value) }
        return .data(try Base64.bytes(of: text, shown: value.shown!))
    }

    /// `utf8`: text -> its UTF-8 bytes, for a `Data` attribute that holds text as it is written
    /// (`"aGk="` stays the four bytes `aGk=`, never the two it would decode to as base64).
    static let utf8 = Converter(name: "utf8", summary: "text -> its UTF-8 bytes (Data)") { value throws(ConversionError) in
        .data(Array(try requireString(value).utf8))
    }
}
