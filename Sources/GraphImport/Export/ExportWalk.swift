import GraphImportJSON
import GraphImportSchema

/// One export's walk over the store: reads each object's row, writes it in its shape, and follows
/// its relationships, nesting the targets or writing their keys.
///
/// The row and link queries are written once per entity and relationship, so that the reader
/// prepares each once; their rows are read out before the walk goes deeper.
final class ExportWalk {
    let plan: ExportPlan
    let reader: any StoreReader
    let out: JSONOutput
    let maxDepth: Int
    /// The objects being written, outermost first: one met again is written by its key (a cycle).
    /// The objects being written, outermost first, and the relationship that reached each
    /// (nil for a top-level object).
    private var path: [(entity: Int, pk: Int64, via: ExportRelationship?)] = []
    /// Per entity: its row by primary key.
    private let rowSQL: [String]
    private(set) var objects = 0
    /// Records the document has no place for this time (`noteUnwritten`).
    var unwritten: [ExportCaveat] = []
    /// Per records line of one object at a place: per element, the last object written.
    var cursors: [Int: [Int: Int64]] = [:]
    /// The records lines of an array or object of records already written.
    var written = Set<Int>()
    /// Per relationship member or records line: the elements its `where` does not hold for as
    /// written, and the first.
    private var unsatisfied: [(member: String, condition: String, record: Bool, count: Int, first: String)] = []
    /// Per entity whose records an outer line's relationship holds (`RecordLeaf.heldBy`): the
    /// relationships on the way. The store counts the objects they link (`unheldCount`); the
    /// walk keeps the keys of those another way writes whole.
    private let holders: [Int: [RecordLeaf.Holder.Hop]]
    /// Per such entity: the objects written whole by a relationship other than its holder.
    var writtenElsewhere: [Int: Set<Int64>] = [:]
    /// Per polymorphic `{*}` relationship: its elements left out for a name another entity's
    /// element took, how many, the first name, and why.
    private var sharedNames: [(member: String, count: Int, first: String, reason: String)] = []
    /// Whether `shouldStop` ended the walk: what was written is a part.
    private(set) var stopped = false

    /// Asked before each top-level object: true stops the walk.
    let shouldStop: () -> Bool

    init(plan: ExportPlan, reader: any StoreReader, out: JSONOutput, maxDepth: Int, shouldStop: @escaping () -> Bool = { false }) {
        self.shouldStop = shouldStop
        self.plan = plan
        self.reader = reader
        self.out = out
        self.maxDepth = maxDepth
        var holders: [Int: [RecordLeaf.Holder.Hop]] = [:]
        for leaf in plan.recordLeaves {
            guard let holder = leaf.heldBy else { continue }
            holders[leaf.elements[0].target] = holder.hops
        }
        self.holders = holders
        rowSQL = plan.entities.map { entity in
            "SELECT \(entity.columns) FROM \(quoteIdentifier(entity.plan.table)) WHERE \(quoteIdentifier(Naming.primaryKey)) = ?"
        }
    }

    /// What the walk is writing: an object's row, and the element it is written in.
    private struct Context {
        let entity: ExportEntity
        let row: [SQLValue]
        let element: ExportElement?
        let links: [SQLValue]
        let depth: Int
    }

    // MARK: The document and the entity

    /// The document, or in JSON Lines (`ExportPlan.jsonLines`) each record of `$[*]` on a line.
    func writeDocument() throws(ReadError) {
        if plan.jsonLines, case .member(.records(let index)) = plan.document {
            try writeRecords(index, asLines: true)
        } else {
            try writeDocument(plan.document)
            out.newline()
        }
        if !stopped {
            try noteUnwritten()
            noteUnsatisfied()
            for (index, reason) in plan.unplacedMeta { try noteMeta(index, reason: reason) }
        }
    }

    /// Names the `meta` value `index` as not written, with `reason`, when the store holds one.
    private func noteMeta(_ index: Int, reason: String) throws(ReadError) {
        let name = plan.metaValues[index].name
        guard let stored = try reader.meta(name) else { return }
        let text = stored.description
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        unwritten.append(ExportCaveat(member: "meta \(name)", reason: "the store holds \(shown); " + reason))
    }

