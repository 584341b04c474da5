import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import GraphImportStore
import GraphImportTestSupport

/// A SQLite store in a temporary directory and a map, imported into with the library API: for the
/// tests of SQLite alone, each saying why (a rule of writing or deletion is tested on both stores,
/// with `StoreUnderTest` or `MappedStore`).
final class EngineFixture {
    let directory = TemporaryDirectory("graphimport-engine")
    let plan: ImportPlan
    var storePath: String { directory.path("store.sqlite") }

    init(map: String) throws {
        plan = try ImportPlan.compile(text: map, fileName: "test.map")
    }

    /// Imports `json` and returns the summary.
    @discardableResult
    func importJSON(_ json: String, options: ImportOptions = .init(), skipped: ((RecordError) -> Void)? = nil) throws(ImportError) -> ImportSummary {
        try GraphImporter(plan: plan).run(
            source: BytesSource(Array(json.utf8)), inputName: "test.json", storePath: storePath, options: options,
            onSkip: skipped ?? { _ in })
    }

    /// The error an import of `json` fails with, or nil when it succeeds.
    func failure(_ json: String, options: ImportOptions = .init()) -> ImportError? {
        do {
            try importJSON(json, options: options)
            return nil
        } catch {
            return error
        }
    }

    /// Whether the store holds no data: no entity or join table, only graphimport's own tables and
    /// failed runs. What a failed import into a new store leaves behind.
    func holdsNoData() throws -> Bool {
        try value("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'graphimport!_%' ESCAPE '!'") == "0"
            && value("SELECT count(*) FROM graphimport_runs WHERE outcome <> 'failed'") == "0"
    }

    /// Rows of a query against the store, each row's values rendered as SQL literals.
    func rows(_ sql: String) throws -> [[String]] {
        let database = try Database(path: storePath)
        return try database.rows(sql).map { $0.map(\.description) }
    }

    /// The single value of a query.
    func value(_ sql: String) throws -> String? {
        try rows(sql).first?.first
    }
}

/// Movies that name their director by key alone (`director_id`), which makes a stub of a new
/// one; `person`: the lines of Person's attributes after its key `id`.
func directorStubsMap(person: String) -> String {
    """
    records at $[*] as Movie
    entity Movie
      key id
      id : Int
      director <- director_id : Person?
    entity Person
      key id
      id : Int

    """ + person
}

let tweetsMap = """
    records at $[*] as Tweet
    entity Tweet
      key id
      id : Int
      text : String
      createdAt <- created_at : Date | date("EEE MMM dd HH:mm:ss Z yyyy")
      sentAt <- timestamp_ms : Date? | epochMillis
      author <- user : User inverse tweets
      hashtags <- entities.hashtags : [Hashtag] inverse tweets
      retweetOf <- retweeted_status : Tweet? inverse retweets
      replyTo <- in_reply_to_status_id : Tweet? inverse replies
    entity User
      key id
      id : Int
      handle <- screen_name : String
      followers <- followers_count : Int?
    entity Hashtag
      key text
      text : String | lowercase
    """

func tweet(
    _ id: Int64, text: String = "hello", user: Int64 = 1, handle: String = "alice", followers: Int = 10,
    tags: [String] = [], extra: String = ""
) -> String {
    let tagJSON = tags.map { "{\"text\":\"\($0)\"}" }.joined(separator: ",")
    return """
        {"id":\(id),"text":"\(text)","created_at":"Wed Dec 09 19:40:11 +0000 2015",\
        "user":{"id":\(user),"screen_name":"\(handle)","followers_count":\(followers)},\
        "entities":{"hashtags":[\(tagJSON)]}\(extra)}
        """
}
