/// Why an import must not write a store, found before it writes anything.
package enum StoreRefusal: Sendable, Equatable {
    /// The file holds tables of another program and none of graphimport's (the names of those the
    /// map does not create, sorted).
    case foreign(tables: [String])
    /// The file is damaged: what `PRAGMA quick_check` found.
    case damaged(String)
}
