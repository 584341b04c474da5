extension Parser {
    /// `owned` after an entity's name: the entity's objects have no key of their own and belong
    /// to the object that holds them. Returns where the word is written, nil when it is not.
    mutating func parseOwnedWord() -> Int? {
        guard isWord(Keyword.owned) else { return nil }
        let offset = current.start
        advance()
        return offset
    }
}
