import GraphImportMapping

/// A date pattern for a template's `{releasedAt:EEEE d MMMM yyyy}`, compiled once, formatted in UTC
/// with English names.
///
/// Fields: `yyyy` (year, 4 digits), `yy` (last two digits), `y` (unpadded); `M`, `MM`, `MMM` (Jan),
/// `MMMM` (January); `d`, `dd`; `E`/`EE`/`EEE` (Mon), `EEEE` (Monday); `H`, `HH` (0–23); `h`, `hh`
/// (1–12); `a` (AM/PM); `m`, `mm`; `s`, `ss`; `S`, `SS`, `SSS` (fraction of the second, truncated).
/// `'text'` is literal and `''` a single quote; every other character that is not a letter is literal.
struct TemplateDateFormat: Sendable {
    /// One piece of the pattern.
    enum Field: Sendable, Equatable {
        case literal(String)
        /// A number padded with zeros to `width` digits (1: not padded).
        case number(Component, width: Int)
        case twoDigitYear
        case monthName(full: Bool)
        case weekdayName(full: Bool)
        case dayPeriod
    }

    /// The numeric parts of a date a field can show.
    enum Component: Sendable, Equatable {
        case year, month, day, hour, hour12, minute, second
        /// The fraction of the second; `width` digits of it.
        case fraction
    }

    let fields: [Field]

    /// Compiles `pattern`; an unknown letter, a field of an unsupported length or an unterminated
    /// quote is a `ConversionError` naming it.
    init(_ pattern: String) throws(ConversionError) {
        var fields: [Field] = []
        var literal = ""
        let characters = Array(pattern)
        var index = 0
        func flush() {
            if !literal.isEmpty { fields.append(.literal(literal)) }
            literal = ""
        }
        while index < characters.count {
            let character = characters[index]
            if character == "'" {
                // `''` is a quote, outside quoted text or inside it (`'o''clock'`).
                if index + 1 < characters.count, characters[index + 1] == "'" {
                    literal.append("'")
                    index += 2
                    continue
                }
                index += 1
                while true {
                    guard index < characters.count else {
                        throw ConversionError("unterminated quote in date format \(ValidationText.quoted(pattern))")
                    }
                    if characters[index] == "'" {
                        guard index + 1 < characters.count, characters[index + 1] == "'" else { break }
                        index += 1
                    }
                    literal.append(characters[index])
                    index += 1
                }
                index += 1
                continue
            }
            guard character.isASCII, character.isLetter else {
                literal.append(character)
                index += 1
                continue
            }
            var end = index + 1
            while end < characters.count, characters[end] == character { end += 1 }
            let run = String(characters[index..<end])
            guard let field = Self.field(character, count: end - index) else {
                throw ConversionError(
                    "unknown field '\(run)' in date format \(ValidationText.quoted(pattern))",
                    hint: "the fields are \(Self.fieldList); quote literal letters, as in 'T'")
            }
            flush()
            fields.append(field)
            index = end
        }
        flush()
        self.fields = fields
    }

    static let fieldList = "yyyy, yy, y, M, MM, MMM, MMMM, d, dd, E, EEEE, H, HH, h, hh, a, m, mm, s, ss, S, SS, SSS"

    /// The field a run of `count` copies of `letter` stands for, or nil when unsupported.
    private static func field(_ letter: Character, count: Int) -> Field? {
        switch (letter, count) {
        case ("y", 2): .twoDigitYear
        case ("y", 1), ("y", 3), ("y", 4): .number(.year, width: count)
        case ("M", 1...2): .number(.month, width: count)
        case ("M", 3...4): .monthName(full: count == 4)
        case ("d", 1...2): .number(.day, width: count)
        case ("E", 1...4): .weekdayName(full: count == 4)
        case ("H", 1...2): .number(.hour, width: count)
        case ("h", 1...2): .number(.hour12, width: count)
        case ("a", 1): .dayPeriod
        case ("m", 1...2): .number(.minute, width: count)
        case ("s", 1...2): .number(.second, width: count)
        case ("S", 1...3): .number(.fraction, width: count)
        default: nil
        }
    }

    /// Appends the date, formatted, to `out`.
    func format(_ date: StoredDate, into out: inout String) {
        for field in fields {
            switch field {
            case .literal(let text): out += text
            case .number(let component, let width): Self.append(value(component, of: date, width: width), width: width, to: &out)
            case .twoDigitYear: Self.append(((date.year % 100) + 100) % 100, width: 2, to: &out)
            case .monthName(let full): out += (full ? Self.months : Self.shortMonths)[date.month - 1]
            case .weekdayName(let full): out += (full ? Self.weekdays : Self.shortWeekdays)[date.weekday]
            case .dayPeriod: out += date.hour < 12 ? "AM" : "PM"
            }
        }
    }

    private func value(_ component: Component, of date: StoredDate, width: Int) -> Int {
        switch component {
        case .year: date.year
        case .month: date.month
        case .day: date.day
        case .hour: date.hour
        case .hour12: date.hour % 12 == 0 ? 12 : date.hour % 12
        case .minute: date.minute
        case .second: date.second
        // Milliseconds cut to `width` digits: S is tenths, SS hundredths.
        case .fraction: width == 3 ? date.millisecond : width == 2 ? date.millisecond / 10 : date.millisecond / 100
        }
    }

    /// `value` in decimal, zero-padded to `width` digits, with "-" before a negative one.
    private static func append(_ value: Int, width: Int, to out: inout String) {
        if value < 0 { out += "-" }
        let digits = String(value.magnitude)
        if digits.count < width { out += String(repeating: "0", count: width - digits.count) }
        out += digits
    }

    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    private static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    private static let shortMonths = months.map { String($0.prefix(3)) }
    private static let shortWeekdays = weekdays.map { String($0.prefix(3)) }
}
