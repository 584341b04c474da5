import GraphImportJSON

extension ImportPlan {
    /// The reader of this plan's records (one pattern per route, then the captures), with the
    /// import's limits: what an import and `check --sample` read alike.
    func recordReader(source: some JSONByteSource, projections: [JSONProjection] = [], format: JSONInputFormat) -> JSONRecordReader {
        JSONRecordReader(
            source: source, patterns: routes.map(\.pattern), capture: captures, projections: projections, format: format,
            options: JSONReaderOptions(maxDepth: ImportLimits.maxJSONDepth, maxStringBytes: ImportLimits.maxStringBytes),
            ownRecords: routesTakingTheirOwnRecords)
    }
}
