extension Parser {
    /// What `parseClause` returns after an `inverse` clause.
    var inverseName: String { "the inverse name" }

    /// clause = "default" value | "always" value | "onchange" value | "null" nullRule
    ///        | "missing" missingRule | "check" converter [ STRING ] | "derived" STRING
    ///        | "inverse" NAME | "delete" ( "nullify" | "cascade" | "deny" ) | "each" path | "by" path
    ///        | "merge" | "link" "existing" | "unkeyed" ( "skip" | "reject" ) ;
    /// Each clause appears at most once, except `check`. Returns what was read, for the message
    /// when something other than a clause follows ("after the default value").
    mutating func parseClause(into member: inout MemberSyntax) throws(Problem) -> String {
        let keyword = Located(value: text(current), offset: current.start)
        func once<Value>(_ existing: ClauseSyntax<Value>?) throws(Problem) {
            if existing != nil { throw .repeatedClause(keyword.value, member: member.name.value, at: keyword.offset) }
        }
        advance()
        switch keyword.value {
        case Keyword.default:
            try once(member.defaultValue)
            member.defaultValue = ClauseSyntax(keyword: keyword, value: try parseValueExpression(after: keyword.value))
            return "the default value"
        case Keyword.always:
            try once(member.always)
            member.always = ClauseSyntax(keyword: keyword, value: try parseValueExpression(after: keyword.value))
            return "the always value"
        case Keyword.onchange:
            try once(member.onChange)
            member.onChange = ClauseSyntax(keyword: keyword, value: try parseValueExpression(after: keyword.value))
            return "the onchange value"
        case Keyword.null:
            try once(member.nullRule)
            member.nullRule = ClauseSyntax(keyword: keyword, value: try parseNullRule())
            return "the null rule"
        case Keyword.missing:
            try once(member.missingRule)
            member.missingRule = ClauseSyntax(keyword: keyword, value: try parseMissingRule())
            return "the missing rule"
        case Keyword.check:
            let call = try parseConverter("a validator name after 'check'")
            var message: String?
            if current.kind == .unterminatedString { throw .unterminatedString(at: current.start) }
            if current.kind == .string {
                message = try lexer.decodeString(current)
                advance()
            }
            member.checks.append(CheckSyntax(call: call, message: message, keywordOffset: keyword.offset))
            return message == nil ? "the check" : "the check's message"
        case Keyword.derived:
            try once(member.derived)
            member.derived = ClauseSyntax(keyword: keyword, value: try parseTemplate())
            return "the template"
        case Keyword.inverse:
            if member.inverse != nil { throw .repeatedClause(keyword.value, member: member.name.value, at: keyword.offset) }
            member.inverse = try parseName("a relationship name after 'inverse'")
            return inverseName
        case Keyword.delete:
            try once(member.deleteRule)
            member.deleteRule = ClauseSyntax(keyword: keyword, value: try parseDeleteRule())
            return "the delete rule"
        case Keyword.merge, Keyword.link:
            return try parsePolicyClause(keyword, into: &member)
        case Keyword.by:
            try once(member.choice)
            member.choice = try parseChoiceClause(keyword: keyword)
            return "the path after 'by'"
        case Keyword.unkeyed:
            try once(member.unkeyedRule)
            member.unkeyedRule = ClauseSyntax(keyword: keyword, value: try parseUnkeyedRule())
            return "the unkeyed rule"
        default:  // Keyword.each
            try once(member.elementPath)
            let offset = current.start
            let path = try rejectingKeyedSteps(parsePath(allowingAnyIndex: false, after: "'each'"), at: offset, place: "`each`")
            member.elementPath = ClauseSyntax(keyword: keyword, value: Located(value: path, offset: offset))
            return "the element path"
        }
    }

    /// value = literal | "now" | "run" ;
    private mutating func parseValueExpression(after keyword: String) throws(Problem) -> Located<ValueExpression> {
        let offset = current.start
        if isWord(Keyword.now) || isWord(Keyword.run) {
            defer { advance() }
            return Located(value: isWord(Keyword.now) ? .now : .run, offset: offset)
        }
        let literal = try parseLiteral("a value after '\(keyword)' (a string, a number, true, false, 'now' or 'run')")
        return Located(value: .literal(literal.value), offset: offset)
    }

    /// nullRule = "store" | "keep" | "reject" | literal ;
    private mutating func parseNullRule() throws(Problem) -> Located<NullRule> {
        let offset = current.start
        let rules: [String: NullRule] = [Keyword.store: .store, Keyword.keep: .keep, Keyword.reject: .reject]
        if current.kind == .identifier, let rule = rules[text(current)] {
            advance()
            return Located(value: rule, offset: offset)
        }
        let literal = try parseLiteral("'store', 'keep', 'reject' or a value after 'null'")
        return Located(value: .value(literal.value), offset: offset)
    }

    /// missingRule = "keep" | "null" | "reject" | literal ;
    private mutating func parseMissingRule() throws(Problem) -> Located<MissingRule> {
        let offset = current.start
        let rules: [String: MissingRule] = [Keyword.keep: .keep, Keyword.null: .null, Keyword.reject: .reject]
        if current.kind == .identifier, let rule = rules[text(current)] {
            advance()
            return Located(value: rule, offset: offset)
        }
        let literal = try parseLiteral("'keep', 'null', 'reject' or a value after 'missing'")
        return Located(value: .value(literal.value), offset: offset)
    }

    /// deleteRule = "nullify" | "cascade" | "deny" ;
    private mutating func parseDeleteRule() throws(Problem) -> Located<DeleteRule> {
        let offset = current.start
        guard current.kind == .identifier, let rule = DeleteRule(rawValue: text(current)) else {
            let words = DeleteRule.allCases.map(\.rawValue)
            if current.kind == .identifier, let suggestion = closestMatch(to: text(current), among: words) {
                throw .unknownDeleteRule(text(current), suggestion: suggestion, at: offset)
            }
            throw expected("'nullify', 'cascade' or 'deny' after 'delete'")
        }
        advance()
        return Located(value: rule, offset: offset)
    }
}
