import GraphImportPostgres
import GraphImportSchema

/// Lists stored as their elements' foreign keys (`Board.actions` beside `Action.board`) on
/// PostgreSQL. The elements come drafted with their to-one into the owner, so gathering them sets
/// the foreign key as any to-one (the last occurrence wins). What is left is the list that
/// replaces: the objects that link to the owner at this point of the run and that it no longer
/// names are gathered with that to-one null, as the SQLite writer writes them at the same point.
/// "At this point" is the store as the earlier batches left it, overlaid with what this batch
/// has gathered so far.
extension PostgresBatchWriter {
    /// Gathers the elements of `draft`'s lists stored once, after its own row, then lets go of
    /// the objects a replacing list no longer names.
    func gatherOnce(_ draft: ObjectDraft) {
        let entity = plan.entities[draft.entity]
        for (index, relationship) in entity.toMany.enumerated() {
            guard let toOne = relationship.foreignKey, let links = draft.toMany[index] else { continue }
            var listed = Set<ObjectKey>()
            for link in links {
                if let key = target(of: link) { listed.insert(key) }
            }
            for key in lettingGo(of: draft.key, relationship, listing: listed) {
                let target = plan.entities[relationship.target]
                var values = [SQLValue?](repeating: nil, count: target.attributes.count)
                for (position, attribute) in target.keyAttributes.enumerated() { values[attribute] = key[position] }
                var toOnes = [LinkDraft?](repeating: nil, count: target.toOne.count)
                toOnes[toOne] = .null
                gather(
                    ObjectDraft(
                        entity: relationship.target, key: key, values: values, toOne: toOnes,
                        toMany: Array(repeating: nil, count: target.toMany.count)))
            }
        }
    }

    /// The keys of the objects that `relationship`'s list of the owner with key `owner`, which
    /// names `listed`, lets go at this point of the run: none for a `merge` list, or one whose
    /// targets' mode keeps stored objects as they are (their link too: `ObjectDecisions.fate`).
    /// The record completion asks before the record is gathered, for their `beforeSave` hook.
    func lettingGo(of owner: ObjectKey, _ relationship: ToManyPlan, listing listed: Set<ObjectKey>) -> [ObjectKey] {
        guard let toOne = relationship.foreignKey, !relationship.mergesList, decisions.fate(relationship.target, stored: true) == .write
        else { return [] }
        return holders(of: owner, relationship, toOne: toOne).filter { !listed.contains($0) }
    }

    /// The keys of the objects whose to-one `toOne` (the inverse of `relationship`) links to the
    /// owner with key `owner`: those this batch gathered with that link, and those the store
    /// holds so linked whose link this batch has not given since.
    private func holders(of owner: ObjectKey, _ relationship: ToManyPlan, toOne: Int) -> [ObjectKey] {
        let batch = batches[relationship.target]
        var found = Array(batch.holders[toOne]?[owner] ?? [])
        // A pending `link existing` key links only if the store held the owner before the batch
        // (`GatheredToOne.resolved`): otherwise its object keeps its link, and the list lets go of nothing.
        let pending = found.filter { key in
            if case .pending? = batch.rows[key].flatMap({ batch.toOne($0, toOne) }) { true } else { false }
        }
        if !pending.isEmpty && !isStored(owner, relationship.owner) { found.removeAll { pending.contains($0) } }
        for key in storedHolders(of: owner, relationship, toOne: toOne) {
            if let row = batch.rows[key], batch.toOne(row, toOne) != nil { continue }
            found.append(key)
        }
        return found
    }

    /// Whether the store holds the object of `entity` with `key` (before the batch is written).
    private func isStored(_ key: ObjectKey, _ entity: Int) -> Bool {
        let plan = plan.entities[entity]
        let match = plan.keyAttributes.enumerated().map { position, attribute in
            "\(quoteIdentifier(plan.attributes[attribute].column)) = $\(position + 1)"
        }.joined(separator: " AND ")
        do throws(PostgresError) {
            return try !connection.rows(
                "SELECT 1 FROM \(quoteIdentifier(plan.table)) WHERE \(match) LIMIT 1", key.map(PostgresConnection.parameterText)
            ).isEmpty
        } catch {
            if gatheringError == nil { gatheringError = error }
            return false
        }
    }

    /// The keys of the objects the store holds whose to-one `toOne` links to the owner with key
    /// `owner` (none when the owner is new). A failure is kept for `add` to throw (`gatheringError`).
    private func storedHolders(of owner: ObjectKey, _ relationship: ToManyPlan, toOne: Int) -> [ObjectKey] {
        // A load into an empty store asks only for an owner an earlier batch may have written.
        if let writtenKeys, !writtenKeys.mayHold(owner, of: relationship.owner) { return [] }
        let ownerPlan = plan.entities[relationship.owner]
        let target = plan.entities[relationship.target]
        let keys = target.keyAttributes.map { "t.\(quoteIdentifier(target.attributes[$0].column))" }.joined(separator: ", ")
        let types = target.keyAttributes.map { ImportPlan.columnType(target.attributes[$0].type) }
        let match = ownerPlan.keyAttributes.enumerated().map { position, attribute in
            "o.\(quoteIdentifier(ownerPlan.attributes[attribute].column)) = $\(position + 1)"
        }.joined(separator: " AND ")
        let sql =
            "SELECT \(keys) FROM \(quoteIdentifier(target.table)) t JOIN \(quoteIdentifier(ownerPlan.table)) o "
            + "ON o.\(quoteIdentifier(Naming.primaryKey)) = t.\(quoteIdentifier(target.toOne[toOne].column)) WHERE \(match) "
            + "ORDER BY t.\(quoteIdentifier(Naming.primaryKey))"
        let rows: [[String?]]
        do throws(PostgresError) { rows = try connection.rows(sql, owner.map(PostgresConnection.parameterText)) } catch {
            if gatheringError == nil { gatheringError = error }
            return []
        }
        return rows.map { row in ObjectKey(values: zip(row, types).map { SQLValue(postgresText: $0, type: $1) }) }
    }
}
