/// `1 record`, `3 records`: a count with its noun, singular for one. The one rule for the counts
/// the engine and the command line print (`plural` where adding an s is wrong: `entities`).
package func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
