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
