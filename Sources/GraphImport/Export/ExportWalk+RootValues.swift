import GraphImportJSON
import GraphImportSchema

/// The values of the response's root that members read (`@root`), written once at their paths.
extension ExportWalk {
    /// What an object written at a root value is compared by: the JSON its attribute writes, or
    /// the object a to-one links (written whole, or by its key).
    private enum RootCandidate: Hashable {
        case json(String)
        case target(entity: Int, pk: Int64)
    }

    /// Writes a value of the response's root that members read: the one value every object
    /// (not a stub) that reads it holds, so that an import gives each the value it has. When they
    /// hold several, the first is written and the others are named (`unwritten`), as is an
    /// attribute read inside it whose objects hold other than what is written there.
    func writeRootValue(_ value: ExportRootValue) throws(ReadError) {
        var candidates: [RootCandidate] = []
        for root in value.readers {
            for candidate in try rootCandidates(root) where !candidates.contains(candidate) { candidates.append(candidate) }
        }
        let start = out.mark()
        switch candidates.first {
        case nil: out.null()
        case .json(let text)?: out.raw(text)
        case .target(let target, let pk)?:
            for root in value.readers {
                guard case .toOne(let index) = root.member, plan.entities[root.entity].toOne[index].target == target else { continue }
                try writeElement(plan.entities[root.entity].toOne[index], pk: pk, links: [], depth: 0)
                break
            }
        }
        let written = try? JSONParser.parse(Array(out.value(since: start)))
        out.keep(start)
        if candidates.count > 1 {
            let names = value.readers.map(\.name).joined(separator: ", ")
            var texts: [String] = []
            for candidate in candidates.prefix(3) { texts.append(try describe(candidate)) }
            unwritten.append(
                ExportCaveat(
                    member: value.written,
                    reason: "read by \(names), whose objects hold \(candidates.count) values (\(texts.joined(separator: ", "))"
                        + "\(candidates.count > 3 ? ", …" : "")) where the document holds one; written as the first, which an import gives to every object"))
        }
        for (root, rest) in value.inner {
            let found = written.flatMap { Self.value(in: $0, at: rest[...]) }
            var held: [JSONValue?] = []
            for case .json(let text) in try rootCandidates(root) { held.append(try? JSONParser.parse(Array(text.utf8))) }
            guard held.contains(where: { $0 != found }) else { continue }
            unwritten.append(
                ExportCaveat(
                    member: root.name,
                    reason: "it is read from inside \(value.written), where the value written is \(value.readers[0].name)'s, and its objects hold others"))
        }
    }

    /// A candidate as a message shows it: its JSON, or the linked object's key.
    private func describe(_ candidate: RootCandidate) throws(ReadError) -> String {
        switch candidate {
        case .json(let text): return text.count > 40 ? String(text.prefix(40)) + "…" : text
        case .target(let index, let pk):
            let target = plan.entities[index]
            guard let row = try row(target, pk: pk) else { return target.plan.name }
            return "\(target.plan.name) \(memberName(target, row))"
        }
    }

    /// The value at `steps` inside `value`; nil where there is none.
    private static func value(in value: JSONValue, at steps: ArraySlice<PathStep>) -> JSONValue? {
        guard let step = steps.first else { return value }
        switch (step, value) {
        case (.key(let key), .object(let object)): return object[key].flatMap { Self.value(in: $0, at: steps.dropFirst()) }
        case (.index(let index), .array(let elements)) where elements.indices.contains(index):
            return Self.value(in: elements[index], at: steps.dropFirst())
        default: return nil
        }
    }

    /// The distinct values that the objects (not stubs) of a root value's reader hold, in the
    /// order of the first object that holds each.
    private func rootCandidates(_ root: ExportRootValue.Reader) throws(ReadError) -> [RootCandidate] {
        let entity = plan.entities[root.entity]
        let column: String
        switch root.member {
        case .attribute(let index): column = entity.plan.attributes[index].column
        case .toOne(let index): column = entity.plan.toOne[index].column
        default: return []
        }
        let value = "t.\(quoteIdentifier(column))"
        let sql =
            "SELECT \(value), MIN(t.\(quoteIdentifier(Naming.primaryKey))) FROM \(quoteIdentifier(entity.plan.table)) AS t "
            + "WHERE \(Self.notStub(entity, alias: "t")) GROUP BY \(value) ORDER BY 2"
        var candidates: [RootCandidate] = []
        try reader.scan(sql, []) { row in
            switch (root.member, row[0]) {
            case (.toOne(let index), .integer(let pk)): candidates.append(.target(entity: entity.toOne[index].target, pk: pk))
            case (.toOne, _): candidates.append(.json("null"))
            case (.attribute(let index), let stored):
                var bytes: [UInt8] = []
                let scratch = JSONOutput { bytes += $0 }
                entity.values[index].write(stored, to: scratch)
                scratch.flush()
                candidates.append(.json(String(decoding: bytes, as: UTF8.self)))
            default: break
            }
            return true
        }
        return candidates
    }
}
