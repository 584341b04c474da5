/// One value selected from the input by a path pattern, with where it came from.
public struct JSONRecord: Equatable, Sendable {
    /// The matched value, parsed whole.
    public var value: JSONValue
    /// 0-based ordinal over the whole input (all documents, all patterns).
    public var index: Int
    /// The concrete path of the value within its document, such as `$.statuses[3]`.
    /// In JSON Lines the path is relative to the line's own document; `position.line` tells the line.
    public var path: JSONPathPattern
    /// Where the value starts.
    public var position: JSONPosition
    /// Which of the reader's patterns matched (the first one, when several do).
    public var patternIndex: Int
    /// 0-based ordinal of the JSON text holding the value: always 0 for `.json`; in JSON Lines it
    /// counts the texts (blank lines are not counted).
    public var documentIndex: Int

    /// A record as the reader returns it.
    public init(
        value: JSONValue, index: Int, path: JSONPathPattern, position: JSONPosition, patternIndex: Int,
        documentIndex: Int = 0
    ) {
        self.value = value
        self.index = index
        self.path = path
        self.position = position
        self.patternIndex = patternIndex
        self.documentIndex = documentIndex
    }
}
