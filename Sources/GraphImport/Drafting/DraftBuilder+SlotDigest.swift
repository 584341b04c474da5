import GraphImportJSON
import GraphImportSchema

/// The content digest of an object drafted from its slot of the record's table, taken from what
/// the reader read rather than from the drafted values (docs/unchanged-objects-plan.md, step 1),
/// and the light walk that makes only the keys and digests of a record's objects (step 3).
///
/// A slot digest is taken only where `SlotReads.coversDraft` says every input of the object's
/// draft is a slot of its own object or a link its relationships make: the draft is then a
/// function of those slots and the map (the seed), so equal digests mean equal drafts. Every
/// other object keeps `ObjectDraft.draftedDigest`.
extension DraftBuilder {
    /// What goes into a slot digest, word by word, so that the full draft and the light walk take
    /// it alike: the seed, `tag`, the entity; per attribute its slot or `absent`; per to-one and
    /// per to-many the links drafting made.
    enum SlotDigest {
        /// Follows the seed, where a drafted digest has its entity: a slot digest never equals a
        /// drafted one (but by a collision of 128-bit states).
        static let tag: UInt64 = 0x5_1075_D16E_57
        /// An attribute whose key the object lacks, or a relationship absent.
        static let absent: UInt64 = 0xAB5E_A7
        /// An attribute without a path (a key an owner sets: identity, not content).
        static let noPath: UInt64 = 0x0A7B
        static let null: UInt64 = 0x4E55
        static let link: UInt64 = 0x11_4C

        static func start(seed: ContentDigest, entity: Int) -> ContentHasher {
            var hasher = ContentHasher(seed: seed)
            hasher.add(tag)
            hasher.add(UInt64(entity))
            return hasher
        }

        /// A link by its target's entity and converted key; an object, a reference and a link to
        /// an existing object alike (they link the same row, and `occurrence first` turns objects
        /// into references after drafting).
        static func add(_ link: LinkDraft, to hasher: inout ContentHasher) {
            let (entity, key): (Int, ObjectKey)
            switch link {
            case .null:
                hasher.add(null)
                return
            case .object(let draft): (entity, key) = (draft.entity, draft.key)
            case .reference(let target, let targetKey): (entity, key) = (target, targetKey)
            case .existing(let target, let targetKey, _): (entity, key) = (target, targetKey)
            }
            hasher.add(Self.link)
            hasher.add(UInt64(entity))
            hasher.add(UInt64(key.count))
            for value in key { hasher.add(value) }
        }

        /// The links of an object's to-ones and to-manys, absent, null and each list's count
        /// and order told apart.
        static func add(toOne: [LinkDraft?], toMany: [[LinkDraft]?], to hasher: inout ContentHasher) {
            for link in toOne {
                guard let link else {
                    hasher.add(absent)
                    continue
                }
                add(link, to: &hasher)
            }
            for list in toMany {
                guard let list else {
                    hasher.add(absent)
                    continue
                }
                hasher.add(UInt64(list.count))
                for link in list { add(link, to: &hasher) }
            }
        }
    }

    /// Adds an attribute's slot `found` in the record's table to `hasher`: absent (nil), or its
    /// kind and its bytes (a string's unescaped bytes, a number's literal, an integer's value).
    /// False for an object or an array, whose value is read as a tree: the object then takes no
    /// slot digest. `mutating` though it changes nothing: a non-mutating method of `self` called
    /// from `draft`, a mutating one, copied the whole builder for every attribute.
    mutating func addSlot(_ found: Int?, to hasher: inout ContentHasher) -> Bool {
        guard let found else {
            hasher.add(SlotDigest.absent)
            return true
        }
        let kind = recordSlots.kind(at: found)
        hasher.add(UInt64(kind.rawValue) &+ 1)
        switch kind {
        case .null, .falseValue, .trueValue: return true
        case .integer:
            hasher.add(UInt64(bitPattern: recordSlots.integer(at: found) ?? 0))
            return true
        case .number, .string:
            recordSlots.withBytes(at: found) { hasher.add(bytes: UnsafeRawBufferPointer($0)) }
            return true
        case .array, .object, .directory, .key: return false
        }
    }
}

