/// `check range(0, 5) "stars run from 0 to 5"`: a validator the value must pass, named from the
/// `validators` the engine offers; a record whose value fails it is rejected with `message`.
package struct Check: Sendable, Equatable {
    package var name: String
    /// Checked against the validator's signature; an integer given for a number became `.double`.
    package var arguments: [Literal]
    /// The text to report when the value fails, or nil for the validator's own wording.
    package var message: String?
    package var location: SourceLocation

    package init(name: String, arguments: [Literal], message: String? = nil, location: SourceLocation) {
        self.name = name
        self.arguments = arguments
        self.message = message
        self.location = location
    }
}
