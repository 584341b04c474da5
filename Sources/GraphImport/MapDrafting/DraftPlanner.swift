/// Decides what a starter map says from a survey of the sample: where the records are, which
/// places hold entities (one entity when the same shape is met in two places), each entity's key,
/// and each member's kind and type.
///
/// The decisions, in order:
/// 1. Records: the surveyed values themselves when their objects have an identity; else the
///    outermost places below them that do (a wrapped response's `statuses[*]`, a listing's
///    `data.children[*].data`).
/// 2. Identity: a key named like an id (`id`, `uuid`, `guid`, `_id`, `uid`); an address (`url`,
///    `uri`); for array elements and records an `…_id` unique to each object, a natural name (`name`, `login`, `slug`, `tag`, `text`
///    …); for records, a scalar field present in every record and unique across the sample.
///    An id in a metadata child (`metadata.uid`) keys the object holding it; list elements that
///    wrap one keyed object, with no keyed object above them, are keyed by its key and their own
///    fields (`wrapperKey`); a nested object met once under its address is keyed by it when its
///    shape is keyed so elsewhere.
///    A nested object with none of these is part of its parent (its fields are inlined).
/// 3. Same shape: two places whose objects use the same key, where the smaller one's keys are
///    mostly the larger's, are one entity; so are the objects at the same place below two parts
///    of one entity (a retweet's user is a tweet's user).
struct DraftPlanner {
    enum Role { case records, element, toOne }

    static let idNames = ["id", "uuid", "guid", "_id", "uid"]
    static let addressNames = ["url", "uri"]
    static let naturalNames = ["name", "login", "slug", "tag", "text", "title", "username", "email", "code", "key"]
    /// Objects nested deeper than this below an entity are kept as JSON rather than inlined.
    static let maxInlineDepth = 3
    /// Two shapes are one when at least this share of the smaller one's keys are the larger one's.
    static let sameShapeShare = 0.75

    let survey: ShapeSurvey
    /// Whether the surveyed values are the elements of a top-level array (else lines, or one document).
    let fromTopLevelArray: Bool
    /// The name the user gave the records' entity (`--entity`), or one taken from the sample's name.
    let recordsName: String?
    let userNamedRecords: Bool
    /// Whether the surveyed values are whole documents (responses), not array elements or lines:
    /// then a field unique to each is no key (a page number, a request id), and their scalars
    /// outside the records are offered as `meta`.
    let wholeDocuments: Bool

    private var parent: [Int]
    private var identity: [Int: DraftKey] = [:]
    private var recordRoots: [ShapeNode] = []
    /// Records keyed by the object each wraps (`wrapperKey`): never one entity with another
    /// place, whose objects would share keys with theirs only because they wrap the same object.
    /// The element's own fields, which key it beside the wrapped object's key.
    private(set) var wrappers: [Int: [String]] = [:]

    init(survey: ShapeSurvey, fromTopLevelArray: Bool, recordsName: String?, userNamedRecords: Bool, wholeDocuments: Bool) {
        self.survey = survey
        self.fromTopLevelArray = fromTopLevelArray
        self.wholeDocuments = wholeDocuments
        self.recordsName = recordsName
        self.userNamedRecords = userNamedRecords
        parent = Array(survey.nodes.indices)
    }

    // MARK: Identity

    private func role(of node: ShapeNode) -> Role {
        if node === survey.root { return .records }
        return node.isElement ? .element : .toOne
    }

    /// Names of a member that holds an object-valued id (`"ids": {"trakt": 1, "slug": "…"}`,
    /// `"id": {"kind": "…", "videoId": "…"}`): the key is read from inside it.
    static let idObjectNames: Set<String> = ["id", "ids", "_id", "identifier", "identifiers", "uid", "uuid", "guid"]

    /// Whether the values at `child` can be a key: present, and strings or integers within 64 bits.
    private static func usableAsKey(_ child: ShapeNode) -> Bool {
        let tally = child.tally
        return tally.present > 0 && tally.nulls == 0 && tally.objects == 0 && tally.arrays == 0 && tally.bools == 0
            && tally.doubles == 0 && tally.hugeIntegers == 0
    }

