import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// Phase one of a record: reads, converts and checks every mapped value into drafts.
struct DraftBuilder {
    let plan: ImportPlan
    /// By entity index (`EntityHooks.bind(_:to:)`).
    let hooks: [EntityHooks]
    /// Top-level keys that went to `extras`, per entity, with how many objects had each.
    private(set) var extrasKeys: [[String: Int]]
    /// The path below the record of the value being read, kept as a stack and made text only on failure.
    var stack: [PathStep] = []
    private var record: JSONRecord?
    /// The entity the current record was routed to, once known (for counting a skipped record).
    private(set) var routedEntity: Int?
    /// Per entity: the attributes a new object must be given (`AttributePlan.MissingAction.requiredOnInsert`);
    /// none for an entity with an `onInsert` hook, which may set them.
    private let requiredOnInsert: [[Int]]
    /// Whether a draft of the current record lacks a value its entity requires on insert.
    private var recordLacksRequired = false
    /// What `$key` reads in the object being drafted: the name of the member a `{*}` took it from.
    private(set) var memberName: String?
    /// What `$` reads in the object being drafted when it stands for a string, number or boolean.
    private(set) var bareValue: JSONValue?
    /// The member name of the current record, when its route takes records with `{*}`.
    private var recordMemberName: String?
    /// By entity index: whether the entity reads `$` or `$key` (`EntityPlan.readsBareValue`).
    let readsBareValue: [Bool]
    /// By entity index: whether a to-many of the entity reads `$` (`EntityPlan.readsArrayValue`),
    /// so that an array is an object of it.
    let readsArrayValue: [Bool]
    /// By entity index: `EntityPlan.keepsBareValue`; only drafts of those set `memberName` and
    /// `bareValue`, which no other entity reads.
    private let keepsBareValue: [Bool]
    /// What `$index` reads in the object being drafted: its position in the array it came from.
    private(set) var elementIndex: Int?
    /// The position of the current record in its array, when its route takes array elements.
    private var recordElementIndex: Int?
    /// By entity index: whether the entity reads `$index` (`EntityPlan.readsElementIndex`); only
    /// drafts of those set `elementIndex`.
    let readsElementIndex: [Bool]
    /// By entity index: whether the run inserts new objects (`EntityModes.inserts`).
    private let insertsNew: [Bool]
    /// Elements of the current record that relationships with `unkeyed skip` left out (a record's,
    /// not a draft's: every object's draft stays as small as it was).
    private(set) var skipped: [SkippedElement] = []
    /// Whether a path of the map reads `@parent`: only then is `parents` kept.
    let tracksParents: Bool
    /// The objects being drafted, outermost first, each with the depth of `stack` at it and the
    /// name of the member a `{*}` took it from: what `@parent` and `@parent.$key` read (the last
    /// is the object being drafted, the one before it its parent).
    private(set) var parents: [(object: JSONObject, depth: Int, memberName: String?)] = []
    /// Whether a path of the map reads `@root`: only then are `rootValues` given (`takeRootValues`).
    let readsRoot: Bool
    /// The response's values `@root` paths read, by capture index, as the reader kept them in the
    /// current record's document before the record.
    private(set) var rootValues: [Int: JSONValue] = [:]
    /// What `rootValues` was made from: the reader's count of captures and the document.
    private var rootValuesSource = (captures: -1, document: -1)
    /// Whether the pipeline reads records into a `JSONSlots` table and drafting reads the
    /// attributes it can from it (`ImportOptions.readsSlotTable`; docs/slot-table-plan.md).
    var readsSlots = false
    /// The current record's table while it is drafted (`hasRecordSlots`), else an empty one (so
    /// that the reader's table stays the only reference and is refilled in place). Not an
    /// optional: binding a table with `if let` or `guard let` copies it, three references
    /// retained and released, and drafting reads it for every value and object; a stored
    /// property is read in place (figures in Benchmarks/README.md, Session 17).
    private(set) var recordSlots = Self.noTable
    private(set) var hasRecordSlots = false
    private static let noTable = JSONSlots()
    /// The current record's value made from its table before drafting (by routing: a `where`),
    /// when it was; nil when not made (then made here only if a read needs it).
    private var recordTree: JSONValue?
    /// Objects drafted from their slots, and of them those whose tree was made (for the tests:
    /// which reads skip the tree).
    private(set) var objectsDraftedFromSlots = 0
    var objectTreesMade = 0
    /// Per entity and projection node: `SlotReads`, made once for the plan at the first object
    /// of that entity at that node (keyed `node * entity count + entity`).
    var slotReadsByNode: [Int: SlotReads] = [:]
    /// Set while `lightWalk` drafts a record: no attribute but the keys is converted, and each
    /// object and key link is noted here.
    var walk: Walk?

