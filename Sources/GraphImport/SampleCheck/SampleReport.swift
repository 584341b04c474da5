import GraphImportJSON
import GraphImportMapping

/// What `SampleCheck` found: how much of the sample it read, and a warning at the map's line and
/// column for each path, type or records line the sample does not fit.
public struct SampleReport: Sendable {
    /// Records read, over every records path.
    public var records: Int
    /// `.json` or `.jsonLines`, as the sample turned out to be.
    public var format: JSONInputFormat
    /// Warnings in the map's source order.
    public var diagnostics: [Diagnostic]

    public init(records: Int, format: JSONInputFormat, diagnostics: [Diagnostic]) {
        self.records = records
        self.format = format
        self.diagnostics = diagnostics
    }
}
