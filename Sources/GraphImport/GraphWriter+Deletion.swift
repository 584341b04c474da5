import GraphImportStore

/// Objects of one entity that an import deleted (or, in a dry run, would delete).
public struct Deletions: Equatable, Sendable {
    public var entity: String
    public var count: Int
    /// The keys of the first few, as SQL literals (`42`, `'swift'`), for the summary.
    public var sampleKeys: [String]

    public init(entity: String, count: Int, sampleKeys: [String]) {
        self.entity = entity
        self.count = count
        self.sampleKeys = sampleKeys
    }
}

/// A deletion that a `delete deny` rule forbids; nothing was deleted.
public struct DeletionDenied: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String
    public var description: String { message }
}

extension GraphWriter {
    /// How many keys of deleted objects the summary shows per entity.
    static let sampleLimit = 10

    /// Deletes the objects of entities marked `delete missing` that this run's feed did not hold
    /// (within the scoping parent, when one is given), following every relationship's delete rule.
    ///
    /// Deny rules are checked for the whole set first, so a denied deletion deletes nothing.
    /// Objects linked to by id count as held by the feed.
    func deleteMissing(dryRun: Bool) throws(WriteError) -> [Deletions] {
        var doomed: [Set<Int64>] = Array(repeating: [], count: plan.entities.count)
        try storing { () throws(StoreError) in
            try writeLinks()
            for (index, entity) in plan.entities.enumerated() {
                guard let scope = entity.deletionScope else { continue }
                for pk in try missing(entity: index, scope: scope) { doomed[index].insert(pk) }
            }
            if !doomed.allSatisfy(\.isEmpty) { try addCascades(&doomed) }
        }
        if doomed.allSatisfy(\.isEmpty) { return [] }
        try checkDenials(doomed)
        return try storing { () throws(StoreError) in
            var result: [Deletions] = []
            for (index, pks) in doomed.enumerated() where !pks.isEmpty {
                let entity = plan.entities[index]
                let ordered = pks.sorted()
                let samples = try ordered.prefix(Self.sampleLimit).map { pk throws(StoreError) in try keyText(entity: index, pk: pk) }
                result.append(Deletions(entity: entity.name, count: pks.count, sampleKeys: samples))
            }
            if !dryRun {
                for (index, pks) in doomed.enumerated() where !pks.isEmpty {
                    let delete = try database.statement(
                        "DELETE FROM \(quoteIdentifier(plan.entities[index].table)) WHERE \(quoteIdentifier(Naming.primaryKey)) = ?")
                    for pk in pks.sorted() { try delete.run([.integer(pk)]) }
                    objects[index].forget(pks)
                }
            }
            return result
        }
    }

    /// Row ids of the entity's objects that this run did not meet.
    private func missing(entity index: Int, scope: Int) throws(StoreError) -> [Int64] {
        let entity = plan.entities[index]
        let seen = objects[index].metPKs
        let pk = quoteIdentifier(Naming.primaryKey)
        if scope < 0 {
            return try database.rows("SELECT \(pk) FROM \(quoteIdentifier(entity.table))").map { $0[0].integerValue }
                .filter { !seen.contains($0) }
        }
        // Only children of the parents this feed holds: a feed of one post's comments deletes none of another post's.
        let relationship = entity.toOne[scope]
        let parents = objects[relationship.target].metPKs
        let rows = try database.rows(
            "SELECT \(pk), \(quoteIdentifier(relationship.column)) FROM \(quoteIdentifier(entity.table)) WHERE \(quoteIdentifier(relationship.column)) IS NOT NULL"
        )
        return rows.filter { parents.contains($0[1].integerValue) && !seen.contains($0[0].integerValue) }.map { $0[0].integerValue }
    }

