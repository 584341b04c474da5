import GraphImportSchema
import GraphImportStore

/// Import modes and `merge`: what the writer does instead of an upsert that replaces lists.
extension GraphWriter {
    /// For an entity whose mode is not an upsert: whether the draft is left out, with its tree,
    /// by its fate (`ObjectDecisions.fate`): a stored object kept as it is, counted unchanged, its
    /// row id given; a new object left out, counted as not inserted, nil. Or written as usual.
    func leaveByMode(_ draft: ObjectDraft) throws(WriteError) -> (left: Bool, pk: Int64?) {
        let entity = draft.entity
        let found = try find(entity, draft.key)?.0
        switch decisions.fate(entity, stored: found != nil) {
        case .write: return (false, nil)
        case .keepStored:
            guard let object = found else { return (false, nil) }
            if object.status == .referenced {
                memory.willChange(object, entity, draft.key)
                object.status = .touched
            }
            return (true, object.pk)
        case .leaveOut:
            tally.skipNew(entity, draft.key)
            return (true, nil)
        }
    }

    /// Turns the feed's list of each `merge` to-many of `object` into the list it ends with
    /// (`ToManyList.merge`, over the stored one). A feed that adds nothing leaves the list as
    /// stored (unchanged).
    func merge(into lists: inout [[Int64]?], linkRows: inout [[SQLValue]?]?, of object: KnownObject, entity: Int) throws(WriteError) {
        let store = stores[entity]
        for (index, relationship) in plan.entities[entity].toMany.enumerated() where relationship.mergesList {
            guard let list = lists[index] else { continue }
            if let values = linkRows?[index] {
                let width = relationship.linkAttributes.count
                let stored = try storing { () throws(StoreError) in try storedLinks(of: object, index: index, store: store) }
                var merged = ToManyList(unique: stored.list, values: stored.values, width: width)
                merged.merge(ToManyList(unique: list, values: values, width: width))
                lists[index] = merged.targets
                linkRows![index] = merged.values
                continue
            }
            let stored = try storing { () throws(StoreError) in try storedList(of: object, index: index, store: store) }
            var merged = ToManyList(unique: stored, values: [], width: 0)
            merged.merge(ToManyList(unique: list, values: [], width: 0))
            lists[index] = merged.targets
        }
    }

    /// The targets and link values `object` holds for to-many `index` (read, and kept, when not in memory).
    private func storedLinks(of object: KnownObject, index: Int, store: Store) throws(StoreError) -> (list: [Int64], values: [SQLValue]) {
        if let list = object.list(index), let values = object.linkValues(index) { return (list, values) }
        let stored = try store.list(of: object.pk, withValuesOf: index)
        object.setList(index, stored.list, values: stored.values)
        return stored
    }
}
