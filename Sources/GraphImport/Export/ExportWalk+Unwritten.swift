import GraphImportJSON
import GraphImportSchema

/// What the document had no place for: each records line's objects left out, counted by the store.
extension ExportWalk {
    /// After the document: the records lines whose objects it had no place for (more objects
    /// than places, or no object of the line that holds them), named with how many; for a line
    /// an outer line's relationship writes, those that no written outer object links.
    func noteUnwritten() throws(ReadError) {
        for (index, leaf) in plan.recordLeaves.enumerated() {
            if let holder = leaf.heldBy {
                let count = try unheldCount(leaf, holder)
                guard count > 0 else { continue }
                let name = holder.hops.map { hop in
                    switch hop.relationship {
                    case .toOne(let relationship): plan.entities[hop.entity].plan.toOneMembers[relationship]
                    case .toMany(let relationship): plan.entities[hop.entity].plan.toManyMembers[relationship]
                    }
                }.joined(separator: ", then ")
                let reason =
                    "\(count) objects not written: they are written inside the objects of `records at \(plan.recordLines[holder.line])` "
                    + "that link them through \(name), and no written object links these"
                unwritten.append(ExportCaveat(member: "records at \(plan.recordLines[index])", reason: reason))
                continue
            }
            var count = 0
            for (position, element) in leaf.elements.enumerated() {
                let entity = plan.entities[element.target]
                if leaf.container == .single {
                    var after = cursors[index]?[position] ?? Int64.min
                    while let row = try firstRow(entity, after: after), case .integer(let pk) = row[0] {
                        count += 1
                        after = pk
                    }
                } else if !written.contains(index) {
                    try scan(entity, where: "", values: []) { row throws(ReadError) in if !isStub(entity, row) { count += 1 } }
                }
            }
            guard count > 0 else { continue }
            let reason =
                leaf.container == .single
                ? "\(count) objects not written: the document has one place for an object of this line, or one in each object of the line that holds them"
                : "\(count) objects not written: they go inside an object of the line that holds them, and it has none"
            unwritten.append(ExportCaveat(member: "records at \(plan.recordLines[index])", reason: reason))
        }
    }

    /// How many objects (not stubs) of a held line no written object of its holder nests through
    /// the relationship, and no other relationship wrote whole: counted by the store, so that the
    /// walk keeps only the keys that other relationships wrote.
    private func unheldCount(_ leaf: RecordLeaf, _ holder: RecordLeaf.Holder) throws(ReadError) -> Int {
        let target = plan.entities[leaf.elements[0].target]
        let outerLeaf = plan.recordLeaves[holder.line]
        let owner = plan.entities[outerLeaf.elements[0].target]
        let key = quoteIdentifier(Naming.primaryKey)
        // Those another relationship wrote whole are read out to be left out of the count.
        let elsewhere = writtenElsewhere[target.index] ?? []
        var sql =
            "SELECT \(elsewhere.isEmpty ? "COUNT(*)" : "t.\(key)") FROM \(quoteIdentifier(target.plan.table)) AS t WHERE \(Self.notStub(target, alias: "t"))"
        var values: [SQLValue] = []
        // The outer objects written: none when their line was not reached; up to the last one
        // written for a line of one object at a place.
        var written: String?
        switch outerLeaf.container {
        case .single:
            if let last = cursors[holder.line]?[0] {
                written = "o.\(key) <= ?"
                values.append(.integer(last))
            }
        case .array, .members:
            if self.written.contains(holder.line) { written = "TRUE" }
        }
        // A top-level object nests its targets unless `--depth 0` (an owned one always), and the
        // owned objects on the way nest theirs one level further down.
        if let written, maxDepth > holder.hops.count - 1 || target.nestsAlways {
            var tables = ["\(quoteIdentifier(owner.plan.table)) AS o"]
            var conditions = [Self.notStub(owner, alias: "o"), written]
            var from = "o"
            for (position, hop) in holder.hops.enumerated() {
                let entity = plan.entities[hop.entity]
                let to = position == holder.hops.count - 1 ? "t" : "h\(position)"
                if to != "t" {
                    let next = plan.entities[entity.element(hop.relationship).target]
                    tables.append("\(quoteIdentifier(next.plan.table)) AS \(to)")
                    conditions.append(Self.notStub(next, alias: to))
                }
                switch hop.relationship {
                case .toOne(let index):
                    conditions.append("\(from).\(quoteIdentifier(entity.plan.toOne[index].column)) = \(to).\(key)")
                case .toMany(let index):
                    let relationship = entity.plan.toMany[index]
                    tables.append("\(quoteIdentifier(relationship.joinTable)) AS l\(position)")
                    conditions.append("l\(position).\(quoteIdentifier(relationship.ownerColumn)) = \(from).\(key)")
                    conditions.append("l\(position).\(quoteIdentifier(relationship.targetColumn)) = \(to).\(key)")
                }
                from = to
            }
            sql += " AND NOT EXISTS (SELECT 1 FROM \(tables.joined(separator: ", ")) WHERE \(conditions.joined(separator: " AND ")))"
        }
        guard !elsewhere.isEmpty else {
            guard case .integer(let count)? = try reader.rows(sql, values).first?.first else { return 0 }
            return Int(count)
        }
        var count = 0
        try reader.scan(sql, values) { row throws(ReadError) in
            if case .integer(let pk) = row[0], !elsewhere.contains(pk) { count += 1 }
            return true
        }
        return count
    }

    /// The SQL condition that a row of `entity` is not a stub (`isStub`).
    static func notStub(_ entity: ExportEntity, alias: String) -> String {
        let present = entity.required.map { "\(alias).\(quoteIdentifier(entity.plan.attributes[$0].column)) IS NOT NULL" }
        return present.isEmpty ? "TRUE" : present.joined(separator: " AND ")
    }
}
