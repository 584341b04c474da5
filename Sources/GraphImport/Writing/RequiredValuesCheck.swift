/// The check both stores make before writing a record whose tree lacks a required value: the
/// record's first object, in the order they are written, that would be inserted without a value
/// its entity requires and that no other occurrence in the record gives (the record is written
/// as a whole, as Core Data validates at save). A store says only which objects it holds (`view`).
struct RequiredValuesCheck<View: StoredObjectsView> {
    typealias Failure = View.Failure
    let decisions: ObjectDecisions
    /// Whether the object is known to the run already: in its memory, batch or store.
    let view: View

    private var plan: ImportPlan { decisions.plan }

    /// The error for the record's first new object without a required value, or nil.
    func error(for record: ObjectDraft) throws(Failure) -> RecordError? {
        var earlier = Array(repeating: Set<ObjectKey>(), count: plan.entities.count)
        var new: [(key: ObjectKey, lacking: LackingRequired)] = []
        var ancestors: [(entity: Int, key: ObjectKey)] = []
        try collectNew(record, earlier: &earlier, ancestors: &ancestors, into: &new)
        guard !new.isEmpty else { return nil }
        var given = Array(repeating: [ObjectKey: Set<Int>](), count: plan.entities.count)
        for (key, lacking) in new { given[lacking.entity][key] = [] }
        collectGiven(record, into: &given)
        for (key, lacking) in new {
            let values = given[lacking.entity][key] ?? []
            if let missing = lacking.attributes.first(where: { !values.contains($0) }) {
                return lacking.error(attribute: missing, plan: plan)
            }
        }
        return nil
    }

    /// Adds to `new` each object of the tree that lacks a required value and is new: not known
    /// to the run, nor written (or stubbed) earlier in the record. `earlier`: per entity, the
    /// keys of the objects the record writes before this point. `ancestors`: the objects whose
    /// links lead to `draft`.
    private func collectNew(
        _ draft: ObjectDraft, earlier: inout [Set<ObjectKey>], ancestors: inout [(entity: Int, key: ObjectKey)],
        into new: inout [(key: ObjectKey, lacking: LackingRequired)]
    ) throws(Failure) {
        func visit(_ link: LinkDraft) throws(Failure) {
            switch link {
            case .null, .existing: break
            case .object(let nested): try collectNew(nested, earlier: &earlier, ancestors: &ancestors, into: &new)
            case .reference(let entity, let key):
                // A child's link by key to the object that holds it (`@parent.id`) makes a stub
                // the holder then fills: the holder is still new, and checked as such.
                if !ancestors.contains(where: { $0.entity == entity && $0.key == key }) { earlier[entity].insert(key) }
            }
        }
        // An object its mode keeps as stored, or leaves out, writes nothing of its tree.
        let (fate, stored) = try decisions.fate(draft.entity, draft.key, earlier: earlier, in: view)
        if fate != .write {
            if stored { earlier[draft.entity].insert(draft.key) }
            return
        }
        ancestors.append((draft.entity, draft.key))
        for link in draft.toOne { if let link { try visit(link) } }
        for links in draft.toMany { for link in links ?? [] { try visit(link) } }
        ancestors.removeLast()
        if let lacking = draft.lacking, !earlier[draft.entity].contains(draft.key), try !view.exists(draft.entity, draft.key) {
            new.append((draft.key, lacking))
        }
        earlier[draft.entity].insert(draft.key)
    }

    /// For each object `given` holds a set for, the attributes some occurrence in the tree gives a value.
    private func collectGiven(_ draft: ObjectDraft, into given: inout [[ObjectKey: Set<Int>]]) {
        func visit(_ link: LinkDraft?) {
            if case .object(let nested)? = link { collectGiven(nested, into: &given) }
        }
        for link in draft.toOne { visit(link) }
        for links in draft.toMany { for link in links ?? [] { visit(link) } }
        if given[draft.entity][draft.key] != nil {
            for (index, value) in draft.values.enumerated() where value != nil { given[draft.entity][draft.key]!.insert(index) }
        }
    }
}