    /// By entity: whether its objects take a content digest: `ImportPlan.takesDigests`, or none
    /// where the store takes none (`StoreSession.takesDigests`).
    var takesDigests: [Bool]

    /// `modes`: what the run may do per entity; a key into an entity that takes no new objects links only existing ones.
    init(plan: ImportPlan, hooks: [EntityHooks], modes: EntityModes? = nil) {
        self.plan = plan
        takesDigests = plan.takesDigests
        self.hooks = hooks
        insertsNew = modes?.inserts ?? Array(repeating: true, count: plan.entities.count)
        extrasKeys = Array(repeating: [:], count: plan.entities.count)
        requiredOnInsert = plan.entities.indices.map { index in
            guard hooks[index].onInsert == nil else { return [] }
            let attributes = plan.entities[index].attributes
            return attributes.indices.filter { attributes[$0].onMissing == .requiredOnInsert }
        }
        readsBareValue = plan.entities.map(\.readsBareValue)
        readsArrayValue = plan.entities.map(\.readsArrayValue)
        keepsBareValue = plan.entities.map(\.keepsBareValue)
        readsElementIndex = plan.entities.map(\.readsElementIndex)
        tracksParents = plan.readsParent
        readsRoot = plan.readsRoot
    }

    /// Takes the values the reader kept (`captured`, each with the document it was in) that are
    /// in `document`, the document of the record about to be drafted; `captures` counts the
    /// reader's captures, so that nothing is redone while it is unchanged.
    mutating func takeRootValues(_ captured: [Int: JSONValue], documents: [Int: Int], captures: Int, document: Int) {
        guard rootValuesSource != (captures, document) else { return }
        rootValuesSource = (captures, document)
        rootValues = captured.filter { documents[$0.key] == document }
    }

    /// The draft of a record, or nil when its route says to ignore it.
    /// `slots`: the record read into a table by `JSONRecordReader.next(into:)`, whose `value`
    /// is then not read (the reader leaves it null): the table is the value, read by slot where
    /// `SlotReads` says it can be, and made a tree where it cannot. `tree`: the table's value
    /// already made a tree, when routing made it.
    mutating func draft(record: JSONRecord, route: RecordRoute, slots: JSONSlots? = nil, tree: JSONValue? = nil) throws(RecordError)
        -> ObjectDraft?
    {
        if let slots {
            recordSlots = slots
            hasRecordSlots = true
        }
        recordTree = tree
        defer {
            if hasRecordSlots {
                recordSlots = Self.noTable
                hasRecordSlots = false
            }
            recordTree = nil
        }
        recordLacksRequired = false
        if !skipped.isEmpty { skipped = [] }
        guard var draft = try routedDraft(record: record, route: route) else { return nil }
        draft.treeLacksRequired = recordLacksRequired
        return draft
    }