    private func writeDocument(_ shape: ExportShape) throws(ReadError) {
        switch shape {
        case .object(let members):
            out.beginObject()
            for member in members {
                out.key(member.key)
                try writeDocument(member.shape)
            }
            out.endObject()
        case .array(let slots):
            out.beginArray()
            for slot in slots {
                if let slot { try writeDocument(slot) } else { out.null() }
            }
            out.endArray()
        case .member(.records(let index)):
            try writeRecords(index)
        case .member(.meta(let index)):
            let (name, value) = plan.metaValues[index]
            let stored: SQLValue =
                switch try reader.meta(name) {
                case nil: .null
                case .bool(let flag)?: .integer(flag ? 1 : 0)
                case .integer(let number)?: .integer(number)
                case .double(let number)?: .real(number)
                case .string(let text)?, .date(let text)?, .json(let text)?: .text(text)
                }
            value.write(stored, to: out)
        case .member(.rootValue(let index)):
            try writeRootValue(plan.rootValues[index])
        case .member: out.null()
        }
    }

    /// Writes the records of line `index` where the document (or an object of the line that
    /// holds them) has a place for them. An array or object of records is written whole the
    /// first time, and empty after; one object (a path without `[*]` or `{*}` at its end) is
    /// the next object of the line not yet written, once per place, so that the records inside
    /// each object of an outer line are written one per object.
    /// `asLines`: an array of records is written as lines, one record (and a newline) each.
    private func writeRecords(_ index: Int, asLines: Bool = false) throws(ReadError) {
        let leaf = plan.recordLeaves[index]
        if leaf.container == .single {
            for (position, element) in leaf.elements.enumerated() {
                let entity = plan.entities[element.target]
                let after = cursors[index]?[position] ?? Int64.min
                guard let row = try firstRow(entity, after: after), case .integer(let pk) = row[0] else { continue }
                cursors[index, default: [:]][position] = pk
                return try writeRecord(entity, row, element: element, inside: leaf.inside)
            }
            return out.null()
        }
        let lines = asLines && leaf.container == .array
        if leaf.container == .members { out.beginObject() } else if !lines { out.beginArray() }
        defer { if leaf.container == .members { out.endObject() } else if !lines { out.endArray() } }
        guard !written.contains(index) else { return }
        written.insert(index)
        for element in leaf.elements {
            let entity = plan.entities[element.target]
            try scan(entity, where: "", values: []) { row throws(ReadError) in
                guard !isStub(entity, row) else { return }
                let name = leaf.container == .members ? memberName(entity, row) : nil
                let kept = try writeChecked(element, member: "records at \(plan.recordLines[index])", name: name, record: true) {
                    () throws(ReadError) in
                    try writeRecord(entity, row, element: element, inside: leaf.inside)
                }
                if lines && kept { out.newline() }
            }
        }
    }

    /// Whether `shape` (records inside an object) has something to write: a line of one object
    /// has one left, or a line of an array or object of records is written there (empty or not).
    private func hasRecordsToWrite(_ shape: ExportShape) throws(ReadError) -> Bool {
        switch shape {
        case .object(let members):
            for member in members where try hasRecordsToWrite(member.shape) { return true }
            return false
        case .array(let slots):
            for case let slot? in slots where try hasRecordsToWrite(slot) { return true }
            return false
        case .member(.records(let index)):
            let leaf = plan.recordLeaves[index]
            guard leaf.container == .single else { return true }
            for (position, element) in leaf.elements.enumerated()
            where try firstRow(plan.entities[element.target], after: cursors[index]?[position] ?? Int64.min) != nil {
                return true
            }
            return false
        case .member: return false
        }
    }

    /// The first object of `entity` (not a stub) after the primary key `pk`, in their order.
    func firstRow(_ entity: ExportEntity, after pk: Int64) throws(ReadError) -> [SQLValue]? {
        var found: [SQLValue]?
        let key = quoteIdentifier(Naming.primaryKey)
        let sql = "SELECT \(entity.columns) FROM \(quoteIdentifier(entity.plan.table)) WHERE \(key) > ? ORDER BY \(key)"
        try reader.scan(sql, [.integer(pk)]) { row throws(ReadError) in
            if isStub(entity, row) { return true }
            found = row
            return false
        }
        return found
    }

