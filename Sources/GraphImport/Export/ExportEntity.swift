import GraphImportSchema

/// Where a `records` line's objects go: an array, the members of an object, or one object.
struct RecordLeaf: Sendable {
    enum Container: Sendable {
        case array, members, single
    }

    var container: Container
    var elements: [ExportElement]
    /// The records of other lines written inside this line's first object (`items[*].sub[*]`
    /// inside `items[*]`'s), where their paths put them; nil when none are.
    var inside: ExportShape? = nil
    /// For a line with no place of its own whose objects a relationship of an outer line's
    /// objects writes where the line reads them (`$[*].issues[*]` and `Repo.issues`), directly or
    /// through owned objects nested on the way (`issues[*].history[*].author`: `Issue.history`,
    /// then `Change.author`): that line and those relationships. An object that no written outer
    /// object links there is not written.
    var heldBy: Holder? = nil

    /// An outer records line and the relationships that write an inner line's objects: the
    /// first of the outer line's entity, each next one of the owned entity the one before reaches.
    struct Holder: Sendable {
        let line: Int
        let hops: [Hop]

        /// One relationship on the way, and the entity whose it is.
        struct Hop: Sendable, Equatable {
            let entity: Int
            let relationship: ExportRelationship
        }
    }
}

/// How the objects of one relationship (or records line) are written: where the object sits in
/// each element, what else the element holds (link attributes, a discriminator, a `where` field),
/// and the object's own shape when the element adds members to it.
struct ExportElement: Sendable {
    let target: Int
    /// `.element` where the object goes; `.link`, `.literal` beside it.
    let elementShape: ExportShape
    /// The target's shape with the element's members merged in, when the element is the object
    /// itself and adds to it; nil for the target's own.
    let objectShape: ExportShape?
    /// The shape of the target written by its key, when that must be an object (a compound key,
    /// members merged); nil to write the bare key.
    let keyShape: ExportShape?
    let linkValues: [ExportValue]
    /// A branch of a polymorphic relationship chosen by the form of its key (`by $`): the key is
    /// what the choice reads, so the target is always written by its key.
    var byKey = false
    /// A `where` that no value the element writes satisfies by itself (a prefix, a glob, a test of
    /// the element itself: `where $ has prefix "t1_"`): tested on each element as written, which
    /// is left out, and named, when it fails.
    var condition: FilterPlan? = nil
    /// The entity and relationship whose targets this writes; nil for a records line's.
    var source: (entity: Int, relationship: ExportRelationship)? = nil
}

/// One entity compiled for export.
final class ExportEntity: Sendable {
    let index: Int
    let plan: EntityPlan
    let shape: ExportShape
    let values: [ExportValue]
    /// `pk`, the attributes, the to-ones' columns: the row every query reads.
    let columns: String
    /// The attributes that must hold a value for the object to import as an object: an object
    /// missing one is a stub, written by its key.
    let required: [Int]
    /// The attribute that reads `$key`, for objects written as members of an object.
    let memberName: Int?
    let toOne: [ExportElement]
    let toMany: [ExportElement]
    /// Per to-many: its rows of one owner, in order, with the link attributes.
    let toManySQL: [String]

    init(
        index: Int, plan: EntityPlan, shape: ExportShape, values: [ExportValue], required: [Int], memberName: Int?, toOne: [ExportElement],
        toMany: [ExportElement]
    ) {
        self.index = index
        self.plan = plan
        self.shape = shape
        self.values = values
        self.required = required
        self.memberName = memberName
        self.toOne = toOne
        self.toMany = toMany
        columns = ([Naming.primaryKey] + plan.attributes.map(\.column) + plan.toOne.map(\.column)).map(quoteIdentifier).joined(separator: ", ")
        toManySQL = plan.toMany.map { relationship in
            "SELECT " + ([relationship.targetColumn] + relationship.linkAttributes.map(\.column)).map(quoteIdentifier).joined(separator: ", ")
                + " FROM \(quoteIdentifier(relationship.joinTable)) WHERE \(quoteIdentifier(relationship.ownerColumn)) = ? ORDER BY "
                + quoteIdentifier(relationship.orderColumn)
        }
    }

    /// Whether its objects are written whole whatever `--depth`: an owned object's key (its owner's
    /// and its position) stands for nothing in the feed, and an object that is an array
    /// (`files <- $ : [File]`) has no key to stand for it: its key is where it sits.
    var nestsAlways: Bool {
        if plan.isOwned { return true }
        if case .member(.toMany) = shape { return true }
        return false
    }

    /// How the targets of one of its relationships are written.
    func element(_ relationship: ExportRelationship) -> ExportElement {
        switch relationship {
        case .toOne(let index): toOne[index]
        case .toMany(let index): toMany[index]
        }
    }

    /// The column of the row that holds attribute `index` (after `pk`).
    @inline(__always) func attributeColumn(_ index: Int) -> Int { 1 + index }
    /// The column of the row that holds to-one `index`.
    @inline(__always) func toOneColumn(_ index: Int) -> Int { 1 + plan.attributes.count + index }
}
