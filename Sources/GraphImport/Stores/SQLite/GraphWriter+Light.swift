extension GraphWriter {
    /// Meets a light record's objects when every one is unchanged (`unchanged`: its digest, in
    /// memory or stored, is the record's), and the objects it names by key; true then, and the
    /// record is done. false when any may have changed: nothing was done, and the record is
    /// drafted and written the usual way (so a record refused later has met nothing, as
    /// `delete missing` needs).
    func keepIfUnchanged(_ record: LightRecord) throws(WriteError) -> Bool {
        var found: [Unchanged] = []
        found.reserveCapacity(record.objects.count)
        for object in record.objects {
            guard let unchanged = try unchanged(object.entity, object.key, digest: decisions.stamped(object.digest)) else { return false }
            found.append(unchanged)
        }
        for (object, unchanged) in zip(record.objects, found) {
            let digest = decisions.stamped(object.digest)
            // An object the record gives twice: its first keep brought it into memory.
            if case .stored = unchanged, let known = memory.object(object.entity, object.key) {
                _ = keep(.known(known), object.entity, object.key, digest: digest)
            } else {
                _ = keep(unchanged, object.entity, object.key, digest: digest)
            }
        }
        for reference in record.references { _ = try resolve(.reference(entity: reference.entity, key: reference.key)) }
        return true
    }
}