    private mutating func routedDraft(record: JSONRecord, route: RecordRoute) throws(RecordError) -> ObjectDraft? {
        self.record = record
        stack.removeAll(keepingCapacity: true)
        if tracksParents { parents.removeAll(keepingCapacity: true) }
        routedEntity = nil
        recordMemberName = nil
        recordElementIndex = route.elementIndex(of: record)
        if let depth = route.memberNameDepth, depth < record.path.components.count, case .key(let name) = record.path.components[depth] {
            recordMemberName = name
        }
        switch route.target {
        case .entity(let entity):
            routedEntity = entity
            if let slot = recordObjectSlot {
                var object: JSONObject?
                if case .object(let tree)? = recordTree { object = tree }
                return try draft(object, entity: entity, memberName: recordMemberName, elementIndex: recordElementIndex, slot: slot)
            }
            return try draft(value: recordValue(record), entity: entity)
        case .choice(let discriminator, let description, let cases):
            // A `by` route reads the tree: its discriminator, and the object it chooses.
            let value = recordValue(record)
            guard case .object(let object) = value else {
                throw error(nil, "expected an object with '\(description)', found \(value.kindName)", hint: nil)
            }
            guard let found = try lookup(discriminator, in: object, member: nil) else {
                throw error(nil, "the record has no '\(description)' to choose its entity by", hint: nil)
            }
            guard let chosen = RecordRoute.Case.chosen(for: found, among: cases) else {
                let known = cases.compactMap { $0.value?.description }.joined(separator: ", ")
                let shown = Value.json(found).shown ?? found.kindName
                throw error(
                    nil, "no rule of the map for \(description) = \(shown)",
                    hint: "the map knows \(known); add a case line for it, or `else -> ignore` to skip every record whose value no case names")
            }
            stack.removeAll(keepingCapacity: true)
            guard let entity = chosen.entity else { return nil }
            routedEntity = entity
            guard let inner = try lookup(chosen.subpath, in: object, member: nil) else {
                throw error(nil, "the record has nothing at '\(chosen.subpath.text)' for \(plan.entities[entity].name)", hint: nil)
            }
            return try draft(value: inner, entity: entity)
        }
    }

    /// The slot of the record's value in its table, when it was read into one and is an object.
    private var recordObjectSlot: Int? { hasRecordSlots && recordSlots.kind(at: recordSlots.root) == .object ? recordSlots.root : nil }

    /// The record's value as a tree: its own, or its table's (made by routing, or now).
    private func recordValue(_ record: JSONRecord) -> JSONValue {
        guard hasRecordSlots else { return record.value }
        return recordTree ?? recordSlots.value(at: recordSlots.root)
    }

    private mutating func draft(value: JSONValue, entity: Int) throws(RecordError) -> ObjectDraft {
        guard case .object(let object) = value else {
            let isBare =
                switch value {
                case .string, .number, .bool: true
                default: false
                }
            if isBare ? readsBareValue[entity] : readsArrayValue[entity] && value.isArray {
                return try draft(JSONObject([]), entity: entity, memberName: recordMemberName, bareValue: value, elementIndex: recordElementIndex)
            }
            let name = plan.entities[entity].name
            throw error(
                nil, "expected an object for \(name), found \(value.kindName)",
                hint: isBare
                    ? "a record that is a bare value is read with `$`: `id <- $ : String` as \(name)'s key"
                    : value.isArray ? Self.arrayHint(name) : nil)
        }
        return try draft(object, entity: entity, memberName: recordMemberName, elementIndex: recordElementIndex)
    }

