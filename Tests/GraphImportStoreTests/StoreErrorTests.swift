import GraphImportSchema
import GraphImportStore
import Testing

@Suite struct StoreErrorTests {
    @Test func uniqueViolationReadsAsOneSentence() throws {
        try withDatabase { database throws in
            try database.execute(
                """
                CREATE TABLE "user" ("pk" INTEGER PRIMARY KEY, "id" INTEGER NOT NULL) STRICT;
                CREATE UNIQUE INDEX "user_id" ON "user"("id")
                """)
            let insert = "INSERT INTO \"user\" (\"id\") VALUES (?)"
            try database.run(insert, [.integer(1)])
            let error = #expect(throws: StoreError.self) { try database.run(insert, [.integer(1)]) }
            #expect(error?.description == "SQLite error 19: UNIQUE constraint failed: user.id - while executing `INSERT INTO \"user\" (\"id\") VALUES (?)`")
            #expect(error?.code == 19)
            #expect(error?.extendedCode == 2067)
        }
    }

    @Test func descriptionWithoutSQLHasNoStatementPart() {
        let error = StoreError(extendedCode: 5, message: "database is locked")
        #expect(error.description == "SQLite error 5: database is locked")
    }

    @Test func descriptionTrimsTheStatement() {
        let error = StoreError(extendedCode: 1, message: "boom", sql: "\n  SELECT 1\n")
        #expect(error.description == "SQLite error 1: boom - while executing `SELECT 1`")
    }

    /// Extended codes reduce to their primary code, and each predicate answers to its codes only.
    @Test(arguments: [
        (Int32(5), "busy"), (517, "busy"), (6, "busy"), (262, "busy"),
        (8, "readOnly"), (1032, "readOnly"),
        (13, "full"),
        (10, "ioError"), (266, "ioError"),
        (14, "cantOpen"), (1550, "cantOpen"),
        (3, "permission"), (23, "permission"),
        (19, "none"), (1, "none"),
    ])
    func predicatesFollowThePrimaryCode(extendedCode: Int32, kind: String) {
        let error = StoreError(extendedCode: extendedCode, message: "m")
        #expect(error.code == extendedCode & 0xff)
        #expect(error.isBusy == (kind == "busy"))
        #expect(error.isReadOnly == (kind == "readOnly"))
        #expect(error.isFull == (kind == "full"))
        #expect(error.isIOError == (kind == "ioError"))
        #expect(error.isCantOpen == (kind == "cantOpen"))
        #expect(error.isPermission == (kind == "permission"))
    }
}
