import GraphImportSchema
import GraphImportStore
import Testing

@Suite struct TransactionTests {
    private func makeDatabase(_ fixture: DatabaseFixture) throws -> Database {
        let database = try fixture.open()
        for statement in SchemaSQL.createStatements(for: Schemas.v1) {
            try database.execute(statement)
        }
        return database
    }

    @Test func commitKeepsTheRows() throws {
        try withFixture { fixture throws in
            let database = try makeDatabase(fixture)
            try database.beginImmediate()
            #expect(database.isInTransaction)
            try database.run("INSERT INTO \"user\" (\"id\") VALUES (?)", [.integer(1)])
            try database.commit()
            #expect(!database.isInTransaction)
            #expect(try fixture.open().scalar("SELECT count(*) FROM \"user\"") == .integer(1))
        }
    }

    @Test func rollbackDiscardsTheRows() throws {
        try withFixture { fixture throws in
            let database = try makeDatabase(fixture)
            try database.beginImmediate()
            try database.run("INSERT INTO \"user\" (\"id\") VALUES (?)", [.integer(1)])
            database.rollback()
            #expect(!database.isInTransaction)
            #expect(try database.scalar("SELECT count(*) FROM \"user\"") == .integer(0))
        }
    }

    @Test func rollbackWithoutATransactionDoesNothing() throws {
        try withFixture { fixture throws in
            let database = try makeDatabase(fixture)
            database.rollback()
            #expect(!database.isInTransaction)
        }
    }

    @Test func foreignKeyViolationFailsAtCommitAndRollsBack() throws {
        try withFixture { fixture throws in
            let database = try makeDatabase(fixture)
            try database.beginImmediate()
            try database.run("INSERT INTO \"tweet\" (\"id\", \"author_pk\") VALUES (?, ?)", [.integer(1), .integer(99)])
            let error = #expect(throws: StoreError.self) { try database.commit() }
            #expect(error?.description == "SQLite error 19: FOREIGN KEY constraint failed - while executing `COMMIT`")
            #expect(!database.isInTransaction)
            #expect(try database.scalar("SELECT count(*) FROM \"tweet\"") == .integer(0))
        }
    }

    @Test func deferredReferenceMayBeSatisfiedBeforeCommit() throws {
        try withFixture { fixture throws in
            let database = try makeDatabase(fixture)
            try database.beginImmediate()
            try database.run("INSERT INTO \"tweet\" (\"id\", \"author_pk\") VALUES (1, 7)")
            try database.run("INSERT INTO \"user\" (\"pk\", \"id\") VALUES (7, 70)")
            try database.commit()
            try database.run("DELETE FROM \"user\"")
            #expect(try database.rows("SELECT \"author_pk\" FROM \"tweet\"") == [[.null]])
        }
    }
}
