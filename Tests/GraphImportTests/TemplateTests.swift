import GraphImport
import GraphImportMapping
import GraphImportSchema
import Testing

/// The entity the templates read: index in the list is the attribute's index.
private let attributes: [(name: String, type: ValueType)] = [
    ("title", .string), ("count", .int), ("price", .double), ("done", .bool), ("at", .date), ("link", .url), ("raw", .json),
    ("avatar", .data),
]

private func resolve(_ name: String) -> (index: Int, type: ValueType)? {
    attributes.firstIndex { $0.name == name }.map { ($0, attributes[$0].type) }
}

private func template(_ parts: [TemplatePart]) -> Template {
    Template(text: "", parts: parts, location: SourceLocation(line: 1, column: 1, offset: 0))
}

/// Renders `parts` with the stored values given by attribute name; unnamed attributes are NULL.
private func render(_ parts: [TemplatePart], _ values: [String: SQLValue]) throws -> SQLValue {
    let compiled = try CompiledTemplate(template(parts), resolve: resolve)
    return compiled.render { values[attributes[$0].name] ?? .null }
}

/// Renders one attribute with a format.
private func show(_ name: String, _ format: String?, _ value: SQLValue) throws -> SQLValue {
    try render([.attribute(name: name, format: format)], [name: value])
}

/// The message of the error compiling `parts` throws, or nil when it compiles.
private func compileFailure(_ parts: [TemplatePart]) -> String? {
    do throws(ConversionError) {
        _ = try CompiledTemplate(template(parts), resolve: resolve)
        return nil
    } catch {
        return error.message
    }
}

/// A Tuesday morning, with every field different: 2024-03-05 07:08:09.045 UTC.
private let tuesday = SQLValue.text("2024-03-05T07:08:09.045Z")

@Suite struct TemplateTests {
    // MARK: Plain values

    @Test func rendersEachTypeAsStored() throws {
        let parts: [TemplatePart] = [
            .attribute(name: "title", format: nil), .text(" ("), .attribute(name: "count", format: nil), .text(") "),
            .attribute(name: "price", format: nil), .text(" "), .attribute(name: "done", format: nil), .text(" "),
            .attribute(name: "at", format: nil), .text(" "), .attribute(name: "link", format: nil), .text(" "),
            .attribute(name: "raw", format: nil),
        ]
        let values: [String: SQLValue] = [
            "title": .text("Dune"), "count": .integer(-42), "price": .real(0.1), "done": .integer(1), "at": tuesday,
            "link": .text("https://example.com"), "raw": .text("{\"a\":[1]}"),
        ]
        #expect(try render(parts, values) == .text("Dune (-42) 0.1 true 2024-03-05T07:08:09.045Z https://example.com {\"a\":[1]}"))
    }

    @Test(arguments: [(0.1, "0.1"), (1.0, "1.0"), (1e20, "1e+20"), (1.0 / 3.0, "0.3333333333333333"), (-2.5, "-2.5")])
    func rendersADoubleInItsShortestForm(value: Double, expected: String) throws {
        #expect(try show("price", nil, .real(value)) == .text(expected))
    }

    @Test func rendersFalseForZero() throws {
        #expect(try show("done", nil, .integer(0)) == .text("false"))
    }

    @Test func rendersLiteralBraces() throws {
        // The parser has already turned `{{` and `}}` into text parts holding single braces.
        let parts: [TemplatePart] = [.text("{"), .attribute(name: "title", format: nil), .text("} {{x}}")]
        #expect(try render(parts, ["title": .text("Dune")]) == .text("{Dune} {{x}}"))
    }

    @Test func rendersATemplateWithoutAttributes() throws {
        #expect(try render([.text("constant")], [:]) == .text("constant"))
    }

    @Test func anyNullInputMakesTheResultNull() throws {
        let parts: [TemplatePart] = [.attribute(name: "title", format: nil), .text(" "), .attribute(name: "at", format: "yyyy")]
        #expect(try render(parts, ["title": .text("Dune")]) == .null)
        #expect(try render(parts, ["at": tuesday]) == .null)
        #expect(try render(parts, ["title": .text("Dune"), "at": tuesday]) == .text("Dune 2024"))
    }

