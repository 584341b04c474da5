/// Command-line text (`meta set`, `--set-meta`) that cannot be read as the requested metadata type, worded as a sentence:
/// `cannot read 'yes' as a bool: expected true, false, 1 or 0`.
package struct MetaValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text as given.
    package var text: String
    /// The type it was to be read as.
    package var type: MetaType
    /// What was expected or what is wrong, e.g. "expected true, false, 1 or 0".
    package var reason: String

    /// An error for `text` that is not a valid `type`, because of `reason`.
    package init(text: String, type: MetaType, reason: String) {
        self.text = text
        self.type = type
        self.reason = reason
    }

    package var description: String {
        "cannot read '\(text)' as \(type.phrase): \(reason)"
    }
}
