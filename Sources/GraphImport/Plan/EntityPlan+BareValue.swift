extension EntityPlan {
    /// Whether an attribute reads `$` or `$key`, as its path or a fallback (`id <- id, $key`):
    /// then a string, number or boolean where an object of this entity is expected (a record, a
    /// member taken by `{*}`) is that object, read through `$`, with every other path absent.
    var readsBareValue: Bool {
        attributes.contains { $0.reads { $0 == [] || $0 == [.memberName] } }
    }

    /// Whether an attribute reads `$` itself (not `$key`), as its path or a fallback.
    var readsItsValue: Bool {
        attributes.contains { $0.reads { $0 == [] } }
    }

    /// Whether a to-many reads `$`, as its path or a fallback (`files <- $ : [File]`): then an
    /// array where an object of this entity is expected (a record, a member taken by `{*}`, an
    /// element, a to-one's value) is that object, whose `$` is the array and whose every other
    /// path is absent; the to-many takes the array's elements.
    var readsArrayValue: Bool {
        toMany.contains { $0.path.isEmpty || $0.fallbacks.contains(where: \.isEmpty) }
    }

    /// Whether an object of this entity is told what `$` and `$key` read in it: one that reads a
    /// bare value or an array through `$`.
    var keepsBareValue: Bool { readsBareValue || readsArrayValue }

    /// Whether an attribute reads `$index`, as its path or a fallback: then each object's draft is told its position.
    var readsElementIndex: Bool {
        attributes.contains { $0.reads { $0 == [.elementIndex] } }
    }
}

extension AttributePlan {
    /// Whether its path or one of its fallback paths is one that `test` holds for.
    func reads(_ test: ([PathStep]) -> Bool) -> Bool {
        path.map(test) == true || fallbacks.contains(where: test)
    }
}
