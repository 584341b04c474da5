@testable import GraphImport
import Foundation
import GraphImportJSON
import GraphImportTestSupport
import Testing

/// Drafting from the slot table (`ImportOptions.readsSlotTable`, issue 34's step 2) gives the
/// drafts, the errors and the store that drafting from the tree gives, whatever the map reads.
@Suite("Drafting from the slot table")
struct SlotDraftingTests {
    /// Every record of `json` through the reading thread's pipeline, read as a tree or into the
    /// table: each record's index, path, routed entity and draft or error, as text.
    static func drafts(map: String, json: String, slots: Bool, skipsMalformedLines: Bool = false, hooks: ImportHooks = ImportHooks()) throws
        -> [String]
    {
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        let reader = plan.recordReader(source: BytesSource(Array(json.utf8)), projections: plan.projections(hooks: hooks), format: .auto)
        var builder = DraftBuilder(plan: plan, hooks: EntityHooks.bind(hooks, to: plan))
        builder.readsSlots = slots
        let pipeline = RecordPipeline(reader: reader, builder: builder, routes: plan.routes, skipsMalformedLines: skipsMalformedLines)
        defer { pipeline.stop() }
        var lines: [String] = []
        while let item = pipeline.next(isCancelled: nil) {
            switch item {
            case .records(let records):
                for record in records {
                    // Without content digests: a draft from the table has a slot digest where the
                    // tree's has a drafted one (SlotDigestTests).
                    let draft = record.draft.map { $0?.withoutDigests }
                    lines.append("\(record.index) \(record.path) \(String(describing: record.routedEntity)) \(draft)")
                }
            case .end(let captured, _, let extrasKeys, let outcomes):
                lines.append("end \(captured.sorted { $0.key < $1.key }) \(extrasKeys) \(outcomes)")
                return lines
            case .failure(let error):
                lines.append("failure \(error)")
                return lines
            }
        }
        return lines
    }

