import GraphImportJSON
import GraphImportMapping
import GraphImportSchema

/// Walks each record of a sample through the plan as an import drafts it (routes, nested objects,
/// to-many elements, key links) and counts, for every member, where the sample fits and where it
/// does not. Values are converted and checked by the attribute's own code (`AttributePlan.sqlValue`,
/// `failedCheck`), so what fails here is what would fail an import.
///
/// A class: a failure's details are made in a closure, only for the first failure of a kind,
/// while the member's counts are being changed.
final class SampleWalker {
    let plan: ImportPlan
    /// Objects of each entity walked (links by key are not objects).
    private(set) var objects: [Int]
    private(set) var attributes: [[MemberTally]]
    private(set) var toOne: [[MemberTally]]
    private(set) var toMany: [[MemberTally]]
    /// Per entity, to-many and link attribute (`SampleWalker+Links.swift`).
    var links: [[[MemberTally]]]
    /// Per entity and polymorphic relationship: its elements' cases (`SampleWalker+Polymorphic.swift`).
    var polymorphic: [[MemberTally]]
    private(set) var routes: [RouteTally]
    /// Elements relationships with `unkeyed skip` would leave out, counted as an import counts them.
    private(set) var skippedElements: [SkippedElements] = []
    private var record: JSONRecord?
    /// Steps below the record to the object being walked, made text only for a first failure.
    private var stack: [PathStep] = []
    /// What `$key` and `$` read in the object being walked (see `DraftBuilder`).
    private var memberName: String?
    private var bareValue: JSONValue?
    /// The member name of the current record, when its route takes records with `{*}`.
    private var recordMemberName: String?
    /// The current record's objects that lack a required attribute, reported when the record ends
    /// unless an object of the same entity and key in the record holds it: an import accepts an
    /// id-only reference (`{"activity": {"id": 12}}`) inside the record that carries the full object.
    private var lacking: [(entity: Int, position: Int, key: [SQLValue]?, failure: SampleFailure)] = []
    /// The required attributes the current record's objects hold, by entity, attribute and key.
    private var holding = Set<HeldAttribute>()

    struct HeldAttribute: Hashable {
        let entity: Int
        let position: Int
        let key: [SQLValue]
    }

    /// What `$index` reads in the object being walked, and the current record's position in its array.
    private var elementIndex: Int?
    private var recordElementIndex: Int?
    /// The objects being walked, outermost first: what `@parent` reads (see `DraftBuilder`).
    private var parents: [(object: JSONObject, depth: Int, memberName: String?)] = []
    /// The response's values `@root` reads for the current record, by capture index.
    var rootValues: [Int: JSONValue] = [:]
    /// Per capture index of a `@root` path, the documents where a record found no value at it.
    private(set) var rootMisses: [Int: Set<Int>] = [:]

    init(plan: ImportPlan) {
        self.plan = plan
        objects = Array(repeating: 0, count: plan.entities.count)
        attributes = plan.entities.map { Array(repeating: MemberTally(), count: $0.attributes.count) }
        toOne = plan.entities.map { Array(repeating: MemberTally(), count: $0.toOne.count) }
        toMany = plan.entities.map { Array(repeating: MemberTally(), count: $0.toMany.count) }
        links = plan.entities.map { $0.toMany.map { Array(repeating: MemberTally(), count: $0.linkAttributes.count) } }
        polymorphic = plan.entities.map { Array(repeating: MemberTally(), count: $0.polymorphic.count) }
        routes = Array(repeating: RouteTally(), count: plan.routes.count)
    }

