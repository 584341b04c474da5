/// `records at data.children[*] by kind` and its case lines: each record's entity is chosen by
/// the value at `discriminator`, a path relative to the record.
package struct RecordChoice: Sendable, Equatable {
    package var discriminator: KeyPath
    /// In the order written; no two have the same value.
    package var cases: [RecordCase]
    package var location: SourceLocation

    package init(discriminator: KeyPath, cases: [RecordCase], location: SourceLocation) {
        self.discriminator = discriminator
        self.cases = cases
        self.location = location
    }
}

/// `"t1" -> Comment at data`, `"more" -> ignore`, `else -> ignore`
package struct RecordCase: Sendable, Equatable {
    /// A string, an integer or a boolean, compared with the discriminator's JSON value; nil for
    /// `else`, the case of every value no other case names (null included). Without an `else`
    /// such a record does not fit the map.
    package var value: Literal?
    /// The entity such a record becomes; nil for `ignore` (the record is skipped).
    package var entity: String?
    /// Where the object sits inside the record; empty means the record itself.
    package var subpath: KeyPath
    package var location: SourceLocation

    package init(value: Literal?, entity: String?, subpath: KeyPath = KeyPath([]), location: SourceLocation) {
        self.value = value
        self.entity = entity
        self.subpath = subpath
        self.location = location
    }
}
