/// Something of the map that an export cannot write so that it imports to the same graph.
public struct ExportCaveat: Sendable, Equatable, CustomStringConvertible {
    /// `Tweet.createdAt`, `meta fetchedAt`.
    public let member: String
    public let reason: String

    public var description: String { "\(member): \(reason)" }
}