    @Test func inputsAreTheAttributesReadInOrderOfFirstUse() throws {
        let parts: [TemplatePart] = [
            .attribute(name: "count", format: nil), .text(" "), .attribute(name: "title", format: nil),
            .attribute(name: "count", format: "%x"),
        ]
        #expect(try CompiledTemplate(template(parts), resolve: resolve).inputs == [1, 0])
    }

    // MARK: Date fields

    static let dateFields: [(String, String)] = [
        ("yyyy", "2024"), ("yy", "24"), ("y", "2024"), ("M", "3"), ("MM", "03"), ("MMM", "Mar"), ("MMMM", "March"),
        ("d", "5"), ("dd", "05"), ("E", "Tue"), ("EEE", "Tue"), ("EEEE", "Tuesday"), ("H", "7"), ("HH", "07"),
        ("h", "7"), ("hh", "07"), ("a", "AM"), ("m", "8"), ("mm", "08"), ("s", "9"), ("ss", "09"),
        ("S", "0"), ("SS", "04"), ("SSS", "045"),
        ("yyyy-MM-dd'T'HH:mm", "2024-03-05T07:08"), ("h:mm a", "7:08 AM"), ("EEE, d MMM yyyy", "Tue, 5 Mar 2024"),
        ("''yy", "'24"), ("'o''clock' H", "o'clock 7"), ("d. MMMM", "5. March"), ("dd/MM — HH", "05/03 — 07"),
    ]

    @Test(arguments: dateFields)
    func formatsEachDateField(pattern: String, expected: String) throws {
        #expect(try show("at", pattern, tuesday) == .text(expected))
    }

    @Test(arguments: [
        ("2024-03-05T00:30:00.000Z", "12:30 AM"), ("2024-03-05T11:59:00.000Z", "11:59 AM"),
        ("2024-03-05T12:00:00.000Z", "12:00 PM"), ("2024-03-05T23:01:00.000Z", "11:01 PM"),
    ])
    func formatsTwelveHourClock(stored: String, expected: String) throws {
        #expect(try show("at", "h:mm a", .text(stored)) == .text(expected))
    }

    /// Weekdays from Python's `date.strftime('%A')`; 0000-01-01 by hand: 0001-01-01 is a Monday
    /// and year 0 is a leap year of 366 days, two weekdays back.
    @Test(arguments: [
        ("1970-01-01", "Thursday"), ("1969-12-31", "Wednesday"), ("2000-02-29", "Tuesday"), ("1900-03-01", "Thursday"),
        ("1600-03-01", "Wednesday"), ("0001-01-01", "Monday"), ("0000-01-01", "Saturday"), ("9999-12-31", "Friday"),
        ("2024-12-31", "Tuesday"),
    ])
    func computesTheWeekday(day: String, expected: String) throws {
        #expect(try show("at", "EEEE", .text(day + "T12:00:00.000Z")) == .text(expected))
    }

    @Test(arguments: [("2005-06-07T00:00:00.000Z", "05"), ("1999-06-07T00:00:00.000Z", "99"), ("2000-06-07T00:00:00.000Z", "00")])
    func formatsTwoDigitYears(stored: String, expected: String) throws {
        #expect(try show("at", "yy", .text(stored)) == .text(expected))
    }

    @Test func formatsExpandedYears() throws {
        #expect(try show("at", "yyyy-MM", .text("+10000-01-02T00:00:00.000Z")) == .text("10000-01"))
        #expect(try show("at", "yyyy-MM", .text("-0001-12-31T00:00:00.000Z")) == .text("-0001-12"))
    }

    @Test func showsDateTextOfAnotherShapeAsStored() throws {
        #expect(try show("at", "yyyy", .text("2024-03-05")) == .text("2024-03-05"))
    }

    // MARK: Number formats

