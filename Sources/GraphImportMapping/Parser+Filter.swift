extension Parser {
    /// `{ "," path }` after a member's first path: the fallback paths, tried in order.
    mutating func parseFallbackPaths() throws(Problem) -> [Located<KeyPath>] {
        var paths: [Located<KeyPath>] = []
        while current.kind == .comma {
            advance()
            let offset = current.start
            paths.append(Located(value: try parsePath(allowingAnyIndex: false, after: "','"), offset: offset))
        }
        return paths
    }

    /// [ "where" condition ] after the path(s) of a member or a `records` line.
    mutating func parseOptionalFilter() throws(Problem) -> FilterSyntax? {
        guard isWord(Keyword.where) else { return nil }
        return try parseFilter()
    }

    /// condition = path ( "=" filterValue | "in" "(" filterValue { "," filterValue } ")"
    ///           | "has" ( "prefix" | "suffix" ) STRING | "matches" STRING
    ///           | "is" ( "present" | "absent" | "null" ) ) ;
    /// filterValue = STRING | INTEGER | "true" | "false" ;
    private mutating func parseFilter() throws(Problem) -> FilterSyntax {
        let offset = current.start
        advance()
        let fieldOffset = current.start
        let field = try parsePath(allowingAnyIndex: false, after: "'where'")
        if field.isAnchored { throw .anchorMisplaced(field.components.first == .root ? "@root" : "@parent", place: "a `where` condition", at: fieldOffset) }
        let test: ElementFilter.Test
        if current.kind == .equals {
            let equals = current.start
            advance()
            if current.kind == .equals { throw .unknownFilterOperator("==", suggestion: "=", at: equals) }
            test = .equals([try parseFilterValue().value])
        } else if isWord(Keyword.in) {
            advance()
            guard current.kind == .leftParen else { throw expected("'(' and a list of values after 'in'") }
            let open = current.start
            advance()
            guard current.kind != .rightParen else { throw .emptyFilterList(at: open) }
            var values = [try parseFilterValue().value]
            while current.kind == .comma {
                advance()
                let value = try parseFilterValue()
                if values.contains(value.value) { throw .repeatedFilterValue(value.value, at: value.offset) }
                values.append(value.value)
            }
            guard current.kind == .rightParen else { throw expected("',' or ')' after the value") }
            advance()
            test = .equals(values)
        } else if isWord(Keyword.has) {
            advance()
            let isPrefix = isWord(Keyword.prefix)
            guard isPrefix || isWord(Keyword.suffix) else { throw expected("'prefix' or 'suffix' after 'has'") }
            advance()
            let text = try parseFilterText(after: isPrefix ? "has prefix" : "has suffix")
            test = isPrefix ? .hasPrefix(text) : .hasSuffix(text)
        } else if isWord(Keyword.matches) {
            advance()
            test = .matches(try parseFilterText(after: Keyword.matches))
        } else if isWord(Keyword.is) {
            advance()
            let tests: [String: ElementFilter.Test] = [Keyword.present: .isPresent, Keyword.absent: .isAbsent, Keyword.null: .isNull]
            guard current.kind == .identifier, let found = tests[text(current)] else {
                throw expected("'present', 'absent' or 'null' after 'is'")
            }
            advance()
            test = found
        } else if current.kind == .identifier || current.kind == .unexpected {
            let word = text(current)
            throw .unknownFilterOperator(word, suggestion: closestMatch(to: word, among: Keyword.filterOperators), at: current.start)
        } else {
            throw expected("'=', 'in', 'has prefix', 'has suffix', 'matches' or 'is' after the path of 'where'")
        }
        return FilterSyntax(offset: offset, field: field, test: test)
    }

    /// filterValue = STRING | INTEGER | "true" | "false" ; compared as a case value is.
    private mutating func parseFilterValue() throws(Problem) -> Located<Literal> {
        if isWord(Keyword.null) { throw .filterEqualsNull(at: current.start) }
        let literal = try parseLiteral("a value (a string, an integer, true or false)")
        if case .double = literal.value { throw .decimalFilterValue(literal.value, at: literal.offset) }
        return literal
    }

    /// The text after `has prefix`, `has suffix` or `matches`: a string.
    private mutating func parseFilterText(after word: String) throws(Problem) -> String {
        switch current.kind {
        case .string:
            defer { advance() }
            return try lexer.decodeString(current)
        case .unterminatedString: throw .unterminatedString(at: current.start)
        case .integer, .decimal: throw .filterTextNotString(word, found: text(current), at: current.start)
        case .identifier where isWord("true") || isWord("false"): throw .filterTextNotString(word, found: text(current), at: current.start)
        default: throw expected("a string after '\(word)'")
        }
    }
}
