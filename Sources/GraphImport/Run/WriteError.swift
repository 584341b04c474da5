import GraphImportSchema
import GraphImportStore

/// Why writing a record's objects failed.
enum WriteError: Error {
    case store(StoreError)
    /// A `beforeSave` hook refused an object.
    case rejected(member: String, message: String)
    /// A derived value failed its converters, its type or a check of the map.
    case invalidDerived(member: String, message: String)
    /// A new object lacks a value its entity requires; found before the record wrote anything.
    case lacksRequired(RecordError)
    /// A `delete deny` rule forbids a deletion.
    case denied(DeletionDenied)
}

extension WriteError {
    /// What a record error made of this refusal tells the user to look at.
    var refusalHint: String? {
        switch self {
        case .rejected: "the map's Swift hooks refused the object"
        case .invalidDerived:
            "the map derives this value from the object's other values: fix those in the feed, or the attribute's template, converters or check"
        case .lacksRequired(let error): error.hint
        case .store, .denied: nil
        }
    }
}

/// Runs store work inside a write, so that its error becomes the write's.
func storing<T>(_ body: () throws(StoreError) -> T) throws(WriteError) -> T {
    do { return try body() } catch { throw .store(error) }
}
