import Foundation
import GraphImportTestSupport
import Testing

/// Maps written to hurt: names that are SQL, names SQLite reserves, names that differ only in
/// case, and maps far too large to be written by hand.
@Suite("Reliability: hostile maps")
struct ReliabilityHostileMapTests {
    /// Table names with quotes, semicolons, comments and non-ASCII text; attribute names that are
    /// SQL keywords; JSON keys that look like SQL.
    static let sqlMap = #"""
        records at $[*] as Select
        entity Select table "we\"ird; DROP TABLE x"
          key from
          from <- "id; DROP TABLE x" : Int
          where <- "wh\"ere" : String
          order : String?
          group <- grp : Group? inverse select
          tags : [Tag] inverse selects
        entity Group table "Grüße 表 -- x"
          key table
          table : String
        entity Tag table "'); DROP TABLE x; --"
          key name
          name : String
        """#

    static let sqlFeed = #"""
        [{"id; DROP TABLE x":1,"wh\"ere":"a'b\";--","order":"ö","grp":{"table":"Ü"},"tags":[{"name":"x"},{"name":"y"}]},
         {"id; DROP TABLE x":2,"wh\"ere":"DROP TABLE x","grp":{"table":"Ü"},"tags":[{"name":"y"}]}]
        """#

    @Test func namesThatAreSQLImportAndAreQuoted() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("hostile.map", Self.sqlMap)
        let feed = dir.write("feed.json", Self.sqlFeed)
        let store = dir.path("hostile.sqlite")
        let first = try runTool([feed, "--map", map, "--store", store, "--quiet"], in: dir)
        #expect(first.exitStatus == 0, "\(first.report)")
        // A table `x` that an injected DROP TABLE would remove.
        _ = try sqlite(store, "CREATE TABLE x (a); INSERT INTO x VALUES (42)")
        let second = try runTool([feed, "--map", map, "--store", store, "--quiet"], in: dir)
        #expect(second.exitStatus == 0, "\(second.report)")
        #expect(try sqlite(store, "SELECT a FROM x") == "42")
        #expect(
            try sqlite(store, #"SELECT "from", "where", "order" FROM "we""ird; DROP TABLE x" ORDER BY "from""#)
                == "1|a'b\";--|ö\n2|DROP TABLE x|")
        #expect(try sqlite(store, #"SELECT "table" FROM "Grüße 表 -- x""#) == "Ü")
        #expect(try sqlite(store, #"SELECT name FROM "'); DROP TABLE x; --" ORDER BY name"#) == "x\ny")
        #expect(try sqlite(store, #"SELECT count(*) FROM "we""ird; DROP TABLE x_tags""#) == "3")
        #expect(try StoreState.integrity(store) == "ok")

        let schema = try runTool(["schema", "--map", map], in: dir)
        #expect(schema.exitStatus == 0, "\(schema.report)")
        #expect(schema.stdout.contains(#"CREATE TABLE "we""ird; DROP TABLE x" ("pk" INTEGER PRIMARY KEY, "from" INTEGER NOT NULL, "where" TEXT"#))
        #expect(schema.stdout.contains(#"CREATE TABLE "'); DROP TABLE x; --" ("#))
        #expect(schema.stdout.contains(#"CREATE TABLE "Grüße 表 -- x" ("#))
        #expect(schema.stdout.contains(#"CREATE TABLE "we""ird; DROP TABLE x_tags" ("#))
        // The schema it prints is the schema it made.
        let printed = TemporaryDirectory()
        _ = try sqlite(printed.path("printed.sqlite"), schema.stdout)
        #expect(
            try sqlite(printed.path("printed.sqlite"), "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
                == sqlite(store, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'graphimport%' AND name <> 'x' ORDER BY name"))
    }

    @Test(arguments: [
        #"entity E table "sqlite_x""#, "entity E table sqlite_master", #"entity E table "SQLITE_stuff""#, "entity sqlite_things",
        "entity Sqlite_Things",
    ])
    func tableNamesSQLiteReservesAreRefused(_ entityLine: String) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("reserved.map", "\(entityLine)\n  key id\n  id : Int\n")
        let check = try runTool(["check", "--map", map], in: dir)
        #expect(check.exitStatus == 78, "\(check.report)")
        #expect(check.stderr.hasPrefix("\(map):1:8: error: the table name '"), "\(check.report)")
        #expect(check.stderr.contains("reserved"), "\(check.report)")
        let feed = dir.write("feed.json", #"[{"id":1}]"#)
        let store = dir.path("reserved.sqlite")
        let run = try runTool([feed, "--map", map, "--store", store], in: dir)
        #expect(run.exitStatus == 78, "\(run.report)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    // MARK: Case

    @Test func keysDifferingOnlyInCaseAreDistinctObjects() throws {
        let dir = TemporaryDirectory()
        let map = dir.write("tags.map", "entity Tag\n  key name\n  name : String\n  Label <- label : String?\n")
        let feed = dir.write(
            "feed.json", #"[{"name":"Swift","label":"a"},{"name":"swift","label":"b","Label":"B"},{"name":"SWIFT"},{"name":"swift"}]"#)
        let store = dir.path("tags.sqlite")
        let outcome = try runTool([feed, "--map", map, "--store", store, "--quiet"], in: dir)
        #expect(outcome.exitStatus == 0, "\(outcome.report)")
        // JSON keys differing in case are different keys too: "Label" is not "label".
        #expect(try sqlite(store, "SELECT name, label FROM tags ORDER BY name") == "SWIFT|\nSwift|a\nswift|b")
    }

    @Test(arguments: [
        "entity E\n  key id\n  id : Int\n  name : String\n  Name : String\n",
        "entity E\n  key id\n  id : Int\n  name : String\n  NAME <- other : Int\n",
        "entity E\n  key id\n  id : Int\nentity e\n  key id\n  id : Int\n",
    ])
    func namesDifferingOnlyInCaseAreAMapError(_ text: String) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("case.map", text)
        let check = try runTool(["check", "--map", map], in: dir)
        #expect(check.exitStatus == 78, "\(check.report)")
        #expect(check.stderr.hasPrefix("\(map):"), "\(check.report)")
    }

    // MARK: Size limits

    @Test func millionEntityMapIsRefusedAtOnce() throws {
        let dir = TemporaryDirectory()
        let text = (0..<1_000_000).map { "entity E\($0)\n  key id\n  id : Int\n" }.joined()
        let map = dir.write("huge.map", text)
        let check = try runTool(["check", "--map", map], in: dir)
        #expect(check.exitStatus == 78, "\(check.report)")
        #expect(check.seconds < 2, "took \(check.seconds) s")
        #expect(check.stderr.contains("1048576 bytes"), "\(check.report)")
        let feed = dir.write("feed.json", #"[{"id":1}]"#)
        let run = try runTool([feed, "--map", map, "--store", dir.path("huge.sqlite")], in: dir)
        #expect(run.exitStatus == 78, "\(run.report)")
        #expect(run.seconds < 2, "took \(run.seconds) s")
        #expect(!FileManager.default.fileExists(atPath: dir.path("huge.sqlite")))
    }

    /// 30,000 entities, or 60,000 attributes, fit in 1 MiB. The limits are checked after the
    /// parse (1.2 to 2.3 s for 1 MiB in a loaded debug build), so the bound catches quadratic work only.
    @Test(arguments: ["entities", "attributes"])
    func countLimitsStopAMapUnderTheSizeLimitQuickly(_ kind: String) throws {
        let dir = TemporaryDirectory()
        let text =
            kind == "entities"
            ? (0..<30_000).map { "entity E\($0)\n key id\n id : Int\n" }.joined()
            : "entity E\n key a0\n" + (0..<60_000).map { " a\($0) : Int\n" }.joined()
        try #require(text.utf8.count <= 1 << 20)
        let map = dir.write("many.map", text)
        let check = try runTool(["check", "--map", map], in: dir)
        #expect(check.exitStatus == 78, "\(check.report)")
        #expect(check.seconds < 10, "took \(check.seconds) s")
        #expect(check.stderr.contains("at most 1000 are allowed"), "\(check.report)")
    }

    @Test(arguments: [(1_000, 0), (1_001, 78)])
    func entityCountLimit(_ count: Int, _ status: Int32) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("entities.map", (0..<count).map { "entity E\($0)\n  key id\n  id : Int\n" }.joined())
        let check = try runTool(["check", "--map", map], in: dir)
        #expect(check.exitStatus == status, "\(check.report)")
        if status != 0 { #expect(check.stderr.contains("the map declares \(count) entities; at most 1000 are allowed"), "\(check.report)") }
    }

    @Test(arguments: [(1_000, 0), (1_001, 78)])
    func attributeCountLimit(_ count: Int, _ status: Int32) throws {
        let dir = TemporaryDirectory()
        let map = dir.write("attributes.map", "entity E\n  key a0\n" + (0..<count).map { "  a\($0) : Int\n" }.joined())
        let check = try runTool(["check", "--map", map], in: dir)
        #expect(check.exitStatus == status, "\(check.report)")
        if status != 0 { #expect(check.stderr.contains("has \(count) attributes and relationships; at most 1000 are allowed"), "\(check.report)") }
    }

    @Test(arguments: [(1 << 20, 0), ((1 << 20) + 1, 78)])
    func mapFileSizeLimit(_ size: Int, _ status: Int32) throws {
        let dir = TemporaryDirectory()
        let head = "entity E\n  key id\n  id : Int\n#"
        let map = dir.write("padded.map", head + String(repeating: "x", count: size - head.utf8.count - 1) + "\n")
        let check = try runTool(["check", "--map", map], in: dir)
        #expect(check.exitStatus == status, "\(check.report)")
        if status != 0 { #expect(check.stderr.contains("a map may be at most 1048576 bytes"), "\(check.report)") }
    }
}