    /// `memberName`, `bareValue` and `elementIndex`: what `$key`, `$` and `$index` read in this
    /// object (not in objects nested in it).
    /// `owner`: for an object of an owned entity, its owner's key and its position, its own key.
    /// `object`: its tree, or nil when it has a `slot` in the record's table: then its tree is
    /// made from the slot only when a read needs it (`SlotReads.needsTree`).
    mutating func draft(
        _ object: JSONObject?, entity index: Int, memberName: String? = nil, bareValue: JSONValue? = nil, owner: OwnerPlace? = nil,
        elementIndex: Int? = nil, slot: Int? = nil
    ) throws(RecordError) -> ObjectDraft {
        enterObject(entity: index, memberName: memberName, bareValue: bareValue, elementIndex: elementIndex)
        var reads: SlotReads?
        if let slot {
            reads = slotReads(entity: index, object: slot)
            objectsDraftedFromSlots += 1
        }
        // The light walk stops at an object without a slot digest: its record is drafted in
        // full, and nothing of this object (an `extras` count, a key handler) runs twice.
        if walk != nil, !takesDigests[index] || reads?.coversDraft != true {
            walk?.coversRecord = false
            throw Self.cannotWalk
        }
        // The given tree, or the slot's made when a read needs it: nil only when no read below
        // needs it (`treeNeeded` says so).
        let object = object ?? treeIfNeeded(reads, slot: slot)
        if tracksParents { parents.append((treeNeeded(object, slot: slot), stack.count, memberName)) }
        defer { if tracksParents { parents.removeLast() } }
        let entity = plan.entities[index]
        // A slot digest where it covers the draft (`SlotReads.coversDraft`); nil: none, or the
        // drafted digest below.
        var slotDigest: ContentHasher?
        if takesDigests[index], let reads, reads.coversDraft { slotDigest = SlotDigest.start(seed: plan.digestSeed, entity: index) }
        let values = try attributeValues(of: entity, entity: index, in: object, slot: slot, reads: reads, owner: owner, digest: &slotDigest)
        let key = try objectKey(of: values, entity: entity)
        let depth = stack.count
        if !entity.polymorphic.isEmpty { try checkChoices(of: entity, in: treeNeeded(object, slot: slot)) }
        let toOne = try toOneLinks(of: entity, in: object, slot: slot, reads: reads, key: key, depth: depth)
        /// Made only for an entity with `link` attributes.
        var linkValues: [[SQLValue]?]? = nil
        let toMany = try toManyLinks(
            of: entity, entity: index, in: object, slot: slot, reads: reads, key: key, depth: depth, bareValue: bareValue, linkValues: &linkValues)
        // Made whole: a draft given `lacking` after it was made was copied, and the first
        // destroyed. The light walk's values are not converted: none is lacking.
        let lacking = walk == nil ? lackingRequired(values, entity: index) : nil
        var draft = ObjectDraft(entity: index, key: key, values: values, toOne: toOne, toMany: toMany, lacking: lacking, linkValues: linkValues)
        if var hasher = slotDigest {
            SlotDigest.add(toOne: toOne, toMany: toMany, to: &hasher)
            draft.contentDigest = hasher.digest
        } else if takesDigests[index] {
            draft.contentDigest = draft.draftedDigest(seed: plan.digestSeed)
        }
        if walk != nil {
            if slotDigest == nil { walk?.coversRecord = false }
            walk?.objects.append(.object(entity: index, key: key, digest: draft.contentDigest))
        }
        return draft
    }

    /// Sets what `$key`, `$` and `$index` read in the object of entity `index` about to be
    /// drafted, for an entity that reads them; `$` of an object drafted earlier is dropped, as
    /// here it is this object.
    private mutating func enterObject(entity index: Int, memberName: String?, bareValue: JSONValue?, elementIndex: Int?) {
        if keepsBareValue[index] {
            self.memberName = memberName
            self.bareValue = bareValue
        } else if self.bareValue != nil {
            // An object drafted earlier left its `$`: here `$` is this object (a to-one `<- $`).
            self.bareValue = nil
        }
        if readsElementIndex[index] { self.elementIndex = elementIndex }
    }

