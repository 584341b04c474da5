@testable import GraphImport
import GraphImportJSON
import GraphImportTestSupport
import Testing

/// `init` on generated shapes rather than on one payload each: objects keyed by data at any size
/// and with any kind of value, object-valued ids, bare values under a wrapper, records keyed by a
/// field of an inlined object. Each draft must pass the sample check and import every record of
/// its sample (`MapDraftingTests.drafted`), and no data value may become a path step or a column.
@Suite("Drafting a map from generated shapes")
struct MapDraftingShapeTests {
    /// A small deterministic generator, so that a failure names a case that runs again the same.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
        mutating func hex(_ count: Int) -> String { String((0..<count).map { _ in Array("0123456789abcdef")[int(0...15)] }) }
    }

    /// Member names shaped like values, by kind; `index` makes each distinct within one object.
    static let dataNames: [(kind: String, make: @Sendable (inout Generator, Int) -> String)] = [
        ("integer", { g, i in String(g.int(1...999) * 1000 + i) }),
        ("date-time", { _, i in "2024-04-\(10 + i / 48)T\(10 + (i % 48) / 4):\(15 * (i % 4))0:00+02:00" }),
        ("date", { _, i in "20\(10 + i / 12)-\(String(format: "%02d", 1 + i % 12))-01" }),
        ("version", { _, i in "\(i / 10).\(i % 10).\(i % 3)" }),
        ("v-version", { _, i in "v\(i).0" }),
        ("uuid", { g, i in "\(g.hex(8))-\(g.hex(4))-\(g.hex(4))-\(g.hex(4))-\(g.hex(8))\(String(format: "%04x", i))" }),
        ("hash", { g, i in "\(g.hex(6))\(String(format: "%04x", i))a1" }),
        ("coded id", { g, i in "Q\(g.int(10...99))\(i)" }),
        ("prefixed id", { g, i in "tt\(g.int(1000...9999))\(i)" }),
    ]

    /// Field names as APIs write them, none shaped like data.
    static let fieldNames = [
        "id", "name", "created_at", "updatedAt", "p95", "p99", "h264", "x86", "line1", "address2", "md5", "sha256", "utf8",
        "deadbeef", "production", "directing", "watts", "ids", "v", "Q", "type", "__typename", "_links", "html_url", "userId",
        "kind", "x", "y", "z", "lat", "lng", "en", "en-US", "ETag", "etag", "2fa_enabled", "mp3", "ID3", "face", "cafe",
    ]

    @Test func memberNamesShapedLikeDataAreTold() {
        var generator = Generator(state: 7)
        for (kind, make) in Self.dataNames {
            for index in 0..<40 {
                let name = make(&generator, index)
                #expect(DataKeyShape.looksLikeData(name), "\(kind): \(name)")
            }
        }
        for name in Self.fieldNames { #expect(!DataKeyShape.looksLikeData(name), "\(name)") }
        // snake_case and camelCase words, with or without a digit, as field names are built.
        let words = ["user", "count", "total", "reply", "to", "screen", "name", "is", "open", "max", "score", "level"]
        for _ in 0..<200 {
            let parts = (0..<generator.int(1...3)).map { _ in words[generator.int(0...words.count - 1)] }
            var name = generator.int(0...1) == 0 ? parts.joined(separator: "_") : parts[0] + parts.dropFirst().map { $0.capitalized }.joined()
            if generator.int(0...2) == 0 { name += String(generator.int(0...9)) }
            #expect(!DataKeyShape.looksLikeData(name), "\(name)")
        }
    }

    /// Values of each kind a member of an object keyed by data can hold.
    static let memberValues: [(kind: String, make: @Sendable (Int) -> String)] = [
        ("integer", { i in String(i * 7) }),
        ("number", { i in "\(i).5" }),
        ("string", { i in "\"v\(i)\"" }),
        ("object", { i in #"{"title": "t\#(i)", "score": \#(i)}"# }),
        ("object with an id", { i in #"{"id": \#(i + 1), "title": "t\#(i)"}"# }),
    ]

    @Test(arguments: [1, 2, 5, 49, 51, 130])
    func objectsKeyedByDataAtAnySize(_ size: Int) throws {
        var generator = Generator(state: UInt64(size))
        for (nameKind, makeName) in Self.dataNames {
            for (valueKind, makeValue) in Self.memberValues {
                let names = (0..<size).map { makeName(&generator, $0) }
                let members = names.enumerated().map { "\"\($0.element)\": \(makeValue($0.offset))" }.joined(separator: ", ")
                let json = #"{"status": "ok", "report": {"series": {\#(members)}}}"#
                let (draft, _) = try MapDraftingTests.drafted(json)
                let context = "\(nameKind) names, \(valueKind) values, \(size) members:\n\(draft.text)"
                #expect(draft.recordsPaths == ["report.series{*}"], "\(context)")
                #expect(draft.records == size, "\(context)")
                // No member name of the data is a path step, an entity or a column of the draft.
                for name in names.prefix(5) {
                    #expect(!draft.text.contains(name), "\(context)")
                }
            }
        }
    }

    @Test func anEntityFieldKeyedByDataIsKeptWholeNotSpreadIntoColumns() throws {
        let json = #"[{"id": 1, "history": {"2024-01-01": 3, "2024-01-02": 4}}, {"id": 2, "history": {"2024-01-03": 5}}]"#
        let (draft, fixture) = try MapDraftingTests.drafted(json, entity: "Page")
        let lines = MapDraftingTests.lines(draft)
        #expect(lines.contains { $0.hasPrefix("history : JSON") }, "\(draft.text)")
        #expect(!draft.text.contains("2024"), "\(draft.text)")
        #expect(try fixture.value("SELECT count(*) FROM pages") == "2")
    }

    @Test func objectValuedIdsKeyTheirHolderFromInside() throws {
        var generator = Generator(state: 3)
        // Several objects per id (the same movie in two credits): one row each.
        for count in [1, 2, 9] {
            let ids = (0..<count).map { _ in generator.int(1...1_000_000) }
            let credits = (ids + ids.prefix(2)).map { id in
                #"{"character": "c\#(id)", "movie": {"title": "m\#(id)", "ids": {"slug": "m-\#(id)", "tmdb": \#(id), "imdb": "tt\#(id)"}}}"#
            }
            let json = #"{"cast": [\#(credits.joined(separator: ", "))]}"#
            let (draft, fixture) = try MapDraftingTests.drafted(json)
            let lines = MapDraftingTests.lines(draft)
            // The credits wrap the movies: they are the records (`wrapperElementsWithoutAKeyedOwner…`).
            #expect(lines.contains("records at cast[*] as Cast"), "\(draft.text)")
            #expect(lines.contains("key idsTmdb"), "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM movies") == String(Set(ids).count))
        }
        // An id object with an id-like member and a constant: the id-like member keys.
        let videos = (1...4).map { #"{"id": {"kind": "youtube#video", "videoId": "v\#($0)"}, "snippet": {"title": "t\#($0)"}}"# }
        let (draft, fixture) = try MapDraftingTests.drafted(
            #"{"kind": "searchListResponse", "items": [\#(videos.joined(separator: ","))]}"#, entity: "Video")
        #expect(MapDraftingTests.lines(draft).contains("key idVideoId"), "\(draft.text)")
        #expect(try fixture.value("SELECT count(*) FROM videos") == "4", "\(draft.text)")
    }

    @Test func bareValuesUnderAWrapperAreRecordsWhenNothingElseIsKeyed() throws {
        for count in [1, 3, 40] {
            let numbers = (0..<count).map { String(21_000_000 + $0 * 3) }.joined(separator: ", ")
            let names = (0..<count).map { "\"user\($0)\"" }.joined(separator: ", ")
            let json = #"{"items": [\#(numbers)], "profiles": [\#(names)]}"#
            let (draft, fixture) = try MapDraftingTests.drafted(json)
            #expect(draft.recordsPaths == ["items[*]", "profiles[*]"], "\(draft.text)")
            #expect(draft.records == 2 * count)
            #expect(try fixture.value("SELECT count(*) FROM profiles") == String(count), "\(draft.text)")
        }
        // Beside keyed objects, an array of numbers is a field of theirs, not records.
        let (draft, _) = try MapDraftingTests.drafted(#"{"ids": [1, 2], "users": [{"id": 1}, {"id": 2}]}"#)
        #expect(draft.recordsPaths == ["users[*]"], "\(draft.text)")
    }

    @Test func recordsWithoutAnIdAreKeyedByAUniqueFieldOfAnInlinedObject() throws {
        var generator = Generator(state: 11)
        for count in [2, 5, 30] {
            let series = (0..<count).map { index in
                let job = ["api", "db", "web"][generator.int(0...2)]
                return #"{"metric": {"__name__": "up", "job": "\#(job)", "instance": "host\#(index):9100"}, "values": [[1564308009.8, "1"]]}"#
            }
            let (draft, fixture) = try MapDraftingTests.drafted("[\(series.joined(separator: ", "))]", entity: "Series")
            let lines = MapDraftingTests.lines(draft)
            #expect(lines.contains("key metricInstance"), "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM series") == String(count))
        }
    }
}

/// A draft never merges objects of different kinds into one row: objects alike in shape (a shared
/// envelope) whose discriminator or whose names for one id differ stay apart, while one kind met in
/// several places (an author and an assignee) is still one entity.
@Suite("Drafting never merges what differs")
struct MapDraftingMergeTests {
    /// Rows in every entity table of the draft.
    static func rows(_ fixture: EngineFixture) throws -> Int {
        try fixture.plan.entities.reduce(0) { $0 + Int(try fixture.value("SELECT count(*) FROM \"\($1.table)\"") ?? "0")! }
    }

    /// `{"id", "href", "uri", "type", "name", "external_urls"}`: the envelope several kinds share.
    static func envelope(_ kind: String, _ id: Int, type: Bool, sameName: Bool) -> String {
        let name = sameName ? "n\(id)" : "\(kind) \(id)"
        return #"{"id": "\#(id)", "href": "https://api.example/\#(kind)s/\#(id)", "uri": "ex:\#(kind):\#(id)", "# + (type ? #""type": "\#(kind)", "# : "")
            + #""name": "\#(name)", "external_urls": {"web": "https://example/\#(kind)/\#(id)"}}"#
    }

    @Test(arguments: [(true, true), (true, false), (false, false)])
    func kindsThatShareAnEnvelopeAreNotMerged(_ typed: Bool, _ sameName: Bool) throws {
        var generator = MapDraftingShapeTests.Generator(state: typed ? 5 : 9)
        for count in [2, 6, 20] {
            var ids: [String: Set<Int>] = ["playlist": [], "album": [], "artist": []]
            let items = (0..<count).map { index in
                // Ids from a small range, so that kinds share ids.
                let (p, a, r) = (generator.int(1...4), generator.int(1...4), generator.int(1...4))
                ids["playlist"]!.insert(p)
                ids["album"]!.insert(a)
                ids["artist"]!.insert(r)
                let album =
                    String(Self.envelope("album", a, type: typed, sameName: sameName).dropLast())
                    + #", "label": "l\#(a)", "artist": \#(Self.envelope("artist", r, type: typed, sameName: sameName))}"#
                return #"{"added_id": "w\#(index)", "playlist": \#(Self.envelope("playlist", p, type: typed, sameName: sameName)), "album": \#(album)}"#
            }
            let json = #"{"items": [\#(items.joined(separator: ", "))]}"#
            let (draft, fixture) = try MapDraftingTests.drafted(json, entity: "Save")
            let expected = count + ids.values.reduce(0) { $0 + $1.count }
            #expect(try Self.rows(fixture) == expected, "typed \(typed), same names \(sameName), \(count) items:\n\(draft.text)")
            #expect(draft.text.contains("not merged with the objects at"), "\(draft.text)")
        }
    }

    @Test func oneKindInSeveralPlacesIsStillOneEntity() throws {
        var generator = MapDraftingShapeTests.Generator(state: 17)
        var users: Set<Int> = []
        let issues = (0..<12).map { index in
            let (author, assignee) = (generator.int(1...5), generator.int(1...5))
            users.formUnion([author, assignee])
            let user = { (id: Int) in #"{"id": \#(id), "login": "u\#(id)", "avatar_url": "https://a/\#(id)", "site_admin": false}"# }
            return #"{"id": \#(100 + index), "title": "t", "author": \#(user(author)), "assignee": \#(user(assignee))}"#
        }
        let (draft, fixture) = try MapDraftingTests.drafted("[\(issues.joined(separator: ", "))]", entity: "Issue")
        #expect(draft.entities.count == 2, "\(draft.text)")
        #expect(try Self.rows(fixture) == 12 + users.count, "\(draft.text)")
    }
}

/// Drafted tables follow the shipped maps' convention (plural, snake case) and never need quotes
/// in sqlite3 or psql, whatever the entity is called.
@Suite("Drafted table names")
struct DraftedTableNameTests {
    @Test func pluralSnakeCaseAndNeverAWordThatNeedsQuotes() {
        #expect(DraftNames.table(entity: "PullRequest", taken: []) == "pull_requests")
        #expect(DraftNames.table(entity: "Reply", taken: []) == "replies")
        #expect(DraftNames.table(entity: "Status", taken: []) == "statuses")
        #expect(DraftNames.table(entity: "Series", taken: []) == "series")
        #expect(DraftNames.table(entity: "Person", taken: []) == "people")
        #expect(DraftNames.table(entity: "User", taken: ["users"]) == "users_2")
        // Every word that needs quotes, as an entity name, and in the plural form too.
        for word in Naming.wordsNeedingQuotes {
            for entity in [DraftNames.entity(word), DraftNames.entity(word + "s"), DraftNames.entity(String(word.dropLast()))] {
                let table = DraftNames.table(entity: entity, taken: [])
                #expect(!Naming.needsQuotes(table), "\(entity) -> \(table)")
            }
        }
    }

    @Test func aDraftOfUsersAndOrdersQueriesWithoutQuotes() throws {
        let json = #"[{"id": 1, "user": {"id": 7, "login": "ann"}, "order": {"id": 3, "total": 2}, "values": [{"id": 1, "v": 2}]}]"#
        let (draft, fixture) = try MapDraftingTests.drafted(json, entity: "Commit")
        for entity in fixture.plan.entities { #expect(!Naming.needsQuotes(entity.table), "\(draft.text)") }
        #expect(try fixture.value("SELECT count(*) FROM commits JOIN users ON users.pk = commits.user_pk") == "1", "\(draft.text)")
    }
}

extension DraftedTableNameTests {
    @Test func checkWarnsOfATableThatNeedsQuotesAndOffersOne() throws {
        let plan = try ImportPlan.compile(
            text:
                "entity User table user\n  key id\n  id : Int\nentity Tag table \"Tag List\"\n  key id\n  id : Int\nentity Post table posts\n  key id\n  id : Int\n",
            fileName: "m.map")
        let warnings = plan.warnings.map(\.description)
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.first?.contains("entity User's table 'user' must be quoted in a query (\"user\"): it is an SQL keyword") == true)
        #expect(warnings.first?.contains("`entity User table users`") == true)
        #expect(warnings.last?.contains("'Tag List' must be quoted") == true, "\(warnings)")
    }
}

extension MapDraftingMergeTests {
    /// Elements named only by a natural name whose content differs per owner (an order's tax
    /// lines by `title`) are not keyed by that name, which would let one order's lines overwrite
    /// another's; elements whose name always means the same content (labels) still are.
    @Test func aNameWithDifferentContentInDifferentPlacesKeysNothing() throws {
        var generator = MapDraftingShapeTests.Generator(state: 23)
        for count in [2, 5, 20] {
            let orders = (0..<count).map { index in
                let vat = generator.int(1...999)
                return #"{"id": \#(index + 1), "tax_lines": [{"title": "VAT", "price": "\#(vat).00"}, {"title": "City", "price": "\#(index).50"}], "#
                    + #""labels": [{"name": "paid", "color": "green"}]}"#
            }
            let (draft, fixture) = try MapDraftingTests.drafted("[\(orders.joined(separator: ", "))]", entity: "Order")
            // Every order's tax lines keep their own prices: owned by their order.
            let prices = try fixture.rows("SELECT owner_id, price FROM tax_lines WHERE title = 'VAT' ORDER BY owner_id").map { $0[1] }
            #expect(prices.count == count, "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM tax_lines") == String(2 * count), "\(draft.text)")
            #expect(!MapDraftingTests.lines(draft).contains("key title"), "\(draft.text)")
            // Labels mean the same everywhere: still one entity keyed by name.
            #expect(try fixture.value("SELECT count(*) FROM labels") == "1", "\(draft.text)")
        }
    }
}

extension MapDraftingMergeTests {
    /// An address is a key as a name is: elements whose `url` comes with different content in
    /// different owners (a licence URL with each work's own dates) are not keyed by it, so no
    /// owner's elements overwrite another's; elements whose address always means the same
    /// content (topics) still are.
    @Test func anAddressWithDifferentContentInDifferentPlacesKeysNothing() throws {
        var generator = MapDraftingShapeTests.Generator(state: 41)
        for count in [2, 5, 20] {
            let works = (0..<count).map { index in
                let delay = index * 1_000 + generator.int(0...998)
                return #"{"id": \#(index + 1), "licenses": [{"url": "https://l.test/tdm", "version": "vor", "delay": \#(delay)}, "#
                    + #"{"url": "https://l.test/tdm", "version": "tdm", "delay": \#(delay + 1)}], "#
                    + #""topics": [{"url": "https://t.test/\#(index % 3)", "label": "topic \#(index % 3)"}]}"#
            }
            let (draft, fixture) = try MapDraftingTests.drafted("[\(works.joined(separator: ", "))]", entity: "Work")
            #expect(MapDraftingTests.lines(draft).contains("entity License owned table licenses"), "\(draft.text)")
            // Every work keeps its own licences.
            #expect(try fixture.value("SELECT count(DISTINCT delay) FROM licenses") == String(2 * count), "\(draft.text)")
            // Topics mean the same everywhere: one row per address.
            #expect(try fixture.value("SELECT count(*) FROM topics") == String(min(count, 3)), "\(draft.text)")
        }
    }
}

extension MapDraftingMergeTests {
    /// What a name comes with includes what its nested objects and lists hold: elements named
    /// alike in different owners whose settings differ only inside (a `tmp` volume from a
    /// different source in each pod) stay with their owner; a tag met at different offsets in
    /// each owner (`indices`, where it occurs) is still one tag.
    @Test func aNameWhoseNestedContentDiffersKeysNothingButOffsetsDoNotCount() throws {
        var generator = MapDraftingShapeTests.Generator(state: 43)
        for count in [2, 5, 20] {
            let pods = (0..<count).map { index in
                let start = generator.int(0...50)
                return #"{"id": \#(index + 1), "volumes": [{"name": "tmp", "source": {"path": "/p/\#(index)"}}, "#
                    + #"{"name": "cfg", "args": ["--n", "\#(index)"]}], "#
                    + #""tags": [{"text": "t\#(index % 2)", "indices": [\#(start), \#(start + 3)]}]}"#
            }
            let (draft, fixture) = try MapDraftingTests.drafted("[\(pods.joined(separator: ", "))]", entity: "Pod")
            #expect(!MapDraftingTests.lines(draft).contains("key name"), "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM volumes") == String(2 * count), "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM tags") == String(min(count, 2)), "\(draft.text)")
        }
    }
}

extension MapDraftingMergeTests {
    /// Elements without an identity in a list of an entity's objects (a pod's containers, an
    /// order's lines) are an owned entity: one row per owner and position, so that alike elements
    /// of two owners stay two rows. Lists inside those elements, keyed objects inside them (`init`
    /// links no owned object), and elements whose fields sit under keys a bare path
    /// cannot hold stay whole.
    @Test func keylessElementsOfAnEntityAreOwnedByIt() throws {
        var generator = MapDraftingShapeTests.Generator(state: 47)
        for count in [1, 3, 12] {
            var lines = 0
            let orders = (0..<count).map { index in
                let items = (0..<generator.int(0...3)).map { position in
                    lines += 1
                    return #"{"sku": "s\#(position)", "qty": \#(generator.int(1...9)), "notes": ["n"]}"#
                }
                return #"{"id": \#(index + 1), "lines": [\#(items.joined(separator: ", "))], "#
                    + #""fields": [{"f:spec": {"k:{\"n\": \#(index)}": {}}}], "#
                    + #""shares": [{"at": \#(index), "by": {"id": \#(index % 2), "name": "u\#(index % 2)"}}, {"at": 0, "note": "x"}]}"#
            }
            let (draft, fixture) = try MapDraftingTests.drafted("[\(orders.joined(separator: ", "))]", entity: "Order")
            let text = MapDraftingTests.lines(draft)
            guard lines > 0 else { continue }
            #expect(text.contains("entity Line owned table lines"), "\(draft.text)")
            #expect(text.contains { $0.hasPrefix("lines : [Line]") }, "\(draft.text)")
            #expect(text.contains { $0.hasPrefix("notes : JSON") }, "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM lines") == String(lines), "\(draft.text)")
            #expect(!text.contains { $0.hasPrefix("entity Field") }, "\(draft.text)")
            // A keyed object inside the elements (`by`) is kept whole; the elements stay owned.
            #expect(text.contains("entity Share owned table shares"), "\(draft.text)")
            #expect(text.contains { $0.hasPrefix("by : JSON?") }, "\(draft.text)")
            #expect(!text.contains { $0.hasPrefix("entity By") }, "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM shares") == String(2 * count), "\(draft.text)")
        }
    }
}

extension MapDraftingMergeTests {
    /// An id-like field whose values are keys of one entity in the sample (`author_id` beside the
    /// side-loaded users) links to it; one whose values are no entity's keys, or the keys of two
    /// entities alike, stays a value.
    @Test func anIdFieldLinksToTheOneEntityWhoseKeysItHolds() throws {
        var generator = MapDraftingShapeTests.Generator(state: 53)
        for count in [2, 5, 20] {
            let users = (0..<count).map { #"{"id": "u\#($0)", "name": "n\#($0)"}"# }
            let shelves = (0..<count).map { #"{"id": "s\#($0)", "place": "p\#($0)"}"# }
            let posts = (0..<count).map { index in
                #"{"id": "p\#(index)", "author_id": "u\#(generator.int(0...(count - 1)))", "board_id": "b\#(index)", "#
                    + #""shelf_id": "s\#(index)", "tags": [{"id": "s\#(index)", "label": "l\#(index)"}]}"#
            }
            let json =
                #"{"data": [\#(posts.joined(separator: ", "))], "includes": {"users": [\#(users.joined(separator: ", "))], "#
                + #""shelves": [\#(shelves.joined(separator: ", "))]}}"#
            let (draft, fixture) = try MapDraftingTests.drafted(json)
            let lines = MapDraftingTests.lines(draft)
            #expect(lines.contains { $0.hasPrefix("authorId <- author_id : User") }, "\(draft.text)")
            #expect(lines.contains("boardId <- board_id : String"), "\(draft.text)")
            // `shelf_id` holds keys of shelves and of tags alike: no link.
            #expect(lines.contains("shelfId <- shelf_id : String"), "\(draft.text)")
            let column = Naming.foreignKey(relationship: "authorId")
            #expect(try fixture.value("SELECT count(*) FROM records WHERE \(column) IS NOT NULL") == String(count), "\(draft.text)")
        }
    }
}

extension MapDraftingMergeTests {
    /// An id-only reference (`{"id": 12}`) links to the entity whose full objects the sample holds
    /// elsewhere under the same kind of name; an id it names that the sample lacks is a stub row.
    @Test func idOnlyReferencesLinkToTheEntityOfTheirFullObjects() throws {
        var generator = MapDraftingShapeTests.Generator(state: 29)
        for count in [2, 6, 15] {
            var ids = Set(1...count)
            let activities = (1...count).map { id in
                let previous = generator.int(1...count + 3)
                ids.insert(previous)
                return #"{"id": \#(id), "name": "a\#(id)", "distance": \#(id * 3), "previous_activity": {"id": \#(previous)}}"#
            }
            let (draft, fixture) = try MapDraftingTests.drafted(#"{"activities": [\#(activities.joined(separator: ", "))]}"#)
            #expect(draft.entities == ["Activity"], "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM activities") == String(ids.count), "\(draft.text)")
        }
    }
}

extension MapDraftingMergeTests {
    /// Elements that wrap a keyed object and describe the link (`{"added_at": …, "track": {…}}`)
    /// become a to-many with `each` and `link` attributes: the wrapped objects are an entity, and
    /// each element's own fields are kept on its link.
    @Test func wrapperElementsBecomeEachWithLinkAttributes() throws {
        var generator = MapDraftingShapeTests.Generator(state: 31)
        for count in [1, 4, 12] {
            var links = 0
            var tracks: Set<Int> = []
            let playlists = (1...count).map { id in
                let chosen = Set((0..<generator.int(1...5)).map { _ in generator.int(1...20) })
                links += chosen.count
                tracks.formUnion(chosen)
                let items = chosen.sorted().map { track in
                    #"{"added_at": "2024-0\#(1 + track % 9)-01T00:00:00Z", "is_local": \#(track % 2 == 0), "extra": {"k": \#(track)}, "#
                        + #""track": {"id": "t\#(track)", "name": "n\#(track)", "duration_ms": \#(track * 1000)}}"#
                }
                return #"{"id": "p\#(id)", "name": "list \#(id)", "tracks": {"total": \#(chosen.count), "items": [\#(items.joined(separator: ", "))]}}"#
            }
            let (draft, fixture) = try MapDraftingTests.drafted("[\(playlists.joined(separator: ", "))]", entity: "Playlist")
            let lines = MapDraftingTests.lines(draft)
            #expect(lines.contains { $0.hasPrefix("tracksItems <- tracks.items : [Track] each track") }, "\(draft.text)")
            #expect(lines.contains { $0.hasPrefix("link addedAt <- added_at : Date | iso8601") }, "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM tracks") == String(tracks.count), "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM playlists_tracks_items WHERE added_at IS NOT NULL") == String(links))
        }
    }
}

extension MapDraftingShapeTests {
    /// A response is not keyed by its address or a name in it (a websocket `url`, `kind`): the
    /// objects inside it are the records, and its scalars are offered as `meta`. The same field
    /// still keys records that are array elements.
    @Test func aResponseEnvelopeIsKeyedByAnIdOnly() throws {
        let json =
            #"{"ok": true, "url": "wss://example.test/ws/1", "kind": "rtm", "self": {"id": "U1", "name": "bot"}, "#
            + #""team": {"id": "T1", "name": "t", "domain": "d"}}"#
        let (draft, _) = try MapDraftingTests.drafted(json)
        #expect(draft.recordsPaths == ["self", "team"], "\(draft.text)")
        #expect(MapDraftingTests.lines(draft).contains("# meta url <- url : String?"), "\(draft.text)")
        let (elements, _) = try MapDraftingTests.drafted(#"[{"url": "https://a.test/1", "title": "x"}, {"url": "https://a.test/2", "title": "y"}]"#)
        #expect(MapDraftingTests.lines(elements).contains("key url"), "\(elements.text)")
    }
}

extension MapDraftingShapeTests {
    /// JSON Lines of mixed kinds: the draft takes every object record and passes over the values
    /// that are not objects (counted as ignored), so that it imports its whole sample. One store,
    /// as `MapDraftingTests.drafted`: the draft is under test.
    @Test func jsonLinesOfMixedKindsImportEveryObject() throws {
        var generator = Generator(state: 37)
        let others = [#""text""#, "7", "[1, 2]", "true", "[]"]
        for count in [2, 5, 20] {
            var lines: [String] = []
            for id in 1...count {
                lines.append(#"{"id": \#(id), "name": "n\#(id)"}"#)
                if generator.int(0...1) == 0 { lines.append(others[generator.int(0...others.count - 1)]) }
            }
            lines.insert(others[generator.int(0...others.count - 1)], at: 1)
            let json = lines.joined(separator: "\n") + "\n"
            let draft = try MapDrafter.draft(source: BytesSource(Array(json.utf8)), entity: "Thing")
            let fixture = try EngineFixture(map: draft.text)
            let report = try SampleCheck(plan: fixture.plan).run(source: BytesSource(Array(json.utf8)))
            #expect(report.diagnostics.map(\.description) == [], "\(draft.text)")
            let summary = try fixture.importJSON(json)
            #expect(summary.skippedRecords == 0, "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM things") == String(count), "\(draft.text)")
        }
    }
}

extension MapDraftingShapeTests {
    /// Listings that wrap keyed records are not keyed by a field of their envelope that happens
    /// to differ (`data.dist`): the keyed objects inside are the records. The envelope's field
    /// keys the records only when nothing inside has an identity (Prometheus' series).
    @Test func aListingIsNotKeyedByAFieldOfItsEnvelopeWhenItsChildrenAreKeyed() throws {
        for count in [2, 3, 6] {
            let listings = (1...count).map { listing in
                let children = (1...listing).map { #"{"kind": "t3", "data": {"id": "p\#(listing)_\#($0)", "title": "t"}}"# }
                return #"{"kind": "Listing", "data": {"dist": \#(listing), "children": [\#(children.joined(separator: ", "))]}}"#
            }
            let (draft, _) = try MapDraftingTests.drafted("[\(listings.joined(separator: ", "))]")
            #expect(draft.recordsPaths == ["$[*].data.children[*].data"], "\(draft.text)")
        }
    }
}

extension MapDraftingMergeTests {
    /// List elements that wrap one keyed object beside a few scalars of their own, in a response
    /// no keyed object holds (`{"cast": [{"character": …, "movie": {"ids": {…}}}]}`), are the
    /// records, linked to the wrapped object and keyed by its key and their own fields: two roles
    /// in one movie stay two rows, and equal elements are one.
    @Test func wrapperElementsWithoutAKeyedOwnerAreKeyedByWhatTheyWrapAndTheirOwnFields() throws {
        var generator = MapDraftingShapeTests.Generator(state: 59)
        for count in [1, 3, 10] {
            let ids = Array(Set((0..<count * 3).map { _ in generator.int(1...1_000_000) }).prefix(count))
            var roles = Set(ids.map { "\($0)/c\($0)" })
            let credits = (ids + ids.prefix(2)).enumerated().map { position, id in
                let character = position < ids.count || position % 2 == 0 ? "c\(id)" : "d\(id)"
                roles.insert("\(id)/\(character)")
                return #"{"character": "\#(character)", "movie": {"title": "m\#(id)", "ids": {"slug": "m-\#(id)", "tmdb": \#(id)}}}"#
            }
            let (draft, fixture) = try MapDraftingTests.drafted(#"{"cast": [\#(credits.joined(separator: ", "))]}"#)
            let lines = MapDraftingTests.lines(draft)
            #expect(lines.contains("records at cast[*] as Cast"), "\(draft.text)")
            #expect(lines.contains("key movieIdsTmdb, character"), "\(draft.text)")
            #expect(lines.contains { $0.hasPrefix("movie : Movie") }, "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM casts WHERE character IS NOT NULL") == String(roles.count), "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM movies") == String(ids.count), "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM casts WHERE movie_pk IS NOT NULL") == String(roles.count), "\(draft.text)")
        }
    }

    /// An object whose id sits in a `metadata`-like child (`{"metadata": {"uid": …}, "spec": {…}}`)
    /// is the record, keyed by the path into the child; the child's fields are its own, and its
    /// keyless lists are owned by it. A child under any other name (`user`) keys nothing of its
    /// holder: a post is not keyed by its author's id.
    @Test func anIdInAMetadataChildKeysTheObjectHoldingIt() throws {
        var generator = MapDraftingShapeTests.Generator(state: 61)
        for count in [1, 4, 11] {
            var containers = 0
            let items = (0..<count).map { index in
                let list = (0..<generator.int(1...3)).map { position in
                    containers += 1
                    return #"{"name": "c\#(position)", "image": "img:\#(generator.int(1...4))"}"#
                }
                return #"{"metadata": {"name": "pod-\#(index)", "uid": "\#(generator.hex(8))-\#(index)", "labels": {"app": "a\#(index % 2)"}}, "#
                    + #""spec": {"containers": [\#(list.joined(separator: ", "))]}, "status": {"phase": "Running"}}"#
            }
            let (draft, fixture) = try MapDraftingTests.drafted(
                #"{"kind": "List", "metadata": {"resourceVersion": "7"}, "items": [\#(items.joined(separator: ", "))]}"#, entity: "Pod")
            let lines = MapDraftingTests.lines(draft)
            #expect(draft.recordsPaths == ["items[*]"], "\(draft.text)")
            #expect(lines.contains("key metadataUid"), "\(draft.text)")
            #expect(!lines.contains { $0.hasPrefix("entity Metadata") }, "\(draft.text)")
            #expect(lines.contains { $0.hasPrefix("specContainers <- spec.containers : [Container]") }, "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM pods") == String(count), "\(draft.text)")
            #expect(try fixture.value("SELECT count(*) FROM containers") == String(containers), "\(draft.text)")

            let posts = (0..<count).map { #"{"text": "t\#($0)", "score": \#($0), "user": {"id": \#($0 % 2), "name": "u\#($0 % 2)"}}"# }
            let (byUser, _) = try MapDraftingTests.drafted(#"{"posts": [\#(posts.joined(separator: ", "))]}"#)
            #expect(!MapDraftingTests.lines(byUser).contains("key userId"), "\(byUser.text)")
        }
    }
}

extension MapDraftingMergeTests {
    /// A nested object met once each under its address (a reply's parent post, each parent a
    /// different one) is part of its holder, unless its shape is that of objects keyed by the
    /// same address elsewhere (the feed's posts): then it is one entity with them. A nested
    /// object of another shape under an address stays inlined.
    @Test func anAddressMetOnceIsAnEntityWhenItsShapeIsOneElsewhere() throws {
        var generator = MapDraftingShapeTests.Generator(state: 67)
        for count in [2, 5, 13] {
            let likes = (0..<count).map { _ in generator.int(0...9) }
            // The feed's posts repeat (so their address keys them); each parent is met once.
            let feed = (0..<count).map { index in
                let shown = index % max(1, count - 1)
                let post = #"{"uri": "at://p/\#(shown)", "text": "t\#(shown)", "likes": \#(likes[shown])}"#
                let parent = #"{"uri": "at://q/\#(index)", "text": "q\#(index)", "likes": \#(likes[index])}"#
                let source = #"{"uri": "https://s.test/\#(index)", "label": "l\#(index)"}"#
                return #"{"post": \#(post), "reply": {"parent": \#(parent)}, "source": \#(source)}"#
            }
            let (draft, fixture) = try MapDraftingTests.drafted(#"{"feed": [\#(feed.joined(separator: ", "))]}"#)
            #expect(draft.recordsPaths.sorted() == ["feed[*].post", "feed[*].reply.parent"], "\(draft.text)")
            let shownPosts = Set((0..<count).map { $0 % max(1, count - 1) }).count + count
            #expect(try fixture.value("SELECT count(*) FROM posts") == String(shownPosts), "\(draft.text)")
            #expect(!MapDraftingTests.lines(draft).contains { $0.hasPrefix("entity Source") }, "\(draft.text)")

            // The same below keyed records: each post's parent post, met once each.
            let posts = (0..<count).map { index in
                #"{"uri": "at://p/\#(index)", "text": "t\#(index)", "likes": \#(likes[index]), "#
                    + #""reply": {"parent": {"uri": "at://q/\#(index)", "text": "q\#(index)", "likes": 1}}}"#
            }
            let (nested, nestedFixture) = try MapDraftingTests.drafted(#"{"posts": [\#(posts.joined(separator: ", "))]}"#)
            #expect(MapDraftingTests.lines(nested).contains { $0.hasPrefix("replyParent <- reply.parent : Post") }, "\(nested.text)")
            #expect(try nestedFixture.value("SELECT count(*) FROM posts") == String(2 * count), "\(nested.text)")
        }
    }
}
