import GraphImportJSON
import GraphImportSchema

/// The values that identify an object: its unique key, canonicalised by coercion
/// (so `1`, `1.0` and `1e0` are one key and `"1"` is another), in the entity's key order.
///
/// A key of one value (most keys) holds it inline: no array is allocated, retained or freed
/// for it, on the reading thread that drafts it nor on the writing thread that lets it go.
/// Read it as a collection (`key[0]`, `key.count`, `rows += key`): asking for an array would
/// make one.
struct ObjectKey: Hashable, Sendable, RandomAccessCollection {
    private enum Storage: Hashable, Sendable {
        case one(SQLValue)
        /// Any other count.
        case many([SQLValue])
    }
    private let storage: Storage
    /// A digest of the values, taken once, where the draft is made (on the reading thread): the
    /// writer looks a key up in a table or two for every object, and hashing the values through
    /// `Hasher` each time was a tenth of a first import's writing thread. `Hasher` still mixes
    /// the digest with its per-process seed.
    private let digest: UInt64

    /// The key of one value.
    init(_ value: SQLValue) {
        storage = .one(value)
        var digest = ValueDigest()
        digest.add(value)
        self.digest = digest.wide
    }

    init(values: [SQLValue]) {
        if values.count == 1 {
            self = ObjectKey(values[0])
            return
        }
        storage = .many(values)
        var digest = ValueDigest()
        for value in values { digest.add(value) }
        self.digest = digest.wide
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .one: 1
        case .many(let values): values.count
        }
    }

    subscript(position: Int) -> SQLValue {
        switch storage {
        case .one(let value):
            precondition(position == 0, "index \(position) of a key of one value")
            return value
        case .many(let values): return values[position]
        }
    }

    static func == (lhs: ObjectKey, rhs: ObjectKey) -> Bool { lhs.digest == rhs.digest && lhs.storage == rhs.storage }

    func hash(into hasher: inout Hasher) { hasher.combine(digest) }
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
    /// Set when the object lacks a value its entity requires on insert: the error to report if it is new.
    var lacking: LackingRequired? = nil
    /// Set on a record's top draft when a draft of its tree is `lacking`: only such a record is
    /// checked, before anything is written, for new objects without a required value.
    var treeLacksRequired = false
    /// nil unless the entity has `link` attributes (an optional, not an empty array: nothing to
    /// retain or release for the drafts of every other entity); then per to-many relationship,
    /// the values of its link attributes for each element of `toMany`, element after element
    /// (nil for a to-many without link attributes, or where the JSON has no such key).
    var linkValues: [[SQLValue]?]? = nil
    /// What the map read for the object (`ContentDigest`); nil when its entity takes none, or
    /// when something it reads is not the object's own (then it is compared value by value).
    var contentDigest: ContentDigest? = nil
}

/// What a relationship points at.
///
/// Not `indirect`: an object draft holds its links in arrays, so the enum is not recursive by
/// value, and boxing every link was an allocation (and a free) per related object.
enum LinkDraft: Sendable {
    /// An explicit JSON null: no related object.
    case null
    /// A nested object, upserted with its own entity's mapping.
    case object(ObjectDraft)
    /// A key value standing for the object (`in_reply_to_status_id`); a stub row is made if it is new.
    case reference(entity: Int, key: ObjectKey)
    /// A key value that links only an object already stored or written earlier in the run: no
    /// stub is made (`link existing`, or a target whose mode does not insert).
    case existing(entity: Int, key: ObjectKey, origin: LinkOrigin)
}

/// The values an object lacks that its entity requires on insert, and where the object is: the
/// record error is made only if the writer finds the object new. A reference: it keeps every
/// draft as small as it was.
final class LackingRequired: Sendable {
    let entity: Int
    /// Positions of the attributes without a value, in the entity's order.
    let attributes: [Int]
    let recordIndex: Int
    let position: JSONPosition
    /// The object's path from the document's root.
    let path: JSONPathPattern

    init(entity: Int, attributes: [Int], recordIndex: Int, position: JSONPosition, path: JSONPathPattern) {
        self.entity = entity
        self.attributes = attributes
        self.recordIndex = recordIndex
        self.position = position
        self.path = path
    }

    /// The error for attribute `index` of the object, at the path of its absent key.
    func error(attribute index: Int, plan: ImportPlan) -> RecordError {
        let entity = plan.entities[self.entity]
        let attribute = entity.attributes[index]
        return RecordError(
            recordIndex: recordIndex, position: position, path: path.appending(attribute.path ?? []).description,
            member: entity.attributeMembers[index], message: "is required, and this new \(entity.name) has no '\(attribute.sourceDescription)'",
            hint: "add it to the feed, make the attribute optional (`: \(attribute.type.rawValue)?`), "
                + "or give it a `default` or a `missing` rule (`missing keep` lets a new object start without it)")
    }
}
