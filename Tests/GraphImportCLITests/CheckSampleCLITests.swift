import Foundation
import GraphImportTestSupport
import Testing

/// `graphimport check --map M --sample FEED [--strict]`: the sample's findings as compiler-style
/// warnings on stderr, and the exit status they give.
@Suite struct CheckSampleCLITests {
    static let map = """
        entity User table users
          key id
          id : Int
          login <- logn : String?
          joinedAt <- joined : Date

        """
    static let sample = """
        {"id": 1, "login": "ada", "joined": "2024-01-02"}
        {"id": 2, "login": "bob", "joined": "2024-02-03"}

        """

    @Test func printsEachWarningWithItsLineCaretAndHelpThenASummary() {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", Self.map)
        let feed = dir.write("users.jsonl", Self.sample)
        let result = runInProcess(["check", "--map", map, "--sample", feed])
        #expect(result.status == 0)
        #expect(result.stdout == "\(map): ok: 1 entity (User)\n")
        #expect(
            result.stderr == """
                \(map):4:12: warning: no record of the sample holds 'logn' (User.login): 0 of 2 User objects
                 4 |   login <- logn : String?
                   |            ^
                help: did you mean 'login'?
                \(map):5:15: warning: no value of 'joined' (User.joinedAt) converts to Date: 2 of 2 fail: expected a date, found a string ('2024-01-02') (first: record 0 at line 1, column 1, $.joined)
                 5 |   joinedAt <- joined : Date
                   |               ^
                help: add `| iso8601`, `| date("…")`, `| epochSeconds` or `| epochMillis` to read dates written as text
                check: 2 warnings for 2 records of \(feed)

                """)
    }

    @Test func strictMakesWarningsErrorsAndExits65() {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", Self.map)
        let feed = dir.write("users.jsonl", Self.sample)
        let result = runInProcess(["check", "--map", map, "--sample", feed, "--strict"])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("\(map):4:12: error: no record of the sample holds 'logn' (User.login)"))
        #expect(result.stderr.hasSuffix("check: 2 errors for 2 records of \(feed); the sample does not fit the map\n"))
    }

    @Test func sampleThatFitsExitsZeroEvenWhenStrict() {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", "entity User table users\n  key id\n  id : Int\n  login : String?\n")
        let feed = dir.write("users.json", #"[{"id": 1, "login": "ada"}, {"id": 2}]"#)
        let result = runInProcess(["check", "--map", map, "--sample", feed, "--strict"])
        #expect(result.status == 0)
        #expect(result.stderr == "check: no errors for 2 records of \(feed)\n")
    }

    @Test func recordsPathThatMatchesNothingSaysWhatTheSampleHoldsThere() {
        let dir = TemporaryDirectory()
        let map = dir.write("posts.map", "records at data.chldren[*] as Post\nentity Post\n  key id\n  id : String\n")
        let feed = dir.write("posts.json", #"{"data": {"after": null, "children": [{"id": "a"}]}}"#)
        let result = runInProcess(["check", "--map", map, "--sample", feed])
        #expect(result.status == 0)
        #expect(
            result.stderr.hasPrefix(
                "\(map):1:12: warning: records path 'data.chldren[*]' matches nothing in the sample: "
                    + "`data` is an object with keys after, children\n"))
        #expect(result.stderr.contains("help: did you mean 'data.children[*]'?\ncheck: 1 warning for 0 records of \(feed)\n"))
    }

    @Test func sampleCanComeFromStandardInput() {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", Self.map)
        let result = runInProcess(["check", "--map", map, "--sample", "-", "--format", "jsonl"], stdinText: Self.sample)
        #expect(result.status == 0)
        #expect(result.stderr.hasSuffix("check: 2 warnings for 2 records of <stdin>\n"))
    }

    @Test func sampleThatCannotBeReadExits66() {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", Self.map)
        let result = runInProcess(["check", "--map", map, "--sample", dir.path("missing.json")])
        #expect(result.status == 66)
        #expect(result.stderr == "graphimport: error: cannot open the sample '\(dir.path("missing.json"))': No such file or directory\n")
    }

    @Test func invalidJSONInTheSampleExits65WithItsPosition() {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", Self.map)
        let feed = dir.write("users.json", "[{\"id\": 1},\n {\"id\": }]")
        let result = runInProcess(["check", "--map", map, "--sample", feed])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("graphimport: error: \(feed):2:9: "))
    }

    @Test func mapErrorsStayExit78WithASample() {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", "entity User table users\n  key id\n  id : Strin\n")
        let feed = dir.write("users.json", "[]")
        let result = runInProcess(["check", "--map", map, "--sample", feed, "--strict"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("error: unknown type 'Strin'"))
    }

    @Test func strictWithoutSampleIsAUsageError() {
        let dir = TemporaryDirectory()
        let map = dir.write("users.map", Self.map)
        let result = runInProcess(["check", "--map", map, "--strict"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: '--strict' needs '--sample <feed>'\n"))
    }
}

/// The help screen documents the sample options.
@Suite struct CheckSampleHelpTests {
    @Test func checkHelpShowsSampleFormatAndStrict() {
        let result = runInProcess(["check", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: graphimport check --map <map> [--sample <feed>] [--format <format>] [--strict] [--include-path <dir> ...]\n"))
        #expect(result.stdout.contains("  --strict                Treat the sample's warnings as errors (exit 65).\n"))
    }
}
