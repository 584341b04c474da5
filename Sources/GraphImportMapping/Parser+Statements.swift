/// The statements that came with response metadata, entity options and polymorphic records.
extension Parser {
    /// meta = "meta" NAME [ "<-" path ] ":" NAME [ "?" ] { "|" converter } ;
    /// The type must be built in; the validator says so when it is not.
    mutating func parseMeta() throws(Problem) {
        advance()
        let name = try parseName("a name after 'meta'")
        var path: KeyPath?
        var pathOffset: Int?
        if current.kind == .arrow {
            advance()
            pathOffset = current.start
            path = try rejectingKeyedSteps(parsePath(allowingAnyIndex: false, after: "'<-'"), at: pathOffset ?? 0, place: "a `meta` line")
            guard current.kind == .colon else { throw expected("':' and a type after the path") }
        } else if current.kind != .colon {
            throw expected("'<-' and a path, or ':' and a type after the meta name")
        }
        advance()
        let isList = current.kind == .leftBracket
        if isList { advance() }
        let typeName = try parseName(isList ? "an entity name after '['" : "a type after ':'")
        if isList {
            guard current.kind == .rightBracket else { throw expected("']' after the entity name") }
            advance()
        }
        let isOptional = current.kind == .question
        if isOptional { advance() }
        var converters: [ConverterSyntax] = []
        while current.kind == .pipe {
            advance()
            converters.append(try parseConverter("a converter name after '|'"))
        }
        try expectEndOfLine(
            converters.isEmpty
                ? "'|' and a converter, or end of line after the type" : "'|' and a converter, or end of line after the converter")
        syntax.meta.append(
            MetaSyntax(
                name: name, path: path, pathOffset: pathOffset, typeName: typeName, isList: isList, isOptional: isOptional,
                converters: converters))
    }

    /// extras = "extras" NAME ;
    mutating func parseExtras() throws(Problem) {
        let offset = current.start
        advance()
        let name = try parseName("an attribute name after 'extras'")
        try expectEndOfLine("end of line after the attribute name")
        guard let entityIndex else {
            if entityLineFailed { return }
            throw .statementOutsideEntity(Keyword.extras, written: "extras NAME", at: offset)
        }
        syntax.entities[entityIndex].extras.append(ExtrasSyntax(name: name, offset: offset))
    }

    /// deletion = "delete" "missing" [ "within" NAME ] ;
    mutating func parseDeletion() throws(Problem) {
        let offset = current.start
        advance()
        guard isWord(Keyword.missing) else { throw expected("'missing' after 'delete'") }
        advance()
        var scope: Located<String>?
        if isWord(Keyword.within) {
            advance()
            scope = try parseName("a relationship name after 'within'")
            try expectEndOfLine("end of line after the relationship name")
        } else {
            try expectEndOfLine("'within' or end of line after 'missing'")
        }
        guard let entityIndex else {
            if entityLineFailed { return }
            throw .statementOutsideEntity(Keyword.delete, written: "delete missing", at: offset)
        }
        syntax.entities[entityIndex].deletions.append(DeletionSyntax(scope: scope, offset: offset))
    }

    /// A case line starts with a literal, or with a name followed by `->` (a value written without quotes).
    var startsCaseLine: Bool {
        switch current.kind {
        case .string, .unterminatedString, .integer, .decimal: true
        case .identifier: peek().kind == .caseArrow
        default: false
        }
    }

    /// case = ( STRING | INTEGER | "true" | "false" | "else" ) "->" ( NAME [ "at" path ] | "ignore" ) ;
    /// It belongs to the `records … by` line above it, with only case lines in between.
    mutating func parseCase() throws(Problem) {
        let line: CaseSyntax
        do throws(Problem) {
            let value: Located<Literal?>
            if isWord(Keyword.else) && peek().kind == .caseArrow {
                value = Located(value: nil, offset: current.start)
                advance()
            } else {
                let literal = try parseLiteral("a case value (a string, an integer, true or false) or 'else'")
                if case .double = literal.value { throw .decimalCaseValue(literal.value, at: literal.offset) }
                value = Located(value: literal.value, offset: literal.offset)
            }
            guard current.kind == .caseArrow else { throw expected("'->' and an entity after the case value") }
            advance()
            let name = try parseName("an entity name or 'ignore' after '->'")
            var subpath = KeyPath([])
            if name.value == Keyword.ignore {
                try expectEndOfLine("end of line after 'ignore'")
            } else if isWord(Keyword.at) {
                advance()
                let offset = current.start
                subpath = try rejectingKeyedSteps(parsePath(allowingAnyIndex: false, after: "'at'"), at: offset, place: "a case")
                try expectEndOfLine("end of line after the path")
            } else {
                try expectEndOfLine("'at' or end of line after the entity name")
            }
            line = CaseSyntax(value: value, entity: name.value == Keyword.ignore ? nil : name, subpath: subpath)
        } catch {
            if case .open(let index) = choice { syntax.records[index].hasBrokenCase = true }
            throw error
        }
        switch choice {
        case .open(let index): syntax.records[index].cases.append(line)
        case .broken: return
        case .none: throw .caseOutsideRecords(at: line.value.offset)
        }
    }
}