    func writeEntity(_ selection: ExportSelection, jsonLines: Bool) throws(ReadError) {
        let entity = selection.entity
        let element = ExportElement(target: entity.index, elementShape: .member(.element), objectShape: nil, keyShape: nil, linkValues: [])
        if !jsonLines { out.beginArray() }
        for query in selection.queries {
            try scan(entity, where: query.sql, values: query.values) { row throws(ReadError) in
                try writeRecord(entity, row, element: element)
                if jsonLines { out.newline() }
            }
        }
        if !jsonLines {
            out.endArray()
            out.newline()
        }
        noteUnsatisfied()
        for index in plan.metaValues.indices {
            try noteMeta(index, reason: "only an export of the document writes the map's meta values; not written")
        }
        // The document's root holds what they read from it: an entity's objects alone do not.
        for value in plan.rootValues {
            for reader in value.readers + value.inner.map(\.reader) where reader.entity == entity.index {
                unwritten.append(
                    ExportCaveat(member: reader.name, reason: "it is read from \(value.written), which only an export of the document writes"))
            }
        }
    }

    /// A top-level object, in its element.
    /// `inside`: the records of other lines written in it (`RecordLeaf.inside`).
    private func writeRecord(_ entity: ExportEntity, _ row: [SQLValue], element: ExportElement, inside: ExportShape? = nil) throws(ReadError) {
        objects += 1
        guard case .integer(let pk) = row[0] else { return }
        path.append((entity.index, pk, nil))
        defer { path.removeLast() }
        let context = Context(entity: entity, row: row, element: element, links: [], depth: 0)
        try writeElement(element.elementShape, element: element, links: []) { () throws(ReadError) in
            try writeObject(context, shape: element.objectShape ?? entity.shape, full: true, inside: inside)
        }
    }

    /// Each row of `entity` that `condition` selects, in the order of its primary key.
    func scan(_ entity: ExportEntity, where condition: String, values: [SQLValue], _ body: ([SQLValue]) throws(ReadError) -> Void)
        throws(ReadError)
    {
        let sql =
            "SELECT \(entity.columns) FROM \(quoteIdentifier(entity.plan.table))" + (condition.isEmpty ? "" : " WHERE \(condition)")
            + " ORDER BY \(quoteIdentifier(Naming.primaryKey))"
        try reader.scan(sql, values) { row throws(ReadError) in
            if shouldStop() {
                stopped = true
                return false
            }
            try body(row)
            return true
        }
    }

    // MARK: Objects

    private func writeObject(_ context: Context, shape: ExportShape, full: Bool, inside: ExportShape? = nil) throws(ReadError) {
        guard case .object(let members) = shape else { return try write(shape, context) }
        out.beginObject()
        for member in members where !isAbsent(member.shape, context) {
            out.key(member.key)
            try write(member.shape, context)
        }
        if case .object(let records)? = inside {
            for member in records where try hasRecordsToWrite(member.shape) {
                out.key(member.key)
                try writeDocument(member.shape)
            }
        }
        if full, let extras = context.entity.plan.extrasAttribute, case .text(let text) = context.row[context.entity.attributeColumn(extras)] {
            writeExtras(text, besides: context.element?.objectShape == nil ? nil : Set(members.map(\.key)))
        }
        out.endObject()
    }

    /// The unmapped keys kept in `extras`, back in the object they came from; those the element
    /// writes itself (a discriminator) are left out.
    private func writeExtras(_ text: String, besides written: Set<String>?) {
        guard let written else {
            guard let open = text.firstIndex(of: "{"), let close = text.lastIndex(of: "}"), open < close else { return }
            let inner = text[text.index(after: open)..<close]
            if inner.contains(where: { !$0.isWhitespace }) { out.rawMembers(inner) }
            return
        }
        guard case .object(let object)? = try? JSONParser.parse(text) else { return }
        for member in object.members where !written.contains(member.key) {
            out.key(member.key)
            out.raw(member.value.jsonText)
        }
    }

    private func write(_ shape: ExportShape, _ context: Context) throws(ReadError) {
        switch shape {
        case .object(let members):
            out.beginObject()
            for member in members where !isAbsent(member.shape, context) {
                out.key(member.key)
                try write(member.shape, context)
            }
            out.endObject()
        case .array(let slots):
            out.beginArray()
            for slot in slots {
                if let slot { try write(slot, context) } else { out.null() }
            }
            out.endArray()
        case .member(let member):
            try write(member, context)
        }
    }

