import GraphImportMapping

/// `occurrence first`: which objects of such entities a run has written, so that a later
/// occurrence of one is not written again. Kept by the reading side, the same for both stores,
/// and told only of the records a store wrote (a record skipped under `--skip-invalid` met
/// nothing).
///
/// - Complexity: memory grows with the number of distinct objects of those entities in the run.
struct FirstOccurrences {
    /// Per entity: whether its first occurrence in a run wins.
    private let keepsFirst: [Bool]
    /// Whether any entity's does: otherwise drafts pass through untouched.
    let isActive: Bool
    /// Per entity: the keys of the objects written so far in the run.
    private var met: [Set<ObjectKey>]

    init(plan: ImportPlan) {
        keepsFirst = plan.entities.indices.map { plan.mapping.entities[$0].occurrence == .first && !plan.entities[$0].isOwned }
        isActive = keepsFirst.contains(true)
        met = Array(repeating: [], count: plan.entities.count)
    }

    /// `draft` with each later occurrence of an object whose first wins turned into a link to it
    /// by its key (which writes nothing of it), the record's own first, then its to-ones and
    /// to-manys in the map's order; `keys` gets the objects the record writes first. Nil when the
    /// record's own object is a later occurrence: the record is left out, with what it nests.
    /// `passedOver` counts, per entity, the occurrences left out below the record: each later one
    /// and what it nests.
    func leavingOutLater(_ draft: ObjectDraft, keys: inout [Int: Set<ObjectKey>], passedOver: inout [Int: Int]) -> ObjectDraft? {
        if keepsFirst[draft.entity] {
            if met[draft.entity].contains(draft.key) || keys[draft.entity]?.contains(draft.key) == true { return nil }
            keys[draft.entity, default: []].insert(draft.key)
        }
        var kept = draft
        for index in kept.toOne.indices {
            if case .object(let nested)? = kept.toOne[index] { kept.toOne[index] = link(nested, keys: &keys, passedOver: &passedOver) }
        }
        for index in kept.toMany.indices {
            guard var links = kept.toMany[index] else { continue }
            for position in links.indices {
                if case .object(let nested) = links[position] { links[position] = link(nested, keys: &keys, passedOver: &passedOver) }
            }
            kept.toMany[index] = links
        }
        return kept
    }

    private func link(_ nested: ObjectDraft, keys: inout [Int: Set<ObjectKey>], passedOver: inout [Int: Int]) -> LinkDraft {
        guard let kept = leavingOutLater(nested, keys: &keys, passedOver: &passedOver) else {
            Self.count(nested, into: &passedOver)
            return .reference(entity: nested.entity, key: nested.key)
        }
        return .object(kept)
    }

    /// Counts, per entity, the occurrences `draft` holds: its own object and each it nests, all
    /// left out with it.
    static func count(_ draft: ObjectDraft, into counts: inout [Int: Int]) {
        counts[draft.entity, default: 0] += 1
        for case .object(let nested)? in draft.toOne { count(nested, into: &counts) }
        for case let links? in draft.toMany {
            for case .object(let nested) in links { count(nested, into: &counts) }
        }
    }

    /// After a store wrote the record: its first occurrences are met.
    mutating func wrote(_ keys: [Int: Set<ObjectKey>]) {
        for (entity, written) in keys { met[entity].formUnion(written) }
    }
}