    /// Expected values from Python's `%` operator, and `'{:,d}'.format(…)` for the `,` flag.
    static let integerFormats: [(String, Int64, String)] = [
        ("%d", 42, "42"), ("%i", 42, "42"), ("[%5d]", 42, "[   42]"), ("%05d", 42, "00042"), ("[%-5d]", 42, "[42   ]"),
        ("%+d", 42, "+42"), ("%05d", -42, "-0042"), ("%d", .min, "-9223372036854775808"),
        ("%x", 255, "ff"), ("%X", 255, "FF"), ("%x", -1, "ffffffffffffffff"), ("%04x", 10, "000a"),
        ("%,d", 1_234_567, "1,234,567"), ("%,d", 999, "999"), ("%,d", 1000, "1,000"), ("%,d", .min, "-9,223,372,036,854,775,808"),
        ("%.2f", 3, "3.00"), ("%d items", 3, "3 items"), ("#%d", 7, "#7"), ("%d%%", 42, "42%"),
    ]

    @Test(arguments: integerFormats)
    func formatsIntegers(format: String, value: Int64, expected: String) throws {
        #expect(try show("count", format, .integer(value)) == .text(expected))
    }

    static let realFormats: [(String, Double, String)] = [
        ("%.2f", 3.14159, "3.14"), ("%.0f", 2.5, "2"), ("[%8.3f]", -1.5, "[  -1.500]"), ("%,.2f", 1_234_567.891, "1,234,567.89"),
        ("%f", 0.1, "0.100000"), ("%.2f", -0.001, "-0.00"), ("%+.1f", 2.25, "+2.2"), ("[%08.2f]", -3.5, "[-0003.50]"),
        ("%.3f", 1.0005, "1.000"), ("$%.2f", 3.14159, "$3.14"), ("%.1f €", 9.95, "9.9 €"),
    ]

    @Test(arguments: realFormats)
    func formatsDoubles(format: String, value: Double, expected: String) throws {
        #expect(try show("price", format, .real(value)) == .text(expected))
    }

    // MARK: Errors

    @Test func unknownAttributeIsACompileError() {
        #expect(compileFailure([.attribute(name: "titel", format: nil)]) == "unknown attribute 'titel' in the template")
    }

    @Test(arguments: [
        ("count", "yyyy", "format 'yyyy' cannot apply to Int attribute 'count'"),
        ("count", "%q", "format '%q' cannot apply to Int attribute 'count'"),
        ("count", "%d %d", "format '%d %d' cannot apply to Int attribute 'count'"),
        ("count", "%", "format '%' cannot apply to Int attribute 'count'"),
        ("count", "%.2d", "format '%.2d' cannot apply to Int attribute 'count'"),
        ("count", "%,x", "format '%,x' cannot apply to Int attribute 'count'"),
        ("price", "%d", "format '%d' cannot apply to Double attribute 'price'"),
        ("price", "%x", "format '%x' cannot apply to Double attribute 'price'"),
        ("at", "%d", "format '%d' cannot apply to Date attribute 'at'"),
        ("title", "%d", "format '%d' cannot apply to String attribute 'title'"),
        ("done", "yes", "format 'yes' cannot apply to Bool attribute 'done'"),
        ("link", "x", "format 'x' cannot apply to URL attribute 'link'"),
        ("raw", "x", "format 'x' cannot apply to JSON attribute 'raw'"),
        ("at", "yyyy-QQ", "unknown field 'QQ' in date format 'yyyy-QQ'"),
        ("at", "MMMMM", "unknown field 'MMMMM' in date format 'MMMMM'"),
        ("at", "SSSS", "unknown field 'SSSS' in date format 'SSSS'"),
        ("at", "yyyy 'x", "unterminated quote in date format 'yyyy \\'x'"),
        ("avatar", nil, "a template cannot show Data attribute 'avatar'"),
    ])
    func unsupportedFormatIsACompileError(name: String, format: String?, expected: String) {
        #expect(compileFailure([.attribute(name: name, format: format)]) == expected)
    }
}
