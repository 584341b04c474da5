import GraphImportSchema

/// A to-many stored once, as its inverse to-one's foreign key (`Board.actions` beside
/// `Action.board`): the list states each element's to-one, so each element is drafted with it.
/// The writers then set the foreign key as they set any to-one (the last occurrence wins, on both
/// stores alike), and only let go of the objects the list no longer names.
extension DraftBuilder {
    /// Gives each element of the object's lists stored once its to-one into the object (entity
    /// `owner`, key `key`). An element given by its key alone becomes a draft of that key with
    /// only the to-one: it updates a stored object, and a new one must be given its required
    /// values elsewhere in the run (there is no stub: the link is a column of its own row).
    mutating func linkElements(of toMany: inout [[LinkDraft]?], to owner: Int, key: [SQLValue]) {
        let entity = plan.entities[owner]
        let ownerLink = LinkDraft.reference(entity: owner, key: ObjectKey(values: key))
        for (index, relationship) in entity.toMany.enumerated() {
            guard let toOne = relationship.foreignKey, let links = toMany[index] else { continue }
            toMany[index] = links.map { link in
                switch link {
                case .object(var element):
                    element.toOne[toOne] = ownerLink
                    return .object(element)
                case .reference(let target, let elementKey), .existing(let target, let elementKey, _):
                    return .object(keyOnlyDraft(target, elementKey, toOne: toOne, link: ownerLink))
                case .null:
                    return link
                }
            }
        }
    }

    /// A draft of the object with `key` that gives nothing but its to-one `toOne`.
    private mutating func keyOnlyDraft(_ index: Int, _ key: ObjectKey, toOne: Int, link: LinkDraft) -> ObjectDraft {
        let entity = plan.entities[index]
        var values = [SQLValue?](repeating: nil, count: entity.attributes.count)
        for (position, attribute) in entity.keyAttributes.enumerated() { values[attribute] = key.values[position] }
        var toOnes = [LinkDraft?](repeating: nil, count: entity.toOne.count)
        toOnes[toOne] = link
        var draft = ObjectDraft(
            entity: index, key: key, values: values, toOne: toOnes, toMany: Array(repeating: nil, count: entity.toMany.count))
        draft.lacking = lackingRequired(values, entity: index)
        return draft
    }
}
