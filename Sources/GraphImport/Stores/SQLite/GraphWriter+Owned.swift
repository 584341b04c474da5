import GraphImportSchema
import GraphImportStore

extension GraphWriter {
    /// Notes the owned objects an update of `object` lets go: those of an owned to-many's stored
    /// list that the new list does not hold, and an owned to-one's object when the link changes.
    /// Call before `object` takes the new values and lists.
    func noteOrphans(of object: KnownObject, entity index: Int, merged: [SQLValue?], lists: [[Int64]?], rewrites: [Bool]) throws(WriteError) {
        let entity = plan.entities[index]
        let store = stores[index]
        for (index, relationship) in entity.toMany.enumerated() where relationship.ownsTarget && rewrites[index] {
            guard let list = lists[index] else { continue }
            let old = try storing { () throws(StoreError) in try storedList(of: object, index: index, store: store) }
            for pk in old where !list.contains(pk) { ownedOrphans[relationship.target].insert(pk) }
        }
        for (index, relationship) in entity.toOne.enumerated() where relationship.ownsTarget {
            let column = entity.attributes.count + index
            if case .integer(let old) = object.values[column], merged[column] != object.values[column] {
                ownedOrphans[relationship.target].insert(old)
            }
        }
    }
}
