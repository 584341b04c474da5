import GraphImportJSON
import GraphImportMapping

/// What `SampleCheck` found: how much of the sample it read, and a warning at the map's line and
/// column for each path, type or records line the sample does not fit.
package struct SampleReport: Sendable {
    /// Records read, over every records path.
    package var records: Int
    /// `.json` or `.jsonLines`, as the sample turned out to be.
    package var format: JSONInputFormat
    /// Warnings in the map's source order.
    package var diagnostics: [Diagnostic]
    /// Elements relationships with `unkeyed skip` would leave out: not warnings, since the map
    /// says to skip them, but counted as an import counts them.
    package var skippedElements: [SkippedElements]

    package init(records: Int, format: JSONInputFormat, diagnostics: [Diagnostic], skippedElements: [SkippedElements] = []) {
        self.skippedElements = skippedElements
        self.records = records
        self.format = format
        self.diagnostics = diagnostics
    }
}
