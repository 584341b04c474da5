/// `derived "{title} ({releasedAt:yyyy})"`: text built from other attributes of the same object.
package struct Template: Sendable, Equatable {
    /// The template as written, escapes resolved.
    package var text: String
    /// Literal text and attribute references in order; `{{` and `}}` are already single braces.
    package var parts: [TemplatePart]
    package var location: SourceLocation

    package init(text: String, parts: [TemplatePart], location: SourceLocation) {
        self.text = text
        self.parts = parts
        self.location = location
    }

    /// The attributes the template reads, in order of first use.
    package var attributeNames: [String] {
        var names: [String] = []
        for case .attribute(let name, _) in parts where !names.contains(name) { names.append(name) }
        return names
    }
}

/// One piece of a template.
package enum TemplatePart: Sendable, Equatable {
    case text(String)
    /// `{name}` or `{name:format}`; the format is raw text (a date pattern such as `yyyy` for a
    /// `Date`, a printf-like `%.2f` for a number) that the engine interprets.
    case attribute(name: String, format: String?)
}
