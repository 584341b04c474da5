import Foundation
import GraphImportCLI
import Testing

/// `GraphImportCommand.checkArguments`, the seam Fuzz/FuzzArguments drives: the command line judged
/// without files, stores or standard input, and answering as `main` does.
@Suite("Argument check")
struct ArgumentCheckTests {
    @Test func realCommandLinesAreAcceptedWithoutTouchingTheirFiles() {
        let lines: [[String]] = [
            ["feed.json", "--map", "missing.map", "-nq", "--wait", "2.5", "--set-meta", "since:date=2026-01-01T00:00:00Z"],
            ["changes", "-m", "missing.map", "--since-run", "9223372036854775807"],
            ["export", "--map=missing.map", "Tweet", "--format", "jsonl", "--depth", "2"],
            ["meta", "set", "count", "-7", "--type", "int", "-smissing.sqlite"],
            ["runs", "--store", "postgresql:///feeds", "--last", "5"],
            ["check", "--map", "missing.map", "--sample", "-", "--strict"],
            ["init", "missing.jsonl", "-o", "missing.map"],
            ["schema", "-m", "missing.map"], ["completions", "entities", "missing.map"], ["manpage", "map", "missing.md"],
        ]
        for line in lines {
            #expect(GraphImportCommand.checkArguments(line, inputIsTerminal: true) == .accepted(command: acceptedName(line)), "\(line)")
        }
    }

    @Test func usageErrorsAreWhatMainPrints() {
        let line = ["changes", "--map", "feed.map", "--since-run", "-1"]
        guard case .usageError(let text) = GraphImportCommand.checkArguments(line, inputIsTerminal: true) else {
            Issue.record("accepted a negative run id")
            return
        }
        #expect(text == runInProcess(line).stderr)
        #expect(text.hasPrefix("Error: The value '-1' is invalid for '--since-run'\n"))
    }

    @Test func anImportWithoutAFileNeedsAPipe() {
        let line = ["--map", "feed.map"]
        #expect(GraphImportCommand.checkArguments(line, inputIsTerminal: false) == .accepted(command: "import"))
        guard case .usageError = GraphImportCommand.checkArguments(line, inputIsTerminal: true) else {
            Issue.record("no FILE and a terminal on standard input was accepted")
            return
        }
    }

    /// An argument's line break or escape character is shown escaped: the `Error:` line stays one line.
    @Test(arguments: [["feed.json", "--map", "x.map", "--jso\nn"], ["meta", "frob\u{1B}[2J", "--store", "s"], ["runs", "--store", "s", "--last", "1\r2"]])
    func theErrorLineIsOneLineWhateverTheArgumentsHold(line: [String]) {
        let result = runInProcess(line)
        #expect(result.status == 64)
        let first = result.stderr.split(separator: "\n", omittingEmptySubsequences: false)[0]
        #expect(first.hasPrefix("Error: "))
        #expect(!first.unicodeScalars.contains { $0.value < 0x20 }, "\(first.debugDescription)")
        #expect(["\\n", "\\r", "\\u{1b}"].contains { first.contains($0) }, "the argument's character is not shown escaped: \(first)")
        #expect(result.stderr.contains("\nUsage: graphimport"))
    }

    private func acceptedName(_ line: [String]) -> String {
        ["changes", "export", "meta", "runs", "check", "init", "schema", "completions", "manpage"].contains(line[0]) ? line[0] : "import"
    }
}
