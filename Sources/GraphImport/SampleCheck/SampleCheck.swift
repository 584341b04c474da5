import GraphImportJSON
import GraphImportMapping

/// `graphimport check --sample FEED`: reads a whole sample as an import would (the plan's records
/// paths, formats and limits) and says where it does not fit the map, without a store.
///
/// Memory stays flat whatever the sample's size: records are read one at a time and only counts,
/// a few keys and the first failure of each kind are kept.
package struct SampleCheck {
    package let plan: ImportPlan

    package init(plan: ImportPlan) { self.plan = plan }

    /// Reads the sample from `source` and returns the warnings; a sample that is not JSON throws.
    package func run(source: some JSONByteSource, format: JSONInputFormat = .auto) throws(JSONError) -> SampleReport {
        let reader = plan.recordReader(source: source, format: format)
        let walker = SampleWalker(plan: plan)
        var records = 0
        while let record = try reader.next() {
            if plan.readsRoot { walker.rootValues = reader.captured.filter { reader.capturedDocuments[$0.key] == record.documentIndex } }
            walker.tally(record)
            records += 1
        }
        let readFormat = reader.format
        var findings = SampleFindings(plan: plan, walker: walker)
        findings.members()
        findings.meta(captured: reader.captured)
        findings.rootValuesAfterRecords(documents: reader.capturedDocuments)
        // Where a records path matches nothing, the reader says what the sample holds there, in
        // the words an import that fails on it uses (`JSONPathMiss`).
        findings.records { route in
            guard case .missed(let miss) = reader.outcome(ofPattern: route) else { return nil }
            if plan.routes[route].mayBeMissing && miss.reason == .absent { return nil }
            return (miss.foundText, miss.suggestion.map(JSONPathMiss.mapText))
        }
        findings.noRecords(read: records)
        let diagnostics = findings.diagnostics.enumerated().sorted {
            ($0.element.location, $0.offset) < ($1.element.location, $1.offset)
        }.map(\.element)
        return SampleReport(records: records, format: readFormat, diagnostics: diagnostics, skippedElements: walker.skippedElements)
    }
}
