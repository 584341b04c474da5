import Foundation
import GraphImportTestSupport
import Testing

@testable import GraphImportCLI

/// One store: the command line is parsed the same for either, and its imports go to the default
/// store beside the map.
@Suite("Short options and command names, as argument-parser tools have them")
struct ShortOptionTests {
    static let map = """
        entity Item
          key id
          id : Int
          name : String
        """
    static let feed = #"[{"id":1,"name":"a"},{"id":2,"name":"b"}]"#

    @Test func shortNamesMeanTheLongOnes() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.map)
        let feed = dir.write("feed.json", Self.feed)
        let store = dir.path("elsewhere.sqlite")
        let result = runInProcess([feed, "-m", map, "-s", store, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(try sqlite(store, "SELECT count(*) FROM items") == "2")
        #expect(!FileManager.default.fileExists(atPath: dir.path("items.sqlite")))
    }

    @Test func groupedFlagsAndAnAttachedValue() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.map)
        let feed = dir.write("feed.json", Self.feed)
        let store = dir.path("items.sqlite")
        // -n is --dry-run: the import is rolled back; -q keeps it quiet.
        let dryRun = runInProcess([feed, "-nq", "-m\(map)"])
        #expect(dryRun.status == 0, "\(dryRun.stderr)")
        #expect(dryRun.stderr.isEmpty)
        #expect(try storeHasNoDataTables(store))
        let real = runInProcess([feed, "-qm", map])
        #expect(real.status == 0, "\(real.stderr)")
        #expect(try sqlite(store, "SELECT count(*) FROM items") == "2")
    }

    @Test func theOtherCommandsTakeTheirShortNamesToo() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.map)
        let store = dir.path("items.sqlite")
        #expect(runInProcess(["check", "-m", map]).status == 0)
        #expect(runInProcess(["schema", "-m", map]).stdout.contains("CREATE TABLE"))
        #expect(runInProcess(["meta", "set", "etag", "x", "-s", store]).status == 0)
        #expect(runInProcess(["meta", "get", "etag", "-m", map]).stdout == "x\n")
        #expect(runInProcess(["runs", "-s", store]).status == 0)
    }

    @Test func anUnknownShortOptionNamesTheKnownOnes() {
        let result = runInProcess(["feed.json", "-x", "-m", "items.map"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Unknown option '-x'\nIts short options are -m, -s, -n, -q, -v.\n"))
    }

    @Test func aShortOptionWithoutItsValueIsAUsageError() {
        let result = runInProcess(["feed.json", "-m"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Missing value for '-m' (--map)\n"))
    }

    @Test func aWordThatIsNeitherACommandNorAFileIsAUsageError() {
        let dir = TemporaryDirectory()
        let typo = runInProcess(["chek", "--map", "x.map"])
        #expect(typo.status == 64)
        #expect(typo.stderr.hasPrefix("Error: 'chek' is neither a command nor a file\nDid you mean 'check'?\n"))
        let unknown = runInProcess(["frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("'frobnicate' is neither a command nor a file\nThe commands are init, check, schema"))
        // A path, or a word that is an existing file, is still a feed.
        #expect(runInProcess([dir.path("feed"), "--map", "x.map"]).stderr.contains("neither") == false)
    }

    @Test func aFileNamedLikeAWordIsImported() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("items.map", Self.map)
        _ = dir.write("feed", Self.feed)
        // The word is looked up as a relative path: the binary runs in the fixture's directory.
        let result = try runBinary(["feed", "--map", map, "-q"], currentDirectory: dir.url.path)
        #expect(result.status == 0, "\(result.stderr)")
    }
}

@Suite("Help, man page and completions describe every command and option")
struct CommandDocumentationTests {
    /// Every command's options: the parser's list, the help screen's OPTIONS, and back.
    @Test(arguments: Subcommand.allCases.filter { $0 != .help })
    func theHelpScreenListsExactlyTheOptionsTheCommandParses(_ command: Subcommand) {
        let entries = HelpDocument(Help.text(for: command)).entries("OPTIONS")
        let documented = Set(entries.flatMap(\.names))
        for option in command.options {
            #expect(documented.contains(option.name), "\(command.rawValue) --help lacks \(option.name)")
            if let short = option.short {
                let entry = entries.first { $0.names.contains(option.name) }
                #expect(entry?.names.contains("-\(short)") == true, "\(command.rawValue) --help lacks -\(short) for \(option.name)")
            }
            let entry = entries.first { $0.names.contains(option.name) }
            #expect((entry?.value != nil) == option.takesValue, "\(option.name): help and parser disagree on its value")
        }
        let parsed = Set(command.options.map(\.name) + command.options.compactMap { $0.short.map { "-\($0)" } } + ["--help", "-h", "--version"])
        for name in documented { #expect(parsed.contains(name), "\(command.rawValue) --help lists \(name), which it does not parse") }
    }

    @Test func theMainHelpListsEveryCommand() {
        let listed = HelpDocument(Help.text(for: .import)).entries("SUBCOMMANDS").flatMap(\.names)
        let commands = Subcommand.allCases.filter { ![.import, .help].contains($0) }.map(\.rawValue)
        #expect(Set(listed) == Set(commands), "listed \(listed), commands \(commands)")
    }

    @Test(arguments: ShellCompletions.Shell.allCases)
    func everyScriptOffersEveryCommandAndOption(_ shell: ShellCompletions.Shell) {
        let result = runInProcess(["completions", shell.rawValue])
        #expect(result.status == 0)
        let script = result.stdout
        for command in Subcommand.allCases where command != .import {
            #expect(script.contains(command.rawValue), "\(shell): no \(command.rawValue)")
        }
        for command in Subcommand.allCases {
            for option in command.options {
                let long = shell == .fish ? "-l \(option.name.dropFirst(2))" : option.name
                #expect(script.contains(long), "\(shell): no \(option.name) for \(command.rawValue)")
                if let short = option.short {
                    let form = shell == .fish ? "-s \(short)" : "-\(short)"
                    #expect(script.contains(form), "\(shell): no -\(short)")
                }
            }
        }
    }

    @Test func anUnknownShellIsAUsageError() {
        let result = runInProcess(["completions", "bsh"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: The value 'bsh' is invalid for '<shell>'\nDid you mean 'bash'?\n"))
    }

    /// bash itself runs the script's function, as it would on a Tab.
    @Test(arguments: [
        (["graphimport", ""], ["check", "schema", "meta", "runs", "completions", "manpage", "help"]),
        (["graphimport", "m"], ["meta", "manpage"]),
        (["graphimport", "check", "--"], ["--map", "--sample", "--format", "--strict", "--help"]),
        (["graphimport", "feed.json", "--format", ""], ["auto", "json", "jsonl"]),
        (["graphimport", "meta", ""], ["get", "set", "unset", "list"]),
        (["graphimport", "meta", "set", "n", "1", "--type", "I"], ["Int"]),
        (["graphimport", "-"], ["-m", "-s", "-n", "-q", "--map", "--dry-run"]),
    ])
    func bashCompletesCommandsOptionsAndValues(words: [String], expected: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { return }
        let dir = TemporaryDirectory()
        let script = dir.write("graphimport.bash", runInProcess(["completions", "bash"]).stdout)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let driver = """
            source '\(script)'
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1)
            _graphimport
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", driver]
        process.currentDirectoryURL = dir.url
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let offered = Set(output.split(separator: "\n").map(String.init))
        for word in expected { #expect(offered.contains(word), "\(words): \(word) not offered in \(offered.sorted())") }
    }

    /// Where a command takes an entity (export's operand, changes' --entity), bash offers the
    /// names of the map on the line, which the script asks of the tool itself.
    @Test(arguments: [
        (["export", "--map", "MAP", ""], ["Item", "Tag"]),
        (["export", "-m", "MAP", "T"], ["Tag"]),
        (["changes", "--map", "MAP", "--since-run", "0", "--entity", ""], ["Item", "Tag"]),
        (["changes", "--entity", "I"], []),
        (["export", ""], []),
        (["export", "--map", "missing.map", ""], []),
    ])
    func bashCompletesTheEntitiesOfTheMapOnTheLine(words: [String], expected: [String]) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", "entity Item\n  key id\n  id : Int\n  tags : [Tag]\nentity Tag\n  key name\n  name : String\n")
        let script = dir.write("graphimport.bash", runInProcess(["completions", "bash"]).stdout)
        let line = [graphimportBinary.path] + words.map { $0 == "MAP" ? map : $0 }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c",
            "source '\(script)'; COMP_WORDS=(\(line.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(line.count - 1); _graphimport; "
                + #"printf '%s\n' "${COMPREPLY[@]}""#,
        ]
        process.currentDirectoryURL = dir.url
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let offered = output.split(separator: "\n").map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("-") }
        #expect(offered.filter { !FileManager.default.fileExists(atPath: dir.path($0)) } == expected, "\(words)")
    }

    /// fish and zsh offer the same names, where those shells are installed: fish through
    /// `complete -C` as on a Tab, zsh through the script's helper with `compadd` stood in for.
    @Test(arguments: ["fish", "zsh"])
    func fishAndZshCompleteTheEntitiesOfTheMapOnTheLine(shell: String) throws {
        let binary = "/usr/bin/\(shell)"
        guard FileManager.default.isExecutableFile(atPath: binary) else { return }
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", "entity Item\n  key id\n  id : Int\n  tags : [Tag]\nentity Tag\n  key name\n  name : String\n")
        let script = dir.write("graphimport.\(shell)", runInProcess(["completions", shell]).stdout)
        let tool = graphimportBinary.path
        let driver =
            shell == "fish"
            ? "source '\(script)'; complete -C 'graphimport export --map \(map) '; complete -C 'graphimport changes -m \(map) --entity T'; "
                + "complete -C 'graphimport export '"
            : "_arguments() { :; }; _alternative() { :; }; source '\(script)' 2>/dev/null; compadd() { print -l -- ${(P)2}; }; "
                + "program='\(tool)'; words=(export --map '\(map)' ''); CURRENT=4; _graphimport_entities; "
                + "words=(changes -m '\(map)' --entity T); CURRENT=5; _graphimport_entities | grep '^T'; "
                + "words=(export ''); CURRENT=2; _graphimport_entities"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = shell == "fish" ? ["--no-config", "-c", driver] : ["-f", "-c", driver]
        process.environment = ["PATH": graphimportBinary.deletingLastPathComponent().path + ":/usr/bin:/bin", "HOME": dir.path("")]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let names = output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(names == ["Item", "Tag", "Tag"], "\(output)")
    }

    @Test func completionsListTheEntitiesOfAMapForTheScripts() {
        let dir = TemporaryDirectory()
        let map = dir.write("feed.map", "entity Item\n  key id\n  id : Int\nentity Tag\n  key name\n  name : String\n")
        let result = runInProcess(["completions", "entities", map])
        #expect(result.status == 0)
        #expect(result.stdout == "Item\nTag\n")
        let broken = runInProcess(["completions", "entities", dir.write("bad.map", "entity Item\n  key id\n  id : Innt\n")])
        #expect(broken.status == 78)
        #expect(broken.stdout.isEmpty && broken.stderr.isEmpty)
    }

    @Test func theMapOptionCompletesMapFiles() throws {
        let dir = TemporaryDirectory()
        _ = dir.write("tweets.map", "")
        _ = dir.write("tweets.json", "")
        let script = dir.write("graphimport.bash", runInProcess(["completions", "bash"]).stdout)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "source '\(script)'; COMP_WORDS=(graphimport -m tw); COMP_CWORD=2; _graphimport; printf '%s\\n' \"${COMPREPLY[@]}\""]
        process.currentDirectoryURL = dir.url
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output == "tweets.map\n")
    }

    @Test func theManPageHasEveryCommandAndOption() throws {
        let result = runInProcess(["manpage"])
        #expect(result.status == 0)
        let page = result.stdout
        #expect(page.hasPrefix(".TH GRAPHIMPORT 1 "))
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXAMPLES", "EXIT STATUS"] {
            #expect(page.contains("\n.SH \(section)\n"), "no section \(section)")
        }
        for command in Subcommand.allCases where ![.import, .help].contains(command) {
            #expect(page.contains("\n.SS \(command.rawValue)\n"), "no command \(command.rawValue)")
        }
        for command in Subcommand.allCases {
            for option in command.options {
                #expect(page.contains("\\fB" + option.name.replacingOccurrences(of: "-", with: "\\-") + "\\fR"), "no \(option.name)")
            }
        }
        for code in ExitCode.allCases { #expect(page.contains(".TP\n\\fB\(code.rawValue)\\fR\n"), "no exit status \(code.rawValue)") }
        // No line may start with a roff control character unless it is a request we wrote.
        for line in page.split(separator: "\n") where line.hasPrefix("'") { Issue.record("a line starts with a quote: \(line)") }
    }

    /// What groff says formatting the man page `roff` with every warning on: nil where groff
    /// is not installed.
    static func groffWarnings(_ roff: String, name: String) throws -> (status: Int32, text: String)? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return nil }
        let dir = TemporaryDirectory()
        let page = dir.write(name, roff)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        process.arguments = ["-man", "-Tutf8", "-ww", "-z", page]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// groff, where it is installed, formats the page without a warning.
    @Test func groffFormatsTheManPageWithoutWarnings() throws {
        guard let (status, text) = try Self.groffWarnings(runInProcess(["manpage"]).stdout, name: "graphimport.1") else { return }
        #expect(status == 0)
        #expect(text.isEmpty, "\(text)")
    }

    /// graphimport-map(5) is made from the map language's reference: every heading of it is a
    /// section, its code blocks are kept as written, groff (where installed) formats it without a
    /// warning, and `man graphimport` points to it.
    @Test func theMapLanguagesManPageIsMadeFromItsReference() throws {
        let reference = repoFile("Mappings/README.md")
        let result = runInProcess(["manpage", "map", reference])
        #expect(result.status == 0, "\(result.stderr)")
        let page = result.stdout
        #expect(page.hasPrefix(".TH GRAPHIMPORT-MAP 5 "))
        let text = try String(contentsOfFile: reference, encoding: .utf8)
        var fenced = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("## ") else { continue }
            #expect(page.contains(".SH "), "no section for \(line)")
        }
        #expect(page.contains("\nrecords at $[*] as Tweet            # where the records are; `as` defaults to the first entity\n"))
        #expect(runInProcess(["manpage"]).stdout.contains("graphimport\\-map(5)"))
        let missing = runInProcess(["manpage", "map", "/nonexistent/README.md"])
        #expect(missing.status == 66)
        #expect(runInProcess(["manpage", "map"]).status == 64)
        #expect(runInProcess(["manpage", "map", reference, "extra"]).status == 64)
        guard let (status, warnings) = try Self.groffWarnings(page, name: "graphimport-map.5") else { return }
        #expect(status == 0)
        #expect(warnings.isEmpty, "\(warnings.prefix(2000))")
    }

    /// The import help's example query runs on the sample as written (with the store's path).
    @Test func theHelpsExampleQueriesRunOnTheSamples() throws {
        let dir = TemporaryDirectory()
        let store = dir.path("tweets.sqlite")
        let imported = runInProcess([repoFile("Samples/tweets.json"), "-m", repoFile("Mappings/tweets.map"), "-s", store, "-q"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let examples = HelpDocument(Help.text(for: .import)).section("EXAMPLES")?.lines ?? []
        let queries = examples.compactMap { line -> String? in
            guard let start = line.range(of: "sqlite3 Mappings/tweets.sqlite '") else { return nil }
            return String(line[start.upperBound...].dropLast())
        }
        #expect(!queries.isEmpty)
        for query in queries {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = ["-bail", store, query]
            let out = Pipe()
            let err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let rows = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let error = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0 && error.isEmpty, "\(query): \(error)")
            #expect(!rows.isEmpty, "\(query) returned nothing")
        }
    }
}
