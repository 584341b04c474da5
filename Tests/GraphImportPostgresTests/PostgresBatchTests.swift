import GraphImport
import GraphImportPostgres
import GraphImportSchema
import GraphImportStore
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// The pieces a batch of objects goes through on PostgreSQL: COPY into a staging table, the
/// set-based upsert with its counts, the transaction, and the store's lock.
@Suite("PostgreSQL: batches, transactions and the store's lock", needsPostgres)
struct PostgresBatchTests {
    /// A database with the users table of `StoreSchemaTests.map`, and a connection to it.
    static func usersStore() throws -> (ScratchDatabase, PostgresConnection) {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        try connection.execute(PostgresSchemaSQL.createStatements(for: StoreSchemaTests.plan().schema).joined(separator: ";\n"))
        return (database, connection)
    }

    static let users = PostgresUpsert(
        table: "users", keyColumns: ["id"], valueColumns: ["handle"], insertedRunColumn: "inserted_run", changedRunColumn: "changed_run")

    @Test func copyCarriesEveryKindOfValueAsItIs() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        try connection.execute("CREATE TABLE t (n BIGINT, r DOUBLE PRECISION, s TEXT, b BYTEA)")
        let awkward = "tab\there\nnew line\\back slash\r ünïcødé \\N"
        try connection.copy(
            into: "t", columns: ["n", "r", "s", "b"],
            values: [
                .integer(-9_223_372_036_854_775_808), .real(0.1), .text(awkward), .blob([0, 1, 0xfe, 0xff]),
                .null, .real(-.infinity), .text(""), .null,
            ])
        let rows = try connection.rows("SELECT n, r, s, encode(b, 'hex') FROM t ORDER BY n NULLS LAST")
        #expect(rows == [["-9223372036854775808", "0.1", awkward, "0001feff"], [nil, "-Infinity", "", nil]])
    }

    @Test func aTextWithANulCharacterEndsTheCopyAndKeepsNothing() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let connection = try PostgresConnection(#require(ConnectionString(database.connectionString)))
        try connection.execute("CREATE TABLE t (s TEXT)")
        let error = try #require(throws: PostgresError.self) {
            try connection.copy(into: "t", columns: ["s"], values: [.text("fine"), .text("nul\u{0}inside")])
        }
        #expect(error.message.contains("NUL character"), "\(error)")
        #expect(try connection.scalar("SELECT count(*) FROM t") == "0")
    }

    @Test func integersAndTextsWrittenStraightIntoCopyTextComeBackAsTheyWere() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let reader = try PostgresReader(#require(ConnectionString(database.connectionString)))
        try reader.connection.execute("CREATE TABLE t (place BIGINT, n BIGINT, small INTEGER, s TEXT)")
        // Each digit count, both signs, the ends of Int64 (19 digits: read back through a String).
        let numbers: [Int64] = [0, 7, -7, 10, -10, 99, -100, 123_456_789_012_345_678, -1_234_567_890_123_456_789, .max, .min, .min + 1]
        // Escapes at either end of a text, between plain runs, and none.
        let texts = ["", "plain", "\\", "\t", "a\\b", "\\start", "end\n", "x\ry\tz\n", "ünï\\cødé"]
        var text = PostgresCopyText()
        for (place, number) in numbers.enumerated() {
            text.append(Int64(place))
            text.append([.integer(number), .integer(Int64(Int32(truncatingIfNeeded: number))), .text(texts[place % texts.count])])
            text.endRow()
        }
        try reader.connection.copy(into: "t", columns: ["place", "n", "small", "s"], text: text)
        let rows = try reader.rows("SELECT n, small, s FROM t ORDER BY place", [])
        #expect(
            rows
                == numbers.enumerated().map { place, number in
                    [.integer(number), .integer(Int64(Int32(truncatingIfNeeded: number))), .text(texts[place % texts.count])]
                })
        // Emptied, the buffer takes the next COPY's rows alone.
        text.removeAll()
        text.append(.null)
        text.endRow()
        try reader.connection.copy(into: "t", columns: ["s"], text: text)
        #expect(try reader.connection.scalar("SELECT count(*) FROM t WHERE s IS NULL") == "1")
    }

    /// Plain runs are found eight bytes at a time: a byte that needs care (and bytes next to the
    /// limits: 13, 14, `[`, `]`, bytes of multi-byte UTF-8) at every place of texts up to three
    /// words long is escaped as a byte-by-byte reading escapes it, and a NUL anywhere is refused.
    @Test func everyByteThatNeedsCareIsEscapedWhereverItLiesInATextsWords() {
        let escapes: [UInt8: UInt8] = [0x5C: 0x5C, 0x09: 0x74, 0x0A: 0x6E, 0x0D: 0x72]
        for special in ["\\", "\t", "\n", "\r", "\u{1}", "\u{0D}", "\u{0E}", "[", "]", "é", "\u{0}"] {
            for length in 1...24 {
                for place in 0..<length {
                    let plain = Array(repeating: "a", count: length)
                    let value = plain[..<place].joined() + special + plain[(place + 1)...].joined()
                    var text = PostgresCopyText()
                    text.append(.text(value))
                    if special == "\u{0}" {
                        #expect(text.encodingError != nil, "\(length) \(place)")
                        continue
                    }
                    var expected: [UInt8] = []
                    for byte in value.utf8 {
                        if let escape = escapes[byte] { expected += [0x5C, escape] } else { expected.append(byte) }
                    }
                    #expect(text.bytes == expected && text.encodingError == nil, "\(special.debugDescription) at \(place) of \(length)")
                }
            }
        }
    }

    @Test func anUpsertCountsInsertedUpdatedAndUnchangedAndStampsTheRuns() throws {
        let (database, connection) = try Self.usersStore()
        _ = database
        try connection.begin()
        let first = try Self.users.write([.integer(1), .text("ann"), .integer(2), .text("bob"), .integer(3), .text("cy")], run: 1, on: connection)
        try connection.commit()
        #expect(first == .init(inserted: 3, updated: 0, unchanged: 0))

        try connection.begin()
        let second = try Self.users.write(
            [.integer(1), .text("ann"), .integer(2), .text("bobby"), .integer(3), .text("cy"), .integer(4), .text("di")], run: 2, on: connection)
        try connection.commit()
        #expect(second == .init(inserted: 1, updated: 1, unchanged: 2))
        let rows = try connection.rows("SELECT id, handle, inserted_run, changed_run FROM users ORDER BY pk")
        #expect(rows == [["1", "ann", "1", "1"], ["2", "bobby", "1", "2"], ["3", "cy", "1", "1"], ["4", "di", "2", "2"]])
    }

    @Test func anObjectTwiceInOneBatchTakesItsLastValuesAndItsFirstPlace() throws {
        let (database, connection) = try Self.usersStore()
        _ = database
        try connection.begin()
        let counts = try Self.users.write([.integer(5), .text("old"), .integer(6), .text("six"), .integer(5), .text("new")], run: 1, on: connection)
        try connection.commit()
        #expect(counts == .init(inserted: 2, updated: 0, unchanged: 0))
        #expect(try connection.rows("SELECT pk, id, handle FROM users ORDER BY pk") == [["1", "5", "new"], ["2", "6", "six"]])
    }

    @Test func aNullIsAChangeFromAValueAndBack() throws {
        let (database, connection) = try Self.usersStore()
        _ = database
        for (handle, expected) in [(SQLValue.text("x"), 1), (.null, 1), (.null, 0), (.text("x"), 1)] {
            try connection.begin()
            let counts = try Self.users.write([.integer(1), handle], run: 1, on: connection)
            try connection.commit()
            #expect(counts.inserted + counts.updated == expected, "\(handle)")
        }
    }

    @Test func aRolledBackBatchLeavesTheTableAsItWas() throws {
        let (database, connection) = try Self.usersStore()
        _ = database
        try connection.begin()
        _ = try Self.users.write([.integer(1), .text("ann")], run: 1, on: connection)
        connection.rollback()
        #expect(try connection.scalar("SELECT count(*) FROM users") == "0")
    }

    @Test func aSecondImportFindsTheStoreLockedUntilTheFirstEnds() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        let location = try #require(ConnectionString(database.connectionString))
        let first = try PostgresConnection(location)
        let second = try PostgresConnection(location)
        try first.begin()
        try first.lockStore(wait: 0)
        try second.begin()
        let refused = try #require(throws: PostgresError.self) { try second.lockStore(wait: 0) }
        #expect(refused.kind == .busy)
        second.rollback()
        try second.begin()
        let waited = try #require(throws: PostgresError.self) { try second.lockStore(wait: 0.05) }
        #expect(waited.kind == .busy)
        #expect(waited.message.contains("--wait"), "\(waited)")
        second.rollback()
        try first.commit()
        try second.begin()
        try second.lockStore(wait: 0)
        try second.commit()
    }

    @Test func storesInTwoSchemasDoNotWaitForEachOther() throws {
        let database = try PostgresTestCluster.shared().makeDatabase()
        try database.cluster.psql(database.name, "CREATE SCHEMA a; CREATE SCHEMA b")
        let first = try PostgresConnection(#require(ConnectionString(database.connectionString + " options='-csearch_path=a'")))
        let second = try PostgresConnection(#require(ConnectionString(database.connectionString + " options='-csearch_path=b'")))
        try first.begin()
        try first.lockStore(wait: 0)
        try second.begin()
        try second.lockStore(wait: 0)
        try second.commit()
        try first.commit()
    }

    @Test func objectsThatLackAnAttributeKeepItsStoredValueAndAKeyAloneMakesAStub() throws {
        let (database, connection) = try Self.usersStore()
        _ = database
        let keyOnly = PostgresUpsert(table: "users", keyColumns: ["id"], valueColumns: [], insertedRunColumn: "inserted_run", changedRunColumn: "changed_run")
        try connection.begin()
        _ = try Self.users.write([.integer(1), .text("ann")], run: 1, on: connection)
        try connection.commit()
        try connection.begin()
        // In one transaction: two objects with the key alone (one stored, one a stub), one with every attribute.
        // The key-only batch first: its staging table must not stand in for the other's.
        let stubs = try keyOnly.write([.integer(1), .integer(3)], run: 2, on: connection)
        let full = try Self.users.write([.integer(2), .text("bob")], run: 2, on: connection)
        try connection.commit()
        #expect(full == .init(inserted: 1, updated: 0, unchanged: 0))
        #expect(stubs == .init(inserted: 1, updated: 0, unchanged: 1))
        #expect(try connection.rows("SELECT id, handle FROM users ORDER BY id") == [["1", "ann"], ["2", "bob"], ["3", nil]])
    }
}
