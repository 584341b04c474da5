internal import CLibPQ
internal import CLibPQLoader

/// A `--store` that names a PostgreSQL database: a libpq connection URI
/// (`postgresql://user@host/db?options=-csearch_path%3Dfeeds`) or keyword string
/// (`host=db1 dbname=feeds user=importer`).
///
/// Its `description` is the text with any password replaced by `***`, and `scrub` does the same
/// to messages: a password given in the string never reaches an error, the run history or `--json`.
public struct ConnectionString: Sendable, Equatable, CustomStringConvertible {
    /// The text as given, password included: only ever handed to libpq.
    let text: String
    /// The password given in the text (raw and as libpq decodes it), for `scrub`.
    private let secrets: [String]
    /// The text with its password replaced by `***`.
    public let description: String

    /// A connection string, or nil when `store` is a file path (the SQLite store).
    package init?(_ store: String) {
        guard Self.recognizes(store) else { return nil }
        text = store
        var found: [String] = []
        description = Self.redacting(store, into: &found)
        if let parsed = Self.parsedPassword(store) { found.append(parsed) }
        secrets = found.filter { !$0.isEmpty }
    }

    /// True for `postgresql://…`, `postgres://…`, and a string that begins with a libpq keyword
    /// and `=` (`dbname=feeds`, `host = db1 …`). A file whose name looks so is given as `./dbname=x`.
    package static func recognizes(_ store: String) -> Bool {
        if store.hasPrefix("postgresql://") || store.hasPrefix("postgres://") { return true }
        let trimmed = store.drop { $0 == " " }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let keyword = trimmed[..<equals].trimmingSuffix { $0 == " " }
        return !keyword.isEmpty && keywords.contains(String(keyword))
    }

    /// The keywords libpq knows (`host`, `dbname`, `user`, `sslmode`, …), from libpq itself; when
    /// libpq cannot be loaded, the common ones, so that the string still names PostgreSQL and its
    /// import fails saying libpq is missing rather than writing a file of that name.
    static let keywords: Set<String> = {
        guard PostgresConnection.libraryLoads else {
            return ["host", "hostaddr", "port", "dbname", "user", "password", "passfile", "service", "sslmode", "connect_timeout", "options"]
        }
        guard let defaults = PQconndefaults() else { return [] }
        defer { PQconninfoFree(defaults) }
        var names: Set<String> = []
        var option = defaults
        while let keyword = option.pointee.keyword {
            names.insert(String(cString: keyword))
            option += 1
        }
        return names
    }()

    /// `message` with the connection string and its password replaced by their redacted forms.
    package func scrub(_ message: String) -> String {
        var result = message.replacingAll(text, with: description)
        for secret in secrets { result = result.replacingAll(secret, with: "***") }
        return result
    }

    /// The password as libpq reads it from the text (percent-decoded in a URI), when it parses.
    private static func parsedPassword(_ text: String) -> String? {
        guard PostgresConnection.libraryLoads else { return nil }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &error) else {
            if let error { PQfreemem(error) }
            return nil
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val { return String(cString: value) }
            option += 1
        }
        return nil
    }

    /// The text with the password of a URI's user information replaced by `***`, and the value
    /// of every parameter (a URI's query, a keyword string's `keyword=value`) whose keyword is not
    /// one of `shownKeywords`: a password, and whatever a misspelt keyword (`passWORD=`) holds.
    /// Each value replaced is added to `secrets`.
    static func redacting(_ text: String, into secrets: inout [String]) -> String {
        var characters = Array(text)
        if let scheme = text.firstRange(of: "://") {
            let start = text.distance(from: text.startIndex, to: scheme.upperBound)
            let authorityEnd = characters[start...].firstIndex { $0 == "/" || $0 == "?" } ?? characters.endIndex
            if let at = characters[start..<authorityEnd].lastIndex(of: "@"),
                let colon = characters[start..<at].firstIndex(of: ":")
            {
                secrets.append(String(characters[(colon + 1)..<at]))
                characters.replaceSubrange((colon + 1)..<at, with: "***")
            }
            guard let query = characters.firstIndex(of: "?") else { return String(characters) }
            return redactingParameters(characters, from: query + 1, separator: "&", into: &secrets)
        }
        return redactingParameters(characters, from: 0, separator: " ", into: &secrets)
    }

    /// The keywords whose values a message may show: libpq's, but for the passwords.
    static let shownKeywords: Set<String> = keywords.subtracting(["password", "sslpassword"])

    /// Replaces the value of each parameter from `start` on whose keyword is not shown with `***`.
    /// Parameters are separated by `separator` (a keyword string's by any white space), and a
    /// keyword string's value may be quoted (`'…'`, with `\'`).
    private static func redactingParameters(
        _ input: [Character], from start: Int, separator: Character, into secrets: inout [String]
    ) -> String {
        var characters = input
        let isSpaced = separator == " "
        func separates(_ character: Character) -> Bool { character == separator || (isSpaced && character.isWhitespace) }
        var index = start
        while index < characters.count {
            while index < characters.count, separates(characters[index]) { index += 1 }
            let keywordStart = index
            while index < characters.count, characters[index] != "=", !separates(characters[index]) { index += 1 }
            let keyword = String(characters[keywordStart..<index])
            var cursor = index
            if isSpaced { while cursor < characters.count, characters[cursor] == " " { cursor += 1 } }
            guard cursor < characters.count, characters[cursor] == "=" else {
                index = max(cursor, index)
                continue
            }
            cursor += 1
            if isSpaced { while cursor < characters.count, characters[cursor] == " " { cursor += 1 } }
            let valueStart = cursor
            if isSpaced, cursor < characters.count, characters[cursor] == "'" {
                cursor += 1
                while cursor < characters.count, characters[cursor] != "'" {
                    cursor += characters[cursor] == "\\" ? 2 : 1
                }
                cursor = min(cursor + 1, characters.count)
            } else {
                while cursor < characters.count, !separates(characters[cursor]) { cursor += 1 }
            }
            guard !shownKeywords.contains(keyword) else {
                index = cursor
                continue
            }
            let value = String(characters[valueStart..<cursor])
            secrets.append(value)
            if value.hasPrefix("'"), value.hasSuffix("'"), value.count >= 2 { secrets.append(String(value.dropFirst().dropLast())) }
            characters.replaceSubrange(valueStart..<cursor, with: "***")
            index = valueStart + 3
        }
        return String(characters)
    }
}

extension StringProtocol {
    /// The text without the trailing characters that match `predicate`.
    func trimmingSuffix(while predicate: (Character) -> Bool) -> SubSequence {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}

extension String {
    /// Every occurrence of `target` replaced by `replacement` (no Foundation).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
