import Foundation
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

    /// The run history's map hash and the recorded map text cover the included files: changing
    /// one is a change of the map, though the map's own text is the same.
    @Test func aChangeInAnIncludedFileIsAChangeOfTheMap() throws {
        let dir = TemporaryDirectory()
        let map = Self.write(in: dir)
        let feed = dir.write("feed.json", #"{"data": [{"id": 1, "user": {"id": 7, "login": "ada"}}]}"#)
        let store = dir.path("posts.sqlite")
        #expect(runInProcess([feed, "--map", map, "--store", store]).status == 0)
        dir.write("maps/shared/users.map", Self.users + "  name : String?\n")
        #expect(runInProcess([feed, "--map", map, "--store", store]).status == 0)
        EndToEnd.expectRows(
            store,
            [
                ("SELECT count(DISTINCT map_sha256) FROM graphimport_runs", "2"),
                ("SELECT count(*) FROM graphimport_schema", "2"),
                (
                    "SELECT instr(map_text, '# included: \(dir.path("maps/shared/users.map"))') > 0 AND instr(map_text, 'name : String?') > 0 "
                        + "FROM graphimport_schema ORDER BY version DESC LIMIT 1", "1"
                ),
            ])
    }
}