    private func write(_ member: ExportMember, _ context: Context) throws(ReadError) {
        let entity = context.entity
        switch member {
        case .attribute(let index):
            entity.values[index].write(context.row[entity.attributeColumn(index)], to: out)
        case .toOne(let index):
            guard case .integer(let pk) = context.row[entity.toOneColumn(index)] else { return out.null() }
            try writeTarget(entity.toOne[index], pk: pk, links: [], depth: context.depth)
        case .toMany(let index):
            try writeToMany(entity, index, context)
        case .link(let index):
            guard let element = context.element, index + 1 < context.links.count else { return out.null() }
            element.linkValues[index].write(context.links[index + 1], to: out)
        case .literal(let value):
            out.raw(value.jsonText)
        case .filtered(let relationships):
            // To-ones that test the element itself (`parent_id where $ has prefix "t1_"`) read a
            // key where the feed holds one: the one that is set is written there alone, null for none.
            let setToOnes = relationships.compactMap { relationship -> (index: Int, pk: Int64)? in
                guard case .toOne(let index) = relationship, case .integer(let pk) = context.row[entity.toOneColumn(index)] else { return nil }
                return (index, pk)
            }
            let readKeys = relationships.allSatisfy { if case .toOne(let index) = $0 { entity.toOne[index].condition?.field.isEmpty == true } else { false } }
            if readKeys && setToOnes.count <= 1 {
                guard let (index, pk) = setToOnes.first else { return out.null() }
                let kept = try writeChecked(entity.toOne[index], member: entity.plan.toOneMembers[index], name: nil) { () throws(ReadError) in
                    try writeElement(entity.toOne[index], pk: pk, links: [], depth: context.depth)
                }
                if !kept { out.null() }
                return
            }
            // Over `{*}` the elements are an object's members, named by their targets' `$key`.
            let keyed = relationships.contains { if case .toMany(let index) = $0 { entity.plan.toMany[index].isKeyed } else { false } }
            if keyed { out.beginObject() } else { out.beginArray() }
            for relationship in relationships {
                switch relationship {
                case .toOne(let index):
                    guard case .integer(let pk) = context.row[entity.toOneColumn(index)] else { continue }
                    try writeChecked(entity.toOne[index], member: entity.plan.toOneMembers[index], name: nil) { () throws(ReadError) in
                        try writeElement(entity.toOne[index], pk: pk, links: [], depth: context.depth)
                    }
                case .toMany(let index):
                    for link in try linkRows(entity, index, context.row[0]) {
                        guard case .integer(let pk) = link[0] else { continue }
                        var name: String?
                        if keyed {
                            let target = plan.entities[entity.toMany[index].target]
                            guard let row = try row(target, pk: pk) else { continue }
                            name = memberName(target, row)
                        }
                        try writeChecked(entity.toMany[index], member: "\(entity.plan.name).\(entity.plan.toMany[index].name)", name: name) {
                            () throws(ReadError) in
                            try writeElement(entity.toMany[index], pk: pk, links: link, depth: context.depth)
                        }
                    }
                }
            }
            if keyed { out.endObject() } else { out.endArray() }
        case .polymorphic(let branches):
            if case .toOne = branches.first {
                // In its element (`each ref`, beside the field that chooses its entity), as a to-many's.
                for case .toOne(let index) in branches {
                    guard case .integer(let pk) = context.row[entity.toOneColumn(index)] else { continue }
                    return try writeElement(entity.toOne[index], pk: pk, links: [], depth: context.depth)
                }
                return out.null()
            }
            // Over `{*}` the elements are an object's members, named by their targets' `$key`.
            let keyed = branches.contains { if case .toMany(let index) = $0 { entity.plan.toMany[index].isKeyed } else { false } }
            if keyed { out.beginObject() } else { out.beginArray() }
            // Two entities' objects may share a name, which one object's members cannot.
            var names = Set<String>()
            for case .toMany(let index) in branches {
                for link in try linkRows(entity, index, context.row[0]) {
                    guard case .integer(let pk) = link[0] else { continue }
                    if keyed {
                        let target = plan.entities[entity.toMany[index].target]
                        guard let row = try row(target, pk: pk) else { continue }
                        let name = memberName(target, row)
                        guard names.insert(name).inserted else {
                            noteSharedName(name, member: "\(entity.plan.name).\(entity.plan.toMany[index].name)")
                            continue
                        }
                        out.key(name)
                    }
                    try writeElement(entity.toMany[index], pk: pk, links: link, depth: context.depth)
                }
            }
            if keyed { out.endObject() } else { out.endArray() }
        case .element, .records, .meta, .rootValue:
            out.null()
        }
    }

