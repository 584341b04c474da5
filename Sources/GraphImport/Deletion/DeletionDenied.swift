/// A deletion that a `delete deny` rule forbids; nothing was deleted.
public struct DeletionDenied: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String
    public var description: String { message }
}
