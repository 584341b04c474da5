@testable import GraphImport
import GraphImportJSON
import GraphImportSchema
import Testing

/// An attribute's value converted straight from its slot of the record's table
/// (`AttributePlan.sqlValue(slot:in:)`) is the value, or the error, that the tree's conversion of
/// the same JSON gives, for every type and converter of the map language.
@Suite("Converting from the slot table")
struct SlotConversionTests {
    static let types = ["String", "Int", "Double", "Bool", "Date", "URL", "Data", "JSON"]

    /// Every converter, the date patterns of several shapes, and chains whose first converter
    /// reads slots and whose others do not (and the other way round).
    static let converterChains = [
        "", "| iso8601", #"| date("yyyy-MM-dd HH:mm:ss")"#, #"| date("EEE MMM dd HH:mm:ss Z yyyy")"#, #"| date("dd/MM/yyyy")"#,
        #"| date("yyyy-MM-dd'T'HH:mm:ss.SSSXXX")"#, "| rfc1123", "| epochSeconds", "| epochMillis", "| epochMicros", "| epochNanos",
        "| int", "| double", "| bool", "| yesNo", "| string", "| trim", "| lowercase", "| uppercase", "| nullIfEmpty", "| nullIfFalse",
        "| base64", "| utf8", "| nullIfEmpty | iso8601", "| iso8601 | string", "| epochMillis | string", "| trim | iso8601",
        "| nullIfFalse | epochSeconds", "| string | int", "| rfc1123 | string",
    ]

    /// JSON values at the edges: integers near Int64's limits and 2^53, `-0`, fractions and
    /// exponents, strings with escapes and not ASCII, words the boolean converters read, URLs,
    /// base64, dates of every format valid and not, booleans, null, arrays and objects.
    static let edgeValues = [
        "0", "1", "-1", "-0", "0.0", "-0.0", "1.0", "1e0", "1E3", "1.5", "-2.25e-3", "1e400", "-1e400", "1e-400", "0.1",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809", "12345678901234567890123",
        "9007199254740991", "9007199254740992", "9007199254740993", "-9007199254740993", "123456789012345678", "1234567890123456789",
        "1600000000", "1600000000.5", "1453580385000", "1453580385123456", "1453580385123456789", "-62167219200", "-62167219201",
        "253402300799", "253402300800", "1.6e9", "2", "true", "false", "null", "[]", "[1, \"a\"]", "{}", #"{"a": {"b": null}}"#,
        #""""#, #""abc""#, #""a\nb\t\"q\"\\""#, #""\u00e9t\u00E9""#, #""\ud83d\ude00""#, #""école 日本 😀""#, #""ÉCOLE straße""#,
        #""true""#, #""FALSE""#, #""1""#, #""0""#, #""yes""#, #""Y""#, #""off""#, #""t""#, #"" 42 ""#, #""42""#, #""+3""#,
        #""-7""#, #""4.0""#, #""1e3""#, #""3.25""#, #""nan""#, #""inf""#, #""-1e-3""#, #""1600000000""#, #""1453580385000""#,
        #""https://example.com/a?b=c""#, #""mailto:a@b.c""#, #""x:""#, #""1http://x""#, #""no scheme""#, #""aGk=""#, #""aGk""#,
        #""YQ==""#, #""  spaced\u00a0""#, #""\u0000""#,
        #""2019-01-01""#, #""2011-04-22T13:33:48Z""#, #""2011-04-22 13:33:48.123+02:00""#, #""2011-04-22t13:33:48.123456789z""#,
        #""20110422T133348Z""#, #""20110422""#, #""2011-04""#, #""201104""#, #""2011-02-29""#, #""2012-02-29T00:00:00+0200""#,
        #""2011-04-22T24:00:00Z""#, #""2016-12-31T23:59:60Z""#, #""0000-01-01T00:00:00Z""#, #""9999-12-31T23:59:59.999Z""#,
        #""2011-04-22T13:33:48\u005A""#, #""2011\u002d04-22""#, #""Sun, 06 Nov 1994 08:49:37 GMT""#, #""Sun, 6 Nov 1994 08:49:37 -0500""#,
        #""Sun, 06 Nov 1994 25:49:37 GMT""#, #""Wed Aug 27 13:08:45 +0000 2008""#, #""Wed Aug 32 13:08:45 +0000 2008""#,
        #""2024-01-02 03:04:05""#, #""2024-13-02 03:04:05""#, #""31/12/1999""#, #""32/12/1999""#, #""2024-01-02T03:04:05.678+01:00""#,
    ]

