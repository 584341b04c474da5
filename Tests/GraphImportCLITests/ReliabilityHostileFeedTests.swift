import Foundation
import GraphImportTestSupport
import Testing

/// Feeds written to hurt: values far past the reader's limits, which must be refused with exit 65
/// naming the limit, in bounded memory and without a crash, and control characters that would
/// break an error line apart if echoed raw. One store: these are the reader's limits, met before
/// any object is written (most tests run `--dry-run`), so the store is beside the point.
@Suite("Reliability: hostile feeds")
struct ReliabilityHostileFeedTests {
    static let itemsMap = """
        entity Item
          key id
          id : Int
          name : String?
          tags : [Tag]
        entity Tag
          key name
          name : String
        """

    /// Writes `parts` one after another to `name` in `dir`, without building the whole text.
    static func writeFeed(_ dir: TemporaryDirectory, _ name: String, _ parts: [(text: String, times: Int)]) throws -> String {
        let path = dir.path(name)
        try Data().write(to: URL(fileURLWithPath: path))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        for part in parts {
            // Repeat in chunks of about 1 MiB.
            let perChunk = max(1, (1 << 20) / max(1, part.text.utf8.count))
            var left = part.times
            while left > 0 {
                let count = min(left, perChunk)
                try handle.write(contentsOf: Data(String(repeating: part.text, count: count).utf8))
                left -= count
            }
        }
        return path
    }

    @Test func hundredMegabyteStringIsRefusedInBoundedMemory() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.itemsMap)
        let feed = try Self.writeFeed(dir, "big.json", [(#"[{"id":1,"name":""#, 1), ("a", 100 << 20), (#""}]"#, 1)])
        let outcome = try runTool([feed, "--map", map, "--store", dir.path("s.sqlite")], in: dir)
        #expect(outcome.exitStatus == 65, "\(outcome.report)")
        #expect(outcome.stderr.hasPrefix("graphimport: error: \(feed):1:"), "\(outcome.report)")
        #expect(
            outcome.stderr.contains("16 MiB") || outcome.stderr.contains("16777216"), "the message names the string-length limit: \(outcome.report)")
        #expect(outcome.maxRSSKilobytes < 400_000, "peak memory \(outcome.maxRSSKilobytes / 1024) MB")
        #expect(try storeHoldsNoData(dir.path("s.sqlite")))
    }

    @Test(arguments: [("[", "]"), (#"{"a":"#, "}")])
    func hundredThousandNestedContainersAreRefusedAtTheNestingLimit(_ open: String, _ close: String) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.itemsMap)
        let feed = try Self.writeFeed(dir, "deep.json", [("[", 1), (open, 100_000), ("1", 1), (close, 100_000), ("]", 1)])
        let outcome = try runTool([feed, "--map", map, "--store", dir.path("s.sqlite")], in: dir)
        #expect(outcome.signal == nil, "\(outcome.report)")
        #expect(outcome.exitStatus == 65, "\(outcome.report)")
        #expect(outcome.stderr.hasPrefix("graphimport: error: \(feed):1:"), "\(outcome.report)")
        #expect(outcome.stderr.contains("nesting is deeper than the limit of 512 levels"), "\(outcome.report)")
    }

    @Test func millionElementToManyIsRefusedAtTheToManyLimit() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.itemsMap)
        let elements = (0..<1_000_000).map { "\"t\($0)\"" }.joined(separator: ",")
        let feed = dir.write("wide.json", #"[{"id":1,"tags":["# + elements + "]}]")
        let outcome = try runTool([feed, "--map", map, "--store", dir.path("s.sqlite"), "--dry-run"], in: dir)
        #expect(outcome.signal == nil, "\(outcome.report)")
        #expect(outcome.exitStatus == 65, "\(outcome.report)")
        #expect(outcome.stderr.contains("100,000") || outcome.stderr.contains("100000"), "names the to-many limit: \(outcome.report)")
        #expect(outcome.seconds < 30, "took \(outcome.seconds) s")
    }

    @Test(arguments: [(100_000, 0), (100_001, 65)])
    func toManyLimitBoundary(_ count: Int, _ status: Int32) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.itemsMap)
        // One tag, repeated: the count is of elements, and a repeated target is looked up once.
        let feed = try Self.writeFeed(dir, "wide.json", [(#"[{"id":1,"tags":["t""#, 1), (#","t""#, count - 1), ("]}]", 1)])
        let outcome = try runTool([feed, "--map", map, "--store", dir.path("s.sqlite"), "--dry-run"], in: dir)
        #expect(outcome.exitStatus == status, "\(outcome.report)")
    }

    /// Each value reaches an error message; none may put a raw control character into stderr, so
    /// each error stays one line. JSON escapes, and raw bytes (which are a JSON error themselves).
    @Test(arguments: [
        #"\u0007\u001b[31m"#, #"\n"#, #"\r"#, #"\t"#, #"\u0000"#, #"\u007f"#, #"\u0085"#, #"\u009b2J"#, "\u{1}", "\u{1b}[2J",
    ])
    func controlCharactersInEchoedValuesAreEscaped(_ escape: String) throws {
        try Self.expectOneLineErrors(escape)
    }

    /// U+2028 and U+2029 are not control characters, but terminals and log viewers may break a line
    /// at them; beyond the letter of the contract ("the error line stays one line").
    @Test(arguments: [#"\u2028"#, #"\u2029"#])
    func lineSeparatorsInEchoedValuesAreEscaped(_ escape: String) throws {
        try Self.expectOneLineErrors(escape)
    }

    /// Puts `escape` into values and keys that error messages quote, with and without
    /// `--skip-invalid`, and expects every stderr line to be one whole message.
    static func expectOneLineErrors(_ escape: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.itemsMap)
        let feeds = [
            // A value of the wrong type, quoted in the error.
            #"[{"id":"1\#(escape)x","name":"a"}]"#,
            // A duplicate key, quoted in the error.
            #"[{"id":1,"k\#(escape)":1,"k\#(escape)":2}]"#,
            // A to-many element of the wrong type, then a key of the wrong type.
            #"[{"id":1,"tags":[{"name":7}],"x":"\#(escape)"},{"id":"\#(escape)"}]"#,
        ]
        for (index, text) in feeds.enumerated() {
            let feed = dir.write("feed\(index).json", text)
            for options in [[], ["--skip-invalid"]] {
                let outcome = try runTool([feed, "--map", map, "--store", dir.path("s.sqlite"), "--dry-run", "--quiet"] + options, in: dir)
                let context = "\(text.debugDescription) \(options): \(outcome.stderr.debugDescription)"
                #expect(outcome.exitStatus == 65 || outcome.exitStatus == 3, "\(context)", sourceLocation: sourceLocation)
                #expect(hasNoRawControlCharacters(outcome.stderr), "\(context)", sourceLocation: sourceLocation)
                #expect(
                    !outcome.stderr.contains("\u{2028}") && !outcome.stderr.contains("\u{2029}"), "\(context)", sourceLocation: sourceLocation)
                for line in outcome.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                    #expect(
                        line.hasPrefix("graphimport: ") || line.hasPrefix("hint: "), "a line that is not a message: \(context)",
                        sourceLocation: sourceLocation)
                }
            }
        }
    }
}
