import GraphImportSchema

/// What a run inserts and changes, object by object: the first `limit` objects of each entity
/// with their keys and changed fields (old -> new), the others only counted. Made only when the
/// caller asks (`ImportOptions.changeLimit`); a writer without one does no work for it.
///
/// A field is shown with the value stored before the run and the run's last one: a value that
/// ends the run as it was stored (changed and put back by a later record) is no change, and an
/// object left with no changed field is not shown.
final class ChangeLog {
    /// How many objects of each entity are shown in full.
    let limit: Int
    private var shown: [[ObjectKey: Int]]
    private var objects: [[LoggedObject]]
    /// Per entity: the objects changed beyond the limit.
    private var others: [Set<ObjectKey>]
    /// Texts longer than this are cut, with `…`.
    static let valueWidth = 60
    /// What the open record added, to take back with it (`--skip-invalid`); nil outside a record.
    private var journal: [Undo]?

    private enum Undo {
        /// An object was shown.
        case appended(entity: Int, key: ObjectKey)
        /// A shown object's fields were these.
        case fields(entity: Int, index: Int, [Field])
        /// An object beyond the limit was counted.
        case counted(entity: Int, key: ObjectKey)
    }

    /// A changed field as shown, with what its old and new values are compared by: the whole
    /// value (the text is cut), a to-one's target (its row or its key); nil for a to-many, shown
    /// only by its counts, whose rewrite is a change whatever it ends as.
    struct Field {
        var change: FieldChange
        var old: [SQLValue]?
        var new: [SQLValue]?

        /// True when the field ends the run as it was stored.
        var isPutBack: Bool { old != nil && old == new }
    }

    /// An object inserted or changed, its fields as logged.
    private struct LoggedObject {
        var key: String
        var isNew: Bool
        var fields: [Field]
    }

    init(limit: Int, entities: Int) {
        self.limit = limit
        shown = Array(repeating: [:], count: entities)
        objects = Array(repeating: [], count: entities)
        others = Array(repeating: [], count: entities)
    }

    /// The log `options` ask for (`changeLimit`), nil when they ask for none.
    convenience init?(options: ImportOptions, entities: Int) {
        guard let limit = options.changeLimit else { return nil }
        self.init(limit: max(0, limit), entities: entities)
    }

    /// Whether a change of the object is shown with its fields (else it is only counted).
    func showsFields(_ entity: Int, _ key: ObjectKey) -> Bool {
        if let index = shown[entity][key] { return !objects[entity][index].isNew }
        return objects[entity].count < limit
    }

    func inserted(_ entity: Int, _ key: ObjectKey) {
        guard shown[entity][key] == nil else { return }
        guard objects[entity].count < limit else {
            counted(entity, key)
            return
        }
        shown[entity][key] = objects[entity].count
        objects[entity].append(LoggedObject(key: Self.text(key), isNew: true, fields: []))
        journal?.append(.appended(entity: entity, key: key))
    }

    /// An update of a stored object, its fields as old -> new; a field changed again keeps its first old value.
    func updated(_ entity: Int, _ key: ObjectKey, fields: [Field]) {
        guard let index = shown[entity][key] else {
            shown[entity][key] = objects[entity].count
            objects[entity].append(LoggedObject(key: Self.text(key), isNew: false, fields: fields))
            journal?.append(.appended(entity: entity, key: key))
            return
        }
        journal?.append(.fields(entity: entity, index: index, objects[entity][index].fields))
        for field in fields {
            if let at = objects[entity][index].fields.firstIndex(where: { $0.change.name == field.change.name }) {
                objects[entity][index].fields[at].change.new = field.change.new
                objects[entity][index].fields[at].new = field.new
            } else {
                objects[entity][index].fields.append(field)
            }
        }
    }

    /// An update of a stored object: shown with its fields (`fields()`, made only then) while
    /// within the limit, else counted.
    func updated<E: Error>(_ entity: Int, _ key: ObjectKey, fields: () throws(E) -> [Field]) throws(E) {
        guard showsFields(entity, key) else {
            counted(entity, key)
            return
        }
        updated(entity, key, fields: try fields())
    }

