@testable import GraphImport
import Testing

/// The compiled date reader against the field loop it replaced (`ReferenceDates`, main at
/// 189a488): generated patterns over every directive, texts of random instants in 1600–2400 in
/// every zone form, and the same texts damaged (a byte replaced, inserted or dropped, cut short,
/// a field out of range). Every answer must be the same: the instant, or the same failure and so
/// the same message.
@Suite struct DatePatternStepsTests {
    /// A field of a generated pattern: its letters and how to write a value for it.
    struct Piece {
        var pattern: String
        var text: String
    }

    static let months = ReferenceDates.months
    static let weekdays = ReferenceDates.weekdays

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    static func anyCase(_ name: String, _ random: inout GraphRandom) -> String {
        String(name.map { random.chance(1, in: 3) ? Character($0.uppercased() == String($0) ? $0.lowercased() : $0.uppercased()) : $0 })
    }

    /// A zone offset in the written form of `letters`, or `Z`, sometimes out of range.
    static func offset(_ letters: String, _ random: inout GraphRandom) -> String {
        if random.chance(1, in: 6) { return random.pick(["Z", "z", "GMT"]) }
        let hours = random.chance(1, in: 12) ? 24 + random.next(76) : random.next(24)
        let minutes = random.chance(1, in: 12) ? 60 + random.next(40) : random.pick([0, 0, 30, 45, random.next(60)])
        let sign = random.chance(1, in: 2) ? "+" : "-"
        switch letters {
        case "ZZZZZ", "XXX": return sign + pad(hours, 2) + ":" + pad(minutes, 2)
        case "X": return sign + pad(hours, 2) + (minutes == 0 && random.chance(1, in: 2) ? "" : pad(minutes, 2))
        default: return sign + pad(hours, 2) + pad(minutes, 2)
        }
    }

