import GraphImportStore

/// Why an export could not be made: a request that names what the map lacks or a condition that
/// does not parse (the command line's fault), or the store.
public enum ExportError: Error, Sendable, CustomStringConvertible {
    /// An entity, attribute or relationship the map does not have; the hint names the closest.
    case unknownName(String, hint: String?)
    /// A `--where` condition or `--key` value that cannot be used.
    case badRequest(String, hint: String?)
    /// Reading the store failed.
    case store(StoreError)
    /// The caller asked the export to stop (SIGINT, SIGTERM): what was written is a part.
    case interrupted

    public var message: String {
        switch self {
        case .unknownName(let message, _), .badRequest(let message, _): message
        case .store(let error): error.description
        case .interrupted: "interrupted: the export is incomplete"
        }
    }

    public var hint: String? {
        switch self {
        case .unknownName(_, let hint), .badRequest(_, let hint): hint
        case .store, .interrupted: nil
        }
    }

    public var description: String { message }

    /// A `--where` condition's error as the request's: an unknown name stays one (with its hint).
    init(_ error: GraphError) {
        switch error.kind {
        case .unknownName: self = .unknownName(error.message, hint: error.hint)
        case .store: self = error.store.map(ExportError.store) ?? .badRequest(error.message, hint: error.hint)
        case .misuse, .syntax, .denied, .decoding: self = .badRequest(error.message, hint: error.hint)
        }
    }
}
