import GraphImportJSON
import GraphImportMapping

/// `graphimport check --sample FEED`: reads a whole sample as an import would (the plan's records
/// paths, formats and limits) and says where it does not fit the map, without a store.
///
/// Memory stays flat whatever the sample's size: records are read one at a time and only counts,
/// a few keys and the first failure of each kind are kept.
public struct SampleCheck {
    public let plan: ImportPlan

    public init(plan: ImportPlan) { self.plan = plan }

    /// Reads the sample from `source` and returns the warnings; a sample that is not JSON throws.
    ///
    /// `reopen` gives the sample again from its start: when a records line matches nothing, the
    /// sample is read again to say what it holds where the path stops matching (nil: not said).
    public func run(
        source: some JSONByteSource, format: JSONInputFormat = .auto, reopen: (() -> (any JSONByteSource)?)? = nil
    ) throws(JSONError) -> SampleReport {
        let reader = JSONRecordReader(
            source: source, patterns: plan.routes.map(\.pattern), capture: plan.meta.map(\.pattern), format: format,
            options: JSONReaderOptions(maxDepth: ImportLimits.maxJSONDepth, maxStringBytes: ImportLimits.maxStringBytes))
        let walker = SampleWalker(plan: plan)
        var records = 0
        while let record = try reader.next() {
            walker.tally(record)
            records += 1
        }
        let readFormat = reader.format
        var findings = SampleFindings(plan: plan, walker: walker)
        findings.members()
        findings.meta(captured: reader.captured)
        findings.records { path in
            guard let reopen else { return nil }
            return Self.describeMiss(of: path, format: readFormat, reopen: reopen)
        }
        let diagnostics = findings.diagnostics.enumerated().sorted {
            ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
        }.map(\.element)
        return SampleReport(records: records, format: readFormat, diagnostics: diagnostics)
    }

    /// What the sample holds where `path` stops matching: the value at the longest prefix of the
    /// path that matches something (read again, one pass per prefix tried, the first match only)
    /// and the first step below it that does not.
    static func describeMiss(of path: KeyPath, format: JSONInputFormat, reopen: () -> (any JSONByteSource)?)
        -> (description: String, suggestion: String?)?
    {
        let components = ImportPlan.pattern(for: path).components
        for length in stride(from: components.count - 1, through: 0, by: -1) {
            guard let source = reopen() else { return nil }
            let reader = JSONRecordReader(
                source: source, patterns: [JSONPathPattern(Array(components[..<length]))], format: format,
                options: JSONReaderOptions(maxDepth: ImportLimits.maxJSONDepth, maxStringBytes: ImportLimits.maxStringBytes))
            guard let found = try? reader.next() else { continue }
            return InputShape.describeMiss(of: components[length...], in: found.value, at: found.path)
        }
        return nil
    }
}
