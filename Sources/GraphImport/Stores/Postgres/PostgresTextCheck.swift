import Foundation
import GraphImportSchema

/// What PostgreSQL refuses of a value SQLite stores: a text with a NUL character (`\u0000`,
/// valid JSON), which PostgreSQL's `text` cannot hold. Found per record before it is batched,
/// so that the refusal is the record's (its position and member, skipped under
/// `--skip-invalid`), not the batch's, which named only the store.
enum PostgresTextCheck {
    static let message = "a text value holds a NUL character, which PostgreSQL cannot store"

    /// The error for the first value of `draft`'s tree PostgreSQL cannot store, or nil.
    static func error(in draft: ObjectDraft, record: DraftedRecord, plan: ImportPlan) -> RecordError? {
        guard let member = firstRefused(in: draft, plan: plan) else { return nil }
        return RecordError(
            recordIndex: record.index, position: record.position, path: record.path.description, member: member, message: message,
            hint: "remove the character from the feed (or import into a SQLite store, which keeps it)")
    }

    /// `Entity.member` of the first text with a NUL in the tree: a key, an attribute, a link's
    /// key or a link attribute.
    private static func firstRefused(in draft: ObjectDraft, plan: ImportPlan) -> String? {
        let entity = plan.entities[draft.entity]
        if draft.key.contains(where: holdsNUL) { return entity.name + " key" }
        for (index, value) in draft.values.enumerated() where value.map(holdsNUL) == true { return entity.attributeMembers[index] }
        for (index, link) in draft.toOne.enumerated() {
            guard let link else { continue }
            if let found = firstRefused(in: link, plan: plan, member: entity.toOneMembers[index]) { return found }
        }
        for (index, links) in draft.toMany.enumerated() {
            for link in links ?? [] {
                if let found = firstRefused(in: link, plan: plan, member: entity.toManyMembers[index]) { return found }
            }
        }
        for values in draft.linkValues ?? [] where values?.contains(where: holdsNUL) == true { return entity.name + " link attribute" }
        return nil
    }

    private static func firstRefused(in link: LinkDraft, plan: ImportPlan, member: String) -> String? {
        switch link {
        case .null: nil
        case .object(let nested): firstRefused(in: nested, plan: plan)
        case .reference(_, let key), .existing(_, let key, _): key.contains(where: holdsNUL) ? member : nil
        }
    }

    private static func holdsNUL(_ value: SQLValue) -> Bool {
        guard case .text(let text) = value else { return false }
        // memchr over the bytes of a native string (every text the reader makes): the view's
        // generic `contains` steps through its index byte by byte, on every text of every row.
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let start = bytes.baseAddress else { return false }
            return memchr(start, 0, bytes.count) != nil
        }
        return found ?? text.utf8.contains(0)
    }
}
