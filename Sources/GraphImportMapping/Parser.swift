/// Reads a map's tokens into `MapSyntax`, one function per grammar rule (the rule is its doc comment).
/// A syntax error ends its line: it is recorded, and parsing goes on at the next line so that
/// later errors are found in the same run.
struct Parser {
    let source: SourceText
    var lexer: Lexer
    var current: Token
    /// End of the last token consumed: where "expected X, found end of line" points.
    private var previousEnd = 0
    var syntax = MapSyntax()
    private(set) var problems: [Problem] = []
    /// The entity that member and key lines belong to; nil before the first `entity` line.
    var entityIndex: Int?
    /// After an `entity` line with an error, its member lines are still checked for syntax but dropped.
    var entityLineFailed = false
    /// The `records … by` line that case lines below it belong to.
    var choice = OpenChoice.none
    /// The file of the line being read, in a map with includes (see `enterFile`).
    var file = 0
    /// The member line that `link` lines below it belong to.
    var linkOwner = LinkOwner.none

    /// Whether a case line (`"t1" -> Comment`) may follow.
    enum OpenChoice {
        /// The previous statement was not a `records … by` line or a case line.
        case none
        /// Case lines go to `syntax.records[index]`.
        case open(Int)
        /// A `records` line with a syntax error: its case lines are checked for syntax but dropped.
        case broken
    }

    init(_ source: SourceText) {
        self.source = source
        lexer = Lexer(source)
        current = lexer.next()
    }

    /// map = { line } EOF ;
    mutating func parseMap() -> MapSyntax {
        while current.kind != .end {
            do throws(Problem) {
                try parseLine()
            } catch {
                problems.append(error)
                skipToNextLine()
            }
        }
        return syntax
    }

    /// line = [ statement ] NEWLINE ;
    private mutating func parseLine() throws(Problem) {
        enterFile()
        if current.kind != .newline { try parseStatement() }
        advance()
    }

    /// statement = records | case | meta | entity | key | extras | deletion | include | member | link | mode ;
    /// A line whose first name is followed by `<-` or `:` is a member, whatever the name; one that
    /// starts with a literal, or a name followed by `->`, is a case line.
    private mutating func parseStatement() throws(Problem) {
        let owner = linkOwner
        linkOwner = .none
        if startsCaseLine || startsRelationshipCase {
            if case .none = choice, owner.isOpen { return try parseRelationshipCase(owner: owner) }
            return try parseCase()
        }
        choice = .none
        guard current.kind == .identifier else {
            throw expected("`records`, `entity`, `key` or an attribute name at the start of a line")
        }
        let next = peek().kind
        if next == .arrow || next == .colon { return try parseMember() }
        let word = text(current)
        switch word {
        case Keyword.records: try parseRecords()
        case Keyword.entity: try parseEntity()
        case Keyword.key: try parseKey()
        case Keyword.meta: try parseMeta()
        case Keyword.extras: try parseExtras()
        case Keyword.delete: try parseDeletion()
        case Keyword.include: try parseInclude()
        case Keyword.link: try parseLink(owner: owner)
        case Keyword.mode: try parseMode()
        case Keyword.occurrence: try parseOccurrence()
        default:
            if let keyword = closestMatch(to: word, among: Keyword.statements) {
                if keyword == Keyword.entity { noteMisspelledEntityLine() }
                throw .unknownStatement(word, suggestion: keyword, at: current.start)
            }
            guard entityIndex != nil || entityLineFailed else {
                throw .unknownStatement(word, suggestion: nil, at: current.start)
            }
            try parseMember()
        }
    }

    /// `entiy User`: reported once; the lines below it are treated like those of a broken entity
    /// line, so they do not each add "appears before any entity" or "no entity named 'User'".
    private mutating func noteMisspelledEntityLine() {
        syntax.sawEntityLine = true
        entityIndex = nil
        entityLineFailed = true
        let next = peek()
        if next.kind == .identifier { syntax.brokenEntityNames.insert(text(next)) }
    }