    /// Whether `key` reads like an id: `id`, `uuid`, or a suffix (`question_id`, `userId`, `videoID`).
    static func idLike(_ key: String) -> Bool {
        let lower = key.lowercased()
        return idNames.contains(lower) || lower.hasSuffix("_id") || key.hasSuffix("Id") || key.hasSuffix("ID")
    }

    /// The key that identifies the objects at `node`, or nil when none does.
    func identityKey(of node: ShapeNode, role: Role, fromData: Bool, inlinedField: Bool = true) -> DraftKey? {
        guard node.tally.objects > 0 else { return nil }
        let objects = node.tally.objects
        func usable(_ key: String) -> ShapeNode? {
            guard let child = node.member(key), DraftPlanner.usableAsKey(child) else { return nil }
            return child
        }
        func named(_ names: [String]) -> String? {
            for name in names {
                if let key = node.memberKeys.first(where: { $0.lowercased() == name }), usable(key) != nil { return key }
            }
            return nil
        }
        if let key = named(DraftPlanner.idNames) { return DraftKey([key]) }
        // `question_id`, `userId`: an id by its suffix, when every object has one of its own.
        if role != .toOne,
            let key = node.memberKeys.first(where: { key in
                guard DraftPlanner.idLike(key), let child = usable(key) else { return false }
                return child.tally.present == objects && !child.distinct.repeats
            })
        {
            return DraftKey([key])
        }
        if let key = objectValuedId(of: node) { return key }
        if let key = metadataId(of: node) { return key }
        // A response (a whole document) is keyed by an id only: its address or a name in it (a
        // websocket `url`, a `kind`) says which endpoint answered, not which object it is, and
        // would make each response a row of its own. The objects inside it are the records.
        if wholeDocuments && node === survey.root { return nil }
        if let key = addressKey(of: node) {
            // A nested object keyed by its address is an entity when it is shared (the same
            // milestone on many issues); met once each, it is part of its parent, unless its
            // shape is an entity elsewhere (`plan`).
            if role != .toOne || node.member(key.member!)!.distinct.repeats { return key }
        }
        if role == .toOne { return nil }
        for name in DraftPlanner.naturalNames {
            // A name met with different content in different objects (a tax line's `title`
            // in two orders) names no single object: it is no key.
            if let key = node.memberKeys.first(where: { $0.lowercased() == name }), let child = usable(key),
                child.tally.present == objects, child.namesOneObject
            {
                return DraftKey([key])
            }
        }
        guard role == .records, fromData, objects >= 2 else { return nil }
        func uniqueEverywhere(_ child: ShapeNode) -> Bool {
            DraftPlanner.usableAsKey(child) && child.tally.present == objects && !child.distinct.repeats
        }
        if let key = node.memberKeys.first(where: { node.member($0).map(uniqueEverywhere) == true }) { return DraftKey([key]) }
        // A field of an object every record holds (Prometheus' `metric.instance`): the object's
        // fields are inlined into the record, so one of them can key it as well as its own.
        // Asked only when nothing inside the records has an identity (`findRecordRoots`): a
        // listing's `data.dist` is no key when its children are the records.
        guard inlinedField else { return nil }
        for key in node.memberKeys {
            guard let child = node.member(key), child.tally.objects == objects, !DraftPlanner.isKeyedByData(child) else { continue }
            if let inner = child.memberKeys.first(where: { child.member($0).map(uniqueEverywhere) == true }) {
                return DraftKey([key, inner])
            }
        }
        return nil
    }

    /// The address (`url`, `uri`) that can key the objects at `node`: present and a string or
    /// integer in each. An address met with different content in different objects (one licence
    /// URL on a work's `vor` and `tdm` licences, each with its own dates) names no single object,
    /// as a name does not: keyed by it, one would overwrite the other.
    func addressKey(of node: ShapeNode) -> DraftKey? {
        for name in DraftPlanner.addressNames {
            guard let key = node.memberKeys.first(where: { $0.lowercased() == name }), let child = node.member(key),
                DraftPlanner.usableAsKey(child), child.namesOneObject
            else { continue }
            return DraftKey([key])
        }
        return nil
    }

