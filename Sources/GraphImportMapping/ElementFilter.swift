/// `where type = "quoted"`: a condition on each element a relationship or a `records` line would
/// take; only the elements it holds for are taken.
package struct ElementFilter: Sendable, Equatable, CustomStringConvertible {
    /// Where the tested value sits inside the element; `$` (empty) is the element itself.
    package var field: KeyPath
    package var test: Test
    /// Where `where` is written.
    package var location: SourceLocation

    /// What the value at `field` must be.
    package enum Test: Sendable, Equatable {
        /// `= VALUE` (one value) or `in (VALUE, …)`: the same kind and the same value, as a case
        /// line of `records … by` compares.
        case equals([Literal])
        /// `has prefix "t3_"`: a string that starts with the text.
        case hasPrefix(String)
        /// `has suffix ".png"`: a string that ends with the text.
        case hasSuffix(String)
        /// `matches "t?_*"`: a string the glob matches whole (`*` any text, `?` one character).
        case matches(String)
        /// `is present`: the key is there, null included.
        case isPresent
        /// `is absent`: the key is not there.
        case isAbsent
        /// `is null`: the key is there and its value is null.
        case isNull
    }

    package init(field: KeyPath, test: Test, location: SourceLocation) {
        self.field = field
        self.test = test
        self.location = location
    }

    /// The condition as a map writes it, after `where`.
    package var description: String {
        switch test {
        case .equals(let values) where values.count == 1: "\(field) = \(values[0])"
        case .equals(let values): "\(field) in (\(values.map(\.description).joined(separator: ", ")))"
        case .hasPrefix(let text): "\(field) has prefix \(Literal.string(text))"
        case .hasSuffix(let text): "\(field) has suffix \(Literal.string(text))"
        case .matches(let glob): "\(field) matches \(Literal.string(glob))"
        case .isPresent: "\(field) is present"
        case .isAbsent: "\(field) is absent"
        case .isNull: "\(field) is null"
        }
    }
}
