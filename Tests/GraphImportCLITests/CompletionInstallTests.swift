import Foundation
import GraphImportTestSupport
import Testing

/// The bash completions on a stock Debian shell: `.ci/setup` installs them where the
/// bash-completion package's loader finds them, and says what to do where it would not (the
/// package absent, or a prefix it does not search); the script needs nothing of the package.
@Suite("Completions: installed so that bash uses them")
struct CompletionInstallTests {
    static let advice = repoFile(".ci/bash-completion-advice")

    /// Runs the advice for `prefix`, with the loader at `loader` and no XDG variables set.
    private func advice(prefix: String, loader: String, home: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.advice, prefix]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": home, "BASH_COMPLETION_LOADER": loader]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return output
    }

    @Test func withoutTheBashCompletionPackageSetupSaysWhatToInstallOrSource() throws {
        let dir = TemporaryDirectory()
        let text = try advice(prefix: "/usr/local", loader: dir.path("absent"), home: dir.path(""))
        #expect(
            text == """
                setup: bash completes graphimport only with the bash-completion package, which is not installed:
                  install it (sudo apt-get install bash-completion) and open a new shell,
                  or add this line to ~/.bashrc: source /usr/local/share/bash-completion/completions/graphimport

                """)
    }

    @Test func withThePackageAPrefixItSearchesNeedsNothingAndAnotherOneIsNamed() throws {
        let dir = TemporaryDirectory()
        let loader = dir.write("bash_completion", "")
        let home = dir.path("home")
        #expect(try advice(prefix: "/usr/local", loader: loader, home: home) == "")
        #expect(try advice(prefix: home + "/.local/", loader: loader, home: home) == "")
        #expect(
            try advice(prefix: "/opt/graph import", loader: loader, home: home)
                == "setup: bash-completion does not look under /opt/graph import/share; add this line to ~/.bashrc: "
                + "source /opt/graph\\ import/share/bash-completion/completions/graphimport\n")
    }

    /// The line the advice gives works in a bash without the package (no ~/.bashrc, no loader).
    @Test func theScriptWorksInABashWithoutThePackage() throws {
        let dir = TemporaryDirectory()
        let script = dir.write("graphimport.bash", runInProcess(["completions", "bash"]).stdout)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "--norc", "--noprofile", "-c",
            "source '\(script)'; complete -p graphimport; COMP_WORDS=(graphimport exp); COMP_CWORD=1; _graphimport; echo \"${COMPREPLY[@]}\"",
        ]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": dir.path("")]
        process.currentDirectoryURL = dir.url
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output == "complete -o filenames -F _graphimport graphimport\nexport\n")
    }

    @Test func setupRunsTheAdviceAfterInstalling() throws {
        let setup = try String(contentsOfFile: repoFile(".ci/setup"), encoding: .utf8)
        #expect(setup.contains("\n.ci/bash-completion-advice \"$prefix\"\n"))
        #expect(FileManager.default.isExecutableFile(atPath: Self.advice))
    }
}
