import GraphImportSchema
import GraphImportStore

/// An object's row as an `EntityStore` found it by its key.
struct StoredObject {
    let pk: Int64
    /// Attribute columns, then to-one foreign-key columns (`EntityColumns`).
    var values: [SQLValue]
    /// `changed_run` as stored before this run.
    let changedRun: SQLValue
    /// Whether the row is marked a stub (`stub_run` not NULL): made from a reference, not given since.
    let isStub: Bool
    /// Whether the row holds every value the caller said it expected: it need not compare them again.
    let holdsExpected: Bool
    /// `content_digest` as stored (NULL when none, or cleared by another program's write).
    let contentDigest: SQLValue
}

/// An object's row as the light lookup found it by its key: no value read.
struct StoredDigest {
    let pk: Int64
    /// `changed_run` as stored before this run.
    let changedRun: SQLValue
    /// Whether the row is marked a stub (`stub_run` not NULL).
    let isStub: Bool
    /// `content_digest` as stored.
    let contentDigest: SQLValue
}

/// What SQLite's writer (`GraphWriter`) needs for the objects of one entity, row by row; its one
/// conformer is `SQLiteEntityStore`. It is no seam between the stores: PostgreSQL plugs in at the
/// run (`StoreSession`, `StoreSink`) and writes in batches; what both call is `ObjectDecisions`.
///
/// The writer asks for one object at a time where it needs an answer at once (a row id for a
/// parent's foreign key, a stored row to compare with); everything else comes in batches with
/// counts out, so that a set-based back end can send one statement per batch: join rows are
/// queued and written when the store decides (before it reads or deletes any of them), updates
/// return nothing and may be queued too, and deletion works on sets of row ids. A store that
/// defers writes must apply them before it answers a read of the same rows, and at `flush()`.
protocol EntityStore: AnyObject {
    /// The object with `key`, or nil. A value of `expected` (the caller's values, in column order)
    /// that the row holds may be given back as that very value, its text not copied.
    func find(_ key: ObjectKey, expecting expected: [SQLValue?]) throws(StoreError) -> StoredObject?

    /// The row id, markers and content digest of the object with `key`, or nil; no value is read.
    func findDigest(_ key: ObjectKey) throws(StoreError) -> StoredDigest?

    /// Inserts a new object with `values` in `columns` (any others take their default); returns its row id.
    func insert(_ key: ObjectKey, columns: [Int], values: [SQLValue]) throws(StoreError) -> Int64

    /// Writes `values` into `columns` of the object with row id `pk`.
    func update(_ pk: Int64, columns: [Int], values: consuming [SQLValue]) throws(StoreError)

    /// The targets of to-many `relationship` of `owner` in order, and whether they are `expected`
    /// (then `expected` itself is given back, and nothing is allocated).
    func list(of owner: Int64, relationship: Int, expecting expected: [Int64]?) throws(StoreError) -> (list: [Int64], isExpected: Bool)

    /// Gives `owner` the targets `list` for to-many `relationship`, in order, replacing any it has
    /// (`replacing`: false for a new object, which has none).
    func setList(_ list: [Int64], of owner: Int64, relationship: Int, replacing: Bool) throws(StoreError)

    /// For a to-many with link attributes: its targets of `owner` in order, and their link values
    /// (one per link attribute, in the plan's order, target after target).
    func list(of owner: Int64, withValuesOf relationship: Int) throws(StoreError) -> (list: [Int64], values: [SQLValue])

    /// For a to-many with link attributes: `setList`, each target with its link values (as
    /// `list(of:withValuesOf:)` gives them).
    func setList(_ list: [Int64], values: [SQLValue], of owner: Int64, relationship: Int, replacing: Bool) throws(StoreError)

    /// Writes whatever the store holds back (queued join rows): before a savepoint, at the end of
    /// the records, and before another entity's rows that they may refer to are deleted.
    func flush() throws(StoreError)

    /// Forgets whatever was queued and not yet written (a record being undone).
    func discardQueued()

    // MARK: Deletion, a set at a time

    /// Row ids of every object of the entity.
    func allObjects() throws(StoreError) -> [Int64]

    /// (row id, target row id) of every object whose to-one `relationship` is set.
    func links(ofToOne relationship: Int) throws(StoreError) -> [(pk: Int64, target: Int64)]

    /// (row id, target) of the objects whose to-one `relationship` points at one of `targets`, in
    /// the order of `targets`.
    func holders(ofToOne relationship: Int, targets: [Int64]) throws(StoreError) -> [(pk: Int64, target: Int64)]

    /// (owner row id, target) of the objects whose to-many `relationship` holds one of `targets`,
    /// in the order of `targets`.
    func holders(ofToMany relationship: Int, targets: [Int64]) throws(StoreError) -> [(pk: Int64, target: Int64)]

    /// Deletes the objects with these row ids; returns how many there were.
    func delete(_ pks: [Int64]) throws(StoreError) -> Int

    /// The key values of the object with row id `pk` (empty when there is none).
    func key(of pk: Int64) throws(StoreError) -> [SQLValue]

    /// Records that `run` deleted the objects with these keys (JSON text each), for readers of changes.
    func recordDeleted(keys: [String], run: Int64) throws(StoreError)
}
