import Foundation
import GraphImportTestSupport
import Testing

extension CorpusSuite {
    /// Every file of JSONTestSuite's `test_parsing` through the built binary, as a feed would come:
    /// `n_` files (invalid JSON) are refused with a position, `y_` files (valid JSON) never fail as
    /// JSON, and `i_` files (either is allowed) end in an ordinary exit, never a crash. One store:
    /// the reader is the subject.
    @Suite("Reliability: JSONTestSuite through the command line")
    struct JSONTestSuiteTests {
        /// Takes any record that is an object: the whole object is its key. Records of another kind
        /// (a number, an array) do not fit, and `--skip-invalid` skips them with exit 3.
        static let map = """
            records at $[*] as Doc
            entity Doc
              key raw
              raw <- $ : JSON
            """

        static let directory = Corpus.file("JSONTestSuite/test_parsing")

        /// The file names, sorted; empty when the corpus is missing (`corpusIsPresent` fails then).
        static let files: [String] = {
            guard let directory else { return [] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.filter { $0.hasSuffix(".json") }.sorted()
        }()

        @Test func corpusIsPresent() {
            #expect(Self.files.count >= 300, "JSONTestSuite/test_parsing not found under \(Corpus.directory?.path ?? "no corpus")")
            for prefix in ["y_", "n_", "i_"] {
                #expect(Self.files.contains { $0.hasPrefix(prefix) }, "no \(prefix) files")
            }
        }

        @Test func mapAcceptsAnyObject() throws {
            let dir = TemporaryDirectory()
            let feed = dir.write("feed.json", #"[{"a":1},{},{"b":[null,{"c":"d"}]}]"#)
            let outcome = try runTool([feed, "--map", dir.write("any.map", Self.map), "--store", dir.path("s.sqlite"), "--quiet"], in: dir)
            #expect(outcome.exitStatus == 0, "\(outcome.report)")
            #expect(try sqlite(dir.path("s.sqlite"), "SELECT count(*) FROM docs") == "3")
        }

        @Test(arguments: files)
        func parsingFileEndsAsItsPrefixRequires(_ name: String) throws {
            let feed = try #require(Self.directory).appendingPathComponent(name).path
            let dir = TemporaryDirectory()
            let arguments = [feed, "--map", dir.write("any.map", Self.map), "--skip-invalid", "--dry-run", "--allow-empty", "--store", dir.path("s.sqlite")]
            let outcome = try runTool(arguments, in: dir, timeout: 30)
            #expect(outcome.signal == nil, "\(name): killed by a signal: \(outcome.report)")
            #expect(outcome.exitStatus != 70, "\(name): internal error: \(outcome.report)")
            #expect(!outcome.stderr.contains("internal error"), "\(name): \(outcome.report)")
            let errors = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("graphimport: error: ") }
            switch name.prefix(2) {
            case "n_":
                if try Self.isBlank(feed) {
                    // No JSON at all is an empty feed, which `--allow-empty` accepts; without it, refused.
                    #expect(outcome.exitStatus == 0, "\(name): \(outcome.report)")
                    let strict = try runTool(Array(arguments.filter { $0 != "--allow-empty" }), in: dir, timeout: 30)
                    #expect(strict.exitStatus == 65, "\(name) without --allow-empty: \(strict.report)")
                    #expect(strict.stderr.hasPrefix("graphimport: error: \(feed): the input is empty\n"), "\(name): \(strict.report)")
                } else {
                    #expect(outcome.exitStatus == 65, "\(name): \(outcome.report)")
                    #expect(
                        errors.count == 1 && errors[0].wholeMatch(of: Self.positionedError(feed)) != nil,
                        "\(name): expected one `graphimport: error: FILE:LINE:COL: …` line: \(outcome.report)")
                }
            case "y_" where name.hasPrefix("y_object_duplicated_key"):
                // Valid JSON, but duplicate keys in one object are a data error by default (the
                // README's contract): graphimport will not silently keep one of two values.
                #expect(outcome.exitStatus == 65, "\(name): \(outcome.report)")
                #expect(outcome.stderr.contains("duplicate key \"a\" in an object"), "\(name): \(outcome.report)")
            case "y_":
                #expect(outcome.exitStatus == 0 || outcome.exitStatus == 3, "\(name): \(outcome.report)")
                #expect(errors.isEmpty, "\(name): valid JSON was refused: \(outcome.report)")
                // Exit 3 only for records that do not fit the map: each skip names the record.
                for line in outcome.stderr.split(separator: "\n") where line.hasPrefix("graphimport: skipped: ") {
                    #expect(line.contains("expected an object for Doc"), "\(name): \(line)")
                }
            default:
                #expect([0, 3, 65].contains(outcome.exitStatus), "\(name): \(outcome.report)")
                if outcome.exitStatus == 65 {
                    #expect(errors.count == 1 && errors[0].wholeMatch(of: Self.positionedError(feed)) != nil, "\(name): \(outcome.report)")
                }
            }
        }

        /// `graphimport: error: FEED:LINE:COL: message`.
        static func positionedError(_ feed: String) -> Regex<AnyRegexOutput> {
            let escaped = NSRegularExpression.escapedPattern(for: feed)
            return try! Regex("graphimport: error: \(escaped):[0-9]+:[0-9]+: .+")
        }

        /// True when the file holds nothing but JSON whitespace (no JSON at all).
        static func isBlank(_ path: String) throws -> Bool {
            try Data(contentsOf: URL(fileURLWithPath: path)).allSatisfy { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        }
    }
}
