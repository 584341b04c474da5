import GraphImportSchema

/// The list a to-many ends with when the feed gives one, decided here once for both stores over
/// the targets as each store names them (`Target`: SQLite's row ids, PostgreSQL's keys):
///
/// - A list the feed gives holds each target once, at its first place, with that element's link
///   values: the join table holds one row per owner and target (`append`).
/// - Without `merge` it replaces the stored list. With `merge` (`merge(_:)`) the stored targets
///   keep their places and are followed by the feed's targets not among them, in feed order; a
///   target both hold takes the feed's link values (the feed is newer). Pages met within one run
///   add up the same way, each over what the run made of the list so far.
///
/// Values are `width` per target, in the order of the targets (none without link attributes).
struct ToManyList<Target: Hashable> {
    private(set) var targets: [Target]
    private(set) var values: [SQLValue]
    let width: Int
    /// Each target's place, made once the list is longer than a search is cheap for (most lists
    /// are short: a search beats hashing there).
    private var places: [Target: Int]?

    private static var searchedUpTo: Int { 16 }

    /// An empty list to which a feed's elements are appended.
    init(width: Int, capacity: Int = 0) {
        self.width = width
        targets = []
        values = []
        targets.reserveCapacity(capacity)
        if width > 0 { values.reserveCapacity(capacity * width) }
    }

    /// A list that holds each of `targets` once (a stored one, or one this type made), with its values.
    init(unique targets: [Target], values: [SQLValue], width: Int) {
        self.targets = targets
        self.values = values
        self.width = width
    }

    /// The place of `target` in the list, nil when it does not hold it.
    func place(of target: Target) -> Int? {
        if let places { return places[target] }
        return targets.firstIndex(of: target)
    }

    /// Appends the feed's element `target` with its link values (`width` of them): an element
    /// naming a target the list holds already is left out, its first place and values kept.
    mutating func append(_ target: Target, values given: ArraySlice<SQLValue> = []) {
        indexIfLong()
        guard place(of: target) == nil else { return }
        add(target, given)
    }

    /// Merges `page`, a list the feed gives (each target once), into this one as `merge` does.
    mutating func merge(_ page: ToManyList) {
        indexIfLong()
        for (element, target) in page.targets.enumerated() {
            let given = page.values[(element * width)..<((element + 1) * width)]
            if let place = place(of: target) {
                if width > 0 { values.replaceSubrange((place * width)..<((place + 1) * width), with: given) }
            } else {
                add(target, given)
            }
        }
    }

    /// Makes `places` for a list longer than a search is cheap for, once.
    private mutating func indexIfLong() {
        if places == nil && targets.count > Self.searchedUpTo { places = Self.placesOf(targets) }
    }

    private mutating func add(_ target: Target, _ given: ArraySlice<SQLValue>) {
        if places != nil {
            places![target] = targets.count
        } else if targets.count == Self.searchedUpTo {
            places = Self.placesOf(targets)
            places![target] = targets.count
        }
        targets.append(target)
        if width > 0 { values += given }
    }

    private static func placesOf(_ targets: [Target]) -> [Target: Int] {
        var places: [Target: Int] = [:]
        places.reserveCapacity(targets.count * 2)
        for (place, target) in targets.enumerated() where places[target] == nil { places[target] = place }
        return places
    }
}
