import GraphImportSchema

/// A to-many stored once, as its inverse to-one's foreign key (`Board.actions` beside
/// `Action.board`): the list states each element's to-one, so each element is drafted with it.
/// The writers then set the foreign key as they set any to-one (the last occurrence wins, on both
/// stores alike), and only let go of the objects the list no longer names.
extension DraftBuilder {
    /// The element `link` of a list stored once, given its to-one `toOne` into the list's owner
    /// (entity `owner`, key `key`). An element given by its key alone becomes a draft of that key
    /// with only the to-one: it updates a stored object, and a new one must be given its required
    /// values elsewhere in the run (there is no stub: the link is a column of its own row). Call
    /// with `stack` at the element.
    mutating func linkElement(_ link: LinkDraft, toOne: Int, owner: Int, key: ObjectKey) -> LinkDraft {
        let ownerLink = LinkDraft.reference(entity: owner, key: key)
        switch link {
        case .object(var element):
            element.toOne[toOne] = ownerLink
            return .object(element)
        case .reference(let target, let elementKey), .existing(let target, let elementKey, _):
            let entity = plan.entities[target]
            var values = [SQLValue?](repeating: nil, count: entity.attributes.count)
            for (position, attribute) in entity.keyAttributes.enumerated() { values[attribute] = elementKey[position] }
            var toOnes = [LinkDraft?](repeating: nil, count: entity.toOne.count)
            toOnes[toOne] = ownerLink
            var draft = ObjectDraft(
                entity: target, key: elementKey, values: values, toOne: toOnes, toMany: Array(repeating: nil, count: entity.toMany.count))
            draft.lacking = lackingRequired(values, entity: target)
            return .object(draft)
        case .null:
            return link
        }
    }
}
