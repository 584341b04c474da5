import GraphImport
import GraphImportMapping
import GraphImportSchema
import Testing

private let here = SourceLocation(line: 1, column: 1, offset: 0)

/// Judges a stored value with a standard validator, the way the engine does: compile once, then apply.
private func judge(_ value: SQLValue, _ name: String, _ arguments: [Literal] = []) throws -> String? {
    try ValidatorCatalog.standard.compile(Check(name: name, arguments: arguments, location: here))(value)
}

/// The message of the error compiling a check throws, or nil when it compiles.
private func compileFailure(_ name: String, _ arguments: [Literal] = []) -> String? {
    do throws(ConversionError) {
        _ = try ValidatorCatalog.standard.compile(Check(name: name, arguments: arguments, location: here))
        return nil
    } catch {
        return error.message
    }
}

/// `range(0, 5)` as the map parser hands it over: integers given for numbers became doubles.
private let zeroToFive: [Literal] = [.double(0), .double(5)]

@Suite struct ValidatorTests {
    // MARK: Catalog

    @Test func standardCatalogListsTheBuiltInChecksInOrder() {
        #expect(ValidatorCatalog.standard.signatures.map(\.name) == ["url", "matches", "range", "length", "oneOf", "nonEmpty"])
        let oneOf = ValidatorCatalog.standard.validator(named: "oneOf")?.signature
        #expect(oneOf?.isVariadic == true)
        #expect(oneOf?.requiredCount == 1)
        #expect(ValidatorCatalog.standard.validator(named: "range")?.signature.parameters == [.double, .double])
    }

    @Test func unknownCheckIsACompileError() {
        #expect(compileFailure("email") == "unknown check 'email'")
    }

    @Test func registeredValidatorIsCompiledAndReplacesOneOfTheSameName() throws {
        var catalog = ValidatorCatalog.standard
        let even = Validator(signature: ConverterSignature(name: "even", parameters: [], summary: "an even integer")) { _ throws(ConversionError) in
            { value in if case .integer(let number) = value, number % 2 == 0 { nil } else { "must be even" } }
        }
        catalog.register(even)
        catalog.register(even)
        #expect(catalog.signatures.map(\.name).filter { $0 == "even" }.count == 1)
        let compiled = try catalog.compile(Check(name: "even", arguments: [], location: here))
        #expect(compiled(.integer(4)) == nil)
        #expect(compiled(.integer(3)) == "must be even")
        #expect(compiled(.null) == nil)
    }

    static let everyCheck: [(String, [Literal])] = [
        ("url", []), ("matches", [.string("x")]), ("range", zeroToFive), ("length", [.int(1), .int(2)]),
        ("oneOf", [.string("a")]), ("nonEmpty", []),
    ]

    @Test(arguments: everyCheck)
    func nullIsNeverValidated(name: String, arguments: [Literal]) throws {
        #expect(try judge(.null, name, arguments) == nil)
    }

    // MARK: url

    @Test(arguments: [
        "https://example.com/x", "http://example.com", "https://user:pw@example.com:8080/a/b?q=1#top", "ftp://files.example.org/",
        "https://[::1]:8080/", "https://bücher.de/", "custom+scheme.v2://host", "HTTPS://EXAMPLE.COM", "https://example.com:/",
    ])
    func urlAcceptsAbsoluteURLsWithAHost(text: String) throws {
        #expect(try judge(.text(text), "url") == nil)
    }

    @Test(arguments: [
        "mailto:a@b", "http://", "https://", "example.com", "//example.com/x", "https:/example.com", "file:///etc/hosts",
        "https://:80/", "https://user@/", "https://host:8a/", "1http://example.com", "https://exa mple.com",
        "https://example.com/a b", "https://example.com\n", "https://[::1", "https://[]/", "https://ex<am>ple.com", "",
    ])
    func urlRejectsTextWithoutASchemeAndHost(text: String) throws {
        #expect(try judge(.text(text), "url") == "is not a valid URL")
    }

    @Test func urlCannotCheckNumbers() throws {
        #expect(try judge(.integer(1), "url") == "cannot be checked with url: it is a number")
    }

    // MARK: matches

    @Test func matchesSearchesAnywhereInTheText() throws {
        #expect(try judge(.text("order 123 shipped"), "matches", [.string("[0-9]+")]) == nil)
        #expect(try judge(.text("no digits"), "matches", [.string("[0-9]+")]) == "does not match [0-9]+")
    }