    /// Counts one record matched by records path `record.patternIndex`.
    func tally(_ record: JSONRecord) {
        self.record = record
        defer { reportLacking() }
        stack.removeAll(keepingCapacity: true)
        // A record no `where` of its path takes is passed over, as an import passes it over.
        guard let route = plan.routes.route(taking: record.value, matchedBy: record.patternIndex) else {
            routes[record.patternIndex].records += 1
            routes[record.patternIndex].ignored += 1
            return
        }
        memberName = nil
        bareValue = nil
        recordMemberName = nil
        elementIndex = nil
        recordElementIndex = plan.routes[route].elementIndex(of: record)
        if let depth = plan.routes[route].memberNameDepth, depth < record.path.components.count,
            case .key(let name) = record.path.components[depth]
        {
            recordMemberName = name
        }
        routes[route].records += 1
        switch plan.routes[route].target {
        case .entity(let entity):
            tallyRoot(record.value, entity: entity, route: route)
        case .choice(let discriminator, let description, let cases):
            guard case .object(let object) = record.value else {
                routes[route].fail(.shape) { failure("expected an object with '\(description)', found \(record.value.kindName)") }
                return
            }
            let found: JSONValue?
            if case .value(let value) = reach(discriminator, in: object) { found = value } else { found = nil }
            guard let found, let chosen = RecordRoute.Case.chosen(for: found, among: cases) else {
                let shown = found.map { Value.json($0).shown ?? $0.kindName } ?? "nothing"
                if !routes[route].unmatched.contains(shown), routes[route].unmatched.count < RouteTally.maxUnmatched {
                    routes[route].unmatched.append(shown)
                }
                routes[route].fail(.conversion) { failure("no rule of the map for \(description) = \(shown)") }
                return
            }
            guard let entity = chosen.entity else {
                routes[route].ignored += 1
                return
            }
            guard case .value(let inner) = reach(chosen.subpath, in: object) else {
                routes[route].fail(.shape) { failure("the record has nothing at '\(chosen.subpath.text)' for \(plan.entities[entity].name)") }
                return
            }
            stack.append(contentsOf: chosen.subpath)
            tallyRoot(inner, entity: entity, route: route)
        }
    }

    private func tallyRoot(_ value: JSONValue, entity: Int, route: Int) {
        guard case .object(let object) = value else {
            let isBare =
                switch value {
                case .string, .number, .bool: true
                default: false
                }
            if isBare ? plan.entities[entity].readsBareValue : plan.entities[entity].readsArrayValue && value.isArray {
                return walk(JSONObject([]), entity: entity, memberName: recordMemberName, bareValue: value, elementIndex: recordElementIndex)
            }
            let name = plan.entities[entity].name
            routes[route].fail(.shape) {
                failure("expected an object for \(name), found \(value.kindName)", hint: value.isArray ? DraftBuilder.arrayHint(name) : nil)
            }
            return
        }
        walk(object, entity: entity, memberName: recordMemberName, elementIndex: recordElementIndex)
    }