    /// records = "records" "at" path { "," path } [ "where" condition ] [ "as" NAME | "by" path ] [ "missing" "empty" ] ;
    private mutating func parseRecords() throws(Problem) {
        let offset = current.start
        choice = .broken
        advance()
        guard isWord(Keyword.at) else { throw expected("'at' after 'records'") }
        advance()
        var pathOffsets = [current.start]
        var paths = [
            try rejectingKeyedSteps(
                parsePath(allowingAnyIndex: true, after: "'at'"), at: pathOffsets[0], place: "a `records` line", allowingAnyMember: true)
        ]
        while current.kind == .comma {
            advance()
            pathOffsets.append(current.start)
            paths.append(
                try rejectingKeyedSteps(
                    parsePath(allowingAnyIndex: true, after: "','"), at: pathOffsets[pathOffsets.count - 1], place: "a `records` line",
                    allowingAnyMember: true))
        }
        let filter = try parseOptionalFilter()
        var entity: Located<String>?
        var discriminator: Located<KeyPath>?
        var mayBeMissing = false
        if isWord(Keyword.as) {
            advance()
            entity = try parseName("an entity name after 'as'")
            if isWord(Keyword.by) { throw .asAndBy(at: current.start) }
            mayBeMissing = try parseMissingEmpty()
            try expectEndOfLine("end of line after the entity name")
        } else if isWord(Keyword.by) {
            let by = current.start
            advance()
            let pathOffset = current.start
            let path = try parsePath(allowingAnyIndex: false, after: "'by'")
            discriminator = Located(value: try rejectingKeyedSteps(path, at: pathOffset, place: "a discriminator"), offset: by)
            if isWord(Keyword.as) { throw .asAndBy(at: current.start) }
            mayBeMissing = try parseMissingEmpty()
            try expectEndOfLine("end of line after the discriminator path")
        } else {
            mayBeMissing = try parseMissingEmpty()
            try expectEndOfLine("',', 'as' or end of line after the path")
        }
        syntax.records.append(
            RecordsSyntax(
                paths: paths, pathOffsets: pathOffsets, entity: entity, offset: offset, discriminator: discriminator, mayBeMissing: mayBeMissing,
                filter: filter))
        choice = discriminator == nil ? .none : .open(syntax.records.count - 1)
    }

    /// [ "missing" "empty" ] at the end of a `records` line: whether it is there.
    private mutating func parseMissingEmpty() throws(Problem) -> Bool {
        guard isWord(Keyword.missing) else { return false }
        advance()
        guard isWord(Keyword.empty) else { throw expected("'empty' after 'missing' (a feed that leaves the records out has none)") }
        advance()
        return true
    }

    /// entity = "entity" NAME [ "owned" ] [ "table" ( NAME | STRING ) ] ;
    private mutating func parseEntity() throws(Problem) {
        advance()
        syntax.sawEntityLine = true
        entityIndex = nil
        entityLineFailed = true
        let name = try parseName("an entity name after 'entity'")
        do throws(Problem) {
            try parseTable(entity: name)
        } catch {
            syntax.brokenEntityNames.insert(name.value)
            throw error
        }
    }

    /// The rest of an entity line: [ "table" ( NAME | STRING ) ] NEWLINE
    private mutating func parseTable(entity name: Located<String>) throws(Problem) {
        var table: Located<String>?
        let owned = parseOwnedWord()
        if isWord(Keyword.table) {
            advance()
            switch current.kind {
            case .identifier: table = Located(value: text(current), offset: current.start)
            case .string:
                let value = try lexer.decodeString(current)
                guard !value.isEmpty else { throw .emptyTableName(at: current.start) }
                table = Located(value: value, offset: current.start)
            case .unterminatedString: throw .unterminatedString(at: current.start)
            default: throw expected("a table name after 'table'")
            }
            advance()
            try expectEndOfLine("end of line after the table name")
        } else {
            try expectEntityLineEnd(owned: owned)
        }
        syntax.entities.append(EntitySyntax(name: name, table: table, owned: owned))
        entityIndex = syntax.entities.count - 1
        entityLineFailed = false
    }