    @Test func matchesAnchoredPatternMustMatchTheWholeText() throws {
        #expect(try judge(.text("abc"), "matches", [.string("^[a-z]+$")]) == nil)
        #expect(try judge(.text("abc1"), "matches", [.string("^[a-z]+$")]) == "does not match ^[a-z]+$")
        #expect(try judge(.text("x\nabc"), "matches", [.string("^[a-z]+$")]) == "does not match ^[a-z]+$")
    }

    @Test func matchesReadsNonASCIIText() throws {
        #expect(try judge(.text("Zoë"), "matches", [.string("^Zo.$")]) == nil)
    }

    @Test(arguments: ["(ab", "[a-", "a{2,1}", "*a"])
    func matchesRejectsABadPatternWhenCompiled(pattern: String) {
        #expect(compileFailure("matches", [.string(pattern)]) == "'\(pattern)' is not a valid regular expression")
    }

    @Test func matchesCannotCheckData() throws {
        #expect(try judge(.blob([1]), "matches", [.string("x")]) == "cannot be checked with matches: it is data")
    }

    // MARK: range

    @Test(arguments: [SQLValue.integer(0), .integer(3), .integer(5), .real(0), .real(2.5), .real(5)])
    func rangeAcceptsNumbersWithinItsBoundsInclusive(value: SQLValue) throws {
        #expect(try judge(value, "range", zeroToFive) == nil)
    }

    @Test(arguments: [SQLValue.integer(-1), .integer(6), .integer(.min), .integer(.max), .real(-0.0001), .real(5.0001), .real(.nan)])
    func rangeRejectsNumbersOutsideItsBounds(value: SQLValue) throws {
        #expect(try judge(value, "range", zeroToFive) == "must be between 0 and 5")
    }

    @Test func rangeShowsFractionalBoundsAsWritten() throws {
        #expect(try judge(.real(5), "range", [.double(0.5), .double(4.5)]) == "must be between 0.5 and 4.5")
        #expect(try judge(.integer(1), "range", [.double(0.5), .double(4.5)]) == nil)
        #expect(try judge(.integer(-2), "range", [.double(-2.5), .double(-1.5)]) == nil)
        #expect(try judge(.integer(-1), "range", [.double(-2.5), .double(-1.5)]) == "must be between -2.5 and -1.5")
    }

    @Test func rangeComparesIntegersExactlyBeyondDoublePrecision() throws {
        // 2^53 + 1 is not a Double: rounding it first would make it equal to the bound.
        let bounds: [Literal] = [.double(0), .double(9_007_199_254_740_992)]
        #expect(try judge(.integer(9_007_199_254_740_992), "range", bounds) == nil)
        #expect(try judge(.integer(9_007_199_254_740_993), "range", bounds) == "must be between 0 and 9007199254740992")
    }

    @Test func rangeAcceptsIntegerLiteralsFromLibraryUsers() throws {
        #expect(try judge(.integer(6), "range", [.int(1), .int(5)]) == "must be between 1 and 5")
    }

    @Test func rangeCannotCheckText() throws {
        #expect(try judge(.text("3"), "range", zeroToFive) == "cannot be checked with range: it is text")
    }

    @Test func rangeWithMinimumAboveMaximumIsACompileError() {
        #expect(compileFailure("range", [.double(5), .double(0)]) == "range(5, 0) admits no value: the minimum is greater than the maximum")
    }

    // MARK: length

    @Test func lengthCountsCharactersAsPeopleDo() throws {
        let bounds: [Literal] = [.int(1), .int(280)]
        #expect(try judge(.text("a"), "length", bounds) == nil)
        #expect(try judge(.text(String(repeating: "é", count: 280)), "length", bounds) == nil)
        // "e" followed by a combining acute accent is one character, two scalars, three bytes.
        #expect(try judge(.text(String(repeating: "e\u{301}", count: 280)), "length", bounds) == nil)
        #expect(try judge(.text(String(repeating: "x", count: 281)), "length", bounds) == "must be 1 to 280 characters long")
        #expect(try judge(.text(""), "length", bounds) == "must be 1 to 280 characters long")
    }

    @Test func lengthOfExactlyOneCharacterIsSingular() throws {
        #expect(try judge(.text("👍🏽"), "length", [.int(1), .int(1)]) == nil)
        #expect(try judge(.text("ab"), "length", [.int(1), .int(1)]) == "must be 1 character long")
        #expect(try judge(.text("ab"), "length", [.int(3), .int(3)]) == "must be 3 characters long")
    }