    /// A key inside an object-valued id that every object holds: an id-like member of it first,
    /// else its first integer, else its first string, each present in every object.
    ///
    /// The member must be named like an id and hold only objects: the name is the evidence that
    /// the object identifies its holder, so no uniqueness is asked of the sample (the same movie
    /// may be listed twice).
    private func objectValuedId(of node: ShapeNode) -> DraftKey? {
        let objects = node.tally.objects
        for key in node.memberKeys where DraftPlanner.idObjectNames.contains(key.lowercased()) {
            guard let holder = node.member(key), holder.tally.objects == objects, holder.tally.values == objects else { continue }
            let candidates = holder.memberKeys.filter { inner in
                guard let child = holder.member(inner) else { return false }
                return DraftPlanner.usableAsKey(child) && child.tally.present == objects
            }
            let chosen =
                candidates.first(where: DraftPlanner.idLike)
                ?? candidates.first(where: { holder.member($0)!.tally.strings == 0 })
                ?? candidates.first
            if let chosen { return DraftKey([key, chosen]) }
        }
        return nil
    }

    /// Names of a member that describes the object holding it (Kubernetes' `metadata`,
    /// Contentful's `sys`): an id inside it is its holder's id.
    static let metadataNames: Set<String> = ["metadata", "meta", "_meta", "_metadata", "sys"]

    /// An id that sits in a metadata child (`{"metadata": {"uid": …, "name": …}, "spec": {…}}`):
    /// the object holding the child is the thing identified (a pod, not its metadata), so it is
    /// keyed by the path into the child (`metadata.uid`) and the child's fields are inlined into
    /// it. Only an id-named member (`idNames`) of a child every object holds counts; the child's
    /// name is the evidence, as an object-valued id's is, so any place may be keyed so.
    private func metadataId(of node: ShapeNode) -> DraftKey? {
        let objects = node.tally.objects
        for key in node.memberKeys where DraftPlanner.metadataNames.contains(key.lowercased()) {
            guard let holder = node.member(key), holder.tally.objects == objects, holder.tally.values == objects else { continue }
            for name in DraftPlanner.idNames {
                guard let inner = holder.memberKeys.first(where: { $0.lowercased() == name }), let child = holder.member(inner),
                    DraftPlanner.usableAsKey(child), child.tally.present == objects
                else { continue }
                return DraftKey([key, inner])
            }
        }
        return nil
    }

    /// The key of list elements that wrap one keyed object beside a few scalars of their own,
    /// when no keyed object holds the list (`{"cast": [{"character": …, "movie": {"ids": {…}}}]}`,
    /// a response without an id): the wrapped object's key, read through it (`movie.ids.tmdb`),
    /// and every scalar of the element's own (`character`), so that each element is a record
    /// linked to its object that keeps its own fields.
    ///
    /// Under a keyed owner the same elements are a to-many with `each` and link attributes,
    /// scoped to that owner: that is the safe form, and why this is asked only where the records
    /// are looked for (no keyed object above). Here no owner scopes the element, and the wrapped
    /// key alone would be a guess that merges: a post without an id keyed by its author's id, two
    /// roles of one actor in one movie, another response's credit for the same movie, each would
    /// overwrite the other. With every own field in the key, two elements share a row only when
    /// they say the same thing, so nothing is overwritten. Hence the limits: every own field is a
    /// string or an integer present in each element, at most `maxWrapperFields` of them, and no
    /// list or second object (then the element is a thing of its own, not a wrapper).
    func wrapperKey(of node: ShapeNode) -> (key: DraftKey, fields: [String])? {
        guard node.isElement, node.tally.objects > 0, node.tally.values == node.tally.objects else { return nil }
        let objects = node.tally.objects
        var found: DraftKey?
        var fields: [String] = []
        for key in node.memberKeys {
            let child = node.member(key)!
            guard child.tally.objects > 0 else {
                // A discriminator beside one object (`{"kind": "t3", "data": {…}}`) types an
                // envelope of that object: it describes no link, and the object is the record.
                guard DraftPlanner.usableAsKey(child), child.tally.present == objects,
                    !DraftPlanner.discriminatorNames.contains(key.lowercased())
                else { return nil }
                fields.append(key)
                continue
            }
            guard found == nil, child.tally.objects == objects, child.tally.values == objects,
                let inner = identityKey(of: child, role: .toOne, fromData: false), inner.node(below: child)?.tally.present == objects
            else { return nil }
            found = DraftKey([key] + inner.steps)
        }
        guard let found, !fields.isEmpty, fields.count <= DraftPlanner.maxWrapperFields else { return nil }
        return (found, fields)
    }

