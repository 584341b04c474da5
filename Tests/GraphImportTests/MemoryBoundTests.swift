@testable import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// Users change `seenIn` only when a value of theirs changes, so the markers an import writes and
/// puts back are visible; posts are deleted when the feed no longer holds them.
private let memoryMap = """
    records at $[*] as Post
    entity Post
      key id
      delete missing
      id : Int
      title : String
      author <- user : User
      tags : [Tag] inverse posts
      quotes <- quoted : Post? inverse quotedBy
      replyTo <- reply_to : Post? inverse replies
    entity User
      key id
      id : Int
      name : String?
      followers : Int?
      seenIn : Int onchange run
    entity Tag
      key name
      name : String
    """

private func post(_ id: Int, user: Int, name: String = "n", followers: Int = 1, tags: [String] = [], quoted: String? = nil, replyTo: Int? = nil)
    -> String
{
    let tagJSON = tags.map { #"{"name":"\#($0)"}"# }.joined(separator: ",")
    var json = #"{"id":\#(id),"title":"t\#(id)","user":{"id":\#(user),"name":"\#(name)","followers":\#(followers)},"tags":[\#(tagJSON)]"#
    if let quoted { json += #","quoted":\#(quoted)"# }
    if let replyTo { json += #","reply_to":\#(replyTo)"# }
    return json + "}"
}

/// A feed that meets the same objects far apart and links to an object by id before it is given.
private let baseFeed =
    "["
    + [
        post(1, user: 5, followers: 10, tags: ["a", "b"]), post(2, user: 6, tags: ["b"]), post(3, user: 7, tags: ["c"]),
        post(4, user: 5, followers: 11, tags: ["a"], replyTo: 99), post(5, user: 8, quoted: post(1, user: 5, followers: 12, tags: ["a", "b"])),
        post(6, user: 6, tags: ["b", "a"]), post(7, user: 5, followers: 12, tags: []),
    ].joined(separator: ",") + "]"

/// Every case where the run must remember an object: the base feed, the same feed again (nothing
/// changes), then one where user 6 changes and changes back (net unchanged: its marker is put
/// back), user 7 changes for good, post 3's tags change, post 2 is gone and the stub 99 is given
/// in full.
private let feeds: [String] = [
    baseFeed,
    baseFeed,
    "["
        + [
            post(1, user: 6, name: "x", tags: ["a", "b"]), post(99, user: 7, name: "y", tags: ["d"]), post(3, user: 7, name: "y", tags: ["c", "d"]),
            post(4, user: 5, followers: 12, tags: ["a"], replyTo: 99), post(5, user: 8, quoted: post(1, user: 6, tags: ["a", "b"])),
            post(6, user: 6, tags: ["b", "a"]), post(7, user: 5, followers: 12, tags: []),
        ].joined(separator: ",") + "]",
]

/// A hook that refuses post 13, so that its record is undone under `--skip-invalid`.
private let refuseThirteen: @Sendable (ObjectValues) throws(HookFailure) -> Void = { post throws(HookFailure) in
    if post["title"] == .text("t13") { throw HookFailure("no 13") }
}

/// One store: the SQLite writer's object memory (PostgreSQL reads each batch from the store).
@Suite("Objects that leave memory during a run")
struct MemoryBoundTests {
    /// Everything the store holds, in an order that does not depend on row ids.
    private func dump(_ fixture: EngineFixture) throws -> [[String]] {
        try fixture.rows("SELECT 'post', id, title, (SELECT id FROM users WHERE pk = author_pk), inserted_run, changed_run FROM posts ORDER BY id")
            + fixture.rows("SELECT 'user', id, name, followers, seen_in, inserted_run, changed_run FROM users ORDER BY id")
            + fixture.rows("SELECT 'tag', name, inserted_run, changed_run FROM tags ORDER BY name")
            + fixture.rows(
                "SELECT 'tags', p.id, t.name, j.position FROM posts_tags j JOIN posts p ON p.pk = j.posts_pk JOIN tags t ON t.pk = j.tags_pk ORDER BY 2, 4")
    }

    private func counts(_ summary: ImportSummary) -> [String] {
        summary.entities.map { "\($0.name) \(summary.countsWithDeletions(of: $0.name))" }
    }

    /// A run that keeps one object per entity in memory must do and count exactly what a run that
    /// keeps them all does: objects leave memory after nearly every record here.
    @Test func keepingOneObjectInMemoryGivesTheSameStoreAndCounts() throws {
        let whole = try EngineFixture(map: memoryMap)
        let bounded = try EngineFixture(map: memoryMap)
        var small = ImportOptions()
        small.objectsInMemory = 1
        var summaries: [[String]] = []
        for feed in feeds {
            let expected = try whole.importJSON(feed)
            let summary = try bounded.importJSON(feed, options: small)
            #expect(counts(summary) == counts(expected))
            #expect(summary.changed == expected.changed)
            #expect(summary.deletions.map(\.sampleKeys) == expected.deletions.map(\.sampleKeys))
            #expect(try dump(bounded) == dump(whole))
            summaries.append(counts(summary))
        }
        // And what they both did is right, not merely the same.
        // Post 99 is a stub: linked to by id, inserted with its key only.
        #expect(summaries[0] == ["Post [8, 0, 0, 0, 0]", "User [4, 0, 0, 0, 0]", "Tag [3, 0, 0, 0, 0]"])
        #expect(summaries[1] == ["Post [0, 0, 7, 0, 0]", "User [0, 0, 4, 0, 0]", "Tag [0, 0, 3, 0, 0]"])
        // Updated: post 1 (new author), the stub 99 (given in full), post 3 (tags); post 2 deleted.
        // User 6 changed and changed back: unchanged, its seen_in put back; user 7 changed.
        #expect(summaries[2] == ["Post [0, 3, 4, 0, 1]", "User [0, 1, 3, 0, 0]", "Tag [1, 0, 3, 0, 0]"])
        #expect(try bounded.rows("SELECT id, seen_in FROM users ORDER BY id") == [["5", "1"], ["6", "1"], ["7", "3"], ["8", "1"]])
    }

    /// Objects last changed by different runs, changed and changed back after leaving memory:
    /// each gets its own markers back (they are kept once per distinct list, not per object).
    @Test func eachObjectGetsItsOwnMarkersBackAfterLeavingMemory() throws {
        var results: [[[String]]] = []
        for objectsInMemory in [1, ImportOptions.defaultObjectsInMemory] {
            let fixture = try EngineFixture(map: memoryMap)
            var options = ImportOptions()
            options.objectsInMemory = objectsInMemory
            let posts = [post(1, user: 1, name: "a"), post(2, user: 2, name: "a")]
            _ = try fixture.importJSON("[" + posts.joined(separator: ",") + "]", options: options)
            _ = try fixture.importJSON("[" + [posts[0], post(2, user: 2, name: "b")].joined(separator: ",") + "]", options: options)
            let changedAndBack = [post(1, user: 1, name: "x"), post(2, user: 2, name: "y"), post(1, user: 1, name: "a"), post(2, user: 2, name: "b")]
            let summary = try fixture.importJSON("[" + changedAndBack.joined(separator: ",") + "]", options: options)
            #expect(counts(summary)[1] == "User [0, 0, 2, 0, 0]")
            results.append(try fixture.rows("SELECT id, name, seen_in, changed_run FROM users ORDER BY id"))
        }
        #expect(results[0] == [["1", "'a'", "1", "1"], ["2", "'b'", "2", "2"]])
        #expect(results[1] == results[0])
    }

    /// Under `--skip-invalid` with a hook, a record is undone in memory too; an object read back
    /// from the store in the undone record must keep what the run did to it before.
    @Test func undoneRecordKeepsTheFateOfAnObjectThatLeftMemory() throws {
        var hooks = ImportHooks()
        hooks.beforeSave["Post"] = refuseThirteen
        let feed = "[" + [post(11, user: 5, followers: 1), post(12, user: 6), post(13, user: 5, followers: 2), post(14, user: 7)].joined(separator: ",") + "]"
        var counts: [[String]] = []
        var dumps: [[[String]]] = []
        for objectsInMemory in [1, ImportOptions.defaultObjectsInMemory] {
            let fixture = try EngineFixture(map: memoryMap)
            var options = ImportOptions(skipInvalid: true)
            options.objectsInMemory = objectsInMemory
            var skipped: [Int] = []
            let summary = try fixture.importJSON(feed, hooks: hooks, options: options) { skipped.append($0.recordIndex) }
            #expect(skipped == [2])
            counts.append(self.counts(summary))
            dumps.append(try dump(fixture))
        }
        #expect(counts[0] == counts[1])
        #expect(counts[0] == ["Post [3, 0, 0, 1, 0]", "User [3, 0, 0, 0, 0]", "Tag [0, 0, 0, 0, 0]"])
        #expect(dumps[0] == dumps[1])
    }
}

@Suite("A fate packed in a byte")
struct PackedFateTests {
    /// Every fate the writer can make comes back whole from its byte (and its digests, kept
    /// apart), and no fate packs to 0, the byte of an object not met.
    @Test func everyFateComesBackFromItsByte() {
        let digests = ObjectFate.Digests(original: 0xDEAD_BEEF, final: 7)
        var bytes = Set<UInt8>()
        for status in [KnownObject.Status.referenced, .inserted, .touched] {
            for listChanged in [false, true] {
                for markersWritten in [false, true] {
                    for changedDigests in [nil, digests] {
                        for stubState in [StubState.none, .stub, .completed] {
                            let fate = ObjectFate(
                                status: status, listChanged: listChanged, markersWritten: markersWritten, changedDigests: changedDigests,
                                stubState: stubState)
                            #expect(fate.packed != 0)
                            bytes.insert(fate.packed)
                            #expect(ObjectFate(packed: fate.packed, digests: { digests }) == fate)
                        }
                    }
                }
            }
        }
        #expect(bytes.count == 72)
        #expect(ObjectFate(packed: 0, digests: { digests }) == nil)
    }

    /// Only a change that stays makes the fate carry digests: "unchanged" is decided by the values.
    @Test func digestsAreKeptOnlyForAnObjectWhoseValuesChanged() {
        let object = KnownObject(pk: 1, values: [.integer(1), .text("a")], status: .referenced)
        object.status = .touched
        object.keepOriginal(ignoring: [], markerColumns: [])
        #expect(object.fate(ignoring: []).changedDigests == nil)
        #expect(object.fate(ignoring: []).isNetUnchanged)
        object.values[1] = .text("b")
        let changed = object.fate(ignoring: [])
        #expect(changed.changedDigests?.original == object.originalDigest)
        #expect(changed.changedDigests?.final == object.digest(ignoring: []))
        #expect(!changed.isNetUnchanged)
        object.values[1] = .text("a")
        #expect(object.fate(ignoring: []).isNetUnchanged)
    }
}

@Suite("What an object was, kept before its first write")
struct KeptOriginalTests {
    /// A touched object never written is unchanged without a digest taken; the digest and markers
    /// are kept at the first write only (a second call keeps them), and only for touched objects.
    @Test func theOriginalIsKeptOnceAndOnlyForATouchedObject() {
        let object = KnownObject(pk: 1, values: [.text("a"), .integer(5)], status: .referenced)
        object.storedChangedRun = .integer(3)
        object.status = .touched
        #expect(object.originalDigest == nil)
        #expect(object.fate(ignoring: [1]).isNetUnchanged)
        object.keepOriginal(ignoring: [1], markerColumns: [1])
        #expect(object.originalDigest == object.digest(ignoring: [1]))
        #expect(object.originalMarkers == [.integer(5), .integer(3)])
        object.values = [.text("b"), .integer(9)]
        object.keepOriginal(ignoring: [1], markerColumns: [1])
        #expect(object.originalMarkers == [.integer(5), .integer(3)])
        #expect(!object.fate(ignoring: [1]).isNetUnchanged)
        // Written back (the marker column aside): unchanged against what was kept first.
        object.values = [.text("a"), .integer(9)]
        #expect(object.fate(ignoring: [1]).isNetUnchanged)

        // Markers kept from before the object left memory stay; an inserted object keeps nothing.
        let reread = KnownObject(pk: 2, values: [.text("a"), .integer(7)], status: .touched)
        reread.originalMarkers = [.integer(5), .integer(3)]
        reread.keepOriginal(ignoring: [1], markerColumns: [1])
        #expect(reread.originalMarkers == [.integer(5), .integer(3)])
        let inserted = KnownObject(pk: 3, values: [.text("a"), .integer(5)], status: .inserted)
        inserted.keepOriginal(ignoring: [1], markerColumns: [1])
        #expect(inserted.originalDigest == nil && inserted.originalMarkers == nil)
    }
}

@Suite("The filter of keys inserted into a table that began empty")
struct KeyFilterTests {
    /// A miss means "certainly never inserted" and skips the query: it must never be wrong.
    @Test func neverMissesAnInsertedKeyAndRarelyClaimsAnotherOne() {
        var filter = KeyFilter()
        let inserted = (0..<200_000).map { ObjectKey(values: [.integer(Int64($0) * 7)]) }
        for key in inserted { filter.insert(key) }
        #expect(inserted.allSatisfy { filter.mightContain($0) })
        let others = (0..<100_000).map { ObjectKey(values: [.text("other \($0)")]) }
        let claimed = others.filter { filter.mightContain($0) }.count
        #expect(claimed < 1000)  // 2^23 bits, 3 probes, 200k keys: about 0.03% expected
        #expect(!KeyFilter().mightContain(inserted[0]))
    }
}
