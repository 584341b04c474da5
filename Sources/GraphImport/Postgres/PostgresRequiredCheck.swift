import GraphImportPostgres
import GraphImportStore

/// The check the SQLite writer makes before a record that lacks a required value is written
/// (`GraphWriter.checkRequired`), for PostgreSQL: an object lacking a value its entity requires
/// on insert is refused when it is new, that is not in the store, not in the batch not yet
/// written, not named earlier in the record, and given that value by no other occurrence in the
/// record. Only such records ask the server, one key at a time.
struct PostgresRequiredCheck {
    let plan: ImportPlan
    let connection: PostgresConnection
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

    /// Whether the object is in the batch not yet written, or in the store.
    private func exists(_ entity: Int, _ key: ObjectKey) throws(PostgresError) -> Bool {
        if batch.holds(entity, key) { return true }
        let plan = self.plan.entities[entity]
        let condition = plan.keyAttributes.enumerated().map { position, attribute in
            "\(quoteIdentifier(plan.attributes[attribute].column)) = $\(position + 1)"
        }
        let parameters = key.values.map(Self.parameter)
        let found = try connection.rows(
            "SELECT 1 FROM \(quoteIdentifier(plan.table)) WHERE \(condition.joined(separator: " AND ")) LIMIT 1", parameters)
        return !found.isEmpty
    }

    /// A key value as a query parameter's text (its type comes from the column it is compared with).
    static func parameter(_ value: SQLValue) -> String? {
        switch value {
        case .null: nil
        case .integer(let number): String(number)
        case .real(let number): "\(number)"
        case .text(let text): text
        case .blob(let bytes): "\\x" + bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        }
    }
}