    /// A pattern with every part a date may have, each in a random form, and a text for it.
    static func generated(_ random: inout GraphRandom) -> (pattern: String, text: String) {
        let year = 1600 + random.next(801)
        let month = 1 + random.next(12)
        let day = 1 + random.next(31)  // past its month now and then: the instant's own check
        let hour = random.next(24)
        var pieces: [Piece] = []
        if random.chance(1, in: 2) {
            pieces.append(Piece(pattern: "yyyy", text: pad(year, 4)))
        } else {
            pieces.append(Piece(pattern: "yy", text: pad(year % 100, 2)))
        }
        let monthForm = random.pick(["M", "MM", "MMM", "MMMM"])
        switch monthForm {
        case "M": pieces.append(Piece(pattern: "M", text: String(month)))
        case "MM": pieces.append(Piece(pattern: "MM", text: pad(month, 2)))
        case "MMM": pieces.append(Piece(pattern: "MMM", text: anyCase(String(months[month - 1].prefix(3)), &random)))
        default: pieces.append(Piece(pattern: "MMMM", text: anyCase(months[month - 1], &random)))
        }
        if random.chance(1, in: 2) {
            pieces.append(Piece(pattern: "d", text: String(day)))
        } else {
            pieces.append(Piece(pattern: "dd", text: pad(day, 2)))
        }
        if random.chance(1, in: 3) {
            let weekday = weekdays[random.next(7)]
            let letters = random.pick(["E", "EE", "EEE", "EEEE"])
            pieces.append(Piece(pattern: letters, text: anyCase(letters == "EEEE" ? weekday : String(weekday.prefix(3)), &random)))
        }
        if random.chance(3, in: 4) {
            if random.chance(1, in: 3) {
                let hour12 = random.chance(1, in: 20) ? random.pick([0, 13, 99]) : hour % 12 == 0 ? 12 : hour % 12
                let letters = random.pick(["h", "hh"])
                pieces.append(Piece(pattern: letters, text: letters == "h" ? String(hour12) : pad(hour12, 2)))
                pieces.append(Piece(pattern: "a", text: anyCase(hour < 12 ? "AM" : "PM", &random)))
            } else {
                let letters = random.pick(["H", "HH"])
                pieces.append(Piece(pattern: letters, text: letters == "H" ? String(hour) : pad(hour, 2)))
            }
            let minute = random.chance(1, in: 20) ? 60 + random.next(40) : random.next(60)
            let second = random.chance(1, in: 20) ? 60 + random.next(3) : random.next(60)
            let minuteLetters = random.pick(["m", "mm"])
            pieces.append(Piece(pattern: minuteLetters, text: minuteLetters == "m" ? String(minute) : pad(minute, 2)))
            let secondLetters = random.pick(["s", "ss"])
            pieces.append(Piece(pattern: secondLetters, text: secondLetters == "s" ? String(second) : pad(second, 2)))
            if random.chance(1, in: 2) {
                let digits = 1 + random.next(9)
                pieces.append(Piece(pattern: String(repeating: "S", count: digits), text: String((0..<digits).map { _ in Character(String(random.next(10))) })))
            }
        }
        if random.chance(2, in: 3) {
            let letters = random.pick(["Z", "ZZ", "ZZZ", "ZZZZZ", "X", "XX", "XXX", "z", "zz", "zzz"])
            let text = letters.hasPrefix("z") ? anyCase(random.pick(["GMT", "UTC", "UT", "Z", "UTC"]), &random) : offset(letters, &random)
            pieces.append(Piece(pattern: letters, text: text))
        }
        // Any order: a pattern needs only its fields, and a run of numbers with no separator
        // is one more shape both readers must agree on.
        if random.chance(1, in: 3) { pieces.shuffle(using: &random) }
        var pattern = ""
        var text = ""
        for (index, piece) in pieces.enumerated() {
            if index > 0 {
                let separator = random.pick([" ", " ", "-", ":", ", ", "/", "'T'", "'at'", "''", "", ". "])
                pattern += separator
                text += separator == "''" ? "'" : separator == "'T'" ? "T" : separator == "'at'" ? "at" : separator
            }
            pattern += piece.pattern
            text += piece.text
        }
        return (pattern, text)
    }

