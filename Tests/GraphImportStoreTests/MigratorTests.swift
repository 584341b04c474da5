import GraphImportSchema
import GraphImportStore
import Testing

@Suite struct MigratorTests {
    @Test func newStoreCreatesEverything() {
        let plan = Migrator.plan(from: nil, to: Schemas.v1, target: .sqlite)
        #expect(plan.statements == SchemaSQL.createStatements(for: Schemas.v1))
        #expect(plan.changes == ["add table user", "add table tweet"])
        #expect(plan.refusals.isEmpty)
    }

    @Test func sameSchemaIsAnEmptyPlan() {
        let plan = Migrator.plan(from: Schemas.v1, to: Schemas.v1, target: .sqlite)
        #expect(plan.isEmpty)
        #expect(plan.changes.isEmpty)
        #expect(plan.refusals.isEmpty)
    }

    @Test func nullableColumnsAreAdded() {
        let new = Schemas.v1 { tweet in
            tweet.columns.append(ColumnDescription(name: "lang", type: .text))
            tweet.columns.append(
                ColumnDescription(name: "reply_pk", type: .integer, references: ForeignKey(table: "tweet", column: "pk")))
        }
        let plan = Migrator.plan(from: Schemas.v1, to: new, target: .sqlite)
        #expect(
            plan.statements == [
                "ALTER TABLE \"tweet\" ADD COLUMN \"lang\" TEXT",
                "ALTER TABLE \"tweet\" ADD COLUMN \"reply_pk\" INTEGER REFERENCES \"tweet\"(\"pk\") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED",
            ])
        #expect(plan.changes == ["add column tweet.lang", "add column tweet.reply_pk"])
        #expect(plan.refusals.isEmpty)
    }

    @Test func newTablesAndIndexesAreCreated() {
        let hashtag = TableDescription(name: "hashtag", columns: [ColumnDescription(name: "tag", type: .text)], uniqueKeys: [["tag"]])
        var new = Schemas.v1 { tweet in tweet.indexes.append(["text"]) }
        new.tables.append(hashtag)
        let plan = Migrator.plan(from: Schemas.v1, to: new, target: .sqlite)
        #expect(
            plan.statements == [
                "CREATE INDEX \"tweet_text_index\" ON \"tweet\"(\"text\")",
                "CREATE TABLE \"hashtag\" (\"pk\" INTEGER PRIMARY KEY, \"tag\" TEXT) STRICT",
                "CREATE UNIQUE INDEX \"hashtag_tag\" ON \"hashtag\"(\"tag\")",
            ])
        #expect(plan.changes == ["add index tweet_text_index", "add table hashtag"])
    }

    @Test func unmappedColumnsTablesAndIndexesAreKept() {
        let tweet = Schemas.tweet
        var trimmed = tweet
        trimmed.columns.removeAll { $0.name == "text" }
        trimmed.indexes = []
        let plan = Migrator.plan(from: Schemas.v1, to: SchemaDescription(tables: [trimmed]), target: .sqlite)
        #expect(plan.statements.isEmpty)
        #expect(
            plan.changes == [
                "column tweet.text is not in this map; kept",
                "index tweet_author_pk_index is no longer needed; kept",
                "table user is not in this map; kept",
            ])
        #expect(plan.refusals.isEmpty)
    }

    /// Every change SQLite cannot make in place, with the refusal it produces.
    enum Refused: CaseIterable, Sendable {
        case typeChange, notNullAdded, notNullDropped, newNotNullColumn, uniqueKeyChanged, primaryKeyChanged
        case referenceTargetChanged, deleteActionChanged, notNullColumnUnmapped

        var schema: SchemaDescription {
            Schemas.v1 { tweet in
                switch self {
                case .typeChange: tweet.columns[1].type = .integer
                case .notNullAdded: tweet.columns[1].notNull = true
                case .notNullDropped: tweet.columns[0].notNull = false
                case .newNotNullColumn: tweet.columns.append(ColumnDescription(name: "lang", type: .text, notNull: true))
                case .uniqueKeyChanged: tweet.uniqueKeys = [["id", "text"]]
                case .primaryKeyChanged: tweet.primaryKey = .columns(["id"])
                case .referenceTargetChanged: tweet.columns[2].references?.table = "account"
                case .deleteActionChanged: tweet.columns[2].references?.onDelete = .cascade
                case .notNullColumnUnmapped: tweet.columns.removeFirst()
                }
            }
        }

        var expected: MigrationRefusal {
            let rebuild = "import into a new store with --store NEW.sqlite, or delete the store to rebuild it"
            return switch self {
            case .typeChange:
                MigrationRefusal(
                    table: "tweet", column: "text",
                    message: "column tweet.text is TEXT in the store and INTEGER in the map; SQLite cannot change a column's type in place", hint: rebuild)
            case .notNullAdded:
                MigrationRefusal(
                    table: "tweet", column: "text",
                    message: "column tweet.text is nullable in the store and NOT NULL in the map; SQLite cannot add a constraint to an existing column",
                    hint: rebuild)
            case .notNullDropped:
                MigrationRefusal(
                    table: "tweet", column: "id",
                    message: "column tweet.id is NOT NULL in the store and nullable in the map; SQLite cannot drop a constraint from an existing column",
                    hint: rebuild)
            case .newNotNullColumn:
                MigrationRefusal(
                    table: "tweet", column: "lang",
                    message: "new column tweet.lang is NOT NULL; SQLite can only add a column that rows already stored may leave NULL",
                    hint: "make the attribute optional in the map, or " + rebuild)
            case .uniqueKeyChanged:
                MigrationRefusal(
                    table: "tweet",
                    message: "table tweet has the unique keys (id) in the store and (id, text) in the map; rows already stored may not fit the new keys",
                    hint: rebuild)
            case .primaryKeyChanged:
                MigrationRefusal(
                    table: "tweet",
                    message: "table tweet has the primary key pk (rowid) in the store and (id) in the map; SQLite cannot change a primary key in place",
                    hint: rebuild)
            case .referenceTargetChanged:
                MigrationRefusal(
                    table: "tweet", column: "author_pk",
                    message:
                        "column tweet.author_pk references user.pk ON DELETE SET NULL in the store and account.pk ON DELETE SET NULL in the map; SQLite cannot change a foreign key in place",
                    hint: rebuild)
            case .deleteActionChanged:
                MigrationRefusal(
                    table: "tweet", column: "author_pk",
                    message:
                        "column tweet.author_pk references user.pk ON DELETE SET NULL in the store and user.pk ON DELETE CASCADE in the map; SQLite cannot change a foreign key in place",
                    hint: rebuild)
            case .notNullColumnUnmapped:
                MigrationRefusal(
                    table: "tweet", column: "id",
                    message: "column tweet.id is NOT NULL in the store but not in this map; new rows could not be inserted",
                    hint: "keep the attribute in the map, or " + rebuild)
            }
        }
    }

    @Test(arguments: Refused.allCases)
    func refusesChangesSQLiteCannotMakeInPlace(change: Refused) {
        let plan = Migrator.plan(from: Schemas.v1, to: change.schema, target: .sqlite)
        #expect(plan.refusals == [change.expected])
        #expect(plan.statements.isEmpty)
    }

    @Test func refusalDescriptionPutsTheHintOnItsOwnLine() {
        let refusal = Refused.typeChange.expected
        #expect(
            refusal.description == """
                column tweet.text is TEXT in the store and INTEGER in the map; SQLite cannot change a column's type in place
                help: import into a new store with --store NEW.sqlite, or delete the store to rebuild it
                """)
    }

    @Test func aUniqueIndexTheStoreHasBeyondTheMapsKeysIsKept() {
        let store = Schemas.v1 { tweet in tweet.uniqueKeys = [["id"], ["text"]] }
        let plan = Migrator.plan(from: StoredSchema(schema: store), to: Schemas.v1, target: .sqlite)
        #expect(plan == MigrationPlan())
    }

    @Test func unchangedUniqueKeysInAnotherOrderAreNotAChange() {
        let old = Schemas.v1 { tweet in tweet.uniqueKeys = [["id"], ["author_pk", "id"]] }
        let new = Schemas.v1 { tweet in tweet.uniqueKeys = [["author_pk", "id"], ["id"]] }
        #expect(Migrator.plan(from: old, to: new, target: .sqlite).refusals.isEmpty)
    }
}
