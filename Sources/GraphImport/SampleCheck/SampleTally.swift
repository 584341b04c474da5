import GraphImportJSON

/// Why a value of the sample would stop an import, so that failures are counted by kind.
enum SampleProblem: Int, Sendable, CaseIterable {
    /// A key attribute is absent or null.
    case missingKey
    /// The value is not the kind the path or the relationship needs.
    case shape
    /// A required value is null.
    case refusedNull
    /// The converters or the type refuse the value.
    case conversion
    /// A `check` clause refuses the value.
    case check
    /// A required value is absent: an import refuses the object if it is new.
    case lacksRequired
}

/// The first value that failed one way, where it is, and how many did.
struct SampleFailure: Sendable {
    var message: String
    var hint: String?
    var record: Int
    var position: JSONPosition
    /// The value's path from the document's root (`$[3].user.created_at`).
    var path: String
    var count = 1
}

/// Counts for one member (attribute, relationship, meta field or records path) over the sample:
/// counts and a few keys, never values, so that memory does not grow with the sample.
struct MemberTally: Sendable {
    /// Objects in which the path leads to a value (null included).
    var present = 0
    /// Values that are null, or arrays' elements for a to-many.
    var nulls = 0
    /// Values tried against the map: non-null values, or a to-many's elements.
    var tried = 0
    var failures: [SampleProblem: SampleFailure] = [:]
    /// The first key a lookup found absent, while no object held the path, and keys seen beside
    /// it at the same depth (for "did you mean"), at most `maxKeysBeside`.
    var missedKey: String?
    var missDepth = -1
    var keysBeside: Set<String> = []

    static let maxKeysBeside = 200

    /// Notes that `key` was absent at `depth` of the path, in an object holding `beside`.
    mutating func noteMiss(key: String?, depth: Int, beside: JSONObject?) {
        guard present == 0, let key else { return }
        if missedKey == nil {
            missedKey = key
            missDepth = depth
        }
        guard depth == missDepth, let beside, keysBeside.count < Self.maxKeysBeside else { return }
        for member in beside.members where keysBeside.count < Self.maxKeysBeside { keysBeside.insert(member.key) }
    }

    /// Counts a failure of kind `problem`, keeping the first one's details (made only then).
    mutating func fail(_ problem: SampleProblem, _ first: () -> SampleFailure) {
        if failures[problem] != nil {
            failures[problem]!.count += 1
        } else {
            failures[problem] = first()
        }
    }
}

/// Counts for one records path.
struct RouteTally: Sendable {
    var records = 0
    /// Records the map says to ignore (`"more" -> ignore`).
    var ignored = 0
    /// Records that are not what the route needs: not an object, no case for the discriminator,
    /// nothing at a case's path.
    var failures: [SampleProblem: SampleFailure] = [:]
    /// Discriminator values no case matches, as shown in messages, at most `maxUnmatched`.
    var unmatched: [String] = []

    static let maxUnmatched = 5

    mutating func fail(_ problem: SampleProblem, _ first: () -> SampleFailure) {
        if failures[problem] != nil {
            failures[problem]!.count += 1
        } else {
            failures[problem] = first()
        }
    }
}
