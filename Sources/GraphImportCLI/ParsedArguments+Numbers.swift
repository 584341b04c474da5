/// The command line's numbers, parsed and bounded in one place, so that no value a user can type
/// reaches arithmetic that traps (an overflow, or a conversion of an infinite or huge double).
extension ParsedArguments {
    /// The longest `--wait`: SQLite's busy timeout and PostgreSQL's `lock_timeout` hold
    /// milliseconds in a 32-bit integer (24.8 days).
    static let maxWaitSeconds = 2_147_483

    /// The seconds of option `name` (`--wait`), from 0 to `maxWaitSeconds`; `fallback` when absent.
    func seconds(_ name: String, default fallback: Double) throws(UsageError) -> Double {
        guard let text = values[name] else { return fallback }
        // NaN fails both comparisons; an infinity or a huge value fails the second.
        guard let seconds = Double(text), seconds >= 0, seconds <= Double(Self.maxWaitSeconds) else {
            throw UsageError(
                message: "The value '\(text)' is invalid for '\(name)'",
                hint: "Give a number of seconds from 0 to \(Self.maxWaitSeconds), such as 30 or 0.5.")
        }
        return seconds
    }

    /// The whole number of option `name` within `range`; nil when absent. `hint` says what to give.
    func integer(_ name: String, in range: ClosedRange<Int64>, hint: String) throws(UsageError) -> Int64? {
        guard let text = values[name] else { return nil }
        guard let number = Int64(text), range.contains(number) else {
            throw UsageError(message: "The value '\(text)' is invalid for '\(name)'", hint: hint)
        }
        return number
    }
}
