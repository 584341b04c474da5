import GraphImportSchema
import GraphImportStore
import Testing

@Suite struct StatementTests {
    static let values: [SQLValue] = [
        .null,
        .integer(0), .integer(1), .integer(-1), .integer(.min), .integer(.max),
        .real(0.5), .real(-2.25), .real(.pi), .real(1e308), .real(-.leastNonzeroMagnitude),
        .text(""), .text("plain"), .text("emoji 😀👩‍👩‍👧 ünï"), .text("quote ' and \" and ;"),
        .text("nul\u{0}inside"),
        .blob([]), .blob([0]), .blob([0, 1, 2, 254, 255]),
    ]

    /// Stores `value` in a column of any type and calls `body` on the one row of a SELECT of
    /// it (column 0) and its storage class (column 1).
    private func readingStored(_ value: SQLValue, _ body: (Statement) throws -> Void) throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"t\" (\"v\" ANY) STRICT")
            try database.run("INSERT INTO \"t\" VALUES (?)", [value])
            let statement = try database.statement("SELECT \"v\", typeof(\"v\") FROM \"t\"")
            try statement.bind([])
            #expect(try statement.step())
            try body(statement)
            #expect(try !statement.step())
        }
    }

    @Test(arguments: values)
    func valueRoundTripsThroughAnyColumn(value: SQLValue) throws {
        try readingStored(value) { statement in
            #expect(statement.column(0) == value)
            #expect(statement.column(1) == .text(Self.storageClass(of: value)))
        }
    }

    @Test(arguments: values)
    func boundValueRoundTripsThroughSelect(value: SQLValue) throws {
        try withDatabase { database throws in
            #expect(try database.scalar("SELECT ?", [value]) == value)
        }
    }

    /// Large values are swept apart so a failure does not print a megabyte as the argument.
    /// One join row at a time: three integers, run again and again on one statement; a statement
    /// that does not take exactly three is refused before anything runs.
    @Test func threeIntegersRunRepeatedlyAndOnlyWhereThreeAreTaken() throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"j\" (\"a\" INTEGER, \"b\" INTEGER, \"c\" INTEGER) STRICT")
            let insert = try database.statement("INSERT INTO \"j\" VALUES (?, ?, ?)")
            try insert.run(integers: [1, 2, 3])
            try insert.run(integers: [.max, .min, 0])
            #expect(
                try database.rows("SELECT * FROM \"j\" ORDER BY \"a\"") == [
                    [.integer(1), .integer(2), .integer(3)], [.integer(.max), .integer(.min), .integer(0)],
                ])
            let two = try database.statement("INSERT INTO \"j\" (\"a\", \"b\") VALUES (?, ?)")
            let error = #expect(throws: StoreError.self) { try two.run(integers: [1, 2, 3]) }
            #expect(error?.description.contains("expected 2 values to bind, got 3") == true)
            #expect(try database.scalar("SELECT count(*) FROM \"j\"") == .integer(2))
        }
    }

    @Test func largeTextAndBlobRoundTrip() throws {
        try withDatabase { database throws in
            let text = SQLValue.text(String(repeating: "long text ", count: 100_000))
            let blob = SQLValue.blob(Array(repeating: 7, count: 1 << 20))
            #expect(try database.rows("SELECT ?, ?", [text, blob]) == [[text, blob]])
        }
    }

    @Test func nanIsStoredAsNull() throws {
        try withDatabase { database throws in
            #expect(try database.scalar("SELECT ?", [.real(.nan)]) == .null)
        }
    }

    @Test func statementCacheReturnsTheSameStatement() throws {
        try withDatabase { database throws in
            let first = try database.statement("SELECT 1")
            let second = try database.statement("SELECT 1")
            let other = try database.statement("SELECT 2")
            #expect(first === second)
            #expect(first !== other)
        }
    }

    @Test func bindingTheWrongNumberOfValuesFails() throws {
        try withDatabase { database throws in
            let error = #expect(throws: StoreError.self) { try database.scalar("SELECT ?, ?", [.integer(1)]) }
            #expect(error?.description == "SQLite error 25: expected 2 values to bind, got 1 - while executing `SELECT ?, ?`")
        }
    }

    @Test func bindAtIndexIsOneBased() throws {
        try withDatabase { database throws in
            let statement = try database.statement("SELECT ?, ?")
            try statement.bind([.null, .null])
            try statement.bind(.text("second"), at: 2)
            try statement.bind(.integer(1), at: 1)
            #expect(statement.columnCount == 2)
            #expect(try statement.step())
            #expect(statement.column(0) == .integer(1))
            #expect(statement.column(1) == .text("second"))
            statement.reset()
        }
    }

    @Test func bindingOutOfRangeFails() throws {
        try withDatabase { database throws in
            let statement = try database.statement("SELECT ?")
            let error = #expect(throws: StoreError.self) { try statement.bind(.integer(1), at: 2) }
            #expect(error?.code == 25)
        }
    }

    @Test func cachedStatementIsReusableAfterAFailedStep() throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"t\" (\"n\" INTEGER NOT NULL) STRICT")
            let insert = "INSERT INTO \"t\" VALUES (?)"
            #expect(throws: StoreError.self) { try database.run(insert, [.null]) }
            try database.run(insert, [.integer(3)])
            #expect(try database.rows("SELECT \"n\" FROM \"t\"") == [[.integer(3)]])
        }
    }

    @Test func rowsAndFirstRowRebindEachTime() throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"t\" (\"n\" INTEGER) STRICT; INSERT INTO \"t\" VALUES (1), (2), (3)")
            let statement = try database.statement("SELECT \"n\" FROM \"t\" WHERE \"n\" >= ? ORDER BY \"n\"")
            #expect(try statement.rows([.integer(2)]) == [[.integer(2)], [.integer(3)]])
            #expect(try statement.firstRow([.integer(1)]) == [.integer(1)])
            #expect(try statement.firstRow([.integer(4)]) == nil)
            #expect(try database.scalar("SELECT \"n\" FROM \"t\" WHERE \"n\" > 9") == nil)
        }
    }

    @Test func moreThanOneStatementIsRefused() throws {
        try withDatabase { database throws in
            let error = #expect(throws: StoreError.self) { try database.statement("SELECT 1; SELECT 2") }
            #expect(error?.description == "SQLite error 21: the SQL holds more than one statement - while executing `SELECT 1; SELECT 2`")
            #expect(try database.statement("SELECT 1;").rows([]) == [[.integer(1)]])
        }
    }

    @Test func syntaxErrorNamesTheStatement() throws {
        try withDatabase { database throws in
            let error = #expect(throws: StoreError.self) { try database.statement("SELEC 1") }
            #expect(error?.description == "SQLite error 1: near \"SELEC\": syntax error - while executing `SELEC 1`")
        }
    }

    /// `column(_:holds:)` answers what comparing the value read would, for every stored value
    /// against every candidate, without reading it.
    @Test(arguments: values)
    func columnHoldsWhatReadingItWouldGive(stored: SQLValue) throws {
        try readingStored(stored) { statement in
            for candidate in Self.values {
                #expect(statement.column(0, holds: candidate) == (statement.column(0) == candidate), "\(stored) holds \(candidate)")
            }
        }
    }

    /// Where reading would give an equal value that is not the same one, `holds` says no: the
    /// caller then keeps what was read, so sharing a value never changes a stored digest.
    @Test func columnHoldsOnlyTheVeryValue() throws {
        try withDatabase { database throws in
            let statement = try database.statement("SELECT -0.0, CAST(X'66FF' AS TEXT)")
            try statement.bind([])
            #expect(try statement.step())
            #expect(statement.column(0) == .real(0))  // Double's == calls -0.0 and 0.0 equal
            #expect(!statement.column(0, holds: .real(0)))
            #expect(statement.column(0, holds: .real(-0.0)))
            // Invalid UTF-8 is repaired on reading, so it equals no text the feed can give.
            #expect(statement.column(1) == .text("f\u{FFFD}"))
            #expect(!statement.column(1, holds: .text("f\u{FFFD}")))
        }
    }

    /// A row read with expected values is the row read without them: columns from `from` on
    /// that hold their expected value give it, the others are read as they are.
    @Test func firstRowExpectingValuesIsTheSameRow() throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"t\" (\"k\" INTEGER, \"a\" ANY, \"b\" ANY, \"c\" ANY) STRICT")
            try database.run("INSERT INTO \"t\" VALUES (1, 'same', 'stored', NULL)")
            let select = try database.statement("SELECT \"k\", \"a\", \"b\", \"c\" FROM \"t\" WHERE \"k\" = ?")
            let row: [SQLValue] = [.integer(1), .text("same"), .text("stored"), .null]
            #expect(try select.firstRow([.integer(1)]) == row)
            for expected: [SQLValue?] in [[], [.text("same"), .text("given"), .null], [nil, .integer(7)], [.integer(1), .text("same")]] {
                #expect(try select.firstRow([.integer(1)], expecting: expected, from: 1) == row)
            }
            // Offsets past the row, and a key with no row.
            #expect(try select.firstRow([.integer(1)], expecting: [.text("x")], from: 9) == row)
            #expect(try select.firstRow([.integer(2)], expecting: [.text("same")], from: 1) == nil)
        }
    }

    /// The row holds what was expected only when every value given is in it: a mismatch, a
    /// value past the row's last column or a missing row says no; slots given as nil do not count.
    @Test func firstRowHoldingTellsWhetherEveryExpectedValueWasThere() throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"t\" (\"k\" INTEGER, \"a\" ANY, \"b\" ANY) STRICT")
            try database.run("INSERT INTO \"t\" VALUES (1, 'same', 2.5)")
            let select = try database.statement("SELECT \"k\", \"a\", \"b\" FROM \"t\" WHERE \"k\" = ?")
            let row: [SQLValue] = [.integer(1), .text("same"), .real(2.5)]
            let cases: [(expected: [SQLValue?], holds: Bool)] = [
                ([], true), ([.text("same"), .real(2.5)], true), ([nil, .real(2.5)], true), ([nil, nil], true),
                ([.text("same"), .real(2.25)], false), ([.text("Same"), nil], false), ([.text("same"), .integer(2)], false),
                ([.text("same"), .real(2.5), .null], false), ([.text("same"), .real(2.5), nil], true),
            ]
            for (expected, holds) in cases {
                let found = try select.firstRowHolding([.integer(1)], expecting: expected, from: 1)
                #expect(found?.row == row, "\(expected)")
                #expect(found?.holdsExpected == holds, "\(expected)")
            }
            #expect(try select.firstRowHolding([.integer(2)], expecting: [], from: 1) == nil)
        }
    }

    /// Values bound by position from a function (a key held in no array): the row they select,
    /// and a count other than the statement's parameters refused before anything is bound.
    @Test func firstRowHoldingBindsValuesGivenByPosition() throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"t\" (\"k\" INTEGER, \"n\" TEXT, \"a\" ANY) STRICT")
            try database.run("INSERT INTO \"t\" VALUES (1, 'x', 5), (1, 'y', 6)")
            let select = try database.statement("SELECT \"k\", \"n\", \"a\" FROM \"t\" WHERE \"k\" = ? AND \"n\" = ?")
            let key: [SQLValue] = [.integer(1), .text("y")]
            let found = try select.firstRowHolding(binding: 2, { key[$0] }, expecting: [nil, .integer(6)], from: 1)
            #expect(found?.row == [.integer(1), .text("y"), .integer(6)])
            #expect(found?.holdsExpected == true)
            #expect(throws: StoreError.self) { try select.firstRowHolding(binding: 1, { key[$0] }, expecting: [], from: 1) }
        }
    }

    /// A list's targets and positions read without rows of values: each call binds afresh, and
    /// a statement that does not take exactly one value is refused.
    @Test func integerPairsReadTheFirstTwoColumnsForOneBoundValue() throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"j\" (\"owner\" INTEGER, \"target\" INTEGER, \"position\" INTEGER) STRICT")
            try database.run("INSERT INTO \"j\" VALUES (1, 30, 1), (1, 10, 0), (2, 20, 0)")
            let select = try database.statement("SELECT \"target\", \"position\" FROM \"j\" WHERE \"owner\" = ? ORDER BY \"target\"")
            #expect(try select.integerPairs(binding: 1).map { [$0.0, $0.1] } == [[10, 0], [30, 1]])
            #expect(try select.integerPairs(binding: 2).map { [$0.0, $0.1] } == [[20, 0]])
            #expect(try select.integerPairs(binding: 3).isEmpty)
            // Into a kept array: its contents replaced each time, not added to.
            var pairs: [(Int64, Int64)] = [(7, 7)]
            try select.integerPairs(binding: 1, into: &pairs)
            #expect(pairs.map { [$0.0, $0.1] } == [[10, 0], [30, 1]])
            try select.integerPairs(binding: 3, into: &pairs)
            #expect(pairs.isEmpty)
            let two = try database.statement("SELECT \"target\", \"position\" FROM \"j\" WHERE \"owner\" = ? AND \"position\" = ?")
            let error = #expect(throws: StoreError.self) { try two.integerPairs(binding: 1) }
            #expect(error?.description.contains("expected 2 values to bind, got 1") == true)
        }
    }

    /// Many join rows in one statement: the integers fill its parameters in order; a count that
    /// is not the statement's is refused before anything runs.
    @Test func integersFillAMultiRowInsertInOrder() throws {
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"j\" (\"a\" INTEGER, \"b\" INTEGER, \"c\" INTEGER) STRICT")
            let insert = try database.statement("INSERT INTO \"j\" VALUES (?, ?, ?), (?, ?, ?)")
            let values: [Int64] = [0, 1, 2, 3, 4, 5, 6, 7, .min, .max]
            try insert.run(integers: values[1..<7])
            try insert.run(integers: values[4..<10])
            #expect(
                try database.rows("SELECT * FROM \"j\" ORDER BY rowid") == [
                    [.integer(1), .integer(2), .integer(3)], [.integer(4), .integer(5), .integer(6)],
                    [.integer(4), .integer(5), .integer(6)], [.integer(7), .integer(.min), .integer(.max)],
                ])
            let error = #expect(throws: StoreError.self) { try insert.run(integers: values[0..<3]) }
            #expect(error?.description.contains("expected 6 values to bind, got 3") == true)
            #expect(try database.scalar("SELECT count(*) FROM \"j\"") == .integer(4))
        }
    }

    /// Texts compare and hash by their bytes, as SQLite's unique indexes compare them: a
    /// precomposed "é" and "e" with a combining accent are two values (Swift's String calls them equal).
    @Test func textsAreEqualByTheirBytesAsInTheStore() throws {
        let precomposed = SQLValue.text("caf\u{E9}")
        let combining = SQLValue.text("cafe\u{301}")
        #expect(precomposed != combining)
        #expect(Set([precomposed, combining, .text("caf\u{E9}")]).count == 2)
        #expect(precomposed == .text(String(decoding: [0x63, 0x61, 0x66, 0xC3, 0xA9], as: UTF8.self)))
        #expect(SQLValue.text("1") != .integer(1))
        #expect(SQLValue.real(0) == .real(-0.0))
        #expect(Set([SQLValue.real(0), .real(-0.0)]).count == 1)
        try withDatabase { database throws in
            try database.execute("CREATE TABLE \"t\" (\"v\" TEXT UNIQUE) STRICT")
            try database.run("INSERT INTO \"t\" VALUES (?), (?)", [precomposed, combining])
            #expect(try database.scalar("SELECT count(*) FROM \"t\"") == .integer(2))
        }
    }

    private static func storageClass(of value: SQLValue) -> String {
        switch value {
        case .null: "null"
        case .integer: "integer"
        case .real: "real"
        case .text: "text"
        case .blob: "blob"
        }
    }
}