    /// Counts every member of `object`, an object of `entity`, and walks the objects nested in it.
    private func walk(_ object: JSONObject, entity index: Int, memberName: String? = nil, bareValue: JSONValue? = nil, elementIndex: Int? = nil) {
        self.memberName = memberName
        self.bareValue = bareValue
        self.elementIndex = elementIndex
        parents.append((object, stack.count, memberName))
        defer { parents.removeLast() }
        let entity = plan.entities[index]
        objects[index] += 1
        var key: [SQLValue]??
        for (position, attribute) in entity.attributes.enumerated() {
            guard attribute.path != nil else { continue }
            let isKey = entity.keyAttributes.contains(position)
            let lacks = tallyAttribute(attribute, isKey: isKey, entity: index, position: position, in: object)
            guard !isKey, attribute.onMissing == .requiredOnInsert else { continue }
            if key == nil { key = objectKey(object, entity: index) }
            if let lacks {
                lacking.append((index, position, key ?? nil, lacks))
            } else if let held = key ?? nil {
                holding.insert(HeldAttribute(entity: index, position: position, key: held))
            }
        }
        if !entity.polymorphic.isEmpty { tallyChoices(in: object, entity: index) }
        let depth = stack.count
        for (position, relationship) in entity.toOne.enumerated() {
            defer { stack.removeLast(stack.count - depth) }
            let (found, path) = reach(relationship.path, relationship.fallbacks, in: object)
            switch found {
            case .absent(let key, let missDepth, let beside):
                toOne[index][position].noteMiss(key: key, depth: missDepth, beside: beside)
            case .blocked(let message):
                toOne[index][position].present += 1
                toOne[index][position].fail(.shape) { failure(message, below: path) }
            case .value(let present):
                toOne[index][position].present += 1
                stack.append(contentsOf: path)
                var value = present
                if let filter = relationship.filter {
                    let picked = filter.pick(present)
                    if let element = picked.index { stack.append(.index(element)) }
                    value = picked.value
                    if case .null = value, !relationship.isOptional, present != .null {
                        toOne[index][position].fail(.shape) {
                            failure(
                                "nothing here holds for `where \(filter.description)`",
                                hint: "declare it optional: `: \(plan.entities[relationship.target].name)?`")
                        }
                        continue
                    }
                    if !relationship.elementPath.isEmpty, value != .null {
                        guard case .object(let wrapper) = value, case .value(let inner) = reach(relationship.elementPath, in: wrapper) else {
                            toOne[index][position].fail(.shape) {
                                failure("expected an object with '\(relationship.elementPath.text)', found \(value.kindName)")
                            }
                            continue
                        }
                        value = inner
                    }
                }
                switch value {
                case .null, .string(""):
                    toOne[index][position].nulls += 1
                    if !relationship.isOptional {
                        toOne[index][position].fail(.refusedNull) {
                            failure("is required but the value is null", hint: "declare it optional: `: \(plan.entities[relationship.target].name)?`")
                        }
                    }
                case .object(let nested) where relationship.skipsUnkeyed && lacksKey(nested, entity: relationship.target) != nil:
                    skip(entity.toOneMembers[position], "an object without its key '\(lacksKey(nested, entity: relationship.target)!)'")
                default:
                    toOne[index][position].tried += 1
                    if let problem = link(value, target: relationship.target) {
                        toOne[index][position].fail(problem.kind) { failure(problem.message, hint: problem.hint) }
                    }
                }
            }
        }
        for (position, relationship) in entity.toMany.enumerated() {
            defer { stack.removeLast(stack.count - depth) }
            // `$` is this object's array, which the objects walked since may have changed.
            self.bareValue = bareValue
            let (found, path) = reach(relationship.path, relationship.fallbacks, in: object)
            switch found {
            case .absent(let key, let missDepth, let beside):
                toMany[index][position].noteMiss(key: key, depth: missDepth, beside: beside)
            case .blocked(let message):
                toMany[index][position].present += 1
                toMany[index][position].fail(.shape) { failure(message, below: path) }
            case .value(let value):
                toMany[index][position].present += 1
                stack.append(contentsOf: path)
                switch value {
                case .null, .string(""):
                    toMany[index][position].nulls += 1
                case .object(let members) where relationship.isKeyed:
                    // The members are the elements: the same `where` as over an array.
                    for element in members.members {
                        if let filter = relationship.filter, !filter.takes(element.value) { continue }
                        stack.append(.key(element.key))
                        tallyElement(element.value, of: relationship, entity: index, position: position, memberName: element.key)
                        stack.removeLast()
                    }
                case .array where relationship.isKeyed:
                    toMany[index][position].fail(.shape) {
                        failure(
                            "expected an object whose members are the elements ('\(relationship.sourceDescription)'), found an array",
                            hint: "`{*}` takes the members of an object; for an array, drop `{*}` from the path")
                    }
                case .array(let elements):
                    for (offset, element) in elements.enumerated() {
                        if let filter = relationship.filter, !filter.takes(element) { continue }
                        stack.append(.index(offset))
                        tallyElement(element, of: relationship, entity: index, position: position, elementIndex: offset)
                        stack.removeLast()
                    }
                default:
                    toMany[index][position].fail(.shape) {
                        failure("expected an array for the to-many '\(relationship.name)', found \(value.kindName)")
                    }
                }
            }
        }
    }

    /// The key of `object`, an object of `entity`, as an import converts it; nil when a part is
    /// absent, null or does not convert.
    private func objectKey(_ object: JSONObject, entity index: Int) -> [SQLValue]? {
        let entity = plan.entities[index]
        var values: [SQLValue] = []
        for keyIndex in entity.keyAttributes {
            let attribute = entity.attributes[keyIndex]
            guard let path = attribute.path, case .value(let raw) = reach(path, attribute.fallbacks, in: object).reach,
                let value = try? attribute.sqlValue(raw), value != .null
            else { return nil }
            values.append(value)
        }
        return values
    }