    /// The most fields of its own a wrapper element keyed by what it wraps may have (`wrapperKey`).
    static let maxWrapperFields = 3

    /// Whether `key` is an id read from a metadata child (`metadata.uid`).
    static func isMetadataKey(_ key: DraftKey) -> Bool {
        key.steps.count == 2 && metadataNames.contains(key.steps[0].lowercased()) && idNames.contains(key.steps[1].lowercased())
    }

    /// An object with more keys than this, all of them objects, is keyed by its data.
    static let maxFieldKeys = 50

    /// Whether the objects at `node` are keyed by data (`{"alice": {…}, "bob": {…}}`,
    /// `{"2024-04-27T06:30:00+02:00": 47, …}`) rather than by field names. Two kinds of evidence,
    /// either enough, neither a count fitted to one sample:
    /// - every member name is shaped like a value (`DataKeyShape`: numbers, dates, versions,
    ///   hashes, uuids, coded ids like `Q42`), and the members' values are of one kind; a single
    ///   such member suffices, since no field name is shaped so;
    /// - more members than a record type plausibly has (`maxFieldKeys`), every one an object.
    /// A data value never becomes a path step, an entity name or a column: such an object is read
    /// with `{*}` or kept whole.
    static func isKeyedByData(_ node: ShapeNode) -> Bool {
        let members = node.memberKeys.map { node.member($0)! }
        guard !members.isEmpty else { return false }
        if members.count + node.droppedKeys > maxFieldKeys, members.allSatisfy({ $0.tally.objects == $0.tally.values }) { return true }
        guard node.memberKeys.allSatisfy(DataKeyShape.looksLikeData) else { return false }
        let tally = members.dropFirst().reduce(members[0].tally) { $0.merged(with: $1.tally) }
        return tally.kindCount == 1
    }

    // MARK: Records

    /// Whether the records are the surveyed values themselves.
    private var recordsAreRoot: Bool { recordRoots.count == 1 && recordRoots[0] === survey.root }

    /// Whether the records at `node` are values, not objects: bare strings or integers, or the
    /// scalar members of an object keyed by data. Each becomes an object whose `$` is the value.
    static func holdsValueRecords(_ node: ShapeNode) -> Bool {
        node.tally.objects == 0 && node.tally.arrays == 0 && node.tally.scalars > 0
    }

