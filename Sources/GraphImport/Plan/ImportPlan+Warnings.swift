import GraphImportMapping

extension ImportPlan {
    /// What `graphimport check` points out in a map that compiles: lines that work but may not
    /// mean what they say. Nothing here stops an import.
    ///
    /// A `Data` attribute read without a converter takes its text as base64 (as it always did), so
    /// text that happens to be valid base64 (`"aGk="`) silently becomes other bytes: the map
    /// should say `| base64` or `| utf8`.
    public var warnings: [Diagnostic] {
        var warnings: [Diagnostic] = []
        for entity in mapping.entities {
            for attribute in entity.attributes
            where attribute.type == .data && attribute.converters.isEmpty && (attribute.source != nil || attribute.derived != nil) {
                warnings.append(
                    mapping.diagnostic(
                        at: attribute.location, "'\(entity.name).\(attribute.name)' is Data without a converter: its text is read as base64",
                        hint: "write `| base64` to say so, or `| utf8` to store the text's own UTF-8 bytes", severity: .warning))
            }
        }
        return warnings
    }
}
