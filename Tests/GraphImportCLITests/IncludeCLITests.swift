import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `include` from the command line: files read relative to the including file, whatever the
/// working directory; unreadable files reported at their `include` line; the store's record of
/// the map covering the included files.
@Suite struct IncludeCLITests {
    static let users = """
        entity User table users
          key id
          id : Int
          login : String?

        """
    static let main = """
        records at data[*] as Post

        include "shared/users.map"

        entity Post
          key id
          id : Int
          author <- user : User inverse posts

        """

    /// A map in `maps/` that includes `maps/shared/users.map`.
    static func write(in dir: TemporaryDirectory, users: String = users) -> String {
        dir.write("maps/shared/users.map", users)
        return dir.write("maps/posts.map", main)
    }

    // SQLite only: a relative `--store` file is what shows the working directory is kept.
    @Test func includesAreReadRelativeToTheIncludingFileNotTheWorkingDirectory() throws {
        let dir = TemporaryDirectory()
        _ = Self.write(in: dir)
        dir.write("feed.json", #"{"data": [{"id": 1, "user": {"id": 7, "login": "ada"}}]}"#)
        let work = dir.path("elsewhere")
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let check = try runBinary(["check", "--map", "../maps/posts.map"], currentDirectory: work)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "../maps/posts.map: ok: 2 entities (User, Post)\n")
        let schema = try runBinary(["schema", "--map", "../maps/posts.map"], currentDirectory: work)
        #expect(schema.stdout.contains("CREATE TABLE \"users\""))
        let imported = try runBinary(["../feed.json", "--map", "../maps/posts.map", "--store", "posts.sqlite"], currentDirectory: work)
        #expect(imported.status == 0, "\(imported.stderr)")
        EndToEnd.expectRows(dir.path("elsewhere/posts.sqlite"), [("SELECT login FROM users", "ada")])
    }