    @Test func lengthCountsBytesOfData() throws {
        #expect(try judge(.blob([1, 2]), "length", [.int(2), .int(4)]) == nil)
        #expect(try judge(.blob([1]), "length", [.int(2), .int(4)]) == "must be 2 to 4 bytes long")
        #expect(try judge(.blob([1, 2, 3, 4, 5]), "length", [.int(2), .int(4)]) == "must be 2 to 4 bytes long")
    }

    @Test func lengthCannotCheckNumbers() throws {
        #expect(try judge(.real(1), "length", [.int(1), .int(2)]) == "cannot be checked with length: it is a number")
    }

    @Test func lengthWithBadBoundsIsACompileError() {
        #expect(compileFailure("length", [.int(3), .int(2)]) == "length(3, 2) admits no value: the minimum is greater than the maximum")
        #expect(compileFailure("length", [.int(-1), .int(2)]) == "check 'length' needs two whole numbers from 0 on, such as length(1, 280)")
    }

    // MARK: oneOf

    @Test func oneOfAcceptsOneOfItsStrings() throws {
        let states: [Literal] = [.string("open"), .string("closed")]
        #expect(try judge(.text("open"), "oneOf", states) == nil)
        #expect(try judge(.text("closed"), "oneOf", states) == nil)
        #expect(try judge(.text("Open"), "oneOf", states) == "must be one of 'open', 'closed'")
        #expect(try judge(.text(""), "oneOf", states) == "must be one of 'open', 'closed'")
    }

    @Test func oneOfTakesAnyNumberOfValues() throws {
        #expect(try judge(.text("a"), "oneOf", [.string("a")]) == nil)
        let many = (1...12).map { Literal.int(Int64($0)) }
        #expect(try judge(.integer(12), "oneOf", many) == nil)
        #expect(try judge(.integer(13), "oneOf", many) == "must be one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12")
    }

    @Test func oneOfComparesNumbersByValue() throws {
        let numbers: [Literal] = [.int(1), .double(2.5)]
        #expect(try judge(.integer(1), "oneOf", numbers) == nil)
        #expect(try judge(.real(1), "oneOf", numbers) == nil)
        #expect(try judge(.real(2.5), "oneOf", numbers) == nil)
        #expect(try judge(.integer(2), "oneOf", numbers) == "must be one of 1, 2.5")
        #expect(try judge(.real(1.5), "oneOf", numbers) == "must be one of 1, 2.5")
    }

    @Test func oneOfMatchesBooleansStoredAsIntegers() throws {
        #expect(try judge(.integer(1), "oneOf", [.bool(true)]) == nil)
        #expect(try judge(.integer(0), "oneOf", [.bool(true)]) == "must be one of true")
    }

    @Test func oneOfQuotesAndEscapesItsStrings() throws {
        #expect(try judge(.text("x"), "oneOf", [.string("it's")]) == "must be one of 'it\\'s'")
    }

    @Test func oneOfCannotCheckAKindItWasGivenNoValuesOf() throws {
        #expect(try judge(.integer(1), "oneOf", [.string("1")]) == "cannot be checked with oneOf: it is a number")
        #expect(try judge(.text("1"), "oneOf", [.int(1)]) == "cannot be checked with oneOf: it is text")
        #expect(try judge(.blob([]), "oneOf", [.string("a")]) == "cannot be checked with oneOf: it is data")
    }

    @Test func oneOfWithoutValuesIsACompileError() {
        #expect(compileFailure("oneOf") == "check 'oneOf' needs at least one value, such as oneOf(\"open\", \"closed\")")
    }

    // MARK: nonEmpty

    @Test(arguments: ["", " ", " \t\n\r ", "\u{00A0}", "\u{3000}"])
    func nonEmptyRejectsBlankText(text: String) throws {
        #expect(try judge(.text(text), "nonEmpty") == "must not be empty")
    }

    @Test(arguments: ["a", " a ", "0", "\u{200B}"])
    func nonEmptyAcceptsTextWithANonWhitespaceCharacter(text: String) throws {
        #expect(try judge(.text(text), "nonEmpty") == nil)
    }

    @Test func nonEmptyJudgesDataByItsBytes() throws {
        #expect(try judge(.blob([]), "nonEmpty") == "must not be empty")
        #expect(try judge(.blob([0]), "nonEmpty") == nil)
    }

    @Test func nonEmptyCannotCheckNumbers() throws {
        #expect(try judge(.integer(0), "nonEmpty") == "cannot be checked with nonEmpty: it is a number")
    }

    @Test func checkWithArgumentsItDoesNotTakeIsACompileError() {
        #expect(compileFailure("nonEmpty", [.int(1)]) == "check 'nonEmpty' takes no arguments, found 1")
    }
}
