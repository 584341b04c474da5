// read-example: the graph read back as objects, in one short program.
//
// It imports an embedded feed into a temporary store, then opens the store with its map as an
// ObjectGraph: fetches a tweet by key and tweets by a condition, reads attributes by name,
// follows relationships both ways (the map's `inverse` names), decodes into Swift types, deletes
// by the map's delete rules and lists the changes since a run. Run it with `swift run read-example`.

import Foundation
import GraphImport

let map = """
    records at $[*] as Tweet
    entity Tweet
      key id
      id : Int
      text : String
      lang : String?
      createdAt <- created_at : Date | iso8601
      author <- user : User delete cascade inverse tweets    # deleting a user deletes their tweets
      hashtags <- tags : [Hashtag] inverse tweets
    entity User
      key id
      id : Int
      handle : String
    entity Hashtag
      key text
      text : String
    """

let feed = """
    [{"id": 1, "text": "Hello, graph", "lang": "en", "created_at": "2024-05-01T10:00:00Z", "user": {"id": 7, "handle": "ann"}, "tags": ["swift", "sqlite"]},
     {"id": 2, "text": "Bonjour", "lang": "fr", "created_at": "2024-05-02T10:00:00Z", "user": {"id": 7, "handle": "ann"}, "tags": ["swift"]},
     {"id": 3, "text": "Hi there", "lang": "en", "created_at": "2024-05-03T10:00:00Z", "user": {"id": 8, "handle": "bob"}, "tags": []}]
    """

/// A tweet with its author and hashtags, as the app wants it; relationships past the depth are nil.
struct Tweet: Decodable {
    var id: Int
    var text: String
    var createdAt: Date
    var author: User?
    var hashtags: [Hashtag]?
}

struct User: Decodable {
    var handle: String
    var tweets: [Tweet]?
}

struct Hashtag: Decodable {
    var text: String
}

func readTheGraph(store: String, plan: ImportPlan) throws {
    let graph = try ObjectGraph(store: store, plan: plan)

    // One object by key; attributes by name, as stored or typed.
    guard let first = try graph.object("Tweet", key: 1) else { return }
    print("tweet 1: \(try first.string("text") ?? "") (\(try first["lang"]))")

    // Many by a condition (values are bound, never pasted into SQL), sorted, limited.
    let english = try graph.objects("Tweet", where: .equals("lang", "en"), sortedBy: [.descending("createdAt")], limit: 10)
    print("in English, newest first: \(try english.map { try $0.int("id") ?? 0 })")

    // Relationships by the map's names: a to-one, a to-many in order, and an inverse name.
    let ann = try first.relatedObject("author")
    print("author: \(try ann?.string("handle") ?? "-")")
    print("hashtags: \(try first.related("hashtags").map { try $0.string("text") ?? "" })")
    print("ann's tweets (inverse of Tweet.author): \(try ann?.related("tweets").map { try $0.int("id") ?? 0 } ?? [])")

    // Into Swift types, relationships to a depth: tweet -> author -> their tweets.
    let decoded = try first.decode(Tweet.self, depth: 2)
    print("decoded: \(decoded.text) by \(decoded.author?.handle ?? "-"), who wrote \(decoded.author?.tweets?.count ?? 0) tweets")

    // A mistyped name is an error that suggests the closest one.
    do {
        _ = try graph.objects("Tweet", sortedBy: [.ascending("createdOn")])
    } catch {
        print("error: \(error)")
    }

    // Delete by the map's delete rules, in one transaction recorded as a run: ann's tweets cascade.
    if let ann {
        let deleted = try graph.delete(ann)
        print("deleted: " + deleted.map { "\($0.entity) \($0.sampleKeys.joined(separator: ", "))" }.joined(separator: "; "))
    }

    // What the runs after run 1 (the import) changed: here, the deletion.
    try graph.changes(since: 1) { change in print(change.jsonLine) }
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("read-example-\(UUID().uuidString)")
let storePath = directory.appendingPathComponent("tweets.sqlite").path
do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let plan = try ImportPlan.compile(text: map, fileName: "tweets.map")
    _ = try GraphImporter(plan: plan).run(source: BytesSource(Array(feed.utf8)), inputName: "feed", storePath: storePath, options: ImportOptions())
    try readTheGraph(store: storePath, plan: plan)
} catch {
    print("read-example: error: \(error)")
    exit(1)
}
