extension EntityPlan {
    /// Whether an attribute reads `$` or `$key`: then a string, number or boolean where an
    /// object of this entity is expected (a record, a member taken by `{*}`) is that object,
    /// read through `$`, with every other path absent.
    var readsBareValue: Bool {
        attributes.contains { $0.path == [] || $0.path == [.memberName] }
    }

    /// Whether an attribute reads `$index`: then each object's draft is told its position.
    var readsElementIndex: Bool {
        attributes.contains { $0.path == [.elementIndex] }
    }
}