    /// The places whose objects are the records. A member of an object keyed by data stands for
    /// all its members (the records path says `{*}`).
    private func findRecordRoots() -> [ShapeNode] {
        let root = survey.root
        if identityKey(of: root, role: .records, fromData: !wholeDocuments, inlinedField: false) != nil || root.tally.objects == 0
            || DraftPlanner.isKeyedByData(root)
        {
            return [root]
        }
        var found: [ShapeNode] = []
        // Arrays of bare strings or integers under a key (`{"items": [2130, 2131], "profiles": ["ann"]}`):
        // the records when nothing else in the sample has an identity.
        var values: [ShapeNode] = []
        func descend(_ node: ShapeNode) {
            for key in node.memberKeys {
                let child = node.member(key)!
                visit(child)
            }
            if let element = node.element { visit(element) }
        }
        func visit(_ node: ShapeNode) {
            if identityKey(of: node, role: role(of: node), fromData: false) != nil || wrapperKey(of: node) != nil {
                found.append(node)
            } else if DraftPlanner.isKeyedByData(node) {
                // Members that are objects or values are records; arrays of them are kept whole.
                if let first = node.memberKeys.first.flatMap(node.member), first.tally.arrays == 0 { found.append(first) }
            } else if node.isElement, node.path.filter({ $0 == .element }).count == 1, node.path.count > 1, DraftPlanner.holdsValueRecords(node),
                node.tally.kindCount == 1, node.tally.nulls == 0, node.tally.hugeIntegers == 0
            {
                values.append(node)
            } else if node.path.count < ShapeSurvey.maxDepth {
                descend(node)
            }
        }
        descend(root)
        // A nested object met once each under its address is a record when its shape is that of
        // records found under the same address (a reply's parent post beside the feed's posts):
        // the shape, not a repeat, says it is a thing of its own (`plan` does the same below).
        let keyedShapes = found.compactMap { node in
            identityKey(of: node, role: role(of: node), fromData: false).flatMap { key in addressKey(of: node) == key ? (node, key) : nil }
        }
        if !keyedShapes.isEmpty {
            func matches(_ node: ShapeNode) -> Bool {
                guard role(of: node) == .toOne, node.tally.objects > 0, let key = addressKey(of: node) else { return false }
                return keyedShapes.contains { shape in shape.1 == key && DraftPlanner.alike(node, shape.0) }
            }
            var extra: [ShapeNode] = []
            func revisit(_ node: ShapeNode) {
                guard !found.contains(where: { $0 === node }) else { return }
                if matches(node) {
                    extra.append(node)
                } else if !DraftPlanner.isKeyedByData(node), node.path.count < ShapeSurvey.maxDepth {
                    for key in node.memberKeys { revisit(node.member(key)!) }
                    if let element = node.element { revisit(element) }
                }
            }
            for key in root.memberKeys { revisit(root.member(key)!) }
            if let element = root.element { revisit(element) }
            // Roots below a new one are part of it now.
            found = found.filter { node in !extra.contains { Array(node.path.prefix($0.path.count)) == $0.path } } + extra
        }
        // The root itself, keyed by a guess, when nothing below has an identity.
        if !found.isEmpty { return found }
        if identityKey(of: root, role: .records, fromData: !wholeDocuments) != nil { return [root] }
        return values.isEmpty ? [root] : values
    }

    /// The map's records path for the objects at `node`.
    func recordsPath(_ node: ShapeNode) -> String {
        if node.isKeyedMember, let parent = node.parent { return recordsPath(parent) + "{*}" }
        if node.path.isEmpty { return "$[*]" }
        var text = fromTopLevelArray ? "$[*]" : ""
        for step in node.path {
            switch step {
            case .key(let key): text += DraftNames.component(key, first: text.isEmpty)
            case .element: text += "[*]"
            }
        }
        return text
    }

    // MARK: One entity in several places

    private mutating func find(_ index: Int) -> Int {
        var index = index
        while parent[index] != index {
            parent[index] = parent[parent[index]]
            index = parent[index]
        }
        return index
    }

    /// Fields whose constant value says what kind of object holds it.
    static let discriminatorNames: Set<String> = ["type", "object", "kind", "_type", "__typename", "@type", "entity_type", "resource_type"]

    /// Why the objects at `a` and `b` are different kinds, when the sample says so: a
    /// discriminator that holds different constants in each place, or an id that names different
    /// things in each. Nil means no evidence against a merge (not evidence for one).
    static func evidenceApart(_ a: ShapeNode, _ b: ShapeNode) -> String? {
        for key in a.memberKeys where discriminatorNames.contains(key.lowercased()) {
            guard let mine = a.member(key), let theirs = b.member(key), mine.tally.strings == mine.tally.present,
                theirs.tally.strings == theirs.tally.present, let mineValues = mine.distinct.all, let theirValues = theirs.distinct.all,
                !mineValues.isEmpty, !theirValues.isEmpty, mineValues.count <= 8, theirValues.count <= 8
            else { continue }
            if mineValues.isDisjoint(with: theirValues) { return "their `\(key)` holds different values" }
        }
        for (id, name) in a.namesById where b.namesById[id].map({ $0 != name }) == true {
            return "one id names different things in each place"
        }
        return nil
    }

