import GraphImportSchema

/// What the run's policies left out: new objects an update-only entity did not insert, and keys
/// that linked nothing because no such object exists (`link existing`). Undone with a record
/// skipped under `--skip-invalid`, as the store's writes are.
final class PolicyTally {
    /// How many unlinked keys of one relationship are shown with their path.
    static let sampleLimit = 3

    /// Per entity: the keys of the new objects not inserted (each counted once).
    private var notInserted: [Set<ObjectKey>]
    /// Per relationship that left a key unlinked, in the order first met.
    private(set) var unlinked: [UnlinkedLinks] = []
    private var unlinkedIndex: [String: Int] = [:]
    /// What the open record added, to take back; nil outside a record.
    private var journal: [Entry]?

    private enum Entry {
        case notInserted(entity: Int, key: ObjectKey)
        /// `sampled`: the link also added a sample.
        case unlinked(index: Int, sampled: Bool)
    }

    init(entities: Int) {
        notInserted = Array(repeating: [], count: entities)
    }

    func notInsertedCount(_ entity: Int) -> Int { notInserted[entity].count }

    /// A new object of `entity` that the run's mode does not insert.
    func skipNew(_ entity: Int, _ key: ObjectKey) {
        if notInserted[entity].insert(key).inserted { journal?.append(.notInserted(entity: entity, key: key)) }
    }

    /// A key read at `origin` that stands for no object of `target`.
    func unlinked(_ key: ObjectKey, target: String, origin: LinkOrigin) {
        let index: Int
        if let known = unlinkedIndex[origin.member] {
            index = known
        } else {
            index = unlinked.count
            unlinkedIndex[origin.member] = index
            unlinked.append(UnlinkedLinks(member: origin.member, target: target, count: 0, samples: []))
        }
        unlinked[index].count += 1
        let sampled = unlinked[index].samples.count < Self.sampleLimit
        if sampled {
            let text = key.count == 1 ? key[0].description : "(" + key.map(\.description).joined(separator: ", ") + ")"
            unlinked[index].samples.append(UnlinkedLinks.Sample(key: text, path: origin.path.description, recordIndex: origin.recordIndex))
        }
        journal?.append(.unlinked(index: index, sampled: sampled))
    }

    func beginRecord() { journal = [] }

    func commitRecord() { journal = nil }

    func rollbackRecord() {
        for entry in (journal ?? []).reversed() {
            switch entry {
            case .notInserted(let entity, let key): notInserted[entity].remove(key)
            case .unlinked(let index, let sampled):
                unlinked[index].count -= 1
                if sampled { unlinked[index].samples.removeLast() }
            }
        }
        journal = nil
    }
}

/// Keys of one relationship that linked nothing: no object of the target had them, and the
/// relationship links only existing objects (`link existing`, or a target the run does not insert into).
public struct UnlinkedLinks: Equatable, Sendable {
    public struct Sample: Equatable, Sendable {
        /// The key as a SQL literal (`42`, `'swift'`).
        public var key: String
        /// Where the feed holds it (`$[3].tag_ids[1]`).
        public var path: String
        public var recordIndex: Int
    }

    /// `Entity.relationship`.
    public var member: String
    /// The target entity's name.
    public var target: String
    /// How many links were left out (a key repeated in the feed counts each time).
    public var count: Int
    /// The first few, in feed order.
    public var samples: [Sample]
}
