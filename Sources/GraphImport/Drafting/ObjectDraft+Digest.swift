import GraphImportSchema

extension ObjectDraft {
    /// The content digest of the draft as drafted: its entity, each value (absent and null told
    /// apart), each to-one's target by entity and key, each to-many's targets in order, and the
    /// link values; `seed` is the map's (`ImportPlan.digestSeed`). Nested objects have digests
    /// of their own: an owner's covers only which objects it links.
    func draftedDigest(seed: ContentDigest) -> ContentDigest {
        var hasher = ContentHasher(seed: seed)
        hasher.add(UInt64(entity))
        for value in values {
            guard let value else {
                hasher.add(0)
                continue
            }
            hasher.add(1)
            hasher.add(value)
        }
        for link in toOne {
            guard let link else {
                hasher.add(0)
                continue
            }
            Self.add(link, to: &hasher)
        }
        for list in toMany {
            guard let list else {
                hasher.add(0)
                continue
            }
            hasher.add(UInt64(list.count) &+ 1)
            for link in list { Self.add(link, to: &hasher) }
        }
        if let linkValues {
            for values in linkValues {
                guard let values else {
                    hasher.add(0)
                    continue
                }
                hasher.add(UInt64(values.count) &+ 1)
                for value in values { hasher.add(value) }
            }
        }
        return hasher.digest
    }

    private static func add(_ link: LinkDraft, to hasher: inout ContentHasher) {
        func add(kind: UInt64, entity: Int, key: ObjectKey) {
            hasher.add(kind)
            hasher.add(UInt64(entity))
            hasher.add(UInt64(key.count))
            for value in key { hasher.add(value) }
        }
        switch link {
        case .null: hasher.add(1)
        case .object(let draft): add(kind: 2, entity: draft.entity, key: draft.key)
        case .reference(let entity, let key): add(kind: 3, entity: entity, key: key)
        case .existing(let entity, let key, _): add(kind: 4, entity: entity, key: key)
        }
    }
}
