import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// Relationships written a batch at a time on PostgreSQL, their targets found by natural key.
@Suite("PostgreSQL: links in batches", needsPostgres)
struct PostgresLinkTests {
    static let tweets = PostgresUpsert(
        table: "tweets", keyColumns: ["id"], valueColumns: ["text"], insertedRunColumn: "inserted_run", changedRunColumn: "changed_run")
    static let mentions = PostgresToMany(
        joinTable: "tweets_mentions", ownerColumn: "tweets_pk", targetColumn: "users_pk", positionColumn: "position", table: "tweets",
        keyColumns: ["id"], targetTable: "users", targetKeyColumns: ["id"], primaryKey: "pk", changedRunColumn: "changed_run")

    /// Users 1 and 2 (pk 1, 2) and tweets 10 and 11 (pk 1, 2), written by run 1.
    static func store() throws -> (ScratchDatabase, PostgresConnection) {
        let (database, connection) = try PostgresBatchTests.usersStore()
        try connection.begin()
        _ = try PostgresBatchTests.users.write([.integer(1), .text("ann"), .integer(2), .text("bob")], run: 1, on: connection)
        _ = try tweets.write([.integer(10), .text("hi"), .integer(11), .text("yo")], run: 1, on: connection)
        try connection.commit()
        return (database, connection)
    }

    /// Writes in a transaction of run `run`, committed.
    static func inRun<T>(_ connection: PostgresConnection, _ body: () throws -> T) throws -> T {
        try connection.begin()
        do {
            let result = try body()
            try connection.commit()
            return result
        } catch {
            connection.rollback()
            throw error
        }
    }

    /// Rows for `mentions`: tweet 10's list, occurrence 0.
    static func list(_ targets: [Int64?], owner: Int64 = 10, occurrence: Int64 = 0) -> [SQLValue] {
        targets.enumerated().flatMap { element, target in
            [.integer(occurrence), .integer(Int64(element)), .integer(owner), target.map(SQLValue.integer) ?? .null]
        }
    }

    static func stored(_ connection: PostgresConnection) throws -> [[String?]] {
        try connection.rows("SELECT u.id, m.position FROM tweets_mentions m JOIN users u ON u.pk = m.users_pk ORDER BY m.position")
    }

    @Test func aListIsWrittenInOrderWithItsFirstOccurrenceOfATarget() throws {
        let (database, connection) = try Self.store()
        _ = database
        #expect(try Self.inRun(connection) { try Self.mentions.write(Self.list([1, 2, 1]), run: 2, on: connection) } == 1)
        #expect(try Self.stored(connection) == [["1", "0"], ["2", "1"]])
        #expect(try connection.scalar("SELECT changed_run FROM tweets WHERE id = 10") == "2")
        #expect(try Self.inRun(connection) { try Self.mentions.write(Self.list([1, 2]), run: 3, on: connection) } == 0)
        #expect(try connection.scalar("SELECT changed_run FROM tweets WHERE id = 10") == "2")
    }

    @Test func aReorderedOrEmptiedListReplacesTheStoredOne() throws {
        let (database, connection) = try Self.store()
        _ = database
        _ = try Self.inRun(connection) { try Self.mentions.write(Self.list([1, 2]), run: 2, on: connection) }
        #expect(try Self.inRun(connection) { try Self.mentions.write(Self.list([2, 1]), run: 3, on: connection) } == 1)
        #expect(try Self.stored(connection) == [["2", "0"], ["1", "1"]])
        // The last occurrence of the owner in the batch is its list: here, the empty one.
        let emptied = try Self.inRun(connection) {
            try Self.mentions.write(Self.list([1]) + Self.list([nil], occurrence: 1) + Self.list([2], owner: 11), run: 4, on: connection)
        }
        #expect(emptied == 2)
        #expect(try Self.stored(connection) == [["2", "0"]])
        #expect(try connection.rows("SELECT id, changed_run FROM tweets ORDER BY id") == [["10", "4"], ["11", "4"]])
    }

    @Test func aListNamingAnObjectNotInTheStoreFailsTheBatch() throws {
        let (database, connection) = try Self.store()
        _ = database
        let error = try #require(throws: PostgresError.self) {
            try Self.inRun(connection) { try Self.mentions.write(Self.list([1, 42]), run: 2, on: connection) }
        }
        #expect(error.message.contains("not in the store"))
        #expect(try Self.stored(connection).isEmpty)
    }
}
