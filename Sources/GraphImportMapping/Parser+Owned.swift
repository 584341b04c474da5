extension Parser {
    /// `owned` after an entity's name: the entity's objects have no key of their own and belong
    /// to the object that holds them. Returns where the word is written, nil when it is not.
    mutating func parseOwnedWord() -> Int? {
        guard isWord(Keyword.owned) else { return nil }
        let offset = current.start
        advance()
        return offset
    }

    /// The end of an entity line without `table`; a word close to `owned` in its place gets a hint.
    func expectEntityLineEnd(owned: Int?) throws(Problem) {
        guard current.kind != .newline && current.kind != .end else { return }
        var problem = expected(owned == nil ? "'table' or end of line after the entity name" : "'table' or end of line after 'owned'")
        if owned == nil, current.kind == .identifier, closestMatch(to: text(current), among: [Keyword.owned, Keyword.table]) == Keyword.owned {
            problem.hint = Problem.didYouMean(Keyword.owned)
        }
        throw problem
    }
}