    /// key = "key" NAME { "," NAME } ;
    private mutating func parseKey() throws(Problem) {
        let offset = current.start
        advance()
        var names: [Located<String>] = []
        do throws(Problem) {
            names.append(try parseName("an attribute name after 'key'"))
            while current.kind == .comma {
                advance()
                names.append(try parseName("an attribute name after ','"))
            }
            try expectEndOfLine("',' or end of line after the key attribute")
        } catch {
            if let entityIndex { syntax.entities[entityIndex].hasBrokenKeyLine = true }
            throw error
        }
        guard let entityIndex else {
            if entityLineFailed { return }
            throw .keyOutsideEntity(at: offset)
        }
        syntax.entities[entityIndex].keys.append(KeySyntax(names: names, offset: offset))
    }

    /// member = NAME [ "<-" path { "," path } [ "where" condition ] ] ":" type ;
    private mutating func parseMember() throws(Problem) {
        let name = try parseName("an attribute name")
        var member: MemberSyntax
        do throws(Problem) {
            var path: KeyPath?
            var pathOffset: Int?
            var fallbacks: [Located<KeyPath>] = []
            var filter: FilterSyntax?
            let arrow = current.kind == .arrow ? current.start : nil
            if current.kind == .arrow {
                advance()
                pathOffset = current.start
                path = try parsePath(allowingAnyIndex: false, after: "'<-'")
                fallbacks = try parseFallbackPaths()
                filter = try parseOptionalFilter()
                guard current.kind == .colon else { throw expected("':' and a type after the path") }
            } else if current.kind != .colon {
                throw expected("':' and a type after the attribute name")
            }
            advance()
            member = try parseType(name: name, path: path)
            member.arrowOffset = arrow
            member.pathOffset = pathOffset
            member.fallbackPaths = fallbacks
            member.filter = filter
        } catch {
            if let entityIndex { syntax.entities[entityIndex].brokenMemberNames.insert(name.value) }
            linkOwner = .broken
            throw error
        }
        guard let entityIndex else {
            linkOwner = .broken
            if entityLineFailed { return }
            throw .memberOutsideEntity(name.value, at: name.offset)
        }
        syntax.entities[entityIndex].members.append(member)
        linkOwner = .open(entity: entityIndex, member: syntax.entities[entityIndex].members.count - 1)
    }

