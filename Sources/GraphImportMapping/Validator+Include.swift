/// What the validator checks because a map can include files: a name defined in two files, and
/// references to a line of another file.
extension Validator {
    /// The name of the file `offset` is in when it is not the file of `from`; nil in the same file
    /// (and always for a map of one file), where "line N" says enough.
    func otherFile(of offset: Int, from: Int) -> String? {
        guard let layout = source.layout else { return nil }
        let file = layout.place(of: offset).file
        return file == layout.place(of: from).file ? nil : layout.files[file].file.name
    }

    /// An entity defined in two files: reported at the `include` line that brought the second
    /// definition in (at the definition itself when it is in the map), naming both places; nil when
    /// both are in one file, the plain duplicate's case.
    func definedTwice(_ name: Located<String>, first: Located<String>) -> Problem? {
        guard let layout = source.layout else { return nil }
        let file = layout.place(of: name.offset).file
        guard file != layout.place(of: first.offset).file else { return nil }
        return .entityDefinedTwice(
            name.value, first: layout.reference(to: first.offset), second: layout.reference(to: name.offset),
            at: layout.files[file].includedAt ?? name.offset)
    }
}

extension MapSources {
    /// `records` and `meta` lines in an included file: they belong to the map of one endpoint.
    func statementsOutOfPlace(in syntax: MapSyntax) -> [Problem] {
        let records = syntax.records.map { (Keyword.records, $0.offset) }
        let meta = syntax.meta.map { (Keyword.meta, $0.name.offset) }
        return (records + meta).compactMap { keyword, offset in
            place(of: offset).file == 0 ? nil : .statementInIncludedFile(keyword, at: statementStart(before: offset))
        }
    }

    /// The start of the statement a `meta` name is in: its line's first non-blank byte.
    private func statementStart(before offset: Int) -> Int {
        var start = offset
        while start > 0, bytes[start - 1] != ASCII.newline { start -= 1 }
        while start < offset, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
        return start
    }
}
