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
        let offset = current.start
        advance()
        let wordOffset = current.start
        guard current.kind == .identifier, let mode = ImportMode(rawValue: text(current)) else {
            if current.kind == .identifier, let suggestion = closestMatch(to: text(current), among: ImportMode.allCases.map(\.rawValue)) {
                throw .unknownMode(text(current), suggestion: suggestion, at: wordOffset)
            }
            throw expected("'insert', 'update' or 'upsert' after 'mode'")
        }
        advance()
        try expectEndOfLine("end of line after the mode")
        guard let entityIndex else {
            if entityLineFailed { return }
            throw .statementOutsideEntity(Keyword.mode, written: "mode \(mode.rawValue)", at: offset)
        }
        syntax.entities[entityIndex].modes.append(Located(value: mode, offset: offset))
    }

    /// occurrence = "occurrence" ( "first" | "last" ) ;
    mutating func parseOccurrence() throws(Problem) {
        let offset = current.start
        advance()
        let wordOffset = current.start
        guard current.kind == .identifier, let occurrence = Occurrence(rawValue: text(current)) else {
            if current.kind == .identifier {
                throw .unknownOccurrence(text(current), suggestion: closestMatch(to: text(current), among: Occurrence.allCases.map(\.rawValue)), at: wordOffset)
            }
            throw expected("'first' or 'last' after 'occurrence'")
        }
        advance()
        try expectEndOfLine("end of line after the occurrence")
        guard let entityIndex else {
            if entityLineFailed { return }
            throw .statementOutsideEntity(Keyword.occurrence, written: "occurrence \(occurrence.rawValue)", at: offset)
        }
        syntax.entities[entityIndex].occurrences.append(Located(value: occurrence, offset: offset))
    }
}