    /// Objects the draft keeps apart though their shapes are alike, and why: said in a comment.
    private(set) var keptApart: [(a: ShapeNode, b: ShapeNode, why: String)] = []

    /// Joins the groups of `a` and `b`, unless some node of one and some node of the other are
    /// different kinds by the sample's evidence (`evidenceApart`): a draft never merges objects
    /// that collide. `checked: false` joins what is one kind by construction (the members of an
    /// object keyed by data).
    @discardableResult
    private mutating func union(_ a: Int, _ b: Int, checked: Bool = true) -> Bool {
        let (rootA, rootB) = (find(a), find(b))
        guard rootA != rootB else { return false }
        if checked {
            let groupA = survey.nodes.filter { $0.tally.objects > 0 && find($0.index) == rootA }
            let groupB = survey.nodes.filter { $0.tally.objects > 0 && find($0.index) == rootB }
            for x in groupA {
                for y in groupB {
                    guard let why = DraftPlanner.evidenceApart(x, y) ?? DraftPlanner.evidenceApart(y, x) else { continue }
                    if !keptApart.contains(where: { ($0.a === x && $0.b === y) || ($0.a === y && $0.b === x) }) {
                        keptApart.append((x, y, why))
                    }
                    return false
                }
            }
        }
        // The earlier node stays the root, so that a group is named from where it is first met.
        if rootA < rootB { parent[rootB] = rootA } else { parent[rootA] = rootB }
        return true
    }

    /// Keys too common to tell two shapes apart: sharing only these is no evidence.
    static let commonKeys: Set<String> = [
        "id", "uuid", "guid", "_id", "uid", "url", "uri", "html_url", "name", "type", "kind", "title", "created_at", "updated_at",
    ]

    /// Whether two keyed shapes are one entity: the same key, the smaller's keys mostly the
    /// larger's, and among the shared keys at least one that is not common to every kind of object.
    private func sameShape(_ a: ShapeNode, _ b: ShapeNode) -> Bool {
        guard identity[a.index] == identity[b.index], wrappers[a.index] == nil, wrappers[b.index] == nil else { return false }
        return DraftPlanner.alike(a, b)
    }

    /// Whether the smaller of two shapes' keys are mostly the larger's, sharing one that is not
    /// common to every kind of object.
    static func alike(_ a: ShapeNode, _ b: ShapeNode) -> Bool {
        let (small, large) = a.memberKeys.count <= b.memberKeys.count ? (a, b) : (b, a)
        let shared = small.memberKeys.filter { large.member($0) != nil }
        guard shared.contains(where: { !commonKeys.contains($0.lowercased()) }) else { return false }
        guard small.memberKeys.count >= 3 else { return small.memberKeys == large.memberKeys }
        return Double(shared.count) >= sameShapeShare * Double(small.memberKeys.count)
    }

    /// The node with the most keys in the group of `node`: the fullest form of its entity.
    private mutating func fullest(_ node: ShapeNode) -> ShapeNode {
        let root = find(node.index)
        return survey.nodes.filter { identity[$0.index] != nil && find($0.index) == root }.max {
            $0.memberKeys.count < $1.memberKeys.count
        } ?? node
    }

    /// Unions the objects at the same place below nodes of one entity, when any of them is keyed.
    private mutating func align(_ nodes: [ShapeNode]) -> Bool {
        guard nodes.count > 1 else { return false }
        var changed = false
        let objectNodes = nodes.filter { $0.tally.objects > 0 }
        if objectNodes.contains(where: { identity[$0.index] != nil }), let first = objectNodes.first {
            for node in objectNodes.dropFirst() where union(first.index, node.index) { changed = true }
        }
        var keys: [String] = []
        var seen: Set<String> = []
        for node in nodes { for key in node.memberKeys where seen.insert(key).inserted { keys.append(key) } }
        for key in keys where align(nodes.compactMap { $0.member(key) }) { changed = true }
        if align(nodes.compactMap(\.element)) { changed = true }
        return changed
    }