    /// The values to store for the object, by attribute (nil: keep the stored one), all that
    /// makes its key: each attribute read from the record's table where `reads` numbers its key
    /// in the object's `slot`, else from its tree; then what the entity's key handlers set, its
    /// `extras`, and for an owned object its owner's key and its position (`owner`).
    /// `digest`: the object's slot digest, given each attribute's slot (nil once a slot is one it
    /// cannot take). The light walk (`walk`) converts the keys alone: every other attribute is
    /// left nil, with its `missing` rule applied.
    private mutating func attributeValues(
        of entity: EntityPlan, entity index: Int, in object: JSONObject?, slot: Int?, reads: SlotReads?, owner: OwnerPlace?,
        digest: inout ContentHasher?
    ) throws(RecordError) -> [SQLValue?] {
        var values: [SQLValue?] = []
        values.reserveCapacity(entity.attributes.count)
        for (position, attribute) in entity.attributes.enumerated() {
            let member = entity.attributeMembers[position]
            if let slot, let reads, let number = reads.members[position], hasRecordSlots {
                let found = recordSlots.member(number, of: slot)
                if digest != nil, !addSlot(found, to: &digest!) { digest = nil }
                if walk != nil, !entity.keyAttributes.contains(position) {
                    values.append(try unconvertedValue(of: attribute, member: member, slot: found))
                    continue
                }
                values.append(try value(of: attribute, member: member, slot: found))
            } else if attribute.path == nil {
                digest?.add(SlotDigest.noPath)
                values.append(nil)
            } else {
                digest = nil
                values.append(try value(of: attribute, in: treeNeeded(object, slot: slot), member: member))
            }
        }
        if let handlers = hooks[index].keyHandlers {
            try handleKeys(of: treeNeeded(object, slot: slot), with: handlers, entity: entity, values: &values)
        }
        if let extras = entity.extrasAttribute {
            values[extras] = unmappedMembers(of: treeNeeded(object, slot: slot), entity: index)
        }
        if let owner { owner.fill(&values, keyAttributes: entity.keyAttributes) }
        return values
    }

    /// Gives each member of `object` that an entity's key handler takes to that handler, in the
    /// object's order, with the object's `values` to change; a handler's failure is the record's
    /// error at that member.
    private mutating func handleKeys(
        of object: JSONObject, with handlers: [String: EntityHooks.KeyHandler], entity: EntityPlan, values: inout [SQLValue?]
    ) throws(RecordError) {
        var objectValues = ObjectValues(entity: entity.name, names: entity.attributeNames, values: values)
        for member in object.members {
            guard let handler = handlers[member.key] else { continue }
            do { try handler(member.value, &objectValues) } catch {
                stack.append(.key(member.key))
                throw self.error("\(entity.name) (key '\(member.key)')", error.message, hint: nil)
            }
        }
        values = objectValues.values
    }

    /// The object's to-ones, by to-one (nil: absent, keep the stored link). Each is read from
    /// the record's table where `reads` numbers its path's keys in the object's `slot` (an
    /// object found there drafted from its slot), else from the object's tree, and made a link
    /// (`link(for:of:…)`). `key`: the object's, an owned target's owner key; `depth`: the stack at
    /// the object, to which each to-one's read is undone.
    private mutating func toOneLinks(
        of entity: EntityPlan, in object: JSONObject?, slot: Int?, reads: SlotReads?, key: ObjectKey, depth: Int
    ) throws(RecordError) -> [LinkDraft?] {
        var toOne: [LinkDraft?] = []
        toOne.reserveCapacity(entity.toOne.count)
        for (position, relationship) in entity.toOne.enumerated() {
            let member = entity.toOneMembers[position]
            defer { truncate(to: depth) }
            // Read from the table when the object being drafted has a slot and the path is keys:
            // an object found there is drafted from its slot (`valueSlot`) and reads its own
            // attributes from the table too; any other value is made a tree.
            let found: JSONValue?
            var valueSlot: Int?
            if let slot, let reads, let numbers = reads.toOne[position], hasRecordSlots {
                switch try follow(numbers, path: relationship.path, from: slot, member: member) {
                case .absent: found = nil
                case .null: found = .null
                case .found(let memberSlot):
                    if recordSlots.kind(at: memberSlot) == .object {
                        valueSlot = memberSlot
                        // What `ownedLink` and `link` make of an object, without its tree (which
                        // `unkeyed skip` reads for the object's key).
                        if !relationship.skipsUnkeyed {
                            let owner = relationship.ownsTarget ? OwnerPlace(key: key, position: 0) : nil
                            toOne.append(.object(try draft(nil, entity: relationship.target, owner: owner, slot: memberSlot)))
                            continue
                        }
                    }
                    found = recordSlots.value(at: memberSlot)
                }
            } else if relationship.isPlain {
                found = try lookup(relationship.path, in: treeNeeded(object, slot: slot), member: member)
            } else {
                found = try lookup(relationship, in: treeNeeded(object, slot: slot), member: member)
            }
            toOne.append(try link(for: found, of: relationship, member: member, ownerKey: key, slot: valueSlot))
        }
        return toOne
    }

