import GraphImportSchema
import GraphImportStore
import Testing

@Suite struct MetadataTests {
    private func metaRows(_ store: Store) throws -> [[SQLValue]] {
        try store.database.rows("SELECT \"key\", \"type\", \"value\", typeof(\"value\") FROM \"graphimport_meta\" ORDER BY \"key\"")
    }

    private func hasMetaTable(_ store: Store) throws -> Bool {
        try store.database.scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'graphimport_meta'") == .integer(1)
    }

    @Test(arguments: [
        MetaValue.bool(true), .bool(false), .integer(Int64.min), .integer(0), .double(-0.25), .double(1e300),
        .string(""), .string("W/\"etag-ü\""), .date("2024-05-01T12:00:00.000Z"), .json("{\"cursor\": [1, \"b\"]}"),
    ])
    func valueRoundTripsThroughAReopenedStore(value: MetaValue) throws {
        try withFixture { fixture throws in
            try Store(path: fixture.path).setMeta("key", value)
            #expect(try Store(path: fixture.path).meta("key") == value)
        }
    }

    @Test func valuesAreStoredNatively() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("a", .bool(true))
            try store.setMeta("b", .integer(42))
            try store.setMeta("c", .double(1.5))
            try store.setMeta("d", .string("42"))
            try store.setMeta("e", .date("2024-05-01T12:00:00.000Z"))
            try store.setMeta("f", .json("[]"))
            #expect(
                try metaRows(store) == [
                    [.text("a"), .text("bool"), .integer(1), .text("integer")],
                    [.text("b"), .text("integer"), .integer(42), .text("integer")],
                    [.text("c"), .text("double"), .real(1.5), .text("real")],
                    [.text("d"), .text("string"), .text("42"), .text("text")],
                    [.text("e"), .text("date"), .text("2024-05-01T12:00:00.000Z"), .text("text")],
                    [.text("f"), .text("json"), .text("[]"), .text("text")],
                ])
        }
    }

    @Test func missingKeysReadAsDefaults() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("other", .integer(1))
            #expect(try store.meta("missing") == nil)
            #expect(try store.bool("missing") == false)
            #expect(try store.integer("missing") == 0)
            #expect(try store.double("missing") == 0)
            #expect(try store.string("missing") == "")
            #expect(try store.date("missing") == nil)
            #expect(try store.json("missing") == nil)
            #expect(try store.bool("missing", default: true) == true)
            #expect(try store.integer("missing", default: -1) == -1)
            #expect(try store.double("missing", default: 2.5) == 2.5)
            #expect(try store.string("missing", default: "none") == "none")
        }
    }

    @Test func readsOfAStoreWithoutMetadataDoNotCreateTheTable() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            #expect(try store.meta("k") == nil)
            #expect(try store.integer("k", default: 9) == 9)
            #expect(try store.allMeta().isEmpty)
            #expect(try store.unsetMeta("k") == false)
            #expect(try !hasMetaTable(store))
        }
    }

    @Test func typedGettersReturnTheirType() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("b", .bool(true))
            try store.setMeta("i", .integer(7))
            try store.setMeta("d", .double(0.5))
            try store.setMeta("s", .string("x"))
            try store.setMeta("t", .date("2024-05-01T12:00:00.000Z"))
            try store.setMeta("j", .json("{}"))
            #expect(try store.bool("b") == true)
            #expect(try store.integer("i") == 7)
            #expect(try store.double("d") == 0.5)
            #expect(try store.string("s") == "x")
            #expect(try store.date("t") == "2024-05-01T12:00:00.000Z")
            #expect(try store.json("j") == "{}")
        }
    }

    /// A getter of another type never converts, not even integer to double or date to string.
    @Test(arguments: [
        ("integer", "meta key 'x' holds a double, not an integer"),
        ("bool", "meta key 'x' holds a double, not a bool"),
        ("string", "meta key 'x' holds a double, not a string"),
        ("date", "meta key 'x' holds a double, not a date"),
        ("json", "meta key 'x' holds a double, not JSON"),
    ])
    func wrongTypeGetterNamesBothTypes(getter: String, message: String) throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("x", .double(1))
            let read: () throws -> Void = {
                switch getter {
                case "integer": _ = try store.integer("x")
                case "bool": _ = try store.bool("x")
                case "string": _ = try store.string("x")
                case "date": _ = try store.date("x")
                default: _ = try store.json("x")
                }
            }
            let error = #expect(throws: StoreError.self) { try read() }
            #expect(error?.description == "SQLite error 20: \(message)")
        }
    }

    @Test func stringGetterRefusesADate() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("since", .date("2024-05-01T12:00:00.000Z"))
            let error = #expect(throws: StoreError.self) { try store.string("since") }
            #expect(error?.description == "SQLite error 20: meta key 'since' holds a date, not a string")
        }
    }

    @Test func doubleGetterRefusesAnInteger() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("count", .integer(3))
            let error = #expect(throws: StoreError.self) { try store.double("count") }
            #expect(error?.description == "SQLite error 20: meta key 'count' holds an integer, not a double")
        }
    }

    @Test func setReplacesTheValueAndItsType() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("since_id", .string("100"))
            try store.setMeta("since_id", .integer(200))
            #expect(try store.meta("since_id") == .integer(200))
            #expect(try store.allMeta().count == 1)
        }
    }

    @Test func updatedAtMovesOnlyWhenTheValueChanges() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("etag", .string("a"))
            try store.database.run("UPDATE \"graphimport_meta\" SET \"updated_at\" = 'then'")
            try store.setMeta("etag", .string("a"))
            #expect(try store.database.scalar("SELECT \"updated_at\" FROM \"graphimport_meta\"") == .text("then"))
            try store.setMeta("etag", .string("b"))
            let updated = try store.database.scalar("SELECT \"updated_at\" FROM \"graphimport_meta\"")
            #expect(updated != .text("then"))
            #expect(updated?.description.hasSuffix("Z'") == true)
        }
    }

    @Test func allMetaIsSortedByKey() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            for key in ["since_id", "Etag", "cursor", "a.b", "_z"] {
                try store.setMeta(key, .string(key.uppercased()))
            }
            let entries = try store.allMeta()
            #expect(entries.map(\.key) == ["Etag", "_z", "a.b", "cursor", "since_id"])
            #expect(entries.map(\.value) == entries.map { .string($0.key.uppercased()) })
        }
    }

    @Test func unsetRemovesOnlyThatKey() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("a", .integer(1))
            try store.setMeta("b", .integer(2))
            #expect(try store.unsetMeta("a") == true)
            #expect(try store.unsetMeta("a") == false)
            #expect(try store.meta("a") == nil)
            #expect(try store.allMeta().map(\.key) == ["b"])
        }
    }

    @Test func metaWrittenInsideATransactionRollsBackWithIt() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("kept", .integer(1))
            try store.database.beginImmediate()
            try store.setMeta("kept", .integer(2))
            try store.setMeta("added", .bool(true))
            #expect(try store.integer("kept") == 2)
            store.database.rollback()
            #expect(try store.integer("kept") == 1)
            #expect(try store.meta("added") == nil)
        }
    }

    @Test func tableCreatedInsideARolledBackTransactionIsGoneToo() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.database.beginImmediate()
            try store.setMeta("etag", .string("x"))
            store.database.rollback()
            #expect(try !hasMetaTable(store))
            #expect(try store.meta("etag") == nil)
            try store.setMeta("etag", .string("y"))
            #expect(try store.string("etag") == "y")
        }
    }

    @Test func metaWrittenInsideACommittedTransactionIsKept() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.database.beginImmediate()
            try store.setMeta("since_id", .integer(99))
            try store.database.commit()
            #expect(try Store(path: fixture.path).integer("since_id") == 99)
        }
    }

    @Test(arguments: [
        (MetaValue.double(.infinity), "SQLite error 20: meta key 'k' cannot hold 'inf': a double must be finite"),
        (.double(.nan), "SQLite error 20: meta key 'k' cannot hold 'nan': a double must be finite"),
        (
            .date("2024-05-01T12:00:00Z"),
            "SQLite error 20: meta key 'k' cannot hold '2024-05-01T12:00:00Z': a date is stored as UTC text like 2024-05-01T12:00:00.000Z"
        ),
        (
            .date("2024-02-30T12:00:00.000Z"),
            "SQLite error 20: meta key 'k' cannot hold '2024-02-30T12:00:00.000Z': a date is stored as UTC text like 2024-05-01T12:00:00.000Z"
        ),
        (.json("{cursor: 1}"), "SQLite error 20: meta key 'k' cannot hold '{cursor: 1}': it is not valid JSON"),
    ])
    func setRefusesValuesThatBreakTheirType(value: MetaValue, message: String) throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            let error = #expect(throws: StoreError.self) { try store.setMeta("k", value) }
            #expect(error?.description == message)
            #expect(try store.allMeta().isEmpty)
        }
    }

    /// The stored shape, swept over its boundaries: every field at its limits is kept, anything
    /// SQLite would read differently (out of range, another spelling) is refused.
    @Test(arguments: [
        ("0000-01-01T00:00:00.000Z", true), ("9999-12-31T23:59:59.999Z", true), ("2024-02-29T12:00:00.000Z", true),
        ("2023-02-29T12:00:00.000Z", false), ("2024-04-31T12:00:00.000Z", false), ("2024-13-01T12:00:00.000Z", false),
        ("2024-00-01T12:00:00.000Z", false), ("2024-05-00T12:00:00.000Z", false), ("2024-05-01T24:00:00.000Z", false),
        ("2024-05-01T12:60:00.000Z", false), ("2024-05-01T12:00:60.000Z", false), ("2024-05-01 12:00:00.000Z", false),
        ("2024-05-01T12:00:00.000z", false), ("2024-05-01T12:00:00.0000Z", false), ("2024-05-01T12:00:00.00Z", false),
        ("2024-05-01T12:00:00.000+00:00", false), ("2024-05-01T12:00:00.000", false), ("2024-05-01", false), ("", false),
    ])
    func setKeepsADateOnlyInTheStoredShape(text: String, kept: Bool) throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            if kept {
                try store.setMeta("k", .date(text))
                #expect(try store.date("k") == text)
            } else {
                #expect(throws: StoreError.self) { try store.setMeta("k", .date(text)) }
            }
        }
    }

    @Test func setRefusesAnEmptyKey() throws {
        try withFixture { fixture throws in
            let error = #expect(throws: StoreError.self) { try Store(path: fixture.path).setMeta("", .integer(1)) }
            #expect(error?.description == "SQLite error 21: a meta key must not be empty")
        }
    }

    @Test func rowThatDoesNotFitItsTypeIsReported() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("n", .integer(1))
            try store.database.run("UPDATE \"graphimport_meta\" SET \"value\" = 'many'")
            let error = #expect(throws: StoreError.self) { try store.meta("n") }
            #expect(
                error?.description
                    == "SQLite error 1: meta key 'n' cannot be read: type 'integer' does not fit value 'many'; "
                    + "the store was written by another program or version")
        }
    }

    @Test func tableRefusesAnUnknownType() throws {
        try withFixture { fixture throws in
            let store = try Store(path: fixture.path)
            try store.setMeta("n", .integer(1))
            #expect(throws: StoreError.self) {
                try store.database.run("UPDATE \"graphimport_meta\" SET \"type\" = 'uuid'")
            }
        }
    }

    @Test func readOnlyStoreReadsMetadata() throws {
        try withFixture { fixture throws in
            try Store(path: fixture.path).setMeta("etag", .string("x"))
            let readOnly = try Store(path: fixture.path, options: .init(readOnly: true))
            #expect(try readOnly.string("etag") == "x")
            let error = #expect(throws: StoreError.self) { try readOnly.setMeta("etag", .string("y")) }
            #expect(error?.isReadOnly == true)
        }
    }
}
