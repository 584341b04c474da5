/// `check range(0, 5) "stars run from 0 to 5"`: a validator the value must pass, named from the
/// `validators` the engine offers; a record whose value fails it is rejected with `message`.
public struct Check: Sendable, Equatable {
    public var name: String
    /// Checked against the validator's signature; an integer given for a number became `.double`.
    public var arguments: [Literal]
    /// The text to report when the value fails, or nil for the validator's own wording.
    public var message: String?
    public var location: SourceLocation

    public init(name: String, arguments: [Literal], message: String? = nil, location: SourceLocation) {
        self.name = name
        self.arguments = arguments
        self.message = message
        self.location = location
    }
}