    /// The link a to-one's value `found` makes (nil: absent): null where it is null and may be,
    /// an owned object with its owner's key, an object `unkeyed skip` leaves out as null, else
    /// the object or key it holds (`link`). `slot`: the value's slot in the record's table, when
    /// it is an object that has one.
    private mutating func link(for found: JSONValue?, of relationship: ToOnePlan, member: String, ownerKey key: ObjectKey, slot valueSlot: Int?)
        throws(RecordError) -> LinkDraft?
    {
        switch found {
        case nil: return nil
        case .null?, .string("")?:
            if !relationship.isOptional {
                throw error(member, "is required but the value is null", hint: "declare it optional: `: \(plan.entities[relationship.target].name)?`")
            }
            return .null
        case let value? where relationship.ownsTarget:
            return try ownedLink(value, target: relationship.target, member: member, owner: OwnerPlace(key: key, position: 0), slot: valueSlot)
        case let value?:
            if relationship.skipsUnkeyed, case .object(let nested) = value, let missing = try absentKey(of: nested, entity: relationship.target) {
                skip(member, "an object without its key '\(missing)'")
                return .null
            }
            return try link(value, target: relationship.target, member: member, existingOnly: relationship.linksExistingOnly, slot: valueSlot)
        }
    }

    /// The object's to-manys, by to-many (nil: absent, keep the stored links), and into
    /// `linkValues` the link attributes' values of those that have them. Each is read from the
    /// record's table where `reads` numbers its path's keys in the object's `slot` (an array
    /// found there drafted element by element from its slots), else from the object's tree
    /// (`links(for:of:…)`). `bareValue`: the object's `$`, given back to it before each read.
    private mutating func toManyLinks(
        of entity: EntityPlan, entity index: Int, in object: JSONObject?, slot: Int?, reads: SlotReads?, key: ObjectKey, depth: Int,
        bareValue: JSONValue?, linkValues: inout [[SQLValue]?]?
    ) throws(RecordError) -> [[LinkDraft]?] {
        var toMany: [[LinkDraft]?] = []
        toMany.reserveCapacity(entity.toMany.count)
        for (position, relationship) in entity.toMany.enumerated() {
            let member = entity.toManyMembers[position]
            defer { truncate(to: depth) }
            // `$` is this object's array, which the objects drafted since may have changed.
            if keepsBareValue[index] { self.bareValue = bareValue }
            // Read from the table when the object being drafted has a slot and the path is keys:
            // an array found there gives its elements' slots (an element that is an object is
            // drafted from its slot); any other value is made a tree.
            let found: JSONValue?
            if let slot, let reads, let numbers = reads.toMany[position], hasRecordSlots {
                switch try follow(numbers, path: relationship.path, from: slot, member: member) {
                case .absent: found = nil
                case .null: found = .null
                case .found(let memberSlot):
                    if recordSlots.kind(at: memberSlot) == .array {
                        let count = recordSlots.elementCount(of: memberSlot)
                        try checkSize(ofArray: count, member: member)
                        var linkRows: [SQLValue] = []
                        let links = try elementLinks(
                            count: count, { _ in preconditionFailure("an element of a table's array is read from its slot") },
                            relationship: relationship, member: member, ownerKey: key, linkRows: &linkRows, firstElementSlot: memberSlot + 1)
                        toMany.append(links)
                        if relationship.hasLinkAttributes { setLinkValues(linkRows, at: position, of: entity, in: &linkValues) }
                        continue
                    }
                    found = recordSlots.value(at: memberSlot)
                }
            } else if relationship.isPlain {
                found = try lookup(relationship.path, in: treeNeeded(object, slot: slot), member: member)
            } else {
                found = try lookupFirst(relationship.path, relationship.fallbacks, in: treeNeeded(object, slot: slot), member: member)
            }
            guard let found else {
                toMany.append(nil)
                continue
            }
            var linkRows: [SQLValue] = []
            toMany.append(try links(for: found, of: relationship, member: member, ownerKey: key, linkRows: &linkRows))
            if relationship.hasLinkAttributes { setLinkValues(linkRows, at: position, of: entity, in: &linkValues) }
        }
        return toMany
    }