    private func writeToMany(_ entity: ExportEntity, _ index: Int, _ context: Context) throws(ReadError) {
        let element = entity.toMany[index]
        let keyed = entity.plan.toMany[index].isKeyed
        let links = try linkRows(entity, index, context.row[0])
        if keyed { out.beginObject() } else { out.beginArray() }
        for link in links {
            guard case .integer(let pk) = link[0] else { continue }
            if keyed {
                let target = plan.entities[element.target]
                guard let row = try row(target, pk: pk) else { continue }
                out.key(memberName(target, row))
            }
            try writeElement(element, pk: pk, links: link, depth: context.depth)
        }
        if keyed { out.endObject() } else { out.endArray() }
    }

    /// The link rows of one owner's to-many, in order: the target's pk, then the link attributes.
    private func linkRows(_ entity: ExportEntity, _ index: Int, _ owner: SQLValue) throws(ReadError) -> [[SQLValue]] {
        try reader.rows(entity.toManySQL[index], [owner])
    }

    // MARK: Elements and targets

    /// Writes one element of a relationship, or a `record` of a records line (as the member
    /// `name` of a `{*}` object, when given), and keeps it when its `where` holds for it as
    /// written, as an import tests it; one it does not hold for is taken back and counted
    /// (`unsatisfied`). Whether the element was kept.
    @discardableResult
    private func writeChecked(
        _ element: ExportElement, member: String, name: String?, record: Bool = false, _ body: () throws(ReadError) -> Void
    ) throws(ReadError) -> Bool {
        guard let condition = element.condition else {
            if let name { out.key(name) }
            try body()
            return true
        }
        let start = out.mark()
        if let name { out.key(name) }
        let value = out.mark()
        try body()
        let written = out.value(since: value)
        out.keep(value)
        let parsed = try? JSONParser.parse(Array(written))
        if let parsed, condition.takes(parsed) {
            out.keep(start)
            return true
        }
        let sample = String(decoding: written, as: UTF8.self)
        out.takeBack(start)
        if record { objects -= 1 }
        if let index = unsatisfied.firstIndex(where: { $0.member == member }) {
            unsatisfied[index].count += 1
        } else {
            unsatisfied.append((member, condition.description, record, 1, sample))
        }
        return false
    }

    /// A polymorphic `{*}` element left out because an element of another entity has its name.
    private func noteSharedName(_ name: String, member: String) {
        let reason = "links not written: the member name is another entity's element's in the same object, which JSON holds once"
        if let index = sharedNames.firstIndex(where: { $0.member == member }) {
            sharedNames[index].count += 1
        } else {
            sharedNames.append((member, 1, name, reason))
        }
    }

    /// The elements of a relationship with a `where` that were taken back, and why (`noteUnsatisfied`).
    private func noteUnsatisfied() {
        for (member, count, first, reason) in sharedNames {
            unwritten.append(ExportCaveat(member: member, reason: "\(count) \(reason) (first: \(first))"))
        }
        sharedNames = []
        for (member, condition, record, count, first) in unsatisfied {
            let what = record ? "objects not written: the record" : "links not written: the element"
            let reason =
                "\(count) \(what) as written does not satisfy `where \(condition)`, so an import would not \(record ? "read" : "link") it "
                + "(first: \(first.count > 80 ? String(first.prefix(80)) + "…" : first))"
            unwritten.append(ExportCaveat(member: member, reason: reason))
        }
    }

    /// One element of a relationship: the target where the element shape puts it, with its links.
    func writeElement(_ element: ExportElement, pk: Int64, links: [SQLValue], depth: Int) throws(ReadError) {
        try writeElement(element.elementShape, element: element, links: links) { () throws(ReadError) in
            try writeTarget(element, pk: pk, links: links, depth: depth)
        }
    }

    private func writeElement(
        _ shape: ExportShape, element: ExportElement, links: [SQLValue], target: () throws(ReadError) -> Void
    ) throws(ReadError) {
        switch shape {
        case .member(.element): try target()
        case .member(.link(let index)):
            if index + 1 < links.count { element.linkValues[index].write(links[index + 1], to: out) } else { out.null() }
        case .member(.literal(let value)): out.raw(value.jsonText)
        case .member: out.null()
        case .object(let members):
            out.beginObject()
            for member in members {
                out.key(member.key)
                try writeElement(member.shape, element: element, links: links, target: target)
            }
            out.endObject()
        case .array(let slots):
            out.beginArray()
            for slot in slots {
                if let slot { try writeElement(slot, element: element, links: links, target: target) } else { out.null() }
            }
            out.endArray()
        }
    }

