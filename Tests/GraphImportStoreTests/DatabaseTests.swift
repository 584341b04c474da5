import Foundation
import GraphImportSchema
import GraphImportStore
import GraphImportTestSupport
import Testing

@Suite struct DatabaseTests {
    @Test func opensWithForeignKeysCacheAndTempStoreConfigured() throws {
        try withDatabase { database throws in
            #expect(try database.scalar("PRAGMA foreign_keys") == .integer(1))
            #expect(try database.scalar("PRAGMA cache_size") == .integer(-32768))
            // The default: sorts bigger than the cache spill to files, not to the heap.
            #expect(try database.scalar("PRAGMA temp_store") == .integer(0))
            // Write-ahead logging: readers are never locked out by an import (ConcurrentReaderTests).
            #expect(try database.scalar("PRAGMA journal_mode") == .text("wal"))
        }
    }

    @Test func doubleQuotedStringsAreIdentifiersOnly() throws {
        try withDatabase { database throws in
            let error = #expect(throws: StoreError.self) { try database.scalar("SELECT \"nosuchcol\"") }
            #expect(error?.description == "SQLite error 1: no such column: nosuchcol - while executing `SELECT \"nosuchcol\"`")
        }
    }

    @Test func strictTableRejectsTextInIntegerColumn() throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"t\" (\"n\" INTEGER) STRICT")
            let error = #expect(throws: StoreError.self) { try database.run("INSERT INTO \"t\" VALUES (?)", [.text("abc")]) }
            #expect(error?.description == "SQLite error 19: cannot store TEXT value in INTEGER column t.n - while executing `INSERT INTO \"t\" VALUES (?)`")
        }
    }

    @Test func executeRunsEveryStatementAndNamesTheOneThatFailed() throws {
        try withDatabase { database throws in
            let error = #expect(throws: StoreError.self) {
                try database.execute("CREATE TABLE \"a\" (\"x\" ANY) STRICT; INSERT INTO \"a\" VALUES (1);\nINSERT INTO \"b\" VALUES (2)")
            }
            #expect(error?.description == "SQLite error 1: no such table: b - while executing `INSERT INTO \"b\" VALUES (2)`")
            #expect(try database.scalar("SELECT count(*) FROM \"a\"") == .integer(1))
        }
    }

    @Test func reportsLastInsertRowIDAndChanges() throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"t\" (\"pk\" INTEGER PRIMARY KEY, \"n\" INTEGER) STRICT")
            try database.run("INSERT INTO \"t\" (\"pk\", \"n\") VALUES (41, 1), (42, 1)")
            #expect(database.lastInsertRowID == 42)
            #expect(database.changes == 2)
            try database.run("UPDATE \"t\" SET \"n\" = 2 WHERE \"pk\" = ?", [.integer(41)])
            #expect(database.changes == 1)
        }
    }

    @Test func refusesASymlinkedStorePath() throws {
        try withFixture { fixture throws in
            _ = try fixture.open()
            let link = fixture.directory.path("link.sqlite")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: fixture.path)
            let error = #expect(throws: StoreError.self) { try Database(path: link) }
            #expect(error?.isCantOpen == true)
            #expect(error?.extendedCode == 1550)
            #expect(error?.description == "SQLite error 14: unable to open database file at \(link) (a symbolic link; the store path must be the file itself)")
        }
    }

    @Test func missingDirectoryCannotBeOpened() throws {
        try withFixture { fixture throws in
            let path = fixture.directory.path("missing/store.sqlite")
            let error = #expect(throws: StoreError.self) { try Database(path: path) }
            #expect(error?.description == "SQLite error 14: unable to open database file at \(path)")
        }
    }

    @Test func readOnlyOpenRefusesWrites() throws {
        try withFixture { fixture throws in
            try fixture.open().execute("CREATE TABLE \"t\" (\"n\" INTEGER) STRICT")
            let database = try fixture.open(.init(readOnly: true))
            #expect(try database.scalar("SELECT count(*) FROM \"t\"") == .integer(0))
            let error = #expect(throws: StoreError.self) { try database.run("INSERT INTO \"t\" VALUES (1)") }
            #expect(error?.isReadOnly == true)
            #expect(error?.description == "SQLite error 8: attempt to write a readonly database - while executing `INSERT INTO \"t\" VALUES (1)`")
        }
    }

    @Test func readOnlyOpenDoesNotCreateTheFile() throws {
        try withFixture { fixture throws in
            let error = #expect(throws: StoreError.self) { try fixture.open(.init(readOnly: true)) }
            #expect(error?.isCantOpen == true)
            #expect(!FileManager.default.fileExists(atPath: fixture.path))
        }
    }

    @Test func withoutCreateAMissingFileIsNotCreated() throws {
        try withFixture { fixture throws in
            let error = #expect(throws: StoreError.self) { try fixture.open(.init(create: false)) }
            #expect(error?.isCantOpen == true)
            #expect(!FileManager.default.fileExists(atPath: fixture.path))
        }
    }

    @Test func secondWriterTimesOutAsBusy() throws {
        try withFixture { fixture throws in
            let first = try fixture.open()
            try first.execute("CREATE TABLE \"t\" (\"n\" INTEGER) STRICT")
            try first.beginImmediate()
            let second = try fixture.open(.init(busyTimeout: 0.1))
            let started = ContinuousClock.now
            let error = #expect(throws: StoreError.self) { try second.beginImmediate() }
            let waited = ContinuousClock.now - started
            #expect(error?.isBusy == true)
            #expect(error?.description == "SQLite error 5: database is locked - while executing `BEGIN IMMEDIATE`")
            #expect(waited >= .milliseconds(90) && waited < .seconds(5))
            #expect(!second.isInTransaction)
            first.rollback()
            try second.beginImmediate()
            try second.commit()
        }
    }

    @Test func notADatabaseFailsWithItsCode() throws {
        try withFixture { fixture throws in
            fixture.directory.write("store.sqlite", String(repeating: "not sqlite at all\n", count: 100))
            let error = #expect(throws: StoreError.self) {
                let database = try fixture.open()
                _ = try database.scalar("SELECT count(*) FROM sqlite_schema")
            }
            #expect(error?.code == 26)
        }
    }
}
