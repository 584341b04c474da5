extension ImportPlan {
    /// Per entity: whether its objects may take a content digest as far as the map can tell
    /// (`ObjectDecisions.storesDigest` adds what the run decides: hooks and modes). A digest
    /// stands for everything an object's write depends on, so an entity is left out wherever its
    /// write reads something the draft does not hold, or writes another object's list:
    /// - a custom converter anywhere in the map (its code may change between runs);
    /// - a derived attribute or an `always` value (computed at write time);
    /// - a list that merges into the stored one (the write depends on the stored list);
    /// - a to-many stored once as its targets' foreign key, and the entity such a list is
    ///   stored in (one object's write changes another's list);
    /// - a relationship that holds owned objects (its write lets go of the owned objects it no
    ///   longer holds; left out until that path is measured and tested with digests);
    /// - a relationship that links existing objects only (its write depends on which objects
    ///   the store holds).
    /// When unsure, no digest: the object is then compared value by value, slower, never wrong.
    static func takesDigests(_ entities: [EntityPlan], namesCustomConverters: Bool) -> [Bool] {
        guard !namesCustomConverters else { return Array(repeating: false, count: entities.count) }
        var storedInOthersLists = Set<Int>()
        for entity in entities {
            for relationship in entity.toMany where relationship.foreignKey != nil { storedInOthersLists.insert(relationship.target) }
        }
        return entities.indices.map { index in
            let entity = entities[index]
            return entity.derivedAttributes.isEmpty
                && !entity.attributes.contains { $0.always != nil }
                && !entity.toMany.contains { $0.mergesList || $0.ownsTarget || $0.linksExistingOnly }
                && !entity.toOne.contains { $0.ownsTarget || $0.linksExistingOnly }
                && !entity.storesListsOnce && !storedInOthersLists.contains(index)
        }
    }
}
