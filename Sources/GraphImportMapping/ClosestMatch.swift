/// The candidate closest to `name` by edit distance (ignoring case), for a "did you mean" hint.
///
/// Like argument-parser, a guess is offered only when it is close: here at most a third of the
/// name's length, never more than 3 edits, and at least 1, so `Strin` suggests `String` while
/// `x` suggests nothing. Ties go to the earlier candidate.
package func closestMatch(to name: String, among candidates: [String]) -> String? {
    let limit = min(3, max(1, name.unicodeScalars.count / 3))
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(name.lowercased(), candidate.lowercased())
        if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.candidate
}

/// Levenshtein distance over Unicode scalars, one row at a time.
/// - Complexity: O(m × n) time, O(n) space.
func editDistance(_ source: String, _ target: String) -> Int {
    let source = Array(source.unicodeScalars)
    let target = Array(target.unicodeScalars)
    if source.isEmpty || target.isEmpty { return max(source.count, target.count) }
    var previous = Array(0...target.count)
    var row = previous
    for i in 1...source.count {
        row[0] = i
        for j in 1...target.count {
            let substitution = previous[j - 1] + (source[i - 1] == target[j - 1] ? 0 : 1)
            row[j] = min(previous[j] + 1, row[j - 1] + 1, substitution)
        }
        swap(&previous, &row)
    }
    return previous[target.count]
}