    /// The object's key, from its key attributes' `values`; a key of one value makes no array.
    /// Refuses an object without one of them (or with it null).
    private func objectKey(of values: [SQLValue?], entity: EntityPlan) throws(RecordError) -> ObjectKey {
        func keyValue(_ keyIndex: Int) throws(RecordError) -> SQLValue {
            if let value = values[keyIndex], value != .null { return value }
            let attribute = entity.attributes[keyIndex]
            // A nested object (the stack holds the path to it) may be one the feed leaves without a key.
            let skip = stack.isEmpty ? "" : ", or add `unkeyed skip` to the relationship to leave objects without it out (counted)"
            throw error(
                "\(entity.name).\(attribute.name)",
                "the object has no '\(attribute.sourceDescription)', the key of \(entity.name)",
                hint: attribute.anchoredKeyHint(entity: entity.name)
                    ?? "every \(entity.name) needs its key; check the map's `key` line and the path `\(attribute.sourceDescription)`" + skip)
        }
        let attributes = entity.keyAttributes
        if attributes.count == 1 { return ObjectKey(try keyValue(attributes[0])) }
        var keyValues: [SQLValue] = []
        keyValues.reserveCapacity(attributes.count)
        for keyIndex in attributes { keyValues.append(try keyValue(keyIndex)) }
        return ObjectKey(values: keyValues)
    }

    /// What the object lacks of the values its entity requires on insert, reported only if it
    /// turns out to be new; nil when it lacks none. Call with `stack` at the object.
    mutating func lackingRequired(_ values: [SQLValue?], entity index: Int) -> LackingRequired? {
        let required = requiredOnInsert[index]
        // Most objects lack none: nothing is allocated for them.
        guard required.contains(where: { values[$0] == nil }) else { return nil }
        recordLacksRequired = true
        return LackingRequired(
            entity: index, attributes: required.filter { values[$0] == nil }, recordIndex: record?.index ?? 0,
            position: record?.position ?? JSONPosition(offset: 0, line: 1, column: 1), path: path(below: []))
    }

    /// The members no attribute or relationship reads (nor a key handler takes), as one JSON object.
    private mutating func unmappedMembers(of object: JSONObject, entity index: Int) -> SQLValue? {
        let entity = plan.entities[index]
        let handled = hooks[index].keyHandlers
        let rest = object.members.filter { !entity.mappedKeys.contains($0.key) && handled?[$0.key] == nil }
        for member in rest { extrasKeys[index][member.key, default: 0] += 1 }
        // A partial object with nothing unmapped keeps what an earlier, fuller one left there.
        return rest.isEmpty ? nil : .text(JSONValue.object(JSONObject(rest)).jsonText)
    }

    /// A nested object or a key value, as a link to an object of `target`. `existingOnly`: a key
    /// links only an object that exists (`link existing`), as does any key into an entity the
    /// run inserts nothing into. `slot`: the object's slot in the record's table, when it has one.
    mutating func link(_ value: JSONValue, target: Int, member: String, existingOnly: Bool, slot: Int? = nil) throws(RecordError)
        -> LinkDraft
    {
        switch value {
        case .object(let object):
            return .object(try draft(object, entity: target, slot: slot))
        case .array where readsArrayValue[target]:
            return .object(try draft(JSONObject([]), entity: target, bareValue: value))
        case .array:
            throw error(
                member, "expected an object or a key of \(plan.entities[target].name), found an array",
                hint: Self.arrayHint(plan.entities[target].name, relationship: true))
        default:
            let entity = plan.entities[target]
            guard entity.keyAttributes.count == 1 else {
                throw error(
                    member, "a single value cannot stand for a \(entity.name): its key has \(entity.keyAttributes.count) parts",
                    hint: "the JSON must hold an object here")
            }
            let attribute = entity.attributes[entity.keyAttributes[0]]
            // Made only for a message: most links are fine.
            func keyMember() -> String { "\(member) (key \(entity.name).\(attribute.name))" }
            let key = try convert(value, for: attribute, member: keyMember())
            if key == .null {
                throw error(member, "the key value is null", hint: nil)
            }
            if let failure = attribute.failedCheck(key) { throw error(keyMember(), failure, hint: nil, value: key) }
            let link: LinkDraft
            if existingOnly || !insertsNew[target] {
                let origin = LinkOrigin(member: member, recordIndex: record?.index ?? 0, path: path(below: []))
                link = .existing(entity: target, key: ObjectKey(key), origin: origin)
            } else {
                link = .reference(entity: target, key: ObjectKey(key))
            }
            if walk != nil { noteWalked(link) }
            return link
        }
    }

