import GraphImportSchema
import GraphImportStore
import GraphImportTestSupport

/// A fresh store file in a temporary directory that is removed with the fixture.
final class DatabaseFixture {
    let directory = TemporaryDirectory("graphimport-store")
    var path: String { directory.path("store.sqlite") }

    func open(_ options: Database.Options = .init()) throws -> Database {
        try Database(path: path, options: options)
    }
}

/// The schema most tests start from: users, and tweets that reference them.
enum Schemas {
    static let user = TableDescription(
        name: "user",
        columns: [
            ColumnDescription(name: "id", type: .integer, notNull: true),
            ColumnDescription(name: "name", type: .text),
        ],
        uniqueKeys: [["id"]])

    static let tweet = TableDescription(
        name: "tweet",
        columns: [
            ColumnDescription(name: "id", type: .integer, notNull: true),
            ColumnDescription(name: "text", type: .text),
            ColumnDescription(name: "author_pk", type: .integer, references: ForeignKey(table: "user", column: "pk")),
        ],
        uniqueKeys: [["id"]],
        indexes: [["author_pk"]])

    static let v1 = SchemaDescription(tables: [user, tweet])

    /// `v1` with `change` applied to its tweet table.
    static func v1(changingTweet change: (inout TableDescription) -> Void) -> SchemaDescription {
        var tweet = tweet
        change(&tweet)
        return SchemaDescription(tables: [user, tweet])
    }
}

/// Runs `body` with a fixture that lives (with its directory) until `body` returns.
func withFixture<Result>(_ body: (DatabaseFixture) throws -> Result) throws -> Result {
    let fixture = DatabaseFixture()
    return try withExtendedLifetime(fixture) { try body(fixture) }
}

/// Runs `body` with a database opened in a fresh temporary directory.
func withDatabase<Result>(_ options: Database.Options = .init(), _ body: (Database) throws -> Result) throws -> Result {
    try withFixture { fixture in try body(fixture.open(options)) }
}
