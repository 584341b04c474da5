import GraphImportJSON
import GraphImportMapping

/// How the sample check lists the keys it found where a path misses.
enum InputShape {
    /// Most keys listed before "and N more".
    static let maxListedKeys = 8

    /// `'a', 'b', 'c'` or `'a', 'b', … and 12 more`.
    static func listed(_ keys: [String]) -> String {
        let shown = keys.prefix(maxListedKeys).map { MessageText.quoted($0) }.joined(separator: ", ")
        return keys.count > maxListedKeys ? shown + " and \(keys.count - maxListedKeys) more" : shown
    }
}
