import GraphImportJSON

/// Drafting from a record's `JSONSlots` table instead of its tree (issue 34, step 2;
/// docs/slot-table-plan.md): the attributes whose path is one key, of the record's own object
/// and of the objects its one-key to-ones and the elements of its one-key to-manys lead to (and
/// theirs). An object whose every read is the table's gets no tree at all (`SlotReads.needsTree`);
/// any other is materialised from its slot, its subtree alone, for the reads the table does not
/// answer.
extension DraftBuilder {
    /// Which attributes of an entity read their value from an object's table at one projection
    /// node, and by which member number: looked up once per plan, not per record.
    struct SlotReads {
        /// By attribute: the member number of its one-key path in the node, or nil when the
        /// attribute is read from the tree (any other path, fallbacks, or a node that keeps
        /// everything and so has no numbers).
        let members: [Int?]
        /// By to-one: the member numbers of its path, one per step, when every step is a key and
        /// it is read plainly (no fallbacks, no `where`), so that the object it leads to is
        /// drafted from its slot (`follow`).
        let toOne: [[Int]?]
        /// By to-many: likewise, so that the objects of the array it leads to are drafted from
        /// their slots (a `{*}` path's members are a tree's).
        let toMany: [[Int]?]
        /// Whether drafting the object reads its tree: true unless every read above is the
        /// table's and nothing else of the entity walks the object. Each read that takes the
        /// tree is listed; anything not proven slot-read counts as one (when unsure, a tree: it
        /// costs time, never a wrong draft).
        let needsTree: Bool
        /// Whether a slot digest (`DraftBuilder.SlotDigest`) covers every input of the object's
        /// draft: no read of its tree, and no relationship that reads its elements' or target's
        /// trees for anything but their own drafts (`each`, `unkeyed skip`, link attributes).
        /// False: the object keeps its drafted digest (when unsure, that one: slower, never wrong).
        let coversDraft: Bool

        /// `hasKeyHandlers`: the entity's `ImportHooks.keyHandlers`, which iterate the object's
        /// members. `tracksParents`: the map reads `@parent`, which reads the tree of an object
        /// being drafted from any object below it.
        init(entity: EntityPlan, node: Int, projection: JSONProjection, hasKeyHandlers: Bool, tracksParents: Bool) {
            // A node that keeps everything numbers no member; a key the node does not keep is
            // one the tree lacks too, and reads as absent by the tree.
            func numbers(_ path: [PathStep]?) -> [Int]? {
                guard let path, !path.isEmpty else { return nil }
                var numbers: [Int] = []
                var node = node
                for step in path {
                    guard case .key(let key) = step, let number = projection.memberNumber(of: node, key: key) else { return nil }
                    numbers.append(number)
                    node = projection.child(of: number)
                }
                return numbers
            }
            // An attribute's path is one key so far (`value(of:member:slot:)`).
            members = entity.attributes.map { $0.readsFallbacks ? nil : numbers($0.path).flatMap { $0.count == 1 ? $0[0] : nil } }
            toOne = entity.toOne.map { $0.isPlain ? numbers($0.path) : nil }
            toMany = entity.toMany.map { $0.isPlain && !$0.isKeyed ? numbers($0.path) : nil }
            // An attribute without a path (a key the engine sets, `extras`, a derived value)
            // reads nothing. `$`, `$key`, `$index`, `@root` and `@parent` paths are not keys,
            // so they read the tree here; so do a to-one's or a to-many's fallbacks and `where`,
            // and a `{*}` to-many. A plain to-many's `each`, `unkeyed skip` and link attributes
            // read each element's tree, made from the element's slot (`elementLinks`); a plain
            // to-one's `unkeyed skip` reads its object's likewise: neither reads this object's.
            let attributeReadsTree = zip(entity.attributes, members).contains { $0.path != nil && $1 == nil }
            needsTree =
                attributeReadsTree || toOne.contains(nil) || toMany.contains(nil)
                // They read the object's members as the tree holds them.
                || hasKeyHandlers || entity.extrasAttribute != nil
                // `checkChoices` reads each polymorphic relationship's value in the tree.
                || !entity.polymorphic.isEmpty
                // `parents` holds the tree of every object being drafted.
                || tracksParents
            coversDraft =
                !needsTree && !entity.toOne.contains { $0.skipsUnkeyed || !$0.elementPath.isEmpty }
                && !entity.toMany.contains { $0.skipsUnkeyed || !$0.elementPath.isEmpty || $0.hasLinkAttributes }
        }
    }

