@testable import GraphImport
import GraphImportSchema
import Testing

/// The exact SQL the writing side runs for a small map, then the rows it leaves (GRDB's style):
/// a change to what reaches SQLite shows here first. One store: SQLite's statements, traced.
@Suite("The SQL the engine generates")
struct GeneratedSQLTests {
    @Test func firstImportInsertsWithoutLookingUpKeysInTablesThatBeganEmpty() throws {
        let fixture = try WritingFixture()
        let writer = try fixture.writer(run: 1)
        let log = SQLLog(fixture.database)
        defer { log.close() }
        try writer.write(postDraft(1, title: "Hello", author: 7, tags: ["swift", "sqlite"]))
        try writer.writeLinks()
        #expect(
            log.take() == [
                #"INSERT INTO "users" ("id", "inserted_run", "changed_run") VALUES (?, ?, ?)"#,
                #"INSERT INTO "tags" ("name", "inserted_run", "changed_run", "stub_run") VALUES (?, ?, ?, ?)"#,
                #"INSERT INTO "tags" ("name", "inserted_run", "changed_run", "stub_run") VALUES (?, ?, ?, ?)"#,
                #"INSERT INTO "posts" ("id", "title", "author_pk", "inserted_run", "changed_run") VALUES (?, ?, ?, ?, ?)"#,
                #"INSERT INTO "posts_tags" ("posts_pk", "tags_pk", "position") VALUES (?, ?, ?)"#,
                #"INSERT INTO "posts_tags" ("posts_pk", "tags_pk", "position") VALUES (?, ?, ?)"#,
            ])
        #expect(try fixture.rows(#"SELECT pk, id, title, author_pk, inserted_run, changed_run FROM "posts""#) == [["1", "1", "'Hello'", "1", "1", "1"]])
        #expect(try fixture.rows(#"SELECT pk, id, name FROM "users""#) == [["1", "7", "NULL"]])
        #expect(try fixture.rows(#"SELECT pk, name FROM "tags" ORDER BY pk"#) == [["1", "'swift'"], ["2", "'sqlite'"]])
        #expect(try fixture.rows(#"SELECT posts_pk, tags_pk, position FROM "posts_tags" ORDER BY position"#) == [["1", "1", "0"], ["1", "2", "1"]])
    }

    @Test func updateLooksUpByKeyAndWritesOnlyWhatChanged() throws {
        let fixture = try WritingFixture()
        let first = try fixture.writer(run: 1)
        try first.write(postDraft(1, title: "Hello", author: 7, tags: ["swift"]))
        try first.writeLinks()
        let writer = try fixture.writer(run: 2)
        let log = SQLLog(fixture.database)
        defer { log.close() }
        try writer.write(postDraft(1, title: "Hello again", author: 7, name: "Ann", tags: ["swift", "ios"]))
        try writer.writeLinks()
        #expect(
            log.take() == [
                #"SELECT "pk", "id", "name", "changed_run", "stub_run", "content_digest" FROM "users" WHERE "id" = ?"#,
                #"UPDATE "users" SET "name" = ?, "changed_run" = ? WHERE "pk" = ?"#,
                #"SELECT "pk", "name", "changed_run", "stub_run", "content_digest" FROM "tags" WHERE "name" = ?"#,
                #"SELECT "pk", "name", "changed_run", "stub_run", "content_digest" FROM "tags" WHERE "name" = ?"#,
                #"INSERT INTO "tags" ("name", "inserted_run", "changed_run", "stub_run") VALUES (?, ?, ?, ?)"#,
                #"SELECT "pk", "id", "title", "author_pk", "changed_run", "stub_run", "content_digest" FROM "posts" WHERE "id" = ?"#,
                #"SELECT "tags_pk", "position" FROM "posts_tags" WHERE "posts_pk" = ?"#,
                #"UPDATE "posts" SET "title" = ?, "changed_run" = ? WHERE "pk" = ?"#,
                #"DELETE FROM "posts_tags" WHERE "posts_pk" = ?"#,
                #"INSERT INTO "posts_tags" ("posts_pk", "tags_pk", "position") VALUES (?, ?, ?)"#,
                #"INSERT INTO "posts_tags" ("posts_pk", "tags_pk", "position") VALUES (?, ?, ?)"#,
            ])
        #expect(try fixture.rows(#"SELECT id, title, inserted_run, changed_run FROM "posts""#) == [["1", "'Hello again'", "1", "2"]])
        #expect(try fixture.rows(#"SELECT id, name, inserted_run, changed_run FROM "users""#) == [["7", "'Ann'", "1", "2"]])
        #expect(try fixture.rows(#"SELECT tags_pk, position FROM "posts_tags" ORDER BY position"#) == [["1", "0"], ["2", "1"]])
    }

    @Test func reimportOfTheSameObjectsOnlyReads() throws {
        let fixture = try WritingFixture()
        let first = try fixture.writer(run: 1)
        try first.write(postDraft(1, title: "Hello", author: 7, tags: ["swift"]))
        try first.writeLinks()
        let writer = try fixture.writer(run: 2)
        let log = SQLLog(fixture.database)
        defer { log.close() }
        try writer.write(postDraft(1, title: "Hello", author: 7, tags: ["swift"]))
        try writer.writeLinks()
        #expect(log.take().allSatisfy { $0.hasPrefix("SELECT ") })
        #expect(writer.counts().map(\.unchanged) == [1, 1, 0])
    }

    @Test func deletionOfAMissingObjectReadsTheTableThenDeletesByRowID() throws {
        let fixture = try WritingFixture()
        let first = try fixture.writer(run: 1)
        try first.write(postDraft(1, title: "Hello", author: 7, tags: []))
        try first.write(postDraft(2, title: "Bye", author: 7, tags: []))
        let writer = try fixture.writer(run: 2)
        try writer.write(postDraft(2, title: "Bye", author: 7, tags: []))
        let log = SQLLog(fixture.database)
        defer { log.close() }
        let deletions = try writer.deleteMissing(dryRun: false)
        #expect(
            log.take() == [
                #"SELECT "pk" FROM "posts""#,
                #"SELECT "id" FROM "posts" WHERE "pk" = ?"#,
                #"DELETE FROM "posts" WHERE "pk" = ?"#,
                // The deleted key is recorded; a store whose runs began without the table gets it here.
                "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?",
                #"CREATE TABLE IF NOT EXISTS "graphimport_deleted" ("run" INTEGER NOT NULL, "entity" TEXT, "key" TEXT) STRICT"#,
                #"INSERT INTO "graphimport_deleted" ("run") VALUES (?)"#,
                #"INSERT INTO "graphimport_deleted" ("run", "entity", "key") VALUES (?, ?, ?)"#,
            ])
        #expect(try fixture.rows(#"SELECT run, entity, key FROM "graphimport_deleted" WHERE entity IS NOT NULL"#) == [["2", "'Post'", #"'{"id":1}'"#]])
        #expect(deletions == [Deletions(entity: "Post", count: 1, sampleKeys: ["1"])])
        #expect(try fixture.rows(#"SELECT id FROM "posts""#) == [["2"]])
    }
}
