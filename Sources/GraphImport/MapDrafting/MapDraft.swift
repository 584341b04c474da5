/// A starter map drafted from a sample: its text, and what it found.
package struct MapDraft: Sendable, Equatable {
    /// The map, ready to save: it passes `check` and imports the sample it was drafted from.
    package var text: String
    /// The records the sample holds at the drafted records paths.
    package var records: Int
    /// The entities the draft declares, records' entities first.
    package var entities: [String]
    /// The records paths, as the draft writes them.
    package var recordsPaths: [String]
}

/// The parts of a draft before it is printed.
struct DraftModel {
    struct Records {
        var path: String
        var entity: String
        /// The key a record must hold (some records lack it), as a map path.
        var requiredKey: String?
        var count: Int
    }

    struct Member {
        var name: String
        /// The path below the object; nil when it is the name itself.
        var path: String?
        var type: String
        var comment: String?
        /// `link` lines below a to-many: what each wrapper element says of its link.
        var links: [Member] = []
    }

    struct Entity {
        var name: String
        /// The table the draft names (`table users`); nil leaves it to the engine's rule.
        var table: String? = nil
        /// The key attribute's name; empty for an owned entity.
        var key: String
        var comments: [String] = []
        var members: [Member] = []
        /// `entity NAME owned`: no key; each object belongs to the one that holds it.
        var isOwned = false
    }

    struct Meta {
        var name: String
        var path: String
        var type: String
    }

    /// Names every entity's table (`DraftNames.table`), in the order the draft lists them.
    mutating func nameTables() {
        var tables: Set<String> = []
        for index in entities.indices {
            let table = DraftNames.table(entity: entities[index].name, taken: tables)
            tables.insert(table)
            entities[index].table = table
        }
    }

    var header: [String] = []
    var records: [Records] = []
    var meta: [Meta] = []
    var entities: [Entity] = []
}
