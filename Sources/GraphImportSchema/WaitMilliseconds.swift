/// `seconds` of waiting for a lock as the 32-bit milliseconds SQLite's busy timeout and
/// PostgreSQL's `lock_timeout` take: clamped to 0...Int32.max, NaN as 0, so that no value traps.
package func waitMilliseconds(_ seconds: Double) -> Int32 {
    let milliseconds = (seconds * 1000).rounded()
    guard milliseconds > 0 else { return 0 }
    return milliseconds < Double(Int32.max) ? Int32(milliseconds) : Int32.max
}