    /// Counts the current record's objects that lack a required attribute no object of the same
    /// key in the record holds, and starts the next record afresh.
    private func reportLacking() {
        for lack in lacking {
            if let key = lack.key, holding.contains(HeldAttribute(entity: lack.entity, position: lack.position, key: key)) { continue }
            attributes[lack.entity][lack.position].fail(.lacksRequired) { lack.failure }
        }
        lacking.removeAll(keepingCapacity: true)
        holding.removeAll(keepingCapacity: true)
    }

    /// Counts one attribute of an object; returns the failure to count when the object has no
    /// value for a required attribute (counted at the record's end, see `lacking`).
    @discardableResult
    private func tallyAttribute(_ attribute: AttributePlan, isKey: Bool, entity: Int, position: Int, in object: JSONObject) -> SampleFailure? {
        let name = plan.entities[entity].name
        let raw: JSONValue
        guard let first = attribute.path else { return nil }
        let (found, path) = reach(first, attribute.fallbacks, in: object)
        switch found {
        case .absent(let key, let depth, let beside):
            attributes[entity][position].noteMiss(key: key, depth: depth, beside: beside)
            if isKey {
                attributes[entity][position].fail(.missingKey) {
                    failure("the object has no '\(attribute.sourceDescription)', the key of \(name)", below: path)
                }
            } else if attribute.onMissing == .requiredOnInsert {
                return failure(
                    "no '\(attribute.sourceDescription)'",
                    hint: "an import refuses such an object if it is new (not yet stored): "
                        + "make the attribute optional (`: \(attribute.type.rawValue)?`) if objects without it can be new, "
                        + "or give it a `default` or a `missing` rule", below: path)
            }
            return nil
        case .blocked(let message):
            attributes[entity][position].present += 1
            attributes[entity][position].fail(.shape) { failure(message, below: path) }
            return nil
        case .value(let value):
            raw = value
        }
        attributes[entity][position].present += 1
        if case .null = raw {
        } else {
            attributes[entity][position].tried += 1
        }
        let value: SQLValue
        do throws(ConversionError) {
            value = try attribute.sqlValue(raw)
        } catch {
            attributes[entity][position].fail(.conversion) { failure(error.message, hint: error.hint, below: path) }
            return nil
        }
        if value == .null {
            attributes[entity][position].nulls += 1
            if isKey {
                attributes[entity][position].fail(.missingKey) { failure("the key of \(name) is null", below: path) }
            } else if attribute.refusesNull {
                attributes[entity][position].fail(.refusedNull) {
                    failure("is required but the value is null", hint: "declare it optional: `: \(attribute.type.rawValue)?`", below: path)
                }
            }
        } else if let message = attribute.failedCheck(value) {
            attributes[entity][position].fail(.check) { failure("\(message) (value: \(value.shown))", below: path) }
        }
        return nil
    }