    /// Seeded random values of every kind the conversions read: integers in every range,
    /// literals with fractions and exponents, strings with escapes, and dates in every format,
    /// in range and out of it, some with one character changed.
    static func randomValues(count: Int, seed: UInt64) -> [String] {
        var random = GraphRandom(state: seed)
        var values: [String] = []
        for _ in 0..<count {
            switch random.next(8) {
            case 0: values.append(String(Int64.random(in: .min ... .max, using: &random)))
            case 1: values.append(String(Int64.random(in: -(1 << 54)...(1 << 54), using: &random)))
            case 2:
                let mantissa = String(Int.random(in: -99_999_999...99_999_999, using: &random))
                let fraction = random.chance(1, in: 2) ? "." + String(Int.random(in: 0...999_999, using: &random)) : ""
                let exponent = random.chance(1, in: 2) ? ["e", "E", "e+", "e-"][random.next(4)] + String(random.next(30)) : ""
                values.append(mantissa + fraction + exponent)
            case 3: values.append(jsonString(randomText(&random), &random))
            case 4: values.append(String(Int64.random(in: -70_000_000_000_000...260_000_000_000_000, using: &random)))
            default:
                var date = randomDate(&random)
                if random.chance(1, in: 4) {
                    var characters = Array(date)
                    characters[random.next(characters.count)] = Array("0a -:+Z9é/")[random.next(10)]
                    date = String(characters)
                }
                values.append(jsonString(date, &random))
            }
        }
        return values
    }

    /// Text of ASCII letters and digits, punctuation, escapes' characters and not ASCII.
    static func randomText(_ random: inout GraphRandom) -> String {
        let alphabet = Array("aZ09 +-.:/\"\\\n\t\u{1}éß日😀\u{a0}")
        return String((0..<random.next(12)).map { _ in alphabet[random.next(alphabet.count)] })
    }

