import GraphImportMapping

extension ToManyPlan {
    /// The `link` attributes of `relationship`, compiled as attributes are (converters, checks,
    /// null rules) and given join-table columns that clash with neither the table's own columns
    /// nor each other.
    static func compileLinks(
        _ relationship: Relationship, joinTable: String, ownerColumn: String, targetColumn: String, context: PlanContext,
        diagnostics: inout [Diagnostic]
    ) -> [AttributePlan] {
        guard !relationship.linkAttributes.isEmpty else { return [] }
        var columns: [String: String] = [
            ownerColumn.lowercased(): "the owner's key", targetColumn.lowercased(): "the target's key",
            Naming.position.lowercased(): "the list's order",
        ]
        var compiled: [AttributePlan] = []
        for attribute in relationship.linkAttributes {
            let column = Naming.column(attribute: attribute.name)
            if let other = columns[column.lowercased()] {
                diagnostics.append(
                    context.mapping.diagnostic(
                        .linkColumnClash(
                            member: attribute.name, column: column, table: joinTable, usedBy: other, reserved: !other.hasPrefix("'"),
                            at: attribute.location)))
            } else {
                columns[column.lowercased()] = "'\(attribute.name)'"
            }
            compiled.append(AttributePlan.compile(attribute, column: column, context: context, diagnostics: &diagnostics))
        }
        return compiled
    }

    /// Whether the links carry values of their own.
    var hasLinkAttributes: Bool { !linkAttributes.isEmpty }
}
