/// Polymorphic relationships: `parent <- parent_id : (Post | Comment)? by $` and the case lines
/// below it, which choose each element's entity as a `records … by` line's cases choose a record's.
extension Parser {
    /// `{ "|" NAME }` after the first entity name inside `(` or `[`; for `(`, at least one, and the
    /// closing `)`. Returns the names after the first.
    mutating func parseAlternatives(after first: Located<String>, grouped: Bool) throws(Problem) -> [Located<String>] {
        var names: [Located<String>] = []
        while current.kind == .pipe {
            advance()
            names.append(try parseName("an entity name after '|'"))
        }
        guard grouped else { return names }
        guard !names.isEmpty else { throw expected("'|' and another entity name after '\(first.value)' (one entity needs no parentheses)") }
        guard current.kind == .rightParen else { throw expected("'|' or ')' after the entity name") }
        advance()
        return names
    }

    /// The path after `by` in a member's clauses: where each element's discriminator sits.
    mutating func parseChoiceClause(keyword: Located<String>) throws(Problem) -> ClauseSyntax<KeyPath> {
        let offset = current.start
        let path = try rejectingKeyedSteps(parsePath(allowingAnyIndex: false, after: "'by'"), at: offset, place: "a discriminator")
        return ClauseSyntax(keyword: keyword, value: Located(value: path, offset: offset))
    }

    /// `has prefix` or `has suffix` at the start of a line: a relationship's case line.
    var startsRelationshipCase: Bool {
        guard isWord(Keyword.has) else { return false }
        let next = peek()
        return next.kind == .identifier && [Keyword.prefix, Keyword.suffix].contains(text(next))
    }

    /// relationshipCase = ( STRING | INTEGER | "true" | "false" | "else" | "has" ( "prefix" | "suffix" ) STRING )
    ///                    "->" ( NAME | "ignore" ) ;
    /// It belongs to the member line above it, with only case and `link` lines in between.
    mutating func parseRelationshipCase(owner: LinkOwner) throws(Problem) {
        linkOwner = owner
        let line: RelationshipCaseSyntax
        do throws(Problem) {
            let offset = current.start
            var test: RelationshipCase.Test?
            if isWord(Keyword.else) && peek().kind == .caseArrow {
                advance()
            } else if startsRelationshipCase {
                advance()
                let isPrefix = isWord(Keyword.prefix)
                advance()
                guard current.kind == .string else {
                    if current.kind == .unterminatedString { throw .unterminatedString(at: current.start) }
                    throw expected("a string after '\(isPrefix ? "has prefix" : "has suffix")'")
                }
                let text = try lexer.decodeString(current)
                advance()
                test = isPrefix ? .hasPrefix(text) : .hasSuffix(text)
            } else {
                let literal = try parseLiteral("a case value (a string, an integer, true or false), 'has prefix', 'has suffix' or 'else'")
                if case .double = literal.value { throw .decimalCaseValue(literal.value, at: literal.offset) }
                test = .equals(literal.value)
            }
            guard current.kind == .caseArrow else { throw expected("'->' and an entity after the case") }
            advance()
            let name = try parseName("an entity name or 'ignore' after '->'")
            if isWord(Keyword.at) { throw .caseAtInRelationship(at: current.start) }
            try expectEndOfLine(name.value == Keyword.ignore ? "end of line after 'ignore'" : "end of line after the entity name")
            line = RelationshipCaseSyntax(test: test, offset: offset, entity: name.value == Keyword.ignore ? nil : name)
        } catch {
            if case .open(let entity, let member) = owner { syntax.entities[entity].members[member].hasBrokenCase = true }
            throw error
        }
        switch owner {
        case .open(let entity, let member): syntax.entities[entity].members[member].cases.append(line)
        case .broken, .none: return
        }
    }
}

extension Parser.LinkOwner {
    /// Whether a member line (or a line below one) is above: case lines may follow.
    var isOpen: Bool {
        if case .none = self { return false }
        return true
    }
}

/// `"photo" -> Photo`, `has prefix "t3_" -> Post`, `else -> ignore`, below a relationship.
struct RelationshipCaseSyntax: Sendable {
    /// nil for `else`.
    var test: RelationshipCase.Test?
    /// Where the case starts.
    var offset: Int
    /// nil for `ignore`.
    var entity: Located<String>?
}
