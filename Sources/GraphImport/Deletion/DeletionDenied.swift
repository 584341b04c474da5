/// A deletion that a `delete deny` rule forbids; nothing was deleted.
public struct DeletionDenied: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String
    public var description: String { message }

    package init(message: String, hint: String) {
        self.message = message
        self.hint = hint
    }

    /// `holders` objects of `owner` that are kept link to `target` object `key` (its key as
    /// `keyText`) through `relationship`, whose rule is `delete deny`: the words for both stores.
    init(target: String, key: String, owner: String, relationship: String, holders: Int) {
        self.init(
            message:
                "cannot delete \(target) \(key): \(owner).\(relationship) denies it (\(holders) \(owner) object\(holders == 1 ? " links" : "s link") to it); nothing was deleted",
            hint: "keep \(target) \(key) in the feed, or change the rule of \(owner).\(relationship) to `delete nullify` or `delete cascade`")
    }
}