    /// type = ( NAME | "[" NAME "]" ) [ "?" ] { "|" converter } { clause } ;
    /// Whether the name is a built-in type or an entity, and so which clauses fit, is settled by the validator.
    mutating func parseType(name: Located<String>, path: KeyPath?) throws(Problem) -> MemberSyntax {
        let isList = current.kind == .leftBracket
        let isGroup = current.kind == .leftParen
        if isList || isGroup { advance() }
        let typeName = try parseName(isList || isGroup ? "an entity name after '\(isList ? "[" : "(")'" : "a type after ':'")
        let alternatives = isList || isGroup ? try parseAlternatives(after: typeName, grouped: isGroup) : []
        if isList {
            guard current.kind == .rightBracket else { throw expected(alternatives.isEmpty ? "']' after the entity name" : "'|' or ']' after the entity name") }
            advance()
        }
        let isOptional = current.kind == .question
        if isOptional { advance() }
        var member = MemberSyntax(
            name: name, path: path, typeName: typeName, isList: isList, isOptional: isOptional || isList,
            converters: [], inverse: nil)
        member.alternatives = alternatives
        member.isGroup = isGroup
        while current.kind == .pipe {
            advance()
            member.converters.append(try parseConverter("a converter name after '|'"))
        }
        var last: String?
        // `by` is a clause too, but not offered by "did you mean": one letter away from many a word.
        while current.kind == .identifier, Keyword.clauses.contains(text(current)) || isWord(Keyword.by) {
            last = try parseClause(into: &member)
        }
        if current.kind == .identifier, let suggestion = closestMatch(to: text(current), among: Keyword.clauses) {
            throw .unknownClause(text(current), suggestion: suggestion, at: current.start)
        }
        if let last {
            // The inverse keeps its first wording: it was the only clause before the others came.
            try expectEndOfLine(last == inverseName ? "end of line after \(last)" : "another clause or end of line after \(last)")
        } else if !member.converters.isEmpty {
            try expectEndOfLine("'|' and a converter, or end of line after the converter")
        } else if member.valueType != nil {
            try expectEndOfLine("'|' and a converter, or end of line after the type")
        } else {
            try expectEndOfLine("'inverse' or end of line after the type")
        }
        return member
    }

    /// converter = NAME [ "(" [ literal { "," literal } ] ")" ] ;
    mutating func parseConverter(_ what: String) throws(Problem) -> ConverterSyntax {
        let name = try parseName(what)
        var arguments: [Located<Literal>] = []
        if current.kind == .leftParen {
            advance()
            if current.kind != .rightParen {
                arguments.append(try parseLiteral())
                while current.kind == .comma {
                    advance()
                    arguments.append(try parseLiteral())
                }
            }
            guard current.kind == .rightParen else { throw expected("',' or ')' after the argument") }
            advance()
        }
        return ConverterSyntax(name: name, arguments: arguments)
    }

    /// literal = STRING | INTEGER | DECIMAL | "true" | "false" ;
    mutating func parseLiteral(_ what: String = "an argument (a string, a number, true or false)") throws(Problem) -> Located<Literal> {
        let offset = current.start
        let literal: Literal
        switch current.kind {
        case .string: literal = .string(try lexer.decodeString(current))
        case .unterminatedString: throw .unterminatedString(at: offset)
        case .integer:
            guard let value = Int64(text(current)) else { throw .integerTooLarge(text(current), at: offset) }
            literal = .int(value)
        case .decimal:
            guard let value = Double(text(current)) else { throw expected("a number") }
            literal = .double(value)
        case .identifier where text(current) == "true": literal = .bool(true)
        case .identifier where text(current) == "false": literal = .bool(false)
        default: throw expected(what)
        }
        advance()
        return Located(value: literal, offset: offset)
    }

    // MARK: Tokens

    /// NAME = [A-Za-z_][A-Za-z0-9_]* ;
    mutating func parseName(_ what: String) throws(Problem) -> Located<String> {
        guard current.kind == .identifier else { throw expected(what) }
        defer { advance() }
        return Located(value: text(current), offset: current.start)
    }

    mutating func advance(_ mode: Lexer.Mode = .normal) {
        previousEnd = current.range.upperBound
        current = lexer.next(mode)
    }

    /// Reads the current token again in another mode (a path's first token was read as a normal one).
    mutating func relex(_ mode: Lexer.Mode) {
        lexer.rewind(to: current.start)
        current = lexer.next(mode)
    }

    func peek() -> Token {
        var copy = lexer
        return copy.next()
    }

    func text(_ token: Token) -> String { source.text(token.range) }

    func isWord(_ word: String) -> Bool { current.kind == .identifier && text(current) == word }

    func expectEndOfLine(_ what: String) throws(Problem) {
        guard current.kind == .newline || current.kind == .end else { throw expected(what) }
    }

    private mutating func skipToNextLine() {
        while current.kind != .newline && current.kind != .end { advance() }
        if current.kind == .newline { advance() }
    }

    /// "expected X, found Y", pointing at Y, or just past the last token when Y is the line's end.
    func expected(_ what: String) -> Problem {
        switch current.kind {
        case .newline: return Problem.expected(what, found: "end of line", at: previousEnd)
        case .end: return Problem.expected(what, found: "end of file", at: previousEnd)
        default:
            let written = text(current)
            let shown = written.unicodeScalars.count > 40 ? String(written.unicodeScalars.prefix(40)) + "…" : written
            return .expected(what, found: "'\(shown)'", at: current.start)
        }
    }
}
