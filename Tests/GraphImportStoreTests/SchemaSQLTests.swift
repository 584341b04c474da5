import GraphImportSchema
import GraphImportStore
import Testing

@Suite struct SchemaSQLTests {
    static let tweet = TableDescription(
        name: "tweet",
        columns: [
            ColumnDescription(name: "id", type: .integer, notNull: true),
            ColumnDescription(name: "text", type: .text),
            ColumnDescription(name: "score", type: .real),
            ColumnDescription(name: "raw", type: .blob),
            ColumnDescription(name: "extra", type: .any),
            ColumnDescription(name: "author_pk", type: .integer, references: ForeignKey(table: "user", column: "pk")),
            ColumnDescription(
                name: "reply_pk", type: .integer, references: ForeignKey(table: "tweet", column: "pk", onDelete: .cascade)),
        ],
        uniqueKeys: [["id"], ["author_pk", "id"]],
        indexes: [["author_pk"], ["reply_pk"]])

    static let tweetHashtag = TableDescription(
        name: "tweet_hashtag",
        primaryKey: .columns(["tweet_pk", "hashtag_pk"]),
        columns: [
            ColumnDescription(
                name: "tweet_pk", type: .integer, notNull: true,
                references: ForeignKey(table: "tweet", column: "pk", onDelete: .cascade)),
            ColumnDescription(
                name: "hashtag_pk", type: .integer, notNull: true,
                references: ForeignKey(table: "hashtag", column: "pk", onDelete: .restrict)),
        ],
        indexes: [["hashtag_pk"]])

    static let user = TableDescription(
        name: "user", columns: [ColumnDescription(name: "id", type: .integer, notNull: true)], uniqueKeys: [["id"]])

    static let hashtag = TableDescription(
        name: "hashtag", primaryKey: .rowid("rowid_pk"),
        columns: [ColumnDescription(name: "tag", type: .text, references: nil)], uniqueKeys: [["tag"]])