    /// Whether the objects at `node` only point at an object (`{"id": 12}`, `{"id": 3, "type": "user"}`,
    /// `{"name": "x", "url": "…"}`): every key one that any kind of object has (`commonKeys`).
    static func isReference(_ node: ShapeNode) -> Bool {
        !node.memberKeys.isEmpty && node.memberKeys.allSatisfy { commonKeys.contains($0.lowercased()) }
    }

    /// The last word of the name a node's objects are met under (`previous_activity` -> `activity`).
    private static func kindWord(_ node: ShapeNode) -> String? {
        guard let (key, plural) = node.namingKey else { return nil }
        let snake = Naming.snakeCase(DraftNames.entity(plural ? DraftNames.singular(key) : key))
        return snake.split(separator: "_").last.map(String.init)
    }

    /// Id-only references join the entity whose full objects the sample holds elsewhere, when
    /// exactly one group with the same key is met under the same kind of name (`activity`,
    /// `previous_activity`, `activities[]`), and no evidence says they differ (`union` checks):
    /// then the reference is a link to that entity (a stub until its object arrives), not an
    /// entity of its own with one column.
    private mutating func linkReferences(_ keyed: [ShapeNode]) {
        for reference in keyed where DraftPlanner.isReference(reference) {
            guard let word = DraftPlanner.kindWord(reference) else { continue }
            let candidates = keyed.filter { node in
                node !== reference && !DraftPlanner.isReference(node) && identity[node.index] == identity[reference.index]
                    && DraftPlanner.kindWord(node) == word
            }
            let groups = Set(candidates.map { find($0.index) })
            if groups.count == 1, let target = candidates.first { union(target.index, reference.index) }
        }
    }

    /// The nodes of each group, by the group's root, in survey order.
    private mutating func groups() -> [Int: [ShapeNode]] {
        var groups: [Int: [ShapeNode]] = [:]
        for node in survey.nodes where node.tally.objects > 0 { groups[find(node.index), default: []].append(node) }
        return groups
    }

    // MARK: Drafting

    /// The draft, or nil when the records are neither objects with a field to key them by nor
    /// bare strings or integers.
    mutating func plan() -> DraftModel? {
        recordRoots = findRecordRoots()
        // Only what lies in a records subtree can be an entity; the wrapper above is not. A member
        // of an object keyed by data stands for every member of that object.
        let subtrees = recordRoots.map { root in root.isKeyedMember ? root.parent! : root }
        let inRecords = Set(
            survey.nodes.filter { node in subtrees.contains { Array(node.path.prefix($0.path.count)) == $0.path } }.map(\.index))
        for node in survey.nodes where inRecords.contains(node.index) {
            if let key = identityKey(of: node, role: role(of: node), fromData: node === survey.root && !(wholeDocuments && !recordsAreRoot)) {
                identity[node.index] = key
            } else if recordRoots.contains(where: { $0 === node }), let wrapper = wrapperKey(of: node) {
                identity[node.index] = wrapper.key
                wrappers[node.index] = wrapper.fields
            }
        }
        // A nested object met once each under its address is an entity when the same shape is
        // one elsewhere under that address (a reply's parent post beside the feed's posts): the
        // shape, not the repeat, says it is a thing of its own. `sameShape` asks for the same key.
        let keyedBefore = survey.nodes.filter { identity[$0.index] != nil }
        for node in survey.nodes where inRecords.contains(node.index) && identity[node.index] == nil && role(of: node) == .toOne {
            guard node.tally.objects > 0, let key = addressKey(of: node) else { continue }
            identity[node.index] = key
            if !keyedBefore.contains(where: { identity[$0.index] == key && sameShape(node, $0) }) { identity[node.index] = nil }
        }
        // A metadata child whose id keys its holder is part of the holder, no entity of its own.
        for node in survey.nodes {
            guard let key = identity[node.index], DraftPlanner.isMetadataKey(key), let child = node.member(key.steps[0]) else { continue }
            identity[child.index] = nil
        }
        // The records root of a sample that has no keyed objects at all keys by its first scalar.
        var guessedKey: DraftKey?
        if recordsAreRoot, identity[0] == nil {
            guessedKey = survey.root.memberKeys.first { key in
                let tally = survey.root.member(key)!.tally
                return tally.present == survey.root.tally.objects && tally.kindCount == 1 && tally.scalars == tally.values
            }.map { DraftKey([$0]) }
            if let guessedKey { identity[0] = guessedKey }
        }
        if recordsAreRoot, identity[0] == nil { return bareValues() }
        // The members of an object keyed by data are one entity, keyed by their member names
        // (`id <- $key`) unless they hold an id of their own.
        for node in survey.nodes where inRecords.contains(node.index) && DraftPlanner.isKeyedByData(node) {
            let members = node.memberKeys.map { node.member($0)! }
            if !members.contains(where: { identity[$0.index] != nil }) {
                for member in members { identity[member.index] = .memberName }
            }
            for member in members.dropFirst() { union(members[0].index, member.index, checked: false) }
        }
        let keyed = survey.nodes.filter { identity[$0.index] != nil && identity[$0.index] != .memberName }
        for (position, a) in keyed.enumerated() {
            // Two groups become one only if their fullest forms are one shape too, so that a small
            // shape like two big ones does not join them. Pairs already in one group are passed
            // over first: a fullest form is a walk of every node, and many places of one entity
            // (an object keyed by data whose members each hold a list) made it quadratic.
            for b in keyed[(position + 1)...] where find(a.index) != find(b.index) && sameShape(a, b) && sameShape(fullest(a), fullest(b)) {
                union(a.index, b.index)
            }
        }
        linkReferences(keyed)
        var changed = true
        while changed {
            changed = false
            for group in groups().values where align(group) { changed = true }
        }
        var writer = DraftWriter(
            planner: self, groups: groups(), identity: identity,
            find: { [parent] index in
                var index = index
                while parent[index] != index { index = parent[index] }
                return index
            })
        var model = writer.write(recordRoots: recordRoots, guessedKey: guessedKey)
        if wholeDocuments, !recordsAreRoot { model.meta = metaCandidates() }
        return model
    }