/// One entry of the light walk (`DraftBuilder.lightWalk`): an object the full draft would make,
/// with its slot digest, or a key one of its relationships links by.
enum WalkedObject: Hashable, Sendable {
    /// `digest` nil only in `ObjectDraft.walked`, for an object that takes none.
    case object(entity: Int, key: ObjectKey, digest: ContentDigest?)
    /// A `LinkDraft.reference`: a stub is made where the object is new.
    case reference(entity: Int, key: ObjectKey)
    /// A `LinkDraft.existing`: linked only where the object exists.
    case existing(entity: Int, key: ObjectKey)
}

extension DraftBuilder {
    /// The record's objects and the keys it links by, in the order `ObjectDraft.walked` lists the
    /// full draft's (each object after what it links, its to-ones before its to-manys), each
    /// object with its slot digest, made by the drafting code itself in a mode that converts no
    /// attribute but the keys (`walk`). Nil ("cannot") when an object of the record has no slot
    /// digest: the record is then drafted in full. Empty when the route ignores the record.
    ///
    /// A record the light walk takes may still be one the full draft refuses: a non-key value
    /// that does not convert or fails its `check` (the light walk applies `missing` and every
    /// key's rules, and converts nothing else). That is safe for its one use: where every
    /// object's digest equals its stored one, each stored row was written from the same bytes
    /// under the same map (the seed), whose conversions succeeded then and give the same values
    /// now (built-in converters are functions of the bytes; a map with custom ones takes no
    /// digests); where one differs, the record is drafted in full, which reports the error.
    mutating func lightWalk(record: JSONRecord, route: RecordRoute, slots: JSONSlots, tree: JSONValue? = nil) throws(RecordError)
        -> [WalkedObject]?
    {
        walk = Walk()
        defer { walk = nil }
        do throws(RecordError) {
            guard try draft(record: record, route: route, slots: slots, tree: tree) != nil else { return [] }
        } catch {
            if walk?.coversRecord == false { return nil }
            throw error
        }
        guard let walked = walk, walked.coversRecord else { return nil }
        return walked.objects
    }

    /// What `draft` throws in the light walk at an object without a slot digest; `lightWalk`
    /// turns it into nil ("cannot"), never reported.
    static let cannotWalk = RecordError(
        recordIndex: 0, position: JSONPosition(offset: 0, line: 1, column: 1), path: "$", member: nil,
        message: "the light walk cannot take this record", hint: nil)

    /// What the light walk has made of the record so far.
    struct Walk {
        var objects: [WalkedObject] = []
        /// False once an object without a slot digest was drafted.
        var coversRecord = true
    }

    /// Notes a link the light walk makes by key.
    mutating func noteWalked(_ link: LinkDraft) {
        switch link {
        case .reference(let entity, let key): walk?.objects.append(.reference(entity: entity, key: key))
        case .existing(let entity, let key, _): walk?.objects.append(.existing(entity: entity, key: key))
        case .null, .object: break
        }
    }
}

extension ObjectDraft {
    /// The draft's objects and the keys it links by, in the light walk's order: each object's
    /// to-ones, then its to-manys, each linked object before it (depth first), then the object.
    var walked: [WalkedObject] {
        var objects: [WalkedObject] = []
        func visit(_ draft: ObjectDraft) {
            func follow(_ link: LinkDraft) {
                switch link {
                case .null: break
                case .object(let nested): visit(nested)
                case .reference(let entity, let key): objects.append(.reference(entity: entity, key: key))
                case .existing(let entity, let key, _): objects.append(.existing(entity: entity, key: key))
                }
            }
            for link in draft.toOne { if let link { follow(link) } }
            for list in draft.toMany { for link in list ?? [] { follow(link) } }
            objects.append(.object(entity: draft.entity, key: draft.key, digest: draft.contentDigest))
        }
        visit(self)
        return objects
    }
}