    @Test func createsTableWithEveryColumnTypeReferenceUniqueKeyAndIndex() {
        #expect(
            SchemaSQL.createStatements(for: Self.tweet) == [
                "CREATE TABLE \"tweet\" (\"pk\" INTEGER PRIMARY KEY, \"id\" INTEGER NOT NULL, \"text\" TEXT, \"score\" REAL, "
                    + "\"raw\" BLOB, \"extra\" ANY, "
                    + "\"author_pk\" INTEGER REFERENCES \"user\"(\"pk\") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED, "
                    + "\"reply_pk\" INTEGER REFERENCES \"tweet\"(\"pk\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED) STRICT",
                "CREATE UNIQUE INDEX \"tweet_id\" ON \"tweet\"(\"id\")",
                "CREATE UNIQUE INDEX \"tweet_author_pk_id\" ON \"tweet\"(\"author_pk\", \"id\")",
                "CREATE INDEX \"tweet_author_pk_index\" ON \"tweet\"(\"author_pk\")",
                "CREATE INDEX \"tweet_reply_pk_index\" ON \"tweet\"(\"reply_pk\")",
            ])
    }

    @Test func createsJoinTableWithCompoundPrimaryKey() {
        #expect(
            SchemaSQL.createStatements(for: Self.tweetHashtag) == [
                "CREATE TABLE \"tweet_hashtag\" ("
                    + "\"tweet_pk\" INTEGER NOT NULL REFERENCES \"tweet\"(\"pk\") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, "
                    + "\"hashtag_pk\" INTEGER NOT NULL REFERENCES \"hashtag\"(\"pk\") ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED, "
                    + "PRIMARY KEY (\"tweet_pk\", \"hashtag_pk\")) STRICT, WITHOUT ROWID",
                "CREATE INDEX \"tweet_hashtag_hashtag_pk_index\" ON \"tweet_hashtag\"(\"hashtag_pk\")",
            ])
    }

    @Test func namedRowidKeyComesFirst() {
        #expect(SchemaSQL.createTable(Self.hashtag) == "CREATE TABLE \"hashtag\" (\"rowid_pk\" INTEGER PRIMARY KEY, \"tag\" TEXT) STRICT")
    }

    @Test func quotesEveryName() {
        let table = TableDescription(
            name: "we\"ird", columns: [ColumnDescription(name: "a\"b", type: .text, references: ForeignKey(table: "x\"y", column: "p\"k"))],
            uniqueKeys: [["a\"b"]], indexes: [["a\"b"]])
        #expect(
            SchemaSQL.createStatements(for: table) == [
                "CREATE TABLE \"we\"\"ird\" (\"pk\" INTEGER PRIMARY KEY, \"a\"\"b\" TEXT REFERENCES \"x\"\"y\"(\"p\"\"k\") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED) STRICT",
                "CREATE UNIQUE INDEX \"we\"\"ird_a\"\"b\" ON \"we\"\"ird\"(\"a\"\"b\")",
                "CREATE INDEX \"we\"\"ird_a\"\"b_index\" ON \"we\"\"ird\"(\"a\"\"b\")",
            ])
    }

    @Test func schemaStatementsFollowTableOrder() {
        let schema = SchemaDescription(tables: [Self.user, Self.hashtag])
        #expect(
            SchemaSQL.createStatements(for: schema) == [
                "CREATE TABLE \"user\" (\"pk\" INTEGER PRIMARY KEY, \"id\" INTEGER NOT NULL) STRICT",
                "CREATE UNIQUE INDEX \"user_id\" ON \"user\"(\"id\")",
                "CREATE TABLE \"hashtag\" (\"rowid_pk\" INTEGER PRIMARY KEY, \"tag\" TEXT) STRICT",
                "CREATE UNIQUE INDEX \"hashtag_tag\" ON \"hashtag\"(\"tag\")",
            ])
    }

    @Test func createdSchemaEnforcesItsKeysAndReferences() throws {
        let hashtag = TableDescription(name: "hashtag", columns: [ColumnDescription(name: "tag", type: .text)], uniqueKeys: [["tag"]])
        let schema = SchemaDescription(tables: [Self.user, Self.tweet, hashtag, Self.tweetHashtag])
        try withDatabase { database throws in
            for statement in SchemaSQL.createStatements(for: schema) {
                try database.execute(statement)
            }
            let indexes = try database.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            #expect(
                indexes
                    == [
                        "hashtag_tag", "tweet_author_pk_id", "tweet_author_pk_index", "tweet_hashtag_hashtag_pk_index", "tweet_id",
                        "tweet_reply_pk_index", "user_id",
                    ].map { [.text($0)] })
            try database.beginImmediate()
            try database.run("INSERT INTO \"user\" (\"pk\", \"id\") VALUES (1, 10)")
            try database.run("INSERT INTO \"tweet\" (\"pk\", \"id\", \"author_pk\", \"extra\") VALUES (1, 100, 1, X'00')")
            try database.run("INSERT INTO \"hashtag\" (\"pk\", \"tag\") VALUES (1, 'swift')")
            try database.run("INSERT INTO \"tweet_hashtag\" VALUES (1, 1)")
            try database.commit()
            let duplicate = #expect(throws: StoreError.self) { try database.run("INSERT INTO \"tweet_hashtag\" VALUES (1, 1)") }
            #expect(duplicate?.extendedCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
            // ON DELETE CASCADE from tweet empties the join table; SET NULL from user clears author_pk.
            try database.run("DELETE FROM \"user\"")
            #expect(try database.scalar("SELECT \"author_pk\" FROM \"tweet\"") == .null)
            try database.run("DELETE FROM \"tweet\"")
            #expect(try database.scalar("SELECT count(*) FROM \"tweet_hashtag\"") == .integer(0))
        }
    }
}
