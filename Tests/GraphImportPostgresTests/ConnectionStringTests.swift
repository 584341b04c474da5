import GraphImportPostgres
import Testing

/// Which `--store` values name PostgreSQL, and how a password is kept out of what is shown.
@Suite("PostgreSQL: connection strings")
struct ConnectionStringTests {
    @Test(arguments: [
        "postgresql://alice@db1/feeds", "postgres://db1/feeds", "host=/run/postgresql dbname=feeds", " dbname = feeds", "service=feeds",
    ])
    func uriAndKeywordStringsNamePostgreSQL(_ store: String) {
        #expect(ConnectionString(store) != nil)
    }

    @Test(arguments: ["feeds.sqlite", "/var/lib/feeds/tweets.sqlite", "./dbname=x", "unknown=1", "postgresql:/x", ""])
    func filePathsNameSQLite(_ store: String) {
        #expect(ConnectionString(store) == nil)
    }

    @Test func aURIsPasswordIsShownAsStars() throws {
        let store = try #require(ConnectionString("postgresql://alice:s3cret@db1:5433/feeds?sslmode=require"))
        #expect(store.description == "postgresql://alice:***@db1:5433/feeds?sslmode=require")
    }

    @Test func aPasswordQueryParameterIsShownAsStars() throws {
        let store = try #require(ConnectionString("postgresql://db1/feeds?user=alice&password=s3cret&sslmode=require"))
        #expect(store.description == "postgresql://db1/feeds?user=alice&password=***&sslmode=require")
    }

    @Test func aPasswordKeywordIsShownAsStarsQuotedOrNot() throws {
        let plain = try #require(ConnectionString("host=db1 password=s3cret dbname=feeds"))
        #expect(plain.description == "host=db1 password=*** dbname=feeds")
        let quoted = try #require(ConnectionString("host=db1 password = 'two words\\' here' dbname=feeds"))
        #expect(quoted.description == "host=db1 password = *** dbname=feeds")
    }

    /// A misspelt keyword (`passWORD=`) may hold a password: the value of any keyword libpq does
    /// not show is never echoed, in the string shown or in a message naming it.
    @Test func theValueOfAnUnknownKeywordIsShownAsStars() throws {
        let keywords = try #require(ConnectionString("host=db1 passWORD=s3cret dbname=feeds sslpassword='a b'"))
        #expect(keywords.description == "host=db1 passWORD=*** dbname=feeds sslpassword=***")
        #expect(keywords.scrub("invalid connection option \"passWORD\" (s3cret)") == "invalid connection option \"passWORD\" (***)")
        let uri = try #require(ConnectionString("postgresql://alice@db1/feeds?Password=s3cret&sslmode=require&pasword=x2"))
        #expect(uri.description == "postgresql://alice@db1/feeds?Password=***&sslmode=require&pasword=***")
    }

    @Test func scrubRemovesTheStringAndItsPasswordFromAMessage() throws {
        let text = "postgresql://alice:p%40ss@db1/feeds"
        let store = try #require(ConnectionString(text))
        let message = store.scrub("invalid URI \"\(text)\"; password p@ss, raw p%40ss")
        #expect(message == "invalid URI \"postgresql://alice:***@db1/feeds\"; password ***, raw ***")
    }

    @Test func aStringWithoutPasswordIsShownAsGiven() throws {
        let store = try #require(ConnectionString("postgresql://alice@db1/feeds"))
        #expect(store.description == "postgresql://alice@db1/feeds")
        #expect(store.scrub("role \"alice\" does not exist") == "role \"alice\" does not exist")
    }
}