    /// Records that are bare strings or integers (`["1699", "1455"]`): one object per value, keyed by it.
    private func bareValues() -> DraftModel? {
        let tally = survey.root.tally
        guard tally.kindCount == 1, tally.nulls == 0, tally.strings > 0 || (tally.integers > 0 && tally.hugeIntegers == 0) else {
            return nil
        }
        let name = recordsName ?? "Value"
        var model = DraftModel()
        model.records = [.init(path: "$[*]", entity: name, requiredKey: nil, count: tally.values)]
        model.entities = [
            .init(
                name: name, key: "value", comments: ["bare values: each record is its own key"],
                members: [.init(name: "value", path: "$", type: tally.strings > 0 ? "String" : "Int")])
        ]
        return model
    }

    /// The scalars of a wrapped response outside its records (a cursor, a count), reached by keys only.
    private func metaCandidates() -> [DraftModel.Meta] {
        var found: [DraftModel.Meta] = []
        var used: Set<String> = []
        func visit(_ node: ShapeNode, keys: [String]) {
            for key in node.memberKeys {
                let child = node.member(key)!
                guard !recordRoots.contains(where: { $0 === child }), !DraftPlanner.isKeyedByData(child) else { continue }
                let tally = child.tally
                guard tally.kindCount == 1 else { continue }
                if tally.objects > 0 {
                    visit(child, keys: keys + [key])
                    continue
                }
                let type: String
                if tally.bools > 0 {
                    type = "Bool"
                } else if tally.strings > 0 {
                    type = "String"
                } else if tally.doubles > 0 {
                    type = "Double"
                } else if tally.hugeIntegers == 0, tally.integers > 0 {
                    type = "Int"
                } else {
                    continue
                }
                var name = DraftNames.member(key)
                if used.contains(name.lowercased()) { name = DraftNames.member((keys + [key]).joined(separator: "_")) }
                guard used.insert(name.lowercased()).inserted else { continue }
                found.append(.init(name: name, path: DraftNames.path(keys + [key]), type: type + "?"))
            }
        }
        visit(survey.root, keys: [])
        return found
    }
}