    /// `text` as a JSON string, some characters written as `\u` escapes.
    static func jsonString(_ text: String, _ random: inout GraphRandom) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || (scalar.value < 0x10000 && random.chance(1, in: 8)):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A date in one of the formats the converters read, its fields sometimes out of range.
    static func randomDate(_ random: inout GraphRandom) -> String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let year = random.chance(1, in: 10) ? random.next(10_001) : 1900 + random.next(200)
        let month = random.chance(1, in: 10) ? random.next(14) : 1 + random.next(12)
        let day = random.chance(1, in: 10) ? random.next(33) : 1 + random.next(28)
        let hour = random.chance(1, in: 10) ? random.next(26) : random.next(24)
        let minute = random.next(61), second = random.next(62)
        let zones = ["Z", "z", "+02:00", "-0530", "+14", ""]
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "Foo"]
        let time = pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        switch random.next(6) {
        case 0:
            let fraction = random.chance(1, in: 2) ? "." + String(repeating: "7", count: 1 + random.next(10)) : ""
            return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + ["T", "t", " "][random.next(3)] + time + fraction
                + zones[random.next(zones.count)]
        case 1: return pad(year, 4) + pad(month, 2) + pad(day, 2) + "T" + time.filter { $0 != ":" } + ["Z", "+0200", ""][random.next(3)]
        case 2:
            return weekdays[random.next(7)] + ", " + String(day) + " " + months[max(0, month - 1)] + " " + pad(year, 4) + " " + time + " "
                + ["GMT", "UTC", "UT", "Z", "+0000", "-0500", "EST"][random.next(7)]
        case 3:
            return weekdays[random.next(7)] + " " + months[max(0, month - 1)] + " " + pad(day, 2) + " " + time + " +0000 " + pad(year, 4)
        case 4: return pad(day, 2) + "/" + pad(month, 2) + "/" + pad(year, 4)
        default: return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " " + time
        }
    }

    /// The attribute `v` of a map that reads it as `type` through `chain`, or nil when the map
    /// language refuses that pairing.
    static func attribute(type: String, chain: String, converters: ConverterCatalog = .standard) -> (ImportPlan, AttributePlan)? {
        let map = "records at $[*] as E\nentity E\n  key id\n  id : Int\n  v : \(type)? \(chain)\n"
        guard let plan = try? ImportPlan.compile(text: map, fileName: "test.map", converters: converters),
            let attribute = plan.entities[0].attributes.first(where: { $0.name == "v" })
        else { return nil }
        return (plan, attribute)
    }

    /// Each record's `v` converted from the tree (`next()`) and from the table (`next(into:)`),
    /// as text: a value with its case, or an error with its message and hint.
    static func conversions(of values: [String], plan: ImportPlan, attribute: AttributePlan) throws -> (tree: [String], table: [String]) {
        let json = "[" + values.enumerated().map { #"{"id": \#($0), "v": \#($1)}"# }.joined(separator: ",\n") + "]"
        func shown(_ body: () throws(ConversionError) -> SQLValue) -> String {
            do throws(ConversionError) {
                let value = try body()
                if case .real(let real) = value { return "real \(real) \(real.bitPattern)" }
                return "\(value)"
            } catch { return "error \(error.message) hint \(error.hint ?? "-")" }
        }
        var tree: [String] = []
        let treeReader = plan.recordReader(source: BytesSource(Array(json.utf8)), projections: plan.projections(), format: .auto)
        while let record = try treeReader.next() {
            guard case .object(let object) = record.value, let raw = object["v"] else { throw SlotConversionFailure.noValue }
            tree.append(shown { () throws(ConversionError) in try attribute.sqlValue(raw) })
        }
        var table: [String] = []
        var slots = JSONSlots()
        let tableReader = plan.recordReader(source: BytesSource(Array(json.utf8)), projections: plan.projections(), format: .auto)
        while try tableReader.next(into: &slots) != nil {
            guard let slot = slots.member("v", of: slots.root) else { throw SlotConversionFailure.noValue }
            table.append(shown { () throws(ConversionError) in try attribute.sqlValue(slot: slot, in: slots) })
        }
        return (tree, table)
    }

    enum SlotConversionFailure: Error { case noValue }

    /// For every type and converter chain the map language takes, the edge values and seeded
    /// random ones convert alike from the slot and from the tree.
    @Test(arguments: types)
    func everyConverterConvertsAlikeFromTheSlot(type: String) throws {
        let values = Self.edgeValues + Self.randomValues(count: 400, seed: UInt64(Self.types.firstIndex(of: type)!) + 34)
        var compiled = 0
        var slotRead = 0
        for chain in Self.converterChains {
            guard let (plan, attribute) = Self.attribute(type: type, chain: chain) else { continue }
            compiled += 1
            if attribute.slotConversion != nil { slotRead += 1 }
            let (tree, table) = try Self.conversions(of: values, plan: plan, attribute: attribute)
            #expect(tree.count == values.count && table.count == values.count)
            for (index, (treeValue, tableValue)) in zip(tree, table).enumerated() where treeValue != tableValue {
                Issue.record("\(type)? \(chain) of \(values[index]):\ntree:  \(treeValue)\ntable: \(tableValue)")
            }
        }
        // Every chain compiles for some type; the date and epoch chains read slots.
        #expect(compiled > 0)
        if type == "Date" { #expect(slotRead >= 10) }
    }

    /// A converter registered under a built-in's name replaces it for slots too: its slot is made
    /// a `JSONValue` for it, never read the built-in way.
    @Test func aReplacedConverterIsNotReadTheBuiltInWay() throws {
        var catalog = ConverterCatalog.standard
        catalog.register(Converter(name: "iso8601", summary: "every value is the epoch") { _ in .date(Timestamp(milliseconds: 0)) })
        let (plan, attribute) = try #require(Self.attribute(type: "Date", chain: "| iso8601", converters: catalog))
        #expect(attribute.slotConversion == nil)
        let (tree, table) = try Self.conversions(of: [#""2011-04-22T13:33:48Z""#, "1"], plan: plan, attribute: attribute)
        #expect(tree == ["'1970-01-01T00:00:00.000Z'", "'1970-01-01T00:00:00.000Z'"])
        #expect(table == tree)
    }

    /// The rules around the conversion (`missing`, `null keep`, `null` replaced, `check`,
    /// required) give the same drafts and errors, with their positions, from either read.
    @Test func theRulesAroundTheConversionDraftAlike() throws {
        let map = """
            records at $[*] as Post
            entity Post
              key id
              id : Int
              title : String? missing "none"
              score : Double? check range(0, 5)
              count : Int check range(1, 10)
              posted <- created_at : Date? | iso8601 null keep
              seen <- seen_at : Date? | epochMillis missing reject
              home : URL?
              flag : Bool? null false
              day <- d : Date | date("dd/MM/yyyy")
            """
        var random = GraphRandom(state: 7)
        let samples: [String: [String]] = [
            "title": [#""t""#, "null", "3", #""é\n""#],
            "score": ["4.5", "6", "-0", "1e400", #""4""#, "null"],
            "count": ["3", "0", "11", "3.0", "9007199254740993", "null"],
            "created_at": [#""2011-04-22T13:33:48Z""#, #""2011-02-30""#, "null", "5"],
            "seen_at": ["1453580385000", #""1453580385000""#, "1e20", "null", #""x""#],
            "home": [#""https://a.b""#, #""ab""#, "null", "1"],
            "flag": ["true", "false", "null", "1"],
            "d": [#""31/12/1999""#, #""32/12/1999""#, "null", "19991231"],
        ]
        var records: [String] = []
        for index in 0..<300 {
            var members = [#""id": \#(index)"#]
            for (key, values) in samples.sorted(by: { $0.key < $1.key }) where !random.chance(1, in: 6) {
                members.append(#""\#(key)": \#(values[random.next(values.count)])"#)
            }
            records.append("{" + members.joined(separator: ", ") + "}")
        }
        try SlotDraftingTests.expectSame(map: map, json: "[" + records.joined(separator: ",\n") + "]")
    }
}
