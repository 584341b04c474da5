import GraphImportJSON

extension StandardConverters {
    /// `trim`: a string without the Unicode whitespace (spaces, tabs, newlines, NBSP…) at either end -> String.
    static let trim = Converter(name: "trim", summary: "removes whitespace at both ends of a string") { value throws(ConversionError) in
        let text = try requireString(value)
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return .string("") }
        return .string(String(scalars[first...last]))
    }

    /// `lowercase`: a string in lower case, by Unicode's rules (`"ÉCOLE"` -> `"école"`) -> String.
    static let lowercase = Converter(name: "lowercase", summary: "a string in lower case") { value throws(ConversionError) in
        .string(try requireString(value).lowercased())
    }

    /// `uppercase`: a string in upper case, by Unicode's rules (`"straße"` -> `"STRASSE"`) -> String.
    static let uppercase = Converter(name: "uppercase", summary: "a string in upper case") { value throws(ConversionError) in
        .string(try requireString(value).uppercased())
    }

    /// `nullIfEmpty`: the empty string becomes null; anything else passes unchanged.
    /// For APIs that send `""` for "no value" (then declare the attribute optional).
    static let nullIfEmpty = Converter(name: "nullIfEmpty", summary: "\"\" -> null, anything else unchanged") { value throws(ConversionError) in
        value.stringValue == "" ? .json(.null) : value
    }

    /// `nullIfFalse`: the boolean `false` becomes null; anything else passes unchanged.
    /// For APIs that send `false` for "never" beside a value (Reddit's `edited`: false or epoch
    /// seconds): `Date? | nullIfFalse | epochSeconds`.
    static let nullIfFalse = Converter(name: "nullIfFalse", summary: "false -> null, anything else unchanged") { value throws(ConversionError) in
        switch value {
        case .json(.bool(false)), .bool(false): .json(.null)
        default: value
        }
    }

    /// The text of a string value, or "expected a string, found …".
    static func requireString(_ value: Value) throws(ConversionError) -> String {
        guard let text = value.stringValue else { throw ConversionError.expected("a string", found: value) }
        return text
    }
}
