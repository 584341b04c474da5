import GraphImport
import Testing

/// `--store`'s text read once: which texts name PostgreSQL, which a SQLite file, and the store
/// used when none is named.
@Suite("Store location")
struct StoreLocationTests {
    @Test(arguments: [
        "postgresql://alice@db1/feeds", "postgres://db1/feeds", "postgresql:///feeds", "host=db1 dbname=feeds",
        "host=/run/postgresql dbname=feeds", " dbname = feeds", "service=feeds",
    ])
    func connectionStringsNamePostgreSQL(_ text: String) throws {
        let location = StoreLocation(text)
        let connection = try #require(location.connection)
        #expect(location == .postgres(connection))
        #expect(location.sqlitePath == nil)
        #expect(location.description == text)
    }

    @Test(arguments: [
        "feeds.sqlite", "data/feeds.sqlite", "../feeds.sqlite", "/var/lib/feeds/tweets.sqlite", "./dbname=x", "a=b.sqlite",
        "data/host=db1", "unknown=1 dbname=feeds", "postgresql:/x", "postgres:feeds", "",
    ])
    func everythingElseIsASQLiteFileAsGiven(_ text: String) {
        let location = StoreLocation(text)
        #expect(location == .sqlite(path: text))
        #expect(location.connection == nil)
        #expect(location.sqlitePath == text)
        #expect(location.description == text)
    }

    @Test func aPasswordIsNotShown() {
        let location = StoreLocation("postgresql://alice:s3cret@db1/feeds")
        #expect(location.description == "postgresql://alice:***@db1/feeds")
        #expect(StoreLocation("host=db1 password=s3cret dbname=feeds").description == "host=db1 password=*** dbname=feeds")
    }

    @Test(arguments: [
        ("Mappings/tweets.map", "Mappings/tweets.sqlite"), ("tweets.map", "tweets.sqlite"), ("/etc/feeds/a.b.map", "/etc/feeds/a.b.sqlite"),
        ("../maps/feed", "../maps/feed.sqlite"),
        // Found by FuzzArguments: Foundation's path functions trapped on a one-character path.
        ("o", "o.sqlite"), ("m.map", "m.sqlite"), ("/feed.map", "/feed.sqlite"), ("maps/", "maps.sqlite"), (".map", ".map.sqlite"),
        ("", "store.sqlite"), ("/", "/store.sqlite"), ("a/.b/c", "a/.b/c.sqlite"),
    ])
    func theDefaultStoreIsBesideTheMap(_ map: String, _ store: String) {
        #expect(StoreLocation.defaultSQLitePath(forMap: map) == store)
    }
}
