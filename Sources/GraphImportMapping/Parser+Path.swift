extension Parser {
    /// path      = "$" { step } | "$key" | "$index" | anchor step { step } | parents ".$key" | component { step } ;
    /// parents   = "@parent" { ".@parent" } ;
    /// anchor    = "@parent" { ".@parent" } | "@root" ;
    /// step      = "." component | "[" ( INDEX | "*" | "*?" | STRING ) "]" | "{" "*" "}" ;
    /// component = KEY | STRING ;      KEY = [A-Za-z0-9_@$-]+ (not starting with '$')
    ///
    /// A path has no spaces inside: the first token that does not touch the one before ends it.
    /// `[*]` is accepted only when `allowingAnyIndex` (a `records` path), and `[*?]` only as the
    /// last step of such a path. `{*}` is accepted anywhere here; the validator says where it may
    /// stand, and where `$key` may.
    mutating func parsePath(allowingAnyIndex: Bool, after context: String) throws(Problem) -> KeyPath {
        relex(.path)
        var components: [KeyPath.Component] = []
        switch current.kind {
        case .pathKey:
            let word = text(current)
            if word.hasPrefix("$") {
                if word == "$key" || word == "$index" {
                    let start = current.start
                    let end = current.range.upperBound
                    advance(.path)
                    if current.start == end, [.dot, .leftBracket, .leftBrace].contains(current.kind) {
                        throw .stepAfterMemberName(word, at: start)
                    }
                    relex(.normal)
                    return KeyPath([word == "$key" ? .memberName : .elementIndex])
                }
                guard word == "$" else { throw .keyStartsWithDollar(word, at: current.start) }
            } else if word == "@parent" {
                components.append(.parent)
            } else if word == "@root" {
                components.append(.root)
            } else {
                components.append(.key(word))
            }
        case .string: components.append(.key(try lexer.decodeString(current)))
        case .unterminatedString: throw .unterminatedString(at: current.start)
        default:
            relex(.normal)
            throw expected("a path after \(context)")
        }
        let start = current.start
        var end = current.range.upperBound
        advance(.path)
        /// Where a `[*?]` step begins, while it is the last step so far.
        var loneStep: Int? = nil
        steps: while current.start == end {
            if let loneStep, [.dot, .leftBracket, .leftBrace].contains(current.kind) { throw .loneStepNotLast(at: loneStep) }
            switch current.kind {
            case .dot:
                end = current.range.upperBound
                advance(.path)
                guard current.start == end else { throw expected("a key right after '.'") }
                // `@parent.@parent`: the parent's parent; a quoted "@parent" is a key.
                if current.kind == .pathKey, text(current) == "@parent", components.allSatisfy({ $0 == .parent }) {
                    components.append(.parent)
                } else if current.kind == .pathKey, text(current) == "$key", components.allSatisfy({ $0 == .parent }) {
                    // `@parent.$key`: the name of the member the parent was taken from, the path's last step.
                    let start = current.start
                    end = current.range.upperBound
                    advance(.path)
                    if current.start == end, [.dot, .leftBracket, .leftBrace].contains(current.kind) { throw .stepAfterMemberName("$key", at: start) }
                    relex(.normal)
                    return KeyPath(components + [.memberName])
                } else {
                    components.append(try parseKeyComponent(after: "'.'"))
                }
            case .leftBracket:
                let bracket = current.start
                advance(.path)
                components.append(try parseBracketComponent(allowingAnyIndex: allowingAnyIndex, bracket: bracket))
                guard current.kind == .rightBracket else { throw expected("']'") }
                if components.last == .anyIndexOrOne { loneStep = bracket }
            case .leftBrace:
                advance(.path)
                guard current.kind == .star else { throw expected("'*' after '{' (`{*}`: every member of an object)") }
                advance(.path)
                guard current.kind == .rightBrace else { throw expected("'}'") }
                components.append(.anyMember)
            default:
                break steps
            }
            end = current.range.upperBound
            advance(.path)
        }
        relex(.normal)
        if let anchor = components.first, anchor == .parent || anchor == .root,
            components.allSatisfy({ $0 == .parent || $0 == .root })
        {
            throw .anchorWithoutStep(anchor == .root ? "@root" : "@parent", at: start)
        }
        return KeyPath(components)
    }

    /// component = KEY | STRING ;
    private mutating func parseKeyComponent(after context: String) throws(Problem) -> KeyPath.Component {
        switch current.kind {
        case .pathKey: return .key(text(current))
        case .string: return .key(try lexer.decodeString(current))
        case .unterminatedString: throw .unterminatedString(at: current.start)
        default: throw expected("a key after \(context)")
        }
    }

    /// The inside of `[ ]`: INDEX = [0-9]+ | "*" | "*?" | STRING ; the token after it is left current.
    private mutating func parseBracketComponent(allowingAnyIndex: Bool, bracket: Int) throws(Problem) -> KeyPath.Component {
        let component: KeyPath.Component
        switch current.kind {
        case .pathKey where text(current).utf8.allSatisfy(ASCII.isDigit):
            guard let index = Int(text(current)) else { throw .integerTooLarge(text(current), at: current.start) }
            component = .index(index)
        case .star:
            guard allowingAnyIndex else { throw .anyIndexOutsideRecords(at: bracket) }
            let star = current.range.upperBound
            advance(.path)
            guard current.kind == .question && current.start == star else { return .anyIndex }
            component = .anyIndexOrOne
        case .string: component = .key(try lexer.decodeString(current))
        case .unterminatedString: throw .unterminatedString(at: current.start)
        default: throw expected("an index, '*' or a quoted key after '['")
        }
        advance(.path)
        return component
    }
}
