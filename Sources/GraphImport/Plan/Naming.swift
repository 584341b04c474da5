/// The one place where map names become SQL names a person would pick:
/// entity `PullRequest` -> table `pull_requests`, attribute `createdAt` -> column `created_at`,
/// to-one `author` -> column `author_pk`, to-many `Tweet.hashtags` -> join table `tweets_hashtags`.
package enum Naming {
    /// The surrogate primary key of every entity table.
    package static let primaryKey = "pk"
    /// The column of a join table that keeps the feed's order.
    package static let position = "position"
    /// The id (in `graphimport_runs`) of the run that inserted an object.
    package static let insertedRun = "inserted_run"
    /// The id of the run that last changed an object.
    package static let changedRun = "changed_run"
    /// The id of the run that made an object a stub (from a reference alone), NULL once the feed
    /// gives the object (and for every object a store made before the column held).
    package static let stubRun = "stub_run"
    /// What the map read for the object when an import last wrote it (`ContentDigest`), NULL
    /// when it has none: its entity takes none, a store made before the column held, or
    /// something other than an import's draft wrote the row or its lists since.
    package static let contentDigest = "content_digest"
    /// graphimport's own columns of every entity table, which no member of a map may take.
    package static let engineColumns = [primaryKey, insertedRun, changedRun, stubRun, contentDigest]

    /// `createdAt` -> `created_at`, `userID` -> `user_id`, `URLString` -> `url_string`, `Tweet` -> `tweet`.
    /// - Complexity: O(n): the result is built in an array of scalars, since appending to a
    ///   `String.UnicodeScalarView` copied the text each time (quadratic on a long key).
    package static func snakeCase(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var out = ""
        out.reserveCapacity(name.utf8.count + 8)
        for (index, scalar) in scalars.enumerated() {
            let isUpper = scalar.properties.isUppercase
            if isUpper && index > 0 {
                let previous = scalars[index - 1]
                let nextIsLower = index + 1 < scalars.count && scalars[index + 1].properties.isLowercase
                let previousIsLowerOrDigit = previous.properties.isLowercase || ("0"..."9").contains(previous)
                if previous != "_" && (previousIsLowerOrDigit || (previous.properties.isUppercase && nextIsLower)) {
                    out.append("_")
                }
            }
            if isUpper { out += String(scalar).lowercased() } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// An entity's table: the map's `table` name, else `defaultTable(entity:)`.
    package static func table(entity: String, explicit: String?) -> String {
        explicit ?? defaultTable(entity: entity)
    }

    /// The table of an entity without a `table` line, as `init` and the shipped maps name theirs:
    /// the snake-cased name with its last word in the plural (`PullRequest` -> `pull_requests`,
    /// `Person` -> `people`), so that no default needs quotes in sqlite3 or psql (`User` ->
    /// `users`, `Order` -> `orders`). Should the plural need quotes, the singular, else `_items`
    /// added; a name that needs quotes for its characters (not ASCII) stays as it is.
    package static func defaultTable(entity: String) -> String {
        let snake = snakeCase(entity)
        var words = snake.split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        words[words.count - 1] = plural(words[words.count - 1])
        let candidates = [words.joined(separator: "_"), snake, snake + "_items"]
        return candidates.first { !needsQuotes($0) } ?? snake
    }

    /// `defaultTable(entity:)`, numbered (`users_2`) when it is one of `taken`: what `init` names a
    /// drafted entity's table, and what `check` offers for a table that needs quotes.
    package static func defaultTable(entity: String, avoiding taken: Set<String>) -> String {
        let base = defaultTable(entity: entity)
        var name = base
        var suffix = 2
        while taken.contains(name) {
            name = base + "_" + String(suffix)
            suffix += 1
        }
        return name
    }

    /// The table graphimport gave an entity without a `table` line before the default was
    /// plural: the snake-cased name (`User` -> `user`). A store made then holds it; an import
    /// renames it to `defaultTable(entity:)` (`ImportPlan.formerSchema`).
    package static func formerDefaultTable(entity: String) -> String {
        snakeCase(entity)
    }

    /// `hashtags` -> `hashtag`, `statuses` -> `status`, `replies` -> `reply`; a guess in English.
    package static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("ies"), word.count > 4 { return String(word.dropLast(3)) + "y" }
        for ending in ["sses", "uses", "xes", "ches", "shes"] where lower.hasSuffix(ending) {
            return String(word.dropLast(2))
        }
        if lower.hasSuffix("s"), !lower.hasSuffix("ss"), !lower.hasSuffix("us"), !lower.hasSuffix("is"), word.count > 2 {
            return String(word.dropLast())
        }
        return word
    }

    /// `user` -> `users`, `reply` -> `replies`, `status` -> `statuses`; a word that already looks
    /// plural (`series`, `news`, `media`, `data`) stays as it is. A guess in English, like `singular`.
    package static func plural(_ word: String) -> String {
        let lower = word.lowercased()
        if lower.hasSuffix("s"), singular(word) != word { return word }
        if ["data", "media", "criteria", "info"].contains(where: lower.hasSuffix) { return word }
        if lower.hasSuffix("person") { return String(word.dropLast(6)) + "people" }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) { return String(word.dropLast()) + "ies" }
        for ending in ["s", "x", "z", "ch", "sh"] where lower.hasSuffix(ending) { return word + "es" }
        return word + "s"
    }

    /// Words a table cannot be named without quotes in sqlite3 or psql: SQLite's keywords that
    /// fail as a bare table name (tried one by one in CREATE, SELECT, JOIN and INSERT against
    /// SQLite 3.40), and PostgreSQL's reserved keywords (`pg_get_keywords()` of category R or T,
    /// PostgreSQL 15). `user` is among them: `select * from user` in psql reads the session user.
    package static let wordsNeedingQuotes: Set<String> = [
        "add", "all", "alter", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization",
        "autoincrement", "between", "binary", "both", "case", "cast", "check", "collate", "collation", "column", "commit",
        "concurrently", "constraint", "create", "cross", "current_catalog", "current_date", "current_role", "current_schema",
        "current_time", "current_timestamp", "current_user", "default", "deferrable", "delete", "desc", "distinct", "do", "drop",
        "else", "end", "escape", "except", "exists", "false", "fetch", "for", "foreign", "freeze", "from", "full", "grant", "group",
        "having", "if", "ilike", "in", "index", "initially", "inner", "insert", "intersect", "into", "is", "isnull", "join",
        "lateral", "leading", "left", "like", "limit", "localtime", "localtimestamp", "natural", "not", "nothing", "notnull",
        "null", "offset", "on", "only", "or", "order", "outer", "overlaps", "placing", "primary", "references", "returning",
        "right", "select", "session_user", "set", "similar", "some", "symmetric", "table", "tablesample", "then", "to",
        "trailing", "transaction", "true", "union", "unique", "update", "user", "using", "values", "variadic", "verbose", "when",
        "where", "window", "with",
    ]

    /// Whether `table` must be quoted in a query typed into sqlite3 or psql: a word either
    /// reserves, or a name that is not lowercase letters, digits and `_` starting with a letter or
    /// `_` (psql folds unquoted capitals).
    package static func needsQuotes(_ table: String) -> Bool {
        guard let first = table.unicodeScalars.first, first == "_" || ("a"..."z").contains(first) else { return true }
        let plain = table.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
        return !plain || wordsNeedingQuotes.contains(table)
    }

    /// An attribute's column.
    package static func column(attribute: String) -> String { snakeCase(attribute) }

    /// The column of an owned entity's table that holds part `attribute` of its owner's key
    /// (`id` -> `owner_id`); the owned object's position is `position`.
    package static func ownerKey(attribute: String) -> String { "owner_" + snakeCase(attribute) }

    /// The foreign-key column of a to-one relationship.
    package static func foreignKey(relationship: String) -> String { snakeCase(relationship) + "_" + primaryKey }

    /// The join table of a to-many relationship.
    package static func joinTable(ownerTable: String, relationship: String) -> String {
        ownerTable + "_" + snakeCase(relationship)
    }

    /// The two columns of a join table: the owner's and the target's (named after the
    /// relationship when both sides are the same table, so that they differ).
    package static func joinColumns(ownerTable: String, targetTable: String, relationship: String) -> (owner: String, target: String) {
        let owner = ownerTable + "_" + primaryKey
        let target = targetTable == ownerTable ? snakeCase(relationship) + "_" + primaryKey : targetTable + "_" + primaryKey
        return (owner, target)
    }
}
