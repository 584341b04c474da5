import Foundation
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

extension FeedCase {
    /// Imports the feed into a fresh store and expects exit 0, the counts and the rows.
    func expectImportsExactRows(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dir = TemporaryDirectory()
        let store = dir.path("feed.sqlite")
        let result = try EndToEnd.importFeed(try feedPath(), map: map, store: store)
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(try EndToEnd.counts(store, Array(counts.keys)) == counts, sourceLocation: sourceLocation)
        EndToEnd.expectRows(store, rows, sourceLocation: sourceLocation)
    }

    /// Imports the feed twice: the second run must change nothing.
    func expectReimportChangesNothing() throws {
        let dir = TemporaryDirectory()
        let arguments = [try feedPath(), "--map", repoFile(map), "--store", dir.path("feed.sqlite")]
        let first = try runBinary(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        try EndToEnd.expectReimportChangesNothing(arguments)
    }

    /// The store's metadata value of `key`, as `graphimport meta get` prints it.
    static func meta(_ store: String, _ key: String) throws -> String {
        try sqlite(store, "SELECT value FROM graphimport_meta WHERE key = '\(key)'")
    }
}

extension CorpusSuite {
    /// JSON:API compound documents and the USGS GeoJSON feed, imported by the binary. Every expected
    /// value was read from the JSON with python3.
    @Suite("JSON:API and USGS")
    struct OtherTests {
        static let feeds: [FeedCase] = [
            FeedCase(
                source: .corpus("jsonapi/complete.json"), map: "Mappings/jsonapi.map",
                counts: ["articles": 2, "people": 1, "comments": 0],
                rows: [
                    // Both articles name people/9 by {type, id}; `included` fills it in.
                    (
                        "SELECT a.id, p.type, p.id, p.name FROM articles a JOIN people p ON p.pk = a.author_pk ORDER BY a.id",
                        "1|people|9|John Doe\n2|people|9|John Doe"
                    ),
                    (
                        "SELECT a.title FROM people p JOIN articles a ON a.author_pk = p.pk WHERE p.id = '9' ORDER BY a.id",
                        "JSON:API, a specification for building APIs in JSON\nsecond"
                    ),
                    ("SELECT type, self_link FROM articles WHERE id = '2'", "article|http://example.com/articles/2"),
                ]),
            FeedCase(
                source: .corpus("jsonapi/data_and_included-single_resource.json"), map: "Mappings/jsonapi.map",
                counts: ["articles": 1, "people": 2, "comments": 2, "articles_comments": 2],
                rows: [
                    ("SELECT p.first_name, p.last_name, p.twitter FROM articles a JOIN people p ON p.pk = a.author_pk", "Dan|Gebhardt|dgeb"),
                    (
                        "SELECT c.id, c.body FROM articles_comments j JOIN comments c ON c.pk = j.comments_pk ORDER BY j.position",
                        "5|First!\n12|Second"
                    ),
                    // Comment 5's author people/2 is not included: a stub holding only its key.
                    ("SELECT p.id, p.first_name IS NULL FROM comments c JOIN people p ON p.pk = c.author_pk WHERE c.id = '5'", "2|1"),
                    ("SELECT c.id FROM people p JOIN comments c ON c.author_pk = p.pk WHERE p.id = '9'", "12"),
                ]),
            FeedCase(
                source: .corpus("usgs/earthquakes.json"), map: "Mappings/usgs-earthquakes.map",
                counts: ["earthquakes": 1707],
                rows: [
                    // `mag` 2 is an integer in the JSON.
                    (
                        "SELECT magnitude, time, longitude, latitude, depth FROM earthquakes WHERE id = 'ci37868143'",
                        "2.0|2018-02-07T01:26:13.840Z|-118.6671667|34.4945|26.49"
                    ),
                    (
                        "SELECT id, magnitude, place, time, alert FROM earthquakes ORDER BY magnitude DESC LIMIT 1",
                        "us1000chhc|6.4|22km NNE of Hualian, Taiwan|2018-02-06T15:50:42.400Z|green"
                    ),
                    // 69 features send an integer `mag`; no float has a zero fraction.
                    ("SELECT count(*) FROM earthquakes WHERE magnitude = CAST(magnitude AS INTEGER)", "69"),
                    ("SELECT count(*), sum(tsunami), count(felt) FROM earthquakes WHERE alert IS NOT NULL", "12|1|8"),
                    ("SELECT count(felt) FROM earthquakes", "127"),
                ]),
        ]

        @Test(arguments: feeds)
        func importsExactRows(_ feed: FeedCase) throws { try feed.expectImportsExactRows() }

        @Test(arguments: feeds)
        func reimportChangesNothing(_ feed: FeedCase) throws { try feed.expectReimportChangesNothing() }

        @Test(needsPostgres, arguments: feeds)
        func postgresHoldsTheGraphSQLiteHolds(_ feed: FeedCase) throws { try feed.expectTheSameGraphOnBothStores() }

        @Test func earthquakeFeedKeepsItsMetadata() throws {
            let dir = TemporaryDirectory()
            let store = dir.path("quakes.sqlite")
            let feed = try #require(Corpus.file("usgs/earthquakes.json")).path
            #expect(try EndToEnd.importFeed(feed, map: "Mappings/usgs-earthquakes.map", store: store).status == 0)
            #expect(try FeedCase.meta(store, "generatedAt") == "2018-02-07T01:49:14.000Z")
            #expect(try FeedCase.meta(store, "count") == "1707")
            #expect(try FeedCase.meta(store, "bbox") == "[-179.6445,-65.8617,-2.79,178.8275,83.0422,573.76]")
        }
    }
}
