import GraphImportMapping

extension ImportPlan {
    /// What `graphimport check` points out in a map that compiles: lines that work but may not
    /// mean what they say. Nothing here stops an import.
    ///
    /// A `Data` attribute read without a converter takes its text as base64 (as it always did), so
    /// text that happens to be valid base64 (`"aGk="`) silently becomes other bytes: the map
    /// should say `| base64` or `| utf8`.
    ///
    /// A table named with a word that sqlite3 or psql reserves (`user`, `order`) works through
    /// graphimport, which quotes every name, but a person's query reads something else (`select *
    /// from user` in psql is the session user) or fails; `check` says so and offers a name.
    package var warnings: [Diagnostic] {
        var warnings: [Diagnostic] = []
        for entity in mapping.entities {
            let table = Naming.table(entity: entity.name, explicit: entity.tableName)
            if Naming.needsQuotes(table) {
                let plain = Naming.defaultTable(entity: entity.name, avoiding: Set(entities.map(\.table)))
                warnings.append(
                    mapping.diagnostic(
                        at: entity.location,
                        "entity \(entity.name)'s table '\(table)' must be quoted in a query (\"\(table)\"): "
                            + (Naming.wordsNeedingQuotes.contains(table)
                                ? "it is an SQL keyword"
                                : Naming.needsQuotes(table.lowercased())
                                    ? "it holds characters a bare name cannot" : "psql folds unquoted capitals to lowercase"),
                        hint: "name a table that needs no quotes: `entity \(entity.name) table \(plain)`", severity: .warning))
            }
        }
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
