import GraphImportJSON

/// Drafting from a record's `JSONSlots` table instead of its tree (issue 34, step 2;
/// docs/slot-table-plan.md): so far the attributes whose path is one key, of the record's own
/// object and of the objects its one-key to-ones and the elements of its one-key to-manys lead to
/// (and theirs). Every other read takes the tree, which the pipeline materialises from the table.
extension DraftBuilder {
    /// Which attributes of an entity read their value from an object's table at one projection
    /// node, and by which member number: looked up once per plan, not per record.
    struct SlotReads {
        /// By attribute: the member number of its one-key path in the node, or nil when the
        /// attribute is read from the tree (any other path, fallbacks, or a node that keeps
        /// everything and so has no numbers).
        let members: [Int?]
        /// By to-one: the member number of its path when it is one key and read plainly (no
        /// fallbacks, no `where`), so that the object it leads to is drafted from its slot.
        let toOne: [Int?]
        /// By to-many: likewise, so that the objects of the array it leads to are drafted from
        /// their slots (a `{*}` path's members are a tree's).
        let toMany: [Int?]

        init(entity: EntityPlan, node: Int, projection: JSONProjection) {
            // A node that keeps everything numbers no member; a key the node does not keep is
            // one the tree lacks too, and reads as absent by the tree.
            func number(_ path: [PathStep]?) -> Int? {
                guard let path, path.count == 1, case .key(let key) = path[0] else { return nil }
                return projection.memberNumber(of: node, key: key)
            }
            members = entity.attributes.map { $0.readsFallbacks ? nil : number($0.path) }
            toOne = entity.toOne.map { $0.isPlain ? number($0.path) : nil }
            toMany = entity.toMany.map { $0.isPlain && !$0.isKeyed ? number($0.path) : nil }
        }
    }

    /// The `SlotReads` of `entity` for the object at `slot` of the current record's table.
    ///
    /// Keyed by node alone: every projection of one plan shares its nodes and their member
    /// numbers (`ImportPlan.projections(hooks:)` makes them from one `ProjectionBuilder`).
    mutating func slotReads(entity: Int, object slot: Int) -> SlotReads? {
        guard let slots = recordSlots else { return nil }
        let node = slots.node(of: slot)
        let cacheKey = node &* plan.entities.count &+ entity
        if let known = slotReadsByNode[cacheKey] { return known }
        let reads = SlotReads(entity: plan.entities[entity], node: node, projection: slots.projection)
        slotReadsByNode[cacheKey] = reads
        return reads
    }
}
