import GraphImportJSON

/// The reads of a map's paths in the object being drafted: keys, indexes, `@parent`, `@root`,
/// `$key`, `$index`, fallbacks and a to-one's `where`. Most reads of the record's values go
/// through here; key handlers, `extras` and a to-many's elements read an object's members directly.
extension DraftBuilder {
    /// Follows `path` from `object`, pushing each step taken (unless `push` is false); nil when a
    /// key or index is absent. A null on the way makes the value null, and so does an empty
    /// string: many services send `""` for "no object" (Reddit's `replies`). Any other
    /// non-container on the way is an error.
    mutating func lookup(_ path: [PathStep], in object: JSONObject, member: String?, push: Bool = true) throws(RecordError) -> JSONValue? {
        // Most paths are one key: answered without wrapping the object as a value to walk from.
        if path.count == 1, case .key(let key) = path[0] {
            guard let value = object[key] else { return nil }
            if push { stack.append(path[0]) }
            return value
        }
        if path.isEmpty, let bareValue { return bareValue }
        var current = JSONValue.object(object)
        for (taken, step) in path.enumerated() {
            switch (step, current) {
            case (_, .null), (_, .string("")):
                return .null
            case (.key(let key), .object(let container)):
                guard let next = container[key] else { return nil }
                current = next
            case (.index(let index), .array(let elements)):
                guard index < elements.count else { return nil }
                current = elements[index]
            case (.key(let key), _):
                throw error(member, "expected an object with the key '\(key)', found \(current.kindName)", hint: nil, below: unpushed(path, taken, push))
            case (.index(let index), _):
                throw error(
                    member, "expected an array to take element [\(index)] of, found \(current.kindName)", hint: nil, below: unpushed(path, taken, push))
            case (.memberName, _):
                // `@parent.$key`: the member name of the object the `@parent` steps reached.
                if taken > 0 {
                    let level = parents.count - 1 - taken
                    return level >= 0 ? parents[level].memberName.map { .string($0) } : nil
                }
                return memberName.map { .string($0) }
            case (.elementIndex, _):
                return elementIndex.map { .number(JSONNumber(literal: String($0))) }
            case (.parent, _):
                // Leading steps only: the object being drafted is `parents.last`.
                let level = parents.count - 2 - taken
                guard level >= 0 else { return nil }
                current = .object(parents[level].object)
            case (.root(let index), _):
                guard let value = rootValues[index] else { return nil }
                current = value
            }
            if push { stack.append(step) }
        }
        return current
    }

    /// The steps of `path` before step `taken`, for a message, when `lookup` did not push them
    /// (taken only when there is an error: a slice for every step cost a retain and a release).
    func unpushed(_ path: [PathStep], _ taken: Int, _ pushed: Bool) -> ArraySlice<PathStep> {
        pushed ? [] : path[..<taken]
    }

    /// `<- a, b`: the first path that holds a value other than null, else the first that holds
    /// null, else nil (no path is there). `taken` is set to the path read: -1 for `first`, else an
    /// index into `fallbacks`. Nothing is pushed.
    mutating func lookupFirst(
        _ first: [PathStep], _ fallbacks: [[PathStep]], in object: JSONObject, member: String, taken: inout Int
    ) throws(RecordError) -> JSONValue? {
        var null: Int?
        for index in -1..<fallbacks.count {
            switch try lookup(index < 0 ? first : fallbacks[index], in: object, member: member, push: false) {
            case nil: continue
            case .null?: if null == nil { null = index }
            case let value?:
                taken = index
                return value
            }
        }
        guard let null else { return nil }
        taken = null
        return .null
    }

    /// A relationship's `lookupFirst`, pushing the path it read.
    mutating func lookupFirst(_ first: [PathStep], _ fallbacks: [[PathStep]], in object: JSONObject, member: String)
        throws(RecordError) -> JSONValue?
    {
        var taken = -1
        guard let found = try lookupFirst(first, fallbacks, in: object, member: member, taken: &taken) else { return nil }
        stack.append(contentsOf: taken < 0 ? first : fallbacks[taken])
        return found
    }

    /// A to-one read through its fallbacks and its `where`, pushing the steps taken.
    mutating func lookup(_ relationship: ToOnePlan, in object: JSONObject, member: String) throws(RecordError) -> JSONValue? {
        let found = try lookupFirst(relationship.path, relationship.fallbacks, in: object, member: member)
        guard let filter = relationship.filter, let found else { return found }
        return try pick(found, filter, of: relationship, member: member)
    }

    /// A to-one's `where`: the value if it holds, of an array the first element it holds for
    /// (its index pushed), else null; then its `each` path. A required to-one with none is an error.
    mutating func pick(_ value: JSONValue, _ filter: FilterPlan, of relationship: ToOnePlan, member: String) throws(RecordError)
        -> JSONValue
    {
        let picked = filter.pick(value)
        if let index = picked.index { stack.append(.index(index)) }
        if case .null = picked.value {
            if case .null = value {
            } else if !relationship.isOptional {
                throw error(
                    member, "nothing here holds for `where \(filter.description)`",
                    hint: "declare it optional: `: \(plan.entities[relationship.target].name)?`")
            }
            return .null
        }
        guard !relationship.elementPath.isEmpty else { return picked.value }
        guard case .object(let wrapper) = picked.value, let inner = try lookup(relationship.elementPath, in: wrapper, member: member) else {
            throw error(member, "expected an object with '\(relationship.elementPath.text)', found \(picked.value.kindName)", hint: nil)
        }
        return inner
    }

    /// Undoes what `lookup` pushed (it stops early when a key is absent).
    mutating func truncate(to depth: Int) {
        // One by one: removing a range went through the general replaceSubrange.
        while stack.count > depth { stack.removeLast() }
    }
}
