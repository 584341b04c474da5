import GraphImportJSON
import GraphImportSchema

/// The values of one object by attribute name, as hooks see and change them.
public struct ObjectValues: Sendable {
    /// The entity's name.
    public let entity: String
    let names: [String]
    /// Per attribute; nil where the object has no value set (the stored one is kept).
    var values: [SQLValue?]

    /// The attribute's value, or nil when none is set. Setting a name the entity lacks does nothing.
    public subscript(name: String) -> SQLValue? {
        get { names.firstIndex(of: name).flatMap { values[$0] } }
        set { if let index = names.firstIndex(of: name) { values[index] = newValue } }
    }
}

/// A hook's refusal of an object, with a message for the record's error line.
public struct HookFailure: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Behaviour that Swift code attaches to entities, beyond what a map can say.
///
/// Like Core Data's `awakeFromInsert`, `validateForInsert/Update` and a manual key handler:
/// each closure is named by its entity (and JSON key), so one set of hooks can serve several maps.
/// `GraphImporter` binds them to the plan's entities once, when it is made.
public struct ImportHooks: Sendable {
    /// Called when a new object is about to be inserted, after the map's defaults; may set values.
    public var onInsert: [String: @Sendable (inout ObjectValues) -> Void] = [:]
    /// Called with the whole object (stored values merged with the feed's) before it is inserted or
    /// updated; throwing rejects the record under the import's error policy.
    public var beforeSave: [String: @Sendable (ObjectValues) throws(HookFailure) -> Void] = [:]
    /// Takes over a top-level JSON key of an entity's objects: called with its value, sets attributes.
    /// The key then counts as mapped (it does not go to `extras`).
    public var keyHandlers: [String: [String: @Sendable (JSONValue, inout ObjectValues) throws(HookFailure) -> Void]] = [:]

    public init() {}
}