    /// One element of a to-many's array: through `each`, then a nested object or a key.
    private func tallyElement(
        _ element: JSONValue, of relationship: ToManyPlan, entity: Int, position: Int, memberName: String? = nil, elementIndex: Int? = nil
    ) {
        toMany[entity][position].tried += 1
        // Under `unkeyed skip`, only once the element is known to be kept: an import reads no link values of one it leaves out.
        if relationship.hasLinkAttributes && !relationship.skipsUnkeyed { tallyLinks(element, of: relationship, entity: entity, position: position) }
        var target = element
        if !relationship.elementPath.isEmpty {
            guard case .object(let wrapper) = element, case .value(let inner) = reach(relationship.elementPath, in: wrapper) else {
                if relationship.skipsUnkeyed, element.isObjectOrNull {
                    return skip(plan.entities[entity].toManyMembers[position], "an element without '\(relationship.elementPath.text)'")
                }
                toMany[entity][position].fail(.shape) {
                    failure("expected an object with '\(relationship.elementPath.text)' in each element, found \(element.kindName)")
                }
                return
            }
            target = inner
        }
        if relationship.skipsUnkeyed {
            let member = plan.entities[entity].toManyMembers[position]
            if case .null = target { return skip(member, "a null element") }
            if case .object(let object) = target, let key = lacksKey(object, entity: relationship.target) {
                return skip(member, "an object without its key '\(key)'")
            }
            if relationship.hasLinkAttributes { tallyLinks(element, of: relationship, entity: entity, position: position) }
        }
        if case .null = target {
            toMany[entity][position].nulls += 1
            toMany[entity][position].fail(.refusedNull) { failure("an element of the array is null") }
            return
        }
        if let memberName, plan.entities[relationship.target].readsBareValue {
            switch target {
            case .object(let object): return walk(object, entity: relationship.target, memberName: memberName)
            case .string, .number, .bool: return walk(JSONObject([]), entity: relationship.target, memberName: memberName, bareValue: target)
            default: break
            }
        }
        if case .array = target, plan.entities[relationship.target].readsArrayValue {
            return walk(JSONObject([]), entity: relationship.target, memberName: memberName, bareValue: target, elementIndex: elementIndex)
        }
        if let elementIndex, case .object(let object) = target, plan.entities[relationship.target].readsElementIndex {
            return walk(object, entity: relationship.target, elementIndex: elementIndex)
        }
        if let problem = link(target, target: relationship.target) {
            toMany[entity][position].fail(problem.kind) { failure(problem.message, hint: problem.hint) }
        }
    }

    /// The path of the first key attribute of `target` that `object` lacks (absent or null), as an
    /// import's `unkeyed skip` tests it; nil when it has them all.
    private func lacksKey(_ object: JSONObject, entity target: Int) -> String? {
        let entity = plan.entities[target]
        if entity.readsBareValue { return nil }
        for keyIndex in entity.keyAttributes {
            let attribute = entity.attributes[keyIndex]
            // `$index` is the element's position, which every element has.
            guard let path = attribute.path, path != [.elementIndex] else { continue }
            switch reach(path, attribute.fallbacks, in: object).reach {
            case .absent:
                if case .value = attribute.onMissing { continue }
                return attribute.sourceDescription
            case .value(.null): return attribute.sourceDescription
            default: continue
            }
        }
        return nil
    }

    /// Counts an element `unkeyed skip` would leave out, at the top of `stack`.
    private func skip(_ member: String, _ reason: String) {
        skippedElements.add([SkippedElement(member: member, reason: reason, path: failure("").path)])
    }

    /// A nested object (walked as `target`) or a key value of `target`; what is wrong with it, or nil.
    private func link(_ value: JSONValue, target: Int) -> (kind: SampleProblem, message: String, hint: String?)? {
        let entity = plan.entities[target]
        switch value {
        case .object(let object):
            walk(object, entity: target)
            return nil
        case _ where entity.isOwned:
            let refusal = OwnerPlace.notAnObject(value, entity: entity.name)
            return (.shape, refusal.message, refusal.hint)
        case .array where entity.readsArrayValue:
            walk(JSONObject([]), entity: target, bareValue: value)
            return nil
        case .array:
            return (.shape, "expected an object or a key of \(entity.name), found an array", DraftBuilder.arrayHint(entity.name, relationship: true))
        default:
            guard entity.keyAttributes.count == 1 else {
                return (
                    .shape, "a single value cannot stand for a \(entity.name): its key has \(entity.keyAttributes.count) parts",
                    "the JSON must hold an object here"
                )
            }
            let attribute = entity.attributes[entity.keyAttributes[0]]
            let key: SQLValue
            do throws(ConversionError) {
                key = try attribute.sqlValue(value)
            } catch {
                return (.conversion, "as the key \(entity.name).\(attribute.name): \(error.message)", error.hint)
            }
            if key == .null { return (.missingKey, "the key value is null", nil) }
            if let message = attribute.failedCheck(key) {
                return (.check, "as the key \(entity.name).\(attribute.name): \(message) (value: \(key.shown))", nil)
            }
            return nil
        }
    }

