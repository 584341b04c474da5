import GraphImportSchema

/// What a writer on either store needs to know of the run: its id and its one instant.
struct RunContext: Sendable {
    let runID: Int64
    /// The import's time as stored (ISO 8601 text), the same for every `now` of the run.
    let now: SQLValue

    func value(_ planValue: PlanValue) -> SQLValue {
        switch planValue {
        case .sql(let value): value
        case .now: now
        case .run: .integer(runID)
        }
    }
}