    /// `text` with one thing wrong, or as it is.
    static func damaged(_ text: String, _ random: inout GraphRandom) -> String {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return text }
        let at = random.next(bytes.count)
        let stray = random.pick(Array("0159 +-:Z,.'aAmMpPtTuUgG".utf8) + [0xC3, 0x00, 0x7F])
        switch random.next(5) {
        case 0: bytes[at] = stray
        case 1: bytes.insert(stray, at: at)
        case 2: bytes.remove(at: at)
        case 3: bytes.removeLast(1 + random.next(bytes.count))
        default: return text
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func steps(_ pattern: DatePattern, _ text: String) -> Result<Timestamp, DateParseFailure> {
        Result { () throws(DateParseFailure) -> Timestamp in try pattern.parse(text) }
    }

    @Test func generatedPatternsReadEveryTextAsTheFieldLoopDid() {
        var random = GraphRandom(state: 1600)
        var compiled = 0
        var read = 0
        var outOfRange = 0
        var malformed = 0
        for _ in 0..<30000 {
            let (format, text) = Self.generated(&random)
            guard let pattern = try? DatePattern(format) else { continue }
            compiled += 1
            for candidate in [text, Self.damaged(text, &random), Self.damaged(text, &random)] {
                let expected = ReferenceDates.parse(candidate, fields: pattern.fields)
                switch expected {
                case .success: read += 1
                case .failure(.outOfRange): outOfRange += 1
                case .failure(.malformed): malformed += 1
                }
                #expect(Self.steps(pattern, candidate) == expected, "\(format): \(candidate)")
            }
        }
        // The generator reaches every answer often: most patterns compile, many texts are read,
        // many refused for their shape and many for a field out of range.
        #expect(compiled > 25000)
        #expect(read > 20000)
        #expect(malformed > 20000)
        #expect(outOfRange > 5000)
    }

    @Test func rfc1123ReadsEveryTextAsTheFieldLoopDid() {
        var random = GraphRandom(state: 1123)
        let pattern = StandardConverters.rfc1123Pattern
        for _ in 0..<5000 {
            let year = 1600 + random.next(801)
            let zone = random.chance(1, in: 2) ? Self.anyCase(random.pick(["GMT", "UTC", "UT", "Z"]), &random) : Self.offset("Z", &random)
            let text =
                "\(Self.anyCase(String(Self.weekdays[random.next(7)].prefix(3)), &random)), \(1 + random.next(31)) "
                + "\(Self.anyCase(String(Self.months[random.next(12)].prefix(3)), &random)) \(Self.pad(year, 4)) "
                + "\(Self.pad(random.next(25), 2)):\(Self.pad(random.next(61), 2)):\(Self.pad(random.next(61), 2)) \(zone)"
            for candidate in [text, Self.damaged(text, &random)] {
                #expect(Self.steps(pattern, candidate) == ReferenceDates.parse(candidate, fields: pattern.fields), "\(candidate)")
            }
        }
    }

    @Test func longLiteralsAndQuotesReadAsTheFieldLoopDid() throws {
        let pattern = try DatePattern("'the year' yyyy', month' MM 'and the day of the month, written plainly:' dd''")
        let text = "the year 2024, month 02 and the day of the month, written plainly: 29'"
        var random = GraphRandom(state: 77)
        #expect(try pattern.parse(text) == ReferenceDates.parse(text, fields: pattern.fields).get())
        for _ in 0..<2000 {
            let candidate = Self.damaged(text, &random)
            #expect(Self.steps(pattern, candidate) == ReferenceDates.parse(candidate, fields: pattern.fields), "\(candidate)")
        }
    }

    /// Three letters packed as `ByteScanner.nextWord()` packs them: lower case, the first lowest.
    static func packed(_ letters: [UInt8]) -> UInt32 {
        UInt32(letters[0] | 0x20) | UInt32(letters[1] | 0x20) << 8 | UInt32(letters[2] | 0x20) << 16
    }

    @Test func packedWordsFindEachNameAndNothingElse() {
        // Every three lower-case letters: exactly the names' first three find a name, their own.
        var months: [Int] = []
        var weekdays: [Int] = []
        let letters = Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
        for first in letters {
            for second in letters {
                for third in letters {
                    let word = Self.packed([first, second, third])
                    if let month = EnglishCalendarNames.month(word: word) {
                        #expect(Array(Self.months[month].lowercased().utf8.prefix(3)) == [first, second, third])
                        months.append(month)
                    }
                    if let weekday = EnglishCalendarNames.weekday(word: word) {
                        #expect(Array(Self.weekdays[weekday].lowercased().utf8.prefix(3)) == [first, second, third])
                        weekdays.append(weekday)
                    }
                }
            }
        }
        #expect(months.sorted() == Array(0..<12))
        #expect(weekdays.sorted() == Array(0..<7))
    }

    @Test func isoTextWritesEveryInstantAsThePiecesDid() {
        var random = GraphRandom(state: 2400)
        // 1600–2400 and past 0000–9999 both ways (the expanded years).
        let ranges: [ClosedRange<Int64>] = [
            -11_676_096_000_000...13_569_465_599_999, -62_167_219_200_000...253_402_300_799_999, -100_000_000_000_000...400_000_000_000_000,
        ]
        for _ in 0..<20000 {
            let range = random.pick(ranges)
            let milliseconds = range.lowerBound + Int64(random.nextBits() % UInt64(range.upperBound - range.lowerBound + 1))
            let timestamp = Timestamp(milliseconds: milliseconds)
            #expect(Coercion.isoText(timestamp) == ReferenceDates.isoText(timestamp))
        }
    }
}