    /// The target of a link: nested when the depth allows, it is not on the way down already, and
    /// it is more than a stub; otherwise by its key. An owned object, and one that is an array,
    /// is always nested (`ExportEntity.nestsAlways`).
    private func writeTarget(_ element: ExportElement, pk: Int64, links: [SQLValue], depth: Int) throws(ReadError) {
        let target = plan.entities[element.target]
        guard let row = try row(target, pk: pk) else { return out.null() }
        let context = Context(entity: target, row: row, element: element, links: links, depth: depth + 1)
        if !element.byKey, depth < maxDepth || target.nestsAlways, !isStub(target, row),
            !path.contains(where: { $0.entity == target.index && $0.pk == pk })
        {
            // Through its holder's relationships from a top-level object, the store counts it; any
            // other way is kept.
            if let hops = holders[target.index], !isHolderWay(hops, last: element.source) {
                writtenElsewhere[target.index, default: []].insert(pk)
            }
            path.append((target.index, pk, element.source?.relationship))
            defer { path.removeLast() }
            try writeObject(context, shape: element.objectShape ?? target.shape, full: true)
        } else if let keyShape = element.keyShape {
            try writeObject(context, shape: keyShape, full: false)
        } else {
            let key = target.plan.keyAttributes[0]
            target.values[key].write(row[target.attributeColumn(key)], to: out)
        }
    }

    /// Whether the objects on the way down, from the top-level one, and `last`, the relationship
    /// that reaches the object being written, are `hops`.
    private func isHolderWay(_ hops: [RecordLeaf.Holder.Hop], last: (entity: Int, relationship: ExportRelationship)?) -> Bool {
        guard let last, path.count == hops.count, hops[hops.count - 1] == .init(entity: last.entity, relationship: last.relationship)
        else { return false }
        for (position, hop) in hops.enumerated()
        where path[position].entity != hop.entity || (position > 0 && path[position].via != hops[position - 1].relationship) {
            return false
        }
        return true
    }

    /// The row of `entity` with primary key `pk`, copied out of its statement.
    func row(_ entity: ExportEntity, pk: Int64) throws(ReadError) -> [SQLValue]? {
        try reader.rows(rowSQL[entity.index], [.integer(pk)]).first
    }

    /// Whether a member is left out: a required to-one with no target can only have come from a
    /// key the feed left out (a null would be refused), so it is left out again.
    private func isAbsent(_ shape: ExportShape, _ context: Context) -> Bool {
        guard case .member(.toOne(let index)) = shape, !context.entity.plan.toOne[index].isOptional else { return false }
        return context.row[context.entity.toOneColumn(index)].isNull
    }

    /// An object that lacks a value its map requires: a stub made by a link to a key, written by its key.
    func isStub(_ entity: ExportEntity, _ row: [SQLValue]) -> Bool {
        entity.required.contains { row[entity.attributeColumn($0)].isNull }
    }

    /// The member name an object is written under in a `{*}` object: its `$key` attribute, else its
    /// key; a key of several attributes joins them with `/` (a `/` or `\` inside one escaped by `\`),
    /// so that two objects that share a part (`octo/r1`, `octo/r2`; a parent-scoped child's parent)
    /// are two members, not one name twice, which no JSON reader takes.
    func memberName(_ entity: ExportEntity, _ row: [SQLValue]) -> String {
        func text(_ index: Int) -> String {
            switch row[entity.attributeColumn(index)] {
            case .text(let text): return text
            case .integer(let number): return String(number)
            case .real(let number): return String(number)
            case .null: return ""
            case .blob(let bytes): return String(decoding: bytes, as: UTF8.self)
            }
        }
        if let index = entity.memberName { return text(index) }
        let key = entity.plan.keyAttributes
        guard key.count > 1 else { return text(key[0]) }
        return key.map { index in
            var part = ""
            for character in text(index) {
                if character == "/" || character == "\\" { part.append("\\") }
                part.append(character)
            }
            return part
        }.joined(separator: "/")
    }
}
