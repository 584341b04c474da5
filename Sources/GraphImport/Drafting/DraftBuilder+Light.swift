import GraphImportJSON

extension DraftBuilder {
    /// The record as a `LightRecord` (its objects' keys and slot digests, what it names), or nil
    /// when it must be drafted: an object without a slot digest (`lightWalk` says it cannot), a
    /// record the light walk refuses (the full draft reports why), one its route ignores, one
    /// that links an object by `link existing` (the full draft's `LinkOrigin` reports it when
    /// missing), a record of an entity that takes no digest, or a map that reads `@root` (whose
    /// values are taken only for drafting).
    mutating func lightRecord(record: JSONRecord, route: Int, routes: [RecordRoute], slots: JSONSlots) -> LightRecord? {
        // A record whose own object takes no digest is drafted at once: the walk could only say no.
        guard readsSlots, !readsRoot, case .entity(let entity) = routes[route].target, takesDigests[entity] else { return nil }
        guard let walked = try? lightWalk(record: record, route: routes[route], slots: slots), !walked.isEmpty else { return nil }
        var objects: [LightRecord.Object] = []
        var references: [LightRecord.Reference] = []
        for entry in walked {
            switch entry {
            case .object(let entity, let key, let digest?): objects.append(LightRecord.Object(entity: entity, key: key, digest: digest))
            case .reference(let entity, let key): references.append(LightRecord.Reference(entity: entity, key: key))
            case .object(_, _, nil), .existing: return nil
            }
        }
        return LightRecord(objects: objects, references: references, record: record, route: route, slots: slots)
    }
}
