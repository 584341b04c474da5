import GraphImportPostgres
import GraphImportStore

/// The check the SQLite writer makes before a record that lacks a required value is written
/// (`GraphWriter.checkRequired`), for PostgreSQL: an object lacking a value its entity requires
/// on insert is refused when it is new, that is not in the store, not in the batch not yet
/// written, not named earlier in the record, and given that value by no other occurrence in the
/// record. The stored objects are those read for the record's batch, a query per entity.
struct PostgresRequiredCheck {
    let plan: ImportPlan
    let stored: PostgresStoredObjects
    let batch: PostgresBatchWriter

    /// The error for the record's first new object without a required value, or nil.
    func error(for record: ObjectDraft) throws(PostgresError) -> RecordError? {
        var earlier = Array(repeating: Set<ObjectKey>(), count: plan.entities.count)
        var new: [(key: ObjectKey, lacking: LackingRequired)] = []
        try collectNew(record, earlier: &earlier, into: &new)
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

    private func collectNew(
        _ draft: ObjectDraft, earlier: inout [Set<ObjectKey>], into new: inout [(key: ObjectKey, lacking: LackingRequired)]
    ) throws(PostgresError) {
        func visit(_ link: LinkDraft) throws(PostgresError) {
            switch link {
            case .null, .existing: break
            case .object(let nested): try collectNew(nested, earlier: &earlier, into: &new)
            case .reference(let entity, let key): earlier[entity].insert(key)
            }
        }
        for link in draft.toOne { if let link { try visit(link) } }
        for links in draft.toMany { for link in links ?? [] { try visit(link) } }
        if let lacking = draft.lacking, !earlier[draft.entity].contains(draft.key), try !exists(draft.entity, draft.key) {
            new.append((draft.key, lacking))
        }
        earlier[draft.entity].insert(draft.key)
    }

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

    /// Whether the object is in the batch not yet written, or in the store (read with the
    /// record's batch: `PostgresRecordCompletion.fetch`).
    private func exists(_ entity: Int, _ key: ObjectKey) throws(PostgresError) -> Bool {
        if batch.holds(entity, key) { return true }
        return try stored.exists(entity, key)
    }
}
