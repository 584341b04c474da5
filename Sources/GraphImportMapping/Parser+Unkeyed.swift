extension Parser {
    /// unkeyedRule = "skip" | "reject" ;
    mutating func parseUnkeyedRule() throws(Problem) -> Located<UnkeyedRule> {
        let offset = current.start
        guard current.kind == .identifier, let rule = UnkeyedRule(rawValue: text(current)) else {
            let words = UnkeyedRule.allCases.map(\.rawValue)
            if current.kind == .identifier, let suggestion = closestMatch(to: text(current), among: words) {
                throw .unknownUnkeyedRule(text(current), suggestion: suggestion, at: offset)
            }
            throw expected("'skip' or 'reject' after 'unkeyed'")
        }
        advance()
        return Located(value: rule, offset: offset)
    }
}
