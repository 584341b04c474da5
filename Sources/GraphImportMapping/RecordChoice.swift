/// `records at data.children[*] by kind` and its case lines: each record's entity is chosen by
/// the value at `discriminator`, a path relative to the record.
public struct RecordChoice: Sendable, Equatable {
    public var discriminator: KeyPath
    /// In the order written; no two have the same value.
    public var cases: [RecordCase]
    public var location: SourceLocation

    public init(discriminator: KeyPath, cases: [RecordCase], location: SourceLocation) {
        self.discriminator = discriminator
        self.cases = cases
        self.location = location
    }
}

/// `"t1" -> Comment at data`, `"more" -> ignore`, `else -> ignore`
public struct RecordCase: Sendable, Equatable {
    /// A string, an integer or a boolean, compared with the discriminator's JSON value; nil for
    /// `else`, the case of every value no other case names (null included). Without an `else`
    /// such a record does not fit the map.
    public var value: Literal?
    /// The entity such a record becomes; nil for `ignore` (the record is skipped).
    public var entity: String?
    /// Where the object sits inside the record; empty means the record itself.
    public var subpath: KeyPath
    public var location: SourceLocation

    public init(value: Literal?, entity: String?, subpath: KeyPath = KeyPath([]), location: SourceLocation) {
        self.value = value
        self.entity = entity
        self.subpath = subpath
        self.location = location
    }
}
