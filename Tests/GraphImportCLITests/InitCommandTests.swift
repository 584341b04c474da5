import Foundation
import GraphImportTestSupport
import Testing

/// `graphimport init`: the command line around the drafting (its own tests are in GraphImportTests).
/// One store: the drafts are the subject; a draft's imports go to the default store beside it.
@Suite("init command")
struct InitCommandTests {
    @Test func printsTheDraftOnStandardOutput() throws {
        let dir = TemporaryDirectory()
        let feed = dir.write("feed.json", #"[{"id": 1, "title": "a", "created_at": "2024-01-02T03:04:05Z"}]"#)
        let result = runInProcess(["init", feed, "--entity", "Post"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(result.stdout.contains("records at $[*] as Post\n"))
        #expect(result.stdout.contains("  createdAt <- created_at : Date | iso8601   # guess: every value is a date in ISO 8601 format\n"))
    }

    @Test func writesANewFileAndNeverOverwritesOne() throws {
        let dir = TemporaryDirectory()
        let feed = dir.write("tweets.json", #"[{"id": 1}, {"id": 2}]"#)
        let map = dir.path("tweets.map")
        let first = runInProcess(["init", feed, "-o", map])
        #expect(first.status == 0)
        #expect(first.stdout == "")
        #expect(first.stderr == "graphimport: drafted \(map): 2 records at $[*]; entities Tweet\n")
        let drafted = try String(contentsOfFile: map, encoding: .utf8)
        #expect(drafted.contains("records at $[*] as Tweet\n"))
        let again = runInProcess(["init", feed, "--output", map])
        #expect(again.status == 73)
        #expect(
            again.stderr
                == "graphimport: error: cannot write the map '\(map)': it exists; init does not overwrite a map\nhint: remove it, or choose another name\n")
        #expect(try String(contentsOfFile: map, encoding: .utf8) == drafted)
    }

    @Test func severalSamplesMakeOneDraftThatImportsEachOfThem() throws {
        let dir = TemporaryDirectory()
        // Two pages of one endpoint: the second has a fraction where the first had integers, a
        // field the first lacks, and a null where the first had text; standard input is a third.
        let first = dir.write("page1.json", #"{"page": 1, "items": [{"id": 1, "score": 2, "title": "a"}]}"#)
        let second = dir.write("page2.json", #"{"page": 2, "items": [{"id": 2, "score": 2.5, "title": null, "tag": "x"}]}"#)
        let map = dir.path("feed.map")
        let drafted = runInProcess(["init", first, second, "-", "-o", map], stdinText: #"{"page": 3, "items": []}"#)
        #expect(drafted.status == 0, "\(drafted.stderr)")
        #expect(drafted.stderr == "graphimport: drafted \(map): 2 records at items[*]; entities Record\n")
        let text = try String(contentsOfFile: map, encoding: .utf8)
        // Not keyed by the page number, unique to each response: the items are the records.
        #expect(text.contains("records at items[*] as Record\n"), "\(text)")
        #expect(text.contains("# meta page <- page : Int?"), "\(text)")
        for line in ["  score : Double\n", "  title : String?\n", "  tag   : String?\n"] { #expect(text.contains(line), "\(text)") }
        for (index, sample) in [first, second].enumerated() {
            // Not `--strict`: the first page alone has no `tag`, which `check` points out.
            let checked = runInProcess(["check", "--map", map, "--sample", sample])
            #expect(checked.status == 0, "\(checked.stderr)")
            let imported = runInProcess([sample, "--map", map, "--store", dir.path("store.sqlite")])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(try sqlite(dir.path("store.sqlite"), "SELECT count(*) FROM records") == String(index + 1))
        }
        let twice = runInProcess(["init", "-", "-"])
        #expect(twice.status == 64)
        // A sample that is not JSON is named in the error.
        let broken = dir.write("broken.json", "{")
        let refused = runInProcess(["init", first, broken])
        #expect(refused.status == 65)
        #expect(refused.stderr.hasPrefix("graphimport: error: \(broken):1:2: "), "\(refused.stderr)")
    }

    @Test func readsStandardInput() {
        let result = runInProcess(["init", "-", "--format", "jsonl"], stdinText: "{\"uuid\": \"a\"}\n{\"uuid\": \"b\"}\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("records at $[*] as Record\n"))
        #expect(result.stdout.contains("  key uuid\n"))
    }

    @Test func refusesAFeedThatIsNotJSONOrNotThere() {
        let dir = TemporaryDirectory()
        let broken = dir.write("broken.json", "[{\"id\": 1},\n")
        let invalid = runInProcess(["init", broken])
        #expect(invalid.status == 65)
        #expect(invalid.stderr == "graphimport: error: \(broken):2:1: unexpected end of input inside an array\n")
        let missing = runInProcess(["init", dir.path("none.json")])
        #expect(missing.status == 66)
        #expect(missing.stderr == "graphimport: error: cannot open the sample '\(dir.path("none.json"))': No such file or directory\n")
    }

    @Test func refusesAnEntityNameTheMapCannotHold() {
        let bad = runInProcess(["init", "feed.json", "--entity", "my-posts"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: The entity name 'my-posts' is not a map NAME\n"))
        let builtIn = runInProcess(["init", "feed.json", "--entity", "Date"])
        #expect(builtIn.status == 64)
        #expect(builtIn.stderr.hasPrefix("Error: The entity name 'Date' is a built-in type\nChoose another name ('DateItem').\n"))
        let none = runInProcess(["init"])
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("Error: Missing expected argument '<feed>'\n"))
    }

    @Test func helpDescribesTheCommand() {
        let result = runInProcess(["init", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("OVERVIEW: Draft a starter map from a sample feed.\n"))
        #expect(result.stdout.contains("USAGE: graphimport init <feed> ... [--entity <name>] [--format <format>] [--output <file>]\n"))
    }
}

/// What `init` leaves out, it says; what it drafts, `check` accepts; it takes time linear in its input.
extension InitCommandTests {
    /// One 1 MB key took 25 s (a quadratic name conversion) and drafted a map over the map-size
    /// limit: now it is left out, said in the header, and the draft is checked and imports.
    @Test func aKeyTooLongToNameAFieldIsLeftOutAndSaidInLinearTime() throws {
        let dir = TemporaryDirectory()
        let feed = dir.write("feed.json", #"[{"id": 1, ""# + String(repeating: "k", count: 1 << 20) + #"": 1}]"#)
        let map = dir.path("draft.map")
        var result: CommandResult?
        let elapsed = ContinuousClock().measure { result = runInProcess(["init", feed, "-o", map]) }
        #expect(result?.status == 0, "\(result?.stderr ?? "")")
        #expect(elapsed < .seconds(10), "quadratic in the key's length: \(elapsed)")
        let draft = try String(contentsOfFile: map, encoding: .utf8)
        #expect(draft.utf8.count < 2_000)
        #expect(draft.contains("\n# Left out at the records: 1 key over 1024 bytes (the longest 1048576 bytes), too long to name a field.\n"))
        let checked = runInProcess(["check", "--map", map, "--sample", feed, "--strict"])
        #expect(checked.status == 0, "\(checked.stderr)")
    }

    /// The bound on a key's length, at its edge: 1024 bytes name a field, 1025 do not.
    @Test(arguments: [(1_024, true), (1_025, false)])
    func keysUpToTheBoundAreDrafted(_ length: Int, _ drafted: Bool) {
        let key = "k" + String(repeating: "x", count: length - 1)
        let result = runInProcess(["init", "-", "--format", "json"], stdinText: #"[{"id": 1, ""# + key + #"": "v"}]"#)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  \(key)") == drafted)
        #expect(result.stdout.contains("# Left out at the records: 1 key over 1024 bytes") == !drafted)
    }

    /// An object with more keys than a draft takes: the draft names the first ones it leaves out
    /// and counts them, where it dropped them silently.
    @Test func keysPastTheObjectLimitAreNamedAndCounted() {
        let fields = (0..<600).map { #""f\#($0)": \#($0)"# }.joined(separator: ", ")
        let result = runInProcess(["init", "-", "--format", "json"], stdinText: #"[{"id": 1, "# + fields + "}]")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  f498 : Int\n"))
        #expect(!result.stdout.contains("  f499 : Int\n"))
        #expect(
            result.stdout.contains(
                #"# Left out at the records: keys past the first 500 of an object, met 101 times ("f499", "f500", "f501", "f502", "f503", …); "#
                    + "a draft takes at most 500 keys of an object: add the ones you need by hand.\n"))
    }

    /// A draft is never a map `check` refuses: one that would pass the map-size limit is not given.
    @Test func aDraftOverTheMapSizeLimitIsRefused() throws {
        func object(_ prefix: String, _ id: Int, subobjects: Int) -> String {
            let subs = (0..<subobjects).map { #""sub\#($0)": "# + object("s\($0)", 10 + $0, subobjects: 0) + ", " }.joined()
            let keys = (0..<400).map { #""\#(prefix)\#($0)"# + String(repeating: "k", count: 1_000) + #"": \#($0)"# }.joined(separator: ", ")
            return #"{"id": \#(id), "# + subs + keys + "}"
        }
        let dir = TemporaryDirectory()
        let feed = dir.write("big.json", "[" + object("a", 1, subobjects: 3) + "]")
        let result = runInProcess(["init", feed, "-o", dir.path("big.map")])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("graphimport: error: \(feed): cannot draft a map: the draft would be "))
        #expect(result.stderr.contains(" bytes, and a map may be at most 1048576 bytes\n"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("big.map")))
    }

    /// A directory is no input (66), for `init` and `check --sample` as for an import; Linux
    /// opens it and fails only at the read, which was an I/O error (74).
    @Test func aDirectoryAsTheSampleIsNoInput() {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", "entity Item\n  key id\n  id : Int\n")
        let drafted = runInProcess(["init", dir.url.path])
        #expect(drafted.status == 66)
        #expect(drafted.stderr == "graphimport: error: cannot open the sample '\(dir.url.path)': it is a directory\nhint: give a JSON or JSON Lines file\n")
        let checked = runInProcess(["check", "--map", map, "--sample", dir.url.path])
        #expect(checked.status == 66)
        #expect(checked.stderr.hasPrefix("graphimport: error: cannot open the sample '\(dir.url.path)': it is a directory\n"))
    }
}

extension CorpusSuite {
    /// `init` on every payload of the shared corpus (the JSONTestSuite files aside): the draft
    /// passes `check --strict` against its payload and imports it, every record, with no edit.
    @Suite("init drafts a working map for every payload")
    struct InitCorpusTests {
        static let payloads: [String] = {
            guard let directory = Corpus.directory,
                let folders = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
            else { return [] }
            return folders.filter { $0 != "JSONTestSuite" }.sorted().flatMap { folder in
                let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)) ?? []
                return files.filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
            }
        }()

        @Test func theCorpusHasPayloads() {
            #expect(Self.payloads.count >= 30)
        }

        @Test(arguments: payloads)
        func draftChecksAndImportsItsSample(_ payload: String) throws {
            let feed = try #require(Corpus.file(payload)).path
            let dir = TemporaryDirectory()
            let map = dir.path("draft.map")
            let drafted = runInProcess(["init", feed, "-o", map])
            #expect(drafted.status == 0, "\(drafted.stderr)")
            // "graphimport: drafted PATH: N records at …"
            let count = try #require(
                drafted.stderr.split(separator: ": ").dropFirst(2).first?.split(separator: " ").first.flatMap { Int($0) }, "\(drafted.stderr)")
            #expect(count > 0)
            let checked = runInProcess(["check", "--map", map, "--sample", feed, "--strict"])
            #expect(checked.status == 0, "\(checked.stderr)")
            #expect(checked.stderr.hasSuffix("check: no errors for \(count) record\(count == 1 ? "" : "s") of \(feed)\n"), "\(checked.stderr)")
            let imported = runInProcess([feed, "--map", map, "--store", dir.path("store.sqlite"), "--json"])
            #expect(imported.status == 0, "\(imported.stdout)")
            let summary = try EndToEnd.summary(imported)
            #expect(summary["records"] as? Int == count)
            #expect(summary["skipped_records"] as? Int == 0)
        }
    }
}
