/// Whether a member name is shaped like a value rather than a field name: what an object keyed by
/// data uses for its member names (ids, timestamps, versions, hashes, codes).
///
/// The shapes are those that field names of JSON APIs do not take, so that one such name is
/// evidence on its own; a name in words (`alice`, `production`) is never taken for data, since
/// nothing in its shape says so (such objects are found by their size instead).
enum DataKeyShape {
    static func looksLikeData(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard let first = scalars.first else { return false }
        if isDigit(first), numeric(scalars) { return true }
        // `v1.2.3`: a version.
        if first == "v" || first == "V", scalars.count > 1, isDigit(scalars[1]), numeric(Array(scalars.dropFirst())) { return true }
        if name.contains("://") || (name.contains("@") && name.contains(".")) { return true }
        return uuid(scalars) || hash(scalars) || codedId(scalars)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }
    private static func isHex(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || (scalar >= "a" && scalar <= "f") || (scalar >= "A" && scalar <= "F")
    }
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
    }

    /// `123`, `2.18.4`, `2024-04-27`, `2024-04-27T06:30:00+02:00`, `1564308009.804`: digits and
    /// the separators of numbers, dates and times, starting with a digit.
    private static func numeric(_ scalars: [Unicode.Scalar]) -> Bool {
        scalars.allSatisfy { isDigit($0) || "-.:+/_ ".unicodeScalars.contains($0) || $0 == "T" || $0 == "Z" }
    }

    /// `123e4567-e89b-12d3-a456-426614174000`.
    private static func uuid(_ scalars: [Unicode.Scalar]) -> Bool {
        let groups = String(String.UnicodeScalarView(scalars)).split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.unicodeScalars.allSatisfy(isHex) }
    }

    /// `a94a8fe5`, `3f786850e387550fdab836ed7e6dc881de23001b`: eight or more hex digits, some of
    /// them digits and some letters (a word like `deadbeef` or a number is not taken for one).
    private static func hash(_ scalars: [Unicode.Scalar]) -> Bool {
        scalars.count >= 8 && scalars.allSatisfy(isHex) && scalars.contains(where: isDigit) && scalars.contains(where: isLetter)
    }

    /// `Q42`, `P31`, `AB-1234` (one to three capitals), `nm0186505`, `tt5104604` (one to three
    /// small letters): then an optional `-` or `_`, and digits to the end, at least two after
    /// capitals and four after small letters, so that `p95`, `x86` or `h264` stay field names.
    private static func codedId(_ scalars: [Unicode.Scalar]) -> Bool {
        let letters = scalars.prefix(while: isLetter)
        guard (1...3).contains(letters.count) else { return false }
        let capitals = letters.allSatisfy { $0 >= "A" && $0 <= "Z" }
        guard capitals || letters.allSatisfy({ $0 >= "a" && $0 <= "z" }) else { return false }
        var rest = scalars.dropFirst(letters.count)
        if let separator = rest.first, separator == "-" || separator == "_" { rest = rest.dropFirst() }
        return rest.count >= (capitals ? 2 : 4) && rest.allSatisfy(isDigit)
    }
}
