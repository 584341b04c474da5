import Foundation

/// The progress of an import on a terminal's standard error: one line, redrawn in place at most
/// five times a second, and erased when the import ends.
///
/// With the input's size known (a file) it shows the percentage read, the bytes, the records per
/// second and the time left; for a pipe, the records, bytes and rate.
final class ProgressLine {
    private let io: ToolIO
    private let totalBytes: Int?
    private let clock: () -> Double
    private let start: Double
    private var lastDraw: Double
    private var drawn = false

    /// `clock` gives seconds on any fixed scale (tests pass their own).
    init(io: ToolIO, totalBytes: Int?, clock: @escaping () -> Double = { Date().timeIntervalSinceReferenceDate }) {
        self.io = io
        self.totalBytes = totalBytes
        self.clock = clock
        self.start = clock()
        self.lastDraw = -.infinity
    }

    func update(records: Int, bytes: Int) {
        let now = clock()
        guard now - lastDraw >= 0.2 else { return }
        lastDraw = now
        drawn = true
        let line = Self.render(records: records, bytes: bytes, totalBytes: totalBytes, elapsed: now - start)
        io.writeError("\r\u{1B}[K" + Self.fit(line, width: io.errorColumns))
    }

    func finish() {
        if drawn { io.writeError("\r\u{1B}[K") }
    }

    /// `graphimport: 45% of 27.0 MB, 41,000 records, 52,000 records/s, 0:03 left`, or for a pipe
    /// `graphimport: 41,000 records, 12.3 MB, 52,000 records/s`. The rate and the time left wait
    /// for a quarter of a second of history.
    static func render(records: Int, bytes: Int, totalBytes: Int?, elapsed: Double) -> String {
        var parts: [String] = []
        let rate = elapsed >= 0.25 ? Double(records) / elapsed : nil
        if let totalBytes, totalBytes > 0 {
            let fraction = min(1, Double(bytes) / Double(totalBytes))
            parts.append("\(Int(fraction * 100))% of \(megabytes(totalBytes))")
            parts.append(grouped(records) + (records == 1 ? " record" : " records"))
            if let rate { parts.append(grouped(Int(rate)) + " records/s") }
            if elapsed >= 0.25, bytes > 0, fraction < 1 {
                parts.append(duration(elapsed * (1 - fraction) / fraction) + " left")
            }
        } else {
            parts.append(grouped(records) + (records == 1 ? " record" : " records"))
            parts.append(megabytes(bytes))
            if let rate { parts.append(grouped(Int(rate)) + " records/s") }
        }
        return "graphimport: " + parts.joined(separator: ", ")
    }

    /// The line cut to one character less than the terminal's width, so it never wraps (a wrapped
    /// line cannot be redrawn with a carriage return).
    static func fit(_ line: String, width: Int?) -> String {
        guard let width, width > 1, line.count >= width else { return line }
        return String(line.prefix(width - 1))
    }

    static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// `0:07`, `12:30`, `1:02:03`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
