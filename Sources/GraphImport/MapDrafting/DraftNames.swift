/// How a draft names things: Swift-style names from the feed's `snake_case` keys, entity names
/// from the keys that hold them, and map paths that quote what a bare path cannot hold.
enum DraftNames {
    /// The built-in types, which no entity may be named.
    static let builtIns: Set<String> = ["string", "int", "double", "bool", "date", "url", "data", "json"]

    /// Keys that say "a list of things" without saying what: a records path through them names
    /// its entity after an outer key, or the sample.
    static let genericKeys: Set<String> = [
        "data", "items", "results", "result", "records", "response", "entries", "nodes", "node", "edges", "hits",
        "objects", "elements", "children", "list", "values", "rows", "content", "payload", "body",
    ]

    /// Keys of objects that only group their parent's fields: an inlined field under one keeps
    /// its own name (`entities.hashtags` -> `hashtags`, not `entitiesHashtags`).
    static let groupingKeys: Set<String> = [
        "entities", "attributes", "properties", "data", "metadata", "meta", "fields", "info", "details", "stats",
        "statistics", "counts", "payload", "extra", "extras",
    ]

    /// `created_at` -> `createdAt`, `URL` -> `url`, `ETag` -> `eTag`, `2fa` -> `_2fa`; never empty.
    static func member(_ key: String) -> String {
        let words = words(key)
        guard !words.isEmpty else { return "field" }
        var name = ""
        for (index, word) in words.enumerated() {
            if index == 0 {
                name += word.allSatisfy { $0.isUppercase || $0.isNumber } ? word.lowercased() : lowerFirst(word)
            } else {
                name += upperFirst(word)
            }
        }
        return name.first!.isNumber ? "_" + name : name
    }

    /// `retweeted_status` -> `RetweetedStatus`; never a built-in type's name.
    static func entity(_ key: String) -> String {
        let words = words(key)
        var name = words.map(upperFirst).joined()
        if name.isEmpty { name = "Record" }
        if name.first!.isNumber { name = "_" + name }
        return builtIns.contains(name.lowercased()) ? name + "Item" : name
    }

    /// `hashtags` -> `hashtag`: `Naming.singular`, which the default table's plural relies on.
    static func singular(_ word: String) -> String { Naming.singular(word) }

    /// The table of a drafted entity: the engine's default (`Naming.defaultTable`), numbered when
    /// another entity of the draft has it (`taken`).
    static func table(entity: String, taken: Set<String>) -> String {
        Naming.defaultTable(entity: entity, avoiding: taken)
    }

    /// ASCII letters and digits between separators (`_`, `-`, spaces, punctuation, case is kept).
    private static func words(_ key: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in key {
            if character.isASCII && (character.isLetter || character.isNumber) {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func upperFirst(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }
    private static func lowerFirst(_ word: String) -> String { word.prefix(1).lowercased() + word.dropFirst() }

    /// A key as a path component: bare when the map's KEY allows it, else a quoted string.
    static func component(_ key: String, first: Bool) -> String {
        let bare =
            !key.isEmpty
            && key.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "@")
                    || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "-")
            } && !key.hasPrefix("$")
        if bare { return first ? key : "." + key }
        return (first ? "$" : "") + "[" + quoted(key) + "]"
    }

    /// A map STRING: `"…"` with `\"`, `\\`, `\n`, `\t` and `\u` escapes.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A path of keys below an object (`entities.hashtags`), quoted where needed.
    static func path(_ keys: [String]) -> String {
        keys.enumerated().map { component($0.element, first: $0.offset == 0) }.joined()
    }
}
