import GraphImportJSON

/// Where a key that may link nothing was read (`link existing`, or a target the run does not
/// insert into): kept only for such keys, so that one left unlinked is reported with its path.
final class LinkOrigin: Sendable {
    /// `Entity.relationship`, as messages name it.
    let member: String
    let recordIndex: Int
    /// The key's path from the document's root.
    let path: JSONPathPattern

    init(member: String, recordIndex: Int, path: JSONPathPattern) {
        self.member = member
        self.recordIndex = recordIndex
        self.path = path
    }
}