    /// Adds the objects that cascade rules delete along with the doomed ones, until nothing more is added.
    private func addCascades(_ doomed: inout [Set<Int64>]) throws(StoreError) {
        var queue: [(entity: Int, pk: Int64)] = doomed.enumerated().flatMap { index, pks in pks.map { (index, $0) } }
        while let (target, pk) = queue.popLast() {
            for (ownerIndex, owner) in plan.entities.enumerated() {
                for relationship in owner.toOne where relationship.target == target && relationship.deleteRule == .cascade {
                    for row in try database.rows(
                        "SELECT \(quoteIdentifier(Naming.primaryKey)) FROM \(quoteIdentifier(owner.table)) WHERE \(quoteIdentifier(relationship.column)) = ?",
                        [.integer(pk)])
                    where doomed[ownerIndex].insert(row[0].integerValue).inserted {
                        queue.append((ownerIndex, row[0].integerValue))
                    }
                }
                for relationship in owner.toMany where relationship.target == target && relationship.deleteRule == .cascade {
                    for row in try database.rows(
                        "SELECT \(quoteIdentifier(relationship.ownerColumn)) FROM \(quoteIdentifier(relationship.joinTable)) WHERE \(quoteIdentifier(relationship.targetColumn)) = ?",
                        [.integer(pk)])
                    where doomed[ownerIndex].insert(row[0].integerValue).inserted {
                        queue.append((ownerIndex, row[0].integerValue))
                    }
                }
            }
        }
    }

    /// Throws when an object that is not itself deleted links to a doomed object through a `delete deny` relationship.
    private func checkDenials(_ doomed: [Set<Int64>]) throws(WriteError) {
        for (ownerIndex, owner) in plan.entities.enumerated() {
            let links: [(name: String, sql: String, target: Int)] =
                owner.toOne.filter { $0.deleteRule == .deny }.map {
                    (
                        $0.name,
                        "SELECT \(quoteIdentifier(Naming.primaryKey)) FROM \(quoteIdentifier(owner.table)) WHERE \(quoteIdentifier($0.column)) = ?",
                        $0.target
                    )
                }
                + owner.toMany.filter { $0.deleteRule == .deny }.map {
                    (
                        $0.name,
                        "SELECT \(quoteIdentifier($0.ownerColumn)) FROM \(quoteIdentifier($0.joinTable)) WHERE \(quoteIdentifier($0.targetColumn)) = ?",
                        $0.target
                    )
                }
            for link in links {
                for pk in doomed[link.target].sorted() {
                    let holders = try storing { () throws(StoreError) in try database.rows(link.sql, [.integer(pk)]) }
                        .map { $0[0].integerValue }.filter { !doomed[ownerIndex].contains($0) }
                    guard !holders.isEmpty else { continue }
                    let target = plan.entities[link.target]
                    let key = try storing { () throws(StoreError) in try keyText(entity: link.target, pk: pk) }
                    throw .denied(
                        DeletionDenied(
                            message:
                                "cannot delete \(target.name) \(key): \(owner.name).\(link.name) denies it (\(holders.count) \(owner.name) object\(holders.count == 1 ? " links" : "s link") to it); nothing was deleted",
                            hint:
                                "keep \(target.name) \(key) in the feed, or change the rule of \(owner.name).\(link.name) to `delete nullify` or `delete cascade`"
                        ))
                }
            }
        }
    }

    /// The object's key as SQL literals, `42` or `('octocat', 7)`.
    private func keyText(entity index: Int, pk: Int64) throws(StoreError) -> String {
        let entity = plan.entities[index]
        let columns = entity.keyAttributes.map { quoteIdentifier(entity.attributes[$0].column) }.joined(separator: ", ")
        let row =
            try database.rows(
                "SELECT \(columns) FROM \(quoteIdentifier(entity.table)) WHERE \(quoteIdentifier(Naming.primaryKey)) = ?", [.integer(pk)]
            ).first ?? []
        let parts = row.map(\.description)
        return parts.count == 1 ? parts[0] : "(" + parts.joined(separator: ", ") + ")"
    }
}