    /// Asserts that both ways draft `json` alike, and returns the drafts.
    @discardableResult
    static func expectSame(
        map: String, json: String, skipsMalformedLines: Bool = false, hooks: ImportHooks = ImportHooks(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        let tree = try drafts(map: map, json: json, slots: false, skipsMalformedLines: skipsMalformedLines, hooks: hooks)
        let table = try drafts(map: map, json: json, slots: true, skipsMalformedLines: skipsMalformedLines, hooks: hooks)
        #expect(tree.count == table.count, sourceLocation: sourceLocation)
        for (treeLine, tableLine) in zip(tree, table) where treeLine != tableLine {
            Issue.record("tree:  \(treeLine)\ntable: \(tableLine)", sourceLocation: sourceLocation)
            break
        }
        return tree
    }

    @Test(arguments: [
        ("Mappings/tweets.map", "Samples/tweets.json"), ("Mappings/tweets.map", "Samples/tweets.jsonl"),
        ("Mappings/issues.map", "Samples/issues.json"), ("Mappings/questions.map", "Samples/questions.json"),
    ])
    func theRepositorysSamplesDraftAlike(_ sample: (map: String, feed: String)) throws {
        let map = try String(contentsOf: repositoryRoot.appendingPathComponent(sample.map), encoding: .utf8)
        let feed = try String(contentsOf: repositoryRoot.appendingPathComponent(sample.feed), encoding: .utf8)
        let drafts = try Self.expectSame(map: map, json: feed)
        #expect(drafts.count > 2)
    }

    static let attributesMap = """
        records at $[*] as Post
        entity Post
          key id
          id : Int
          title : String?
          score : Double? check range(0, 5)
          posted <- created_at : Date? | iso8601
          tier : String? missing "free"
          lang : String? missing reject
          flag : Bool? null keep
          deep <- a.b : String?
          first <- name, title : String?
          author <- user : User?
        entity User
          key id
          id : Int
          name : String?
        """

    /// Present, absent, null and refused values, a value of the wrong kind, a repeated key, and
    /// the reads the table does not answer yet (two keys, fallbacks, a nested object).
    @Test func attributesDraftAlikeWhateverTheirValue() throws {
        let feed = #"""
            [
              {"id": 1, "title": "a", "score": 4.5, "created_at": "2024-01-02T03:04:05Z", "lang": "en", "flag": true,
               "a": {"b": "deep"}, "name": "n", "user": {"id": 7, "name": "u"}, "other": [1, 2]},
              {"id": 2, "title": null, "score": null, "created_at": null, "lang": null, "flag": null, "a": null, "user": null},
              {"id": 3, "title": "t\u00e9\n\"x\"", "lang": "de", "a": {}, "user": {"id": 8}},
              {"id": 4, "lang": "fr", "score": 9},
              {"id": 5, "lang": "fr", "created_at": "yesterday"},
              {"id": 6, "title": 12, "lang": "fr"},
              {"id": 7},
              {"id": "8", "lang": "x", "title": "one", "title": "two"},
              {"lang": "x"},
              {"id": 9007199254740993, "lang": "x", "score": 1e0}
            ]
            """#
        let drafts = try Self.expectSame(map: Self.attributesMap, json: feed)
        #expect(drafts.filter { $0.contains("failure(") }.count >= 4, "\(drafts)")
    }

    /// Objects a to-one leads to, owned or keyed, two levels down, beside a key standing for its
    /// object, a null, an empty string and a value of the wrong kind; the objects of a to-many's
    /// array, owned or keyed, with `$index`, nested, and its bare values.
    @Test func nestedObjectsDraftAlike() throws {
        let map = """
            records at $[*] as Post
            entity Post
              key id
              id : Int
              author <- user : User?
              pin : Pin?
              replies : [Post]
              history : [Change]
              tags : [Tag]
            entity Change owned
              field : String
              pos <- $index : Int
              by : User?
            entity Tag
              key name
              name <- $ : String
            entity Pin owned
              note : String?
              by : User?
            entity User
              key id
              id : Int
              name : String?
              home <- place : Place?
            entity Place
              key code
              code : String
              label : String? missing reject
            """
        let feed = #"""
            [
              {"id": 1, "user": {"id": 7, "name": "u", "place": {"code": "b", "label": "Berlin"}},
               "pin": {"note": "n", "by": {"id": 8, "place": {"code": "p", "label": null}}},
               "replies": [{"id": 2, "user": {"id": 9, "name": "r"}}, {"id": 11, "replies": [{"id": 12, "user": {"id": 13}}]}],
               "history": [{"field": "a", "by": {"id": 7, "name": "again"}}, {"field": "b", "by": 9}], "tags": ["x", "y"]},
              {"id": 3, "user": 7, "pin": null, "replies": []},
              {"id": 4, "user": "", "pin": {"by": 8}},
              {"id": 5, "user": {"id": 10, "place": {"code": "x"}}, "history": [{"field": null}]},
              {"id": 8, "replies": [null]},
              {"id": 9, "replies": [{"id": 14, "user": {"id": 15, "place": {"code": "y"}}}], "history": [{"by": 7}]},
              {"id": 6, "user": [1]},
              {"id": 7, "user": {"name": "keyless"}}
            ]
            """#
        let drafts = try Self.expectSame(map: map, json: feed)
        #expect(drafts.filter { $0.contains("failure(") }.count >= 5, "\(drafts)")
    }

    /// Keyed records with `$key`, records chosen by a discriminator, filtered routes and bare values.
    @Test func everyKindOfRouteDraftsAlike() throws {
        let keyed = """
            records at $.users{*} as User
            entity User
              key login
              login <- $key : String
              name : String?
            """
        try Self.expectSame(map: keyed, json: #"{"users": {"ann": {"name": "Ann"}, "bob": {}, "cy": {"name": null}}}"#)
        let chosen = """
            records at $[*] by type
              1 -> Cat
              2 -> Dog at pet
              true -> ignore
            entity Cat
              key name
              name : String
            entity Dog
              key name
              name : String
            """
        try Self.expectSame(
            map: chosen, json: #"[{"type": 1, "name": "tom"}, {"type": 2, "pet": {"name": "rex"}}, {"type": true}, {"type": 1}]"#)
        let bare = """
            records at tags[*] as Tag
            entity Tag
              key name
              name <- $ : String
            """
        try Self.expectSame(map: bare, json: #"{"tags": ["a", "b", "a"]}"#)
    }

    /// A malformed line of JSON Lines, skipped or ending the input, and a document cut short.
    @Test(arguments: [false, true])
    func malformedInputEndsOrIsSkippedAlike(_ skips: Bool) throws {
        let lines = "{\"id\": 1, \"title\": \"a\", \"lang\": \"en\"}\n{\"id\": 2, \"title\": }\n{\"id\": 3, \"lang\": \"de\"}\n"
        let drafts = try Self.expectSame(map: Self.attributesMap, json: lines, skipsMalformedLines: skips)
        #expect(drafts.contains { $0.hasPrefix(skips ? "1 " : "failure") }, "\(drafts)")
        try Self.expectSame(map: Self.attributesMap, json: #"[{"id": 1, "lang": "en"}, {"id": 2, "title": "ab"#, skipsMalformedLines: skips)
    }

    /// The engine's switch: an import with the table leaves the store the tree's import leaves,
    /// the refused records skipped alike.
    @Test func anImportThroughTheTableStoresWhatTheTreeStores() throws {
        let feed = try String(contentsOf: repositoryRoot.appendingPathComponent("Samples/tweets.json"), encoding: .utf8)
        let map = try String(contentsOf: repositoryRoot.appendingPathComponent("Mappings/tweets.map"), encoding: .utf8)
        func imported(slots: Bool) throws -> [[String]] {
            let fixture = try EngineFixture(map: map)
            var options = ImportOptions(skipInvalid: true)
            options.readsSlotTable = slots
            try fixture.importJSON(feed, options: options)
            let tables = try fixture.rows(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'graphimport!_%' ESCAPE '!' ORDER BY name")
            // Every column but the content digest: a table's object has a slot digest where the
            // tree's has a drafted one (SlotDigestTests).
            return try tables.flatMap { table in
                // Each name as `rows` shows it, an SQL literal ('id'), made an identifier.
                let columns = try fixture.rows("SELECT name FROM pragma_table_info(\(table[0]))").map { "\"\($0[0].dropFirst().dropLast())\"" }
                    .filter { $0 != "\"\(Naming.contentDigest)\"" }
                return try [[table[0]]] + fixture.rows("SELECT \(columns.joined(separator: ", ")) FROM \(table[0]) ORDER BY 1, 2")
            }
        }
        let tree = try imported(slots: false)
        #expect(tree.count > 10)
        #expect(try imported(slots: true) == tree)
    }

    /// How drafting `json` from the table went: the objects drafted from their slots, the trees
    /// made of them, and the records whose tree choosing the route made.
    static func trees(map: String, json: String, hooks: ImportHooks = ImportHooks()) throws -> (drafted: Int, made: Int, records: Int) {
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        let reader = plan.recordReader(source: BytesSource(Array(json.utf8)), projections: plan.projections(hooks: hooks), format: .auto)
        var builder = DraftBuilder(plan: plan, hooks: EntityHooks.bind(hooks, to: plan))
        builder.readsSlots = true
        var slots = JSONSlots()
        var records = 0
        while let record = try reader.next(into: &slots) {
            let routed = plan.routes.route(takingRecordIn: slots, matchedBy: record.patternIndex)
            if routed.tree != nil { records += 1 }
            guard let route = routed.route else { continue }
            if builder.readsRoot {
                builder.takeRootValues(
                    reader.captured, documents: reader.capturedDocuments, captures: reader.captureCount, document: record.documentIndex)
            }
            _ = try? builder.draft(record: record, route: plan.routes[route], slots: slots, tree: routed.tree)
        }
        return (builder.objectsDraftedFromSlots, builder.objectTreesMade, records)
    }

    /// A tweet's every read is the table's: no tree is made of a tweet, its user, its hashtags,
    /// its mentions or its retweet, and the drafts are the tree's.
    @Test func aTweetIsDraftedWithNoTree() throws {
        let map = try String(contentsOf: repositoryRoot.appendingPathComponent("Mappings/tweets.map"), encoding: .utf8)
        let feed = try String(contentsOf: repositoryRoot.appendingPathComponent("Samples/tweets.json"), encoding: .utf8)
        let drafts = try Self.expectSame(map: map, json: feed)
        let trees = try Self.trees(map: map, json: feed)
        #expect(trees.drafted > drafts.count * 2, "\(trees)")
        #expect(trees.made == 0 && trees.records == 0, "\(trees)")
    }

    /// Paths of several keys to a to-one and a to-many, followed in the table: present, absent,
    /// with a null, `""`, a number or an array on the way, and with no tree made for them.
    @Test func pathsOfSeveralKeysAreFollowedInTheTable() throws {
        let map = """
            records at $[*] as Post
            entity Post
              key id
              id : Int
              author <- meta.by.user : User?
              tags <- meta.tags : [Tag]
            entity User
              key id
              id : Int
            entity Tag
              key name
              name : String
            """
        let feed = #"""
            [
              {"id": 1, "meta": {"by": {"user": {"id": 7}}, "tags": [{"name": "a"}, "b"]}},
              {"id": 2, "meta": {"by": {"user": 8}}},
              {"id": 3, "meta": {"by": null, "tags": null}},
              {"id": 4, "meta": ""},
              {"id": 5},
              {"id": 6, "meta": {"by": {}}},
              {"id": 7, "meta": {"by": 3}},
              {"id": 8, "meta": [1]},
              {"id": 9, "meta": {"tags": {"name": "c"}}},
              {"id": 10, "meta": {"by": {"user": {"id": "x"}}}}
            ]
            """#
        let drafts = try Self.expectSame(map: map, json: feed)
        #expect(drafts.filter { $0.contains("failure(") }.count == 4, "\(drafts)")
        let trees = try Self.trees(map: map, json: feed)
        #expect(trees.drafted >= 13 && trees.made == 0, "\(trees)")
    }

    /// Every read that takes an object's tree still gets it, made from the object's slot (or the
    /// record's, made by routing): key handlers, `extras`, a `where` route, `@parent`, link
    /// attributes, `each`, `unkeyed skip`, polymorphic members and a two-key attribute.
    @Test func readsThatNeedTheTreeStillGetIt() throws {
        var hooks = ImportHooks()
        hooks.keyHandlers["Post"] = [
            "color": { value, values throws(HookFailure) in
                guard case .string(let text) = value else { throw HookFailure("not a colour") }
                values["title"] = .text(text.uppercased())
            }
        ]
        let handled = """
            records at $[*] as Post
            entity Post
              key id
              id : Int
              title : String?
              author <- user : User?
            entity User
              key id
              id : Int
            """
        let handledFeed = #"[{"id": 1, "color": "red", "user": {"id": 2}}, {"id": 3, "color": 4}, {"id": 5}]"#
        try Self.expectSame(map: handled, json: handledFeed, hooks: hooks)
        // The post needs its tree for its key handler; its user does not.
        #expect(try Self.trees(map: handled, json: handledFeed, hooks: hooks) == (4, 3, 0))

        let extras = """
            records at $[*] as Post
            entity Post
              key id
              extras rest
              id : Int
              author <- user : User?
            entity User
              key id
              extras more
              id : Int
            """
        let extrasFeed = #"[{"id": 1, "x": [1, {"y": null}], "user": {"id": 2, "z": "é"}}, {"id": 3}]"#
        try Self.expectSame(map: extras, json: extrasFeed)
        // `extras` keeps the whole object, whose node numbers no member: the user is the tree's.
        #expect(try Self.trees(map: extras, json: extrasFeed) == (2, 2, 0))

        let filtered = """
            records at $[*] where kind = "post" as Post
            records at $[*] as Note
            entity Post
              key id
              id : Int
            entity Note
              key id
              id : Int
            """
        let filteredFeed = #"[{"kind": "post", "id": 1}, {"kind": "note", "id": 2}, {"id": 3}]"#
        try Self.expectSame(map: filtered, json: filteredFeed)
        // Routing made each record's tree, which drafting took instead of making another.
        #expect(try Self.trees(map: filtered, json: filteredFeed) == (3, 0, 3))

        let parent = """
            records at $[*] as Order
            entity Order
              key id
              id : Int
              lines : [Line]
            entity Line
              key orderId, n
              orderId <- @parent.id : Int
              n : Int
            """
        let parentFeed = #"[{"id": 1, "lines": [{"n": 1}, {"n": 2}]}, {"id": 2, "lines": [{"n": 1}]}]"#
        try Self.expectSame(map: parent, json: parentFeed)
        #expect(try Self.trees(map: parent, json: parentFeed) == (5, 5, 0))

        let elements = """
            records at $[*] as Post
            entity Post
              key id
              id : Int
              mentions : [User]
                link start <- indices[0] : Int
              members : [User] each user unkeyed skip
              fans : [User] unkeyed skip
              by <- author : User? unkeyed skip
              items : [Item | Note] by kind
                "item" -> Item
                "note" -> Note
              deep <- a.b : String?
            entity User
              key id
              id : Int
            entity Item
              key id
              id : Int
            entity Note
              key id
              id : Int
            """
        let elementsFeed = #"""
            [
              {"id": 1, "mentions": [{"id": 2, "indices": [0, 4]}], "members": [{"user": {"id": 3}}, {"role": "x"}],
               "fans": [{"id": 4}, {}, null], "author": {"name": "keyless"}, "items": [{"kind": "item", "id": 5}, {"kind": "note", "id": 6}],
               "a": {"b": "deep"}},
              {"id": 7, "author": {"id": 8}, "items": [{"kind": "other", "id": 9}]},
              {"id": 10, "mentions": [{"id": 11}]}
            ]
            """#
        let drafts = try Self.expectSame(map: elements, json: elementsFeed)
        #expect(drafts.filter { $0.contains("failure(") }.count == 2, "\(drafts)")
    }
}

extension ObjectDraft {
    /// The draft with no content digest in it, nor in the objects it nests.
    var withoutDigests: ObjectDraft {
        func stripped(_ link: LinkDraft) -> LinkDraft {
            if case .object(let nested) = link { return .object(nested.withoutDigests) }
            return link
        }
        var draft = self
        draft.contentDigest = nil
        draft.toOne = toOne.map { $0.map(stripped) }
        draft.toMany = toMany.map { $0?.map(stripped) }
        return draft
    }
}