    /// Keeps an element `unkeyed skip` left out, to count once the record is written.
    mutating func noteSkipped(_ element: SkippedElement) { skipped.append(element) }

    /// The path from the document's root to the value the stack leads to, as text.
    var currentPath: String { path(below: []).description }

    /// The error at the value `stack` leads to, and `below` it the steps not pushed.
    func error(_ member: String?, _ message: String, hint: String?, value: SQLValue? = nil, below: ArraySlice<PathStep> = []) -> RecordError {
        let path = path(below: below)
        var text = message
        if let value { text += " (value: \(value.shown))" }
        return RecordError(
            recordIndex: record?.index ?? 0, position: record?.position ?? JSONPosition(offset: 0, line: 1, column: 1),
            path: path.description, member: member, message: text, hint: hint)
    }
}

extension DraftBuilder {
    /// The path from the document's root to the value `stack` leads to, and `below` it.
    fileprivate func path(below: ArraySlice<PathStep>) -> JSONPathPattern {
        let base = record?.path ?? .root
        guard tracksParents || readsRoot else { return base.appending(stack + below) }
        return base.following(Array(stack + below), objectDepths: parents.map(\.depth), rootPaths: plan.rootCapturePaths)
    }
}

extension DraftBuilder {
    /// The hint for an array where an object of `entity` is expected: a to-many reading `$`
    /// makes an array an object of it (the sample check says the same). `relationship`: the
    /// array is a relationship's value (a to-one's may be a to-many's instead).
    static func arrayHint(_ entity: String, relationship: Bool = false) -> String {
        "an array is an object of \(entity) when a to-many of \(entity) reads its elements through `$` (`items <- $ : [Item]`), "
            + "with its other values from `$key`, `$index`, `@parent` or `@root`"
            + (relationship ? "; a to-one's array is read by a to-many `: [\(entity)]` instead, one object per element" : "")
    }
}

extension JSONValue {
    /// Whether the value is an array.
    var isArray: Bool {
        if case .array = self { true } else { false }
    }
}

extension JSONPathPattern {
    /// This path followed by `steps`.
    func appending<Steps: Sequence<PathStep>>(_ steps: Steps) -> JSONPathPattern {
        var path = self
        for step in steps {
            switch step {
            case .key(let key): path.components.append(.key(key))
            case .index(let index): path.components.append(.index(index))
            case .memberName, .elementIndex: break
            case .parent: path.components.append(.key("@parent"))
            case .root: path = JSONPathPattern([.key("@root")])
            }
        }
        return path
    }
}

extension [PathStep] {
    /// The steps as a map writes them (`data`, `a.b[0]`).
    var text: String {
        var out = ""
        for step in self {
            switch step {
            case .key(let key): out += out.isEmpty ? key : "." + key
            case .index(let index): out += "[\(index)]"
            case .memberName: out += out.isEmpty ? "$key" : ".$key"
            case .elementIndex: out += "$index"
            case .parent: out += out.isEmpty ? "@parent" : ".@parent"
            case .root: out += "@root"
            }
        }
        return out.isEmpty ? "$" : out
    }
}

extension SQLValue {
    /// The value as shown in messages: text quoted and cut, numbers as written.
    var shown: String {
        switch self {
        case .null: "null"
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): MessageText.quoted(text)
        case .blob(let bytes): "\(bytes.count) bytes"
        }
    }
}
