extension DatePattern {
    /// `timestamp` written in the pattern, in UTC: the inverse of `parse` for `graphimport export`.
    /// A zone is written as the offset `+0000` (`+00:00` for the colon forms) or the name `GMT`.
    func format(_ timestamp: Timestamp) -> String {
        let (days, milliseconds) = CivilTime.floorDivide(timestamp.milliseconds, CivilTime.millisecondsPerDay)
        let (year, month, day) = CivilTime.civil(days: days)
        let hour = Int(milliseconds / 3_600_000)
        let minute = Int(milliseconds / 60_000 % 60)
        let second = Int(milliseconds / 1000 % 60)
        let millisecond = Int(milliseconds % 1000)
        // 1970-01-01 was a Thursday; the names start on Monday.
        let weekday = Int(CivilTime.floorDivide(days + 3, 7).remainder)
        var text = ""
        for field in fields {
            switch field {
            case .literal(let bytes): text += String(decoding: bytes, as: UTF8.self)
            case .number(let which, let minimum, _):
                let value =
                    switch which {
                    case .year: Int(year)
                    // The two digits that read back to `year` when it lies in 1969–2068, the only
                    // years a `yy` pattern imports.
                    case .twoDigitYear: (Int(year) % 100 + 100) % 100
                    case .month: Int(month)
                    case .day: Int(day)
                    case .hour: hour
                    case .hour12: hour % 12 == 0 ? 12 : hour % 12
                    case .minute: minute
                    case .second: second
                    }
                text += CivilTime.pad(value, minimum)
            case .monthName(let full):
                let name = EnglishCalendarNames.months[Int(month) - 1]
                text += full ? name : String(name.prefix(3))
            case .weekdayName(let full):
                let name = EnglishCalendarNames.weekdays[weekday]
                text += full ? name : String(name.prefix(3))
            case .fraction(let digits):
                let three = CivilTime.pad(millisecond, 3)
                text += digits <= 3 ? String(three.prefix(digits)) : three + String(repeating: "0", count: digits - 3)
            case .dayPeriod: text += hour < 12 ? "AM" : "PM"
            case .offset(let form): text += form == .hoursColonMinutes ? "+00:00" : "+0000"
            case .zoneName, .zoneNameOrOffset: text += "GMT"
            }
        }
        return text
    }
}