    @Test func aMissingIncludeIsAMapErrorAtItsLine() {
        let dir = TemporaryDirectory()
        let map = dir.write("maps/posts.map", Self.main)
        let result = runInProcess(["check", "--map", map])
        #expect(result.status == 78)
        #expect(
            result.stderr.hasPrefix(
                """
                \(map):3:1: error: cannot include 'shared/users.map': \(dir.path("maps/shared/users.map")): no such file or directory
                 3 | include "shared/users.map"
                   | ^

                """))
    }

    @Test func aDirectoryOrATextThatIsNotUTF8CannotBeIncluded() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("maps/posts.map", Self.main)
        try FileManager.default.createDirectory(atPath: dir.path("maps/shared/users.map"), withIntermediateDirectories: true)
        let directory = runInProcess(["check", "--map", map])
        #expect(directory.status == 78)
        #expect(directory.stderr.contains("error: cannot include 'shared/users.map': \(dir.path("maps/shared/users.map")): it is a directory\n"))
        try FileManager.default.removeItem(atPath: dir.path("maps/shared/users.map"))
        try Data(Array("entity User table users\n  key id\n  id : Int\n  name : String # caf".utf8) + [0xFF, 0x0A]).write(
            to: URL(fileURLWithPath: dir.path("maps/shared/users.map")))
        let binary = runInProcess(["check", "--map", map])
        #expect(binary.status == 78)
        #expect(
            binary.stderr.contains(
                "\(map):3:1: error: cannot include 'shared/users.map': \(dir.path("maps/shared/users.map")): it is not UTF-8 text: at line 4, column 22, byte 0xFF cannot start or continue a character\n"
            ))
    }

    @Test func sampleWarningsInAnIncludedFileNameThatFile() {
        let dir = TemporaryDirectory()
        let map = Self.write(in: dir, users: "entity User table users\n  key id\n  id : Int\n  login <- logn : String?\n")
        let feed = dir.write("feed.json", #"{"data": [{"id": 1, "user": {"id": 7, "login": "ada"}}]}"#)
        let result = runInProcess(["check", "--map", map, "--sample", feed])
        #expect(result.status == 0)
        #expect(
            result.stderr.hasPrefix(
                """
                \(dir.path("maps/shared/users.map")):4:12: warning: no record of the sample holds 'logn' (User.login)
                """))
        #expect(result.stderr.contains("help: did you mean 'login'?\nnote: included from \(map):3:1\n"))
    }

    /// An optional attribute of an included entity that this map's records never reach is a note,
    /// which `--strict` does not fail on: the import stores it absent. The same attribute in the
    /// map's own entity is a warning, and an error under `--strict`.
    @Test func anOptionalAttributeOfAnIncludedEntityNoRecordReachesIsANote() {
        let dir = TemporaryDirectory()
        let map = Self.write(in: dir, users: "entity User table users\n  key id\n  id : Int\n  login : String?\n  bio : String?\n")
        let feed = dir.write("feed.json", #"{"data": [{"id": 1, "user": {"id": 7, "login": "ada"}}]}"#)
        let result = runInProcess(["check", "--map", map, "--sample", feed, "--strict"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "\(dir.path("maps/shared/users.map")):5:3: note: no record of the sample holds 'bio' (User.bio): 0 of 1 User object\n"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("check: no errors for 1 record of \(feed)\n"), "\(result.stderr)")
        let own = dir.write(
            "maps/own.map",
            Self.main.replacingOccurrences(
                of: "include \"shared/users.map\"", with: "entity User table users\n  key id\n  id : Int\n  login : String?\n  bio : String?\n"))
        let strict = runInProcess(["check", "--map", own, "--sample", feed, "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("error: no record of the sample holds 'bio' (User.bio)"), "\(strict.stderr)")
    }

    /// The run history's map hash and the recorded map text cover the included files: changing
    /// one is a change of the map, though the map's own text is the same.
    @Test(arguments: StoreKind.testable)
    func aChangeInAnIncludedFileIsAChangeOfTheMap(_ kind: StoreKind) throws {
        let dir = TemporaryDirectory()
        let map = Self.write(in: dir)
        let feed = dir.write("feed.json", #"{"data": [{"id": 1, "user": {"id": 7, "login": "ada"}}]}"#)
        let store = try StoreUnderTest(kind)
        #expect(runInProcess([feed, "--map", map, "--store", store.location]).status == 0)
        dir.write("maps/shared/users.map", Self.users + "  name : String?\n")
        #expect(runInProcess([feed, "--map", map, "--store", store.location]).status == 0)
        EndToEnd.expectRows(
            store,
            [
                ("SELECT count(DISTINCT map_sha256) FROM graphimport_runs", "2"),
                ("SELECT count(*) FROM graphimport_schema", "2"),
                (
                    "SELECT count(*) FROM graphimport_schema WHERE version = (SELECT max(version) FROM graphimport_schema) "
                        + "AND map_text LIKE '%# included: \(dir.path("maps/shared/users.map"))%' AND map_text LIKE '%name : String?%'", "1"
                ),
            ])
    }

    /// A named pipe with no writer would block `open` and `read` forever: an include opens only
    /// a regular file, without waiting, in `check` as in an import.
    // No store written: the map is refused before a store is opened.
    @Test func aNamedPipeIsRefusedWithoutWaitingForAWriter() throws {
        let dir = TemporaryDirectory()
        let map = Self.write(in: dir)
        try FileManager.default.removeItem(atPath: dir.path("maps/shared/users.map"))
        #expect(mkfifo(dir.path("maps/shared/users.map"), 0o600) == 0)
        let feed = dir.write("feed.json", #"{"data": []}"#)
        for arguments in [["check", "--map", map], [feed, "--map", map, "--store", dir.path("posts.sqlite")]] {
            let result = try runTool(arguments, in: dir, timeout: 20)
            #expect(result.exitStatus == 78, "\(result.ending): \(result.stderr)")
            #expect(
                result.stderr.contains(
                    "cannot include 'shared/users.map': \(dir.path("maps/shared/users.map")): it is a named pipe (FIFO), not a regular file; "
                        + "a map file is read only from a regular file\n"))
        }
    }

    /// A map from an untrusted source cannot read the environment (PGPASSWORD) or any file
    /// outside its own directory tree by including it: the file is not read, and the error says
    /// how to allow a directory.
    @Test func anIncludeOutsideTheMapsDirectoryTreeIsRefused() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("maps/posts.map", Self.main.replacing(#"include "shared/users.map""#, with: #"include "/proc/self/environ""#))
        let result = try runTool(["check", "--map", map], environment: ["PGPASSWORD": "s3cret-in-env"], in: dir, timeout: 20)
        #expect(result.exitStatus == 78, "\(result.ending): \(result.stderr)")
        #expect(!result.stderr.contains("s3cret-in-env"))
        #expect(result.stderr.contains("error: cannot include '/proc/self/environ': '/proc/"))
        #expect(result.stderr.contains("is outside the map's directory ('\(FileManager.default.resolvingPath(dir.path("maps")))')\n"))
        #expect(
            result.stderr.contains(
                "help: an include reads only files under the map's own directory; to allow another, pass --include-path DIR or set GRAPHIMPORT_INCLUDE_PATH\n"
            ))
    }

    /// `../shared/users.map` leaves the map's directory: refused until `--include-path` or
    /// `GRAPHIMPORT_INCLUDE_PATH` allows the directory it is in (or one above it); a symbolic
    /// link inside the tree to a file outside it is refused the same way.
    @Test func includePathAndItsVariableAllowAnotherDirectory() throws {
        let dir = TemporaryDirectory()
        dir.write("shared/users.map", Self.users)
        let map = dir.write("maps/posts.map", Self.main.replacing(#"include "shared/users.map""#, with: #"include "../shared/users.map""#))
        let refused = runInProcess(["check", "--map", map])
        #expect(refused.status == 78)
        #expect(refused.stderr.contains("is outside the map's directory"))
        let allowed = runInProcess(["check", "--map", map, "--include-path", dir.path("shared")])
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let byVariable = try runTool(["check", "--map", map], environment: ["GRAPHIMPORT_INCLUDE_PATH": "/nonexistent-but-ignored:" + dir.url.path], in: dir)
        #expect(byVariable.exitStatus == 64, "a directory that is not one is a usage error: \(byVariable.stderr)")
        #expect(byVariable.stderr.hasPrefix("Error: GRAPHIMPORT_INCLUDE_PATH names '/nonexistent-but-ignored', which is not a directory\n"))
        let byVariableOK = try runTool(["check", "--map", map], environment: ["GRAPHIMPORT_INCLUDE_PATH": dir.url.path], in: dir)
        #expect(byVariableOK.exitStatus == 0, "\(byVariableOK.stderr)")
        let notADirectory = runInProcess(["check", "--map", map, "--include-path", map])
        #expect(notADirectory.status == 64)
        #expect(notADirectory.stderr.hasPrefix("Error: --include-path names '\(map)', which is not a directory\n"))

        let linked = dir.write("maps/linked.map", Self.main.replacing(#"include "shared/users.map""#, with: #"include "users-link.map""#))
        try FileManager.default.createSymbolicLink(atPath: dir.path("maps/users-link.map"), withDestinationPath: dir.path("shared/users.map"))
        #expect(runInProcess(["check", "--map", linked]).stderr.contains("is outside the map's directory"))
        #expect(runInProcess(["schema", "--map", linked, "--include-path", dir.path("shared")]).status == 0)
    }

    /// A data file included by mistake has an error on nearly every line: the first 20 are
    /// printed, then how many more there are.
    @Test func aMapsErrorsAreCappedWithACountOfTheRest() {
        let dir = TemporaryDirectory()
        dir.write("maps/shared/users.map", (1...1_000).map { "line\($0) is not a statement\n" }.joined())
        let map = dir.write("maps/posts.map", Self.main)
        let result = runInProcess(["check", "--map", map])
        #expect(result.status == 78)
        #expect(result.stderr.components(separatedBy: ": error: ").count - 1 == 20)
        // `check` imports nothing, so it does not say that nothing was imported.
        #expect(result.stderr.hasSuffix("… and 981 more errors\ngraphimport: 1001 errors in the map\n"), "\(result.stderr.suffix(200))")
    }
}

extension FileManager {
    /// `path` with its symbolic links resolved, as the error messages show directories.
    func resolvingPath(_ path: String) -> String { URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
}
