/// `delete nullify | cascade | deny` on a relationship: what happens to this object when the
/// target object is deleted.
package enum DeleteRule: String, Sendable, Equatable, CaseIterable {
    /// The link is removed; this object stays (the default).
    case nullify
    /// This object is deleted too.
    case cascade
    /// The target cannot be deleted while this object links to it.
    case deny
}

/// `delete missing [within RELATIONSHIP]` in an entity: at the end of an import of a complete
/// feed, objects of the entity that the feed no longer contains are deleted.
package struct DeletionRule: Sendable, Equatable {
    /// A to-one relationship of the entity: only objects whose target appears in this feed are
    /// considered. nil: every object of the entity is.
    package var scope: String?
    package var location: SourceLocation

    package init(scope: String? = nil, location: SourceLocation) {
        self.scope = scope
        self.location = location
    }
}
