import GraphImportStore

/// The values that identify an object: its unique key, canonicalised by coercion
/// (so `1`, `1.0` and `1e0` are one key and `"1"` is another).
struct ObjectKey: Hashable, Sendable {
    var values: [SQLValue]
}

/// One object of a record, fully converted and checked, before anything is written.
///
/// Building drafts first means a bad record is found before it touches the store or the
/// run's caches, so `--skip-invalid` can drop it without a savepoint.
struct ObjectDraft: Sendable {
    let entity: Int
    let key: ObjectKey
    /// Per attribute; nil where the JSON has no such key (the stored value is kept).
    var values: [SQLValue?]
    /// Per to-one relationship; nil where the JSON has no such key.
    var toOne: [LinkDraft?]
    /// Per to-many relationship; nil where the JSON has no such key.
    var toMany: [[LinkDraft]?]
}

/// What a relationship points at.
indirect enum LinkDraft: Sendable {
    /// An explicit JSON null: no related object.
    case null
    /// A nested object, upserted with its own entity's mapping.
    case object(ObjectDraft)
    /// A key value standing for the object (`in_reply_to_status_id`); a stub row is made if it is new.
    case reference(entity: Int, key: ObjectKey)
}
