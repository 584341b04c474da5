import GraphImportJSON

extension DraftBuilder {
    /// The record as a `LightRecord` (its objects' keys and slot digests, what it names), or nil
    /// when it must be drafted: an object without a slot digest, or anything the light walk does
    /// not cover. Placeholder until the light walk lands: every record is drafted.
    mutating func lightRecord(record: JSONRecord, route: Int, routes: [RecordRoute], slots: JSONSlots) -> LightRecord? {
        nil
    }
}
