/// The `include` statement. The files it names were read and spliced in after its line before
/// parsing (`MapSources`); the parser checks its syntax and keeps each file's lines to itself.
extension Parser {
    /// include = "include" STRING ;
    /// It ends the entity above it: the lines below it start afresh, as at the top of a file.
    mutating func parseInclude() throws(Problem) {
        endEntity()
        advance()
        switch current.kind {
        case .string: _ = try lexer.decodeString(current)
        case .unterminatedString: throw .unterminatedString(at: current.start)
        default: throw expected("a file name in double quotes after 'include'")
        }
        advance()
        try expectEndOfLine("end of line after the file name")
    }

    /// At the first line of another file (an included one, or the rest of the includer after it),
    /// member lines no longer belong to the entity above: an entity is written in one file.
    mutating func enterFile() {
        guard let layout = source.layout else { return }
        let now = layout.place(of: current.start).file
        guard now != file else { return }
        file = now
        endEntity()
    }

    private mutating func endEntity() {
        entityIndex = nil
        entityLineFailed = false
        choice = .none
    }
}
