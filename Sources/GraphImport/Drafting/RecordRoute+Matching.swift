import GraphImportJSON
import GraphImportMapping

extension RecordRoute.Case {
    /// Whether a discriminator's JSON value selects this case: the same kind and the same value
    /// (an integer case matches a number only when it is exactly that integer).
    /// The `else` case matches no value by name.
    func matches(_ value: JSONValue) -> Bool {
        guard let expected = self.value else { return false }
        return value.equals(expected)
    }

    /// The case of `cases` that names `value`, else the `else` case, if the map has one.
    static func chosen(for value: JSONValue, among cases: [Self]) -> Self? {
        cases.first { $0.matches(value) } ?? cases.first { $0.value == nil }
    }
}

extension [RecordRoute] {
    /// The index of the route that takes a record matched by pattern `index`: that pattern's
    /// route when its `where` holds (or it has none), else the first later route of the same
    /// path whose `where` holds; nil when none takes it (the record is passed over), or when the
    /// record stands for no object (`null` at the end of a path that names a key: `RecordRoute.nullIsNoRecord`).
    func route(taking record: JSONValue, matchedBy index: Int) -> Int? {
        switch record {
        case .null where self[index].nullIsNoRecord: return nil
        case .string("") where self[index].emptyTextIsNoRecord: return nil
        default: break
        }
        guard let filter = self[index].filter, !filter.takes(record) else { return index }
        return self[index].alternatives.first { self[$0].filter?.takes(record) ?? true }
    }
}

extension [RecordRoute] {
    /// `route(taking:matchedBy:)` for a record read into `slots` (its value the table's root),
    /// and the record's value made a tree when choosing needed it (a `where`, or a value that is
    /// not an object, which may stand for no record), so that drafting does not make it again;
    /// nil when choosing read no tree.
    func route(takingRecordIn slots: JSONSlots, matchedBy index: Int) -> (route: Int?, tree: JSONValue?) {
        // An object is neither null nor "": without a `where` its pattern's route takes it.
        if slots.kind(at: slots.root) == .object && self[index].filter == nil { return (index, nil) }
        let tree = slots.value(at: slots.root)
        return (route(taking: tree, matchedBy: index), tree)
    }
}