    /// Where a path leads inside an object, as an import's lookup reads it.
    enum Reach {
        /// A value; null when a null or "" stands on the way (as many services send for "no object").
        case value(JSONValue)
        /// A key (nil: an index) is absent at `depth` of the path, in `beside` (nil: an array).
        case absent(key: String?, depth: Int, beside: JSONObject?)
        /// A scalar or the wrong container stands on the way.
        case blocked(String)
    }

    /// `<- a, b` as an import reads it: the first path with a value other than null, else the
    /// first with null; a path blocked on the way fails there; absent (as the first path misses)
    /// when no path is there. Returns the path taken.
    func reach(_ first: [PathStep], _ fallbacks: [[PathStep]], in object: JSONObject) -> (reach: Reach, path: [PathStep]) {
        guard !fallbacks.isEmpty else { return (reach(first, in: object), first) }
        var firstMiss: Reach?
        var nullPath: [PathStep]?
        for index in -1..<fallbacks.count {
            let path = index < 0 ? first : fallbacks[index]
            let found = reach(path, in: object)
            switch found {
            case .absent: if firstMiss == nil { firstMiss = found }
            case .blocked: return (found, path)
            case .value(.null): if nullPath == nil { nullPath = path }
            case .value: return (found, path)
            }
        }
        if let nullPath { return (.value(.null), nullPath) }
        return (firstMiss ?? reach(first, in: object), first)
    }

    func reach(_ path: [PathStep], in object: JSONObject) -> Reach {
        if path.isEmpty, let bareValue { return .value(bareValue) }
        if case .memberName? = path.first {
            return memberName.map { .value(.string($0)) } ?? .absent(key: "$key", depth: 0, beside: object)
        }
        if case .elementIndex? = path.first {
            return elementIndex.map { .value(.number(JSONNumber(literal: String($0)))) } ?? .absent(key: "$index", depth: 0, beside: object)
        }
        var current = JSONValue.object(object)
        for (depth, step) in path.enumerated() {
            switch (step, current) {
            case (_, .null), (_, .string("")):
                return .value(.null)
            case (.key(let key), .object(let container)):
                guard let next = container[key] else { return .absent(key: key, depth: depth, beside: container) }
                current = next
            case (.index(let index), .array(let elements)):
                guard index < elements.count else { return .absent(key: nil, depth: depth, beside: nil) }
                current = elements[index]
            case (.key(let key), _):
                return .blocked("expected an object with the key '\(key)', found \(current.kindName)")
            case (.index(let index), _):
                return .blocked("expected an array to take element [\(index)] of, found \(current.kindName)")
            case (.memberName, _):
                // `@parent.$key`: the member name of the object the `@parent` steps reached.
                guard depth > 0 else { return .blocked("`$key` stands only as a whole path") }
                let level = parents.count - 1 - depth
                guard level >= 0, let name = parents[level].memberName else { return .absent(key: "$key", depth: depth, beside: nil) }
                return .value(.string(name))
            case (.elementIndex, _):
                return .blocked("`$index` stands only as a whole path")
            case (.parent, _):
                let level = parents.count - 2 - depth
                guard level >= 0 else { return .absent(key: nil, depth: depth, beside: nil) }
                current = .object(parents[level].object)
            case (.root(let index), _):
                guard let value = rootValues[index] else {
                    rootMisses[index, default: []].insert(record?.documentIndex ?? 0)
                    return .absent(key: nil, depth: depth, beside: nil)
                }
                current = value
            }
        }
        return .value(current)
    }

    /// The details of a first failure at the top of `stack`, `below` it the steps not pushed.
    func failure(_ message: String, hint: String? = nil, below: [PathStep] = []) -> SampleFailure {
        let path = (record?.path ?? .root).following(stack + below, objectDepths: parents.map(\.depth), rootPaths: plan.rootCapturePaths)
        return SampleFailure(
            message: message, hint: hint, record: record?.index ?? 0,
            position: record?.position ?? JSONPosition(offset: 0, line: 1, column: 1), path: path.description)
    }
}