    /// The `SlotReads` of `entity` for the object at `slot` of the current record's table.
    ///
    /// Keyed by node alone: every projection of one plan shares its nodes and their member
    /// numbers (`ImportPlan.projections(hooks:)` makes them from one `ProjectionBuilder`).
    mutating func slotReads(entity: Int, object slot: Int) -> SlotReads? {
        guard hasRecordSlots else { return nil }
        let node = recordSlots.node(of: slot)
        let cacheKey = node &* plan.entities.count &+ entity
        if let known = slotReadsByNode[cacheKey] { return known }
        let reads = SlotReads(
            entity: plan.entities[entity], node: node, projection: recordSlots.projection, hasKeyHandlers: hooks[entity].keyHandlers != nil,
            tracksParents: tracksParents)
        slotReadsByNode[cacheKey] = reads
        return reads
    }

    /// Where a relationship's path of keys leads in the record's table (`follow`).
    enum Followed {
        /// A key is absent on the way.
        case absent
        /// A null or `""` is on the way: the value is null.
        case null
        /// The slot of the value.
        case found(Int)
    }

    /// Follows `path`, its keys' member numbers `numbers`, from the object at `slot`, as
    /// `lookup` follows it in the tree, pushing each step taken: any value on the way other
    /// than an object, null or `""` is the error `lookup` gives.
    mutating func follow(_ numbers: [Int], path: [PathStep], from slot: Int, member: String) throws(RecordError) -> Followed {
        precondition(hasRecordSlots, "a path followed in no table")
        var current = slot
        for (taken, number) in numbers.enumerated() {
            switch recordSlots.kind(at: current) {
            case .object:
                guard let next = recordSlots.member(number, of: current) else { return .absent }
                current = next
            case .null: return .null
            case .string where recordSlots.withBytes(at: current, { $0.isEmpty }): return .null
            default:
                // Every step is a key (`SlotReads`).
                let key = if case .key(let key) = path[taken] { key } else { "" }
                throw error(member, "expected an object with the key '\(key)', found \(recordSlots.value(at: current).kindName)", hint: nil)
            }
            stack.append(path[taken])
        }
        return .found(current)
    }

    /// The tree of the object at `slot` of the current record's table: its subtree alone.
    func objectTree(at slot: Int) -> JSONObject {
        guard hasRecordSlots, case .object(let object) = recordSlots.value(at: slot) else {
            preconditionFailure("slot \(slot) of the record's table is not an object")
        }
        return object
    }

    /// The tree of the object at `slot`, drafted without one, when its reads need it
    /// (`SlotReads.needsTree`; no reads known: a tree).
    mutating func treeIfNeeded(_ reads: SlotReads?, slot: Int?) -> JSONObject? {
        guard let slot, reads?.needsTree ?? true else { return nil }
        objectTreesMade += 1
        return objectTree(at: slot)
    }

    /// The tree of an object drafted without one (`object` nil) when a read needs it after all:
    /// made from `slot`, so that a `SlotReads.needsTree` that wrongly said no costs time, never
    /// a wrong draft. A debug build stops here, so that the tests catch such a `needsTree`.
    func treeNeeded(_ object: JSONObject?, slot: Int?) -> JSONObject {
        if let object { return object }
        assertionFailure("SlotReads.needsTree said no read of this object needs its tree")
        guard let slot else { preconditionFailure("an object drafted without its tree or its slot") }
        return objectTree(at: slot)
    }
}