    /// A change of an object beyond the limit: counted, not shown.
    func counted(_ entity: Int, _ key: ObjectKey) {
        if shown[entity][key] == nil, others[entity].insert(key).inserted { journal?.append(.counted(entity: entity, key: key)) }
    }

    func beginRecord() { journal = [] }

    func commitRecord() { journal = nil }

    /// Takes back what the open record added.
    func rollbackRecord() {
        for undo in (journal ?? []).reversed() {
            switch undo {
            case .appended(let entity, let key):
                objects[entity].removeLast()
                shown[entity][key] = nil
            case .fields(let entity, let index, let fields): objects[entity][index].fields = fields
            case .counted(let entity, let key): others[entity].remove(key)
            }
        }
        journal = nil
    }

    /// Per entity with changes, in the plan's order (`names`); fields put back are left out, and
    /// so is a stored object with no other.
    func changes(names: [String]) -> [EntityChanges] {
        names.indices.compactMap { entity in
            let changed = objects[entity].compactMap { object -> ObjectChange? in
                let fields = object.fields.filter { !$0.isPutBack }.map(\.change)
                guard object.isNew || !fields.isEmpty else { return nil }
                return ObjectChange(key: object.key, isNew: object.isNew, fields: fields)
            }
            guard !changed.isEmpty || others[entity].count > 0 else { return nil }
            return EntityChanges(entity: names[entity], objects: changed, more: others[entity].count)
        }
    }

    /// A key as SQL literals, `42` or `('octocat', 7)`.
    static func text(_ key: ObjectKey) -> String {
        key.count == 1 ? text(key[0]) : "(" + key.map(text).joined(separator: ", ") + ")"
    }

    /// A changed attribute, its values as SQL literals.
    static func value(_ name: String, old: SQLValue, new: SQLValue) -> Field {
        Field(change: FieldChange(name: name, old: text(old), new: text(new)), old: [old], new: [new])
    }

    /// A changed to-one, its targets shown by their keys (`NULL` for none) and compared by what
    /// the foreign key holds (`comparing`).
    static func target(_ name: String, old: String, new: String, comparing: (old: SQLValue, new: SQLValue)) -> Field {
        Field(change: FieldChange(name: name, old: old, new: new), old: [comparing.old], new: [comparing.new])
    }

    /// A changed to-one, its targets by their keys (`NULL` for none).
    static func target(_ name: String, old: ObjectKey?, new: ObjectKey?) -> Field {
        Field(
            change: FieldChange(name: name, old: old.map(text) ?? text(.null), new: new.map(text) ?? text(.null)),
            old: old.map(Array.init) ?? [], new: new.map(Array.init) ?? [])
    }

    /// A rewritten to-many, as how many targets it links before and after.
    static func list(_ name: String, old: Int, new: Int) -> Field {
        Field(change: FieldChange(name: name, old: "\(old) linked", new: "\(new) linked"), old: nil, new: nil)
    }

    /// A value as a SQL literal, cut to `valueWidth` characters.
    static func text(_ value: SQLValue) -> String {
        let text = value.description
        return text.count > valueWidth ? String(text.prefix(valueWidth - 1)) + "…" : text
    }
}

/// The objects of one entity an import inserted or changed (in a dry run: would), as `--verbose` shows them.
public struct EntityChanges: Equatable, Sendable {
    public var entity: String
    /// The first few, in the order the run met them.
    public var objects: [ObjectChange]
    /// How many more objects were inserted or changed.
    public var more: Int

    package init(entity: String, objects: [ObjectChange], more: Int) {
        self.entity = entity
        self.objects = objects
        self.more = more
    }
}

/// One object an import inserted (`isNew`) or changed, with its changed fields.
public struct ObjectChange: Equatable, Sendable {
    /// The key as SQL literals (`42`, `('octocat', 7)`).
    public var key: String
    public var isNew: Bool
    public var fields: [FieldChange]

    package init(key: String, isNew: Bool, fields: [FieldChange]) {
        self.key = key
        self.isNew = isNew
        self.fields = fields
    }
}

/// A field as stored before the run and as the run leaves it, as SQL literals; for a to-many,
/// how many targets it links.
public struct FieldChange: Equatable, Sendable {
    public var name: String
    public var old: String
    public var new: String

    package init(name: String, old: String, new: String) {
        self.name = name
        self.old = old
        self.new = new
    }
}
