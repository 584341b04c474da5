/// Clauses and statements that choose what an import may do: `merge` and `link existing` after a
/// relationship's type, `mode` below an entity.
extension Parser {
    /// "merge" | "link" "existing" (the keyword already read). Returns what was read.
    mutating func parsePolicyClause(_ keyword: Located<String>, into member: inout MemberSyntax) throws(Problem) -> String {
        if keyword.value == Keyword.merge {
            if member.merge != nil { throw .repeatedClause(keyword.value, member: member.name.value, at: keyword.offset) }
            member.merge = keyword
            return "'merge'"
        }
        if member.linkExisting != nil { throw .repeatedClause(keyword.value, member: member.name.value, at: keyword.offset) }
        guard isWord(Keyword.existing) else {
            if current.kind == .identifier, closestMatch(to: text(current), among: [Keyword.existing]) != nil {
                throw .unknownLinkPolicy(text(current), at: current.start)
            }
            throw expected("'existing' after 'link' (link only objects already stored)")
        }
        advance()
        member.linkExisting = keyword
        return "'link existing'"
    }

    /// mode = "mode" ( "insert" | "update" | "upsert" ) ;
    mutating func parseMode() throws(Problem) {
        guard
            let (mode, offset, entity) = try parseEntityWord(
                ImportMode.self, Keyword.mode, choices: "'insert', 'update' or 'upsert'", unknown: Problem.unknownMode)
        else { return }
        syntax.entities[entity].modes.append(Located(value: mode, offset: offset))
    }

    /// occurrence = "occurrence" ( "first" | "last" ) ;
    mutating func parseOccurrence() throws(Problem) {
        guard
            let (occurrence, offset, entity) = try parseEntityWord(
                Occurrence.self, Keyword.occurrence, choices: "'first' or 'last'", unknown: Problem.unknownOccurrence)
        else { return }
        syntax.entities[entity].occurrences.append(Located(value: occurrence, offset: offset))
    }

    /// A statement below an entity made of its keyword and one word of `Word`'s cases (`mode
    /// insert`, `occurrence first`), the keyword not yet read: the word, the statement's offset and
    /// its entity's index, or nil after an entity line that failed (its statements are not reported again).
    private mutating func parseEntityWord<Word: RawRepresentable & CaseIterable>(
        _: Word.Type, _ keyword: String, choices: String, unknown: (String, String?, Int) -> Problem
    ) throws(Problem) -> (Word, Int, Int)? where Word.RawValue == String {
        let offset = current.start
        advance()
        let wordOffset = current.start
        guard current.kind == .identifier, let word = Word(rawValue: text(current)) else {
            if current.kind == .identifier {
                throw unknown(text(current), closestMatch(to: text(current), among: Word.allCases.map(\.rawValue)), wordOffset)
            }
            throw expected("\(choices) after '\(keyword)'")
        }
        advance()
        try expectEndOfLine("end of line after the \(keyword)")
        guard let entityIndex else {
            if entityLineFailed { return nil }
            throw .statementOutsideEntity(keyword, written: "\(keyword) \(word.rawValue)", at: offset)
        }
        return (word, offset, entityIndex)
    }
}
