/// A position in the input: 0-based byte offset, 1-based line, 1-based column (bytes within the line).
///
/// Lines end at line feeds; a UTF-8 byte order mark is not counted in the first line's columns.
public struct JSONPosition: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var line: Int
    public var column: Int

    /// A position as the reader reports it; `column` counts bytes from 1.
    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `line 3, column 14`.
    public var description: String { "line \(line), column \(column)" }
}
