/// Which occurrence of an object wins when a run meets it more than once (`occurrence …` in the
/// map): the last, as by default, or the first (a feed that lists newest first).
package enum Occurrence: String, Sendable, CaseIterable {
    case first, last
}
