import GraphImportJSON

/// Where the members of an object are written: the map's paths turned around, as a tree of
/// JSON objects and arrays whose leaves are members.
indirect enum ExportShape: Sendable {
    case object([(key: String, shape: ExportShape)])
    /// `coordinates[0]`, `coordinates[1]`: slots by index; a slot no member fills is `null`.
    case array([ExportShape?])
    case member(ExportMember)

    /// The shape without the members `keep` refuses, and without objects left empty by that.
    func filtered(_ keep: (ExportMember) -> Bool) -> ExportShape? {
        switch self {
        case .member(let member): return keep(member) ? self : nil
        case .array(let slots):
            let kept = slots.map { $0?.filtered(keep) }
            return kept.allSatisfy { $0 == nil } ? nil : .array(kept)
        case .object(let members):
            let kept = members.compactMap { member in member.shape.filtered(keep).map { (member.key, $0) } }
            return kept.isEmpty ? nil : .object(kept)
        }
    }
}

/// A leaf of an `ExportShape`: what is written there.
enum ExportMember: Sendable {
    case attribute(Int)
    case toOne(Int)
    case toMany(Int)
    /// A link attribute of the to-many whose element is written.
    case link(Int)
    /// The object itself, inside an element (`each data`, a record's `at data`).
    case element
    /// A value the map implies: a record's discriminator, a `where` field.
    case literal(JSONValue)
    /// Relationships with a `where` that share one array: each writes its elements into it.
    case filtered([ExportRelationship])
    /// The branches of a polymorphic relationship (`(Post | Comment) by …`), one per entity: a
    /// to-one writes the branch that is set (or null), a to-many all branches' elements in one array.
    case polymorphic([ExportRelationship])
    /// The records of a `records` line (the document only).
    case records(Int)
    /// A `meta` value (the document only).
    case meta(Int)
    /// A value of the response's root that members read (`@root.meta.generated_at`): the document only.
    case rootValue(Int)
}

/// Which relationship of the owner.
enum ExportRelationship: Sendable, Equatable {
    case toOne(Int)
    case toMany(Int)
}
