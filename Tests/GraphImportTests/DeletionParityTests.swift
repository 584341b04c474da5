import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// The same maps and feeds on both stores, run after run: the same rows, the same counts (deleted
/// included), the same summaries' deletions and the same rows in `graphimport_deleted`. PostgreSQL
/// writes in small batches, so that what a run met is gathered across batches.
@Suite("Deletion: the same on SQLite and PostgreSQL", needsPostgres)
struct DeletionParityTests {
    /// Imports each feed into a fresh store of each kind and compares them after every run.
    private func expectSameOnBothStores(
        map: String, feeds: [String], dryRuns: Set<Int> = [], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let plan = try ImportPlan.compile(text: map, fileName: "parity.map")
        let sqlite = try StoreUnderTest(.sqlite)
        let postgres = try StoreUnderTest(.postgresql, batchSize: 2)
        for (number, feed) in feeds.enumerated() {
            let options = ImportOptions(dryRun: dryRuns.contains(number))
            let expected = try sqlite.importJSON(feed, plan: plan, options: options).get()
            let got = try postgres.importJSON(feed, plan: plan, options: options).get()
            #expect(got.deletionLines == expected.deletionLines, "feed \(number)", sourceLocation: sourceLocation)
            for entity in plan.entities {
                #expect(
                    got.countsWithDeletions(of: entity.name) == expected.countsWithDeletions(of: entity.name),
                    "feed \(number), \(entity.name)", sourceLocation: sourceLocation)
            }
            #expect(try postgres.rows(plan: plan) == sqlite.rows(plan: plan), "feed \(number)", sourceLocation: sourceLocation)
            #expect(try postgres.deletedRows() == sqlite.deletedRows(), "feed \(number)", sourceLocation: sourceLocation)
        }
    }

    @Test func postsAndTheirAuthorsAcrossRuns() throws {
        let map = """
            records at $[*] as Post
            entity Post
              key id
              delete missing
              id : Int
              title : String
              author <- user : User?
              replyTo <- reply_to : Post?
            entity User
              key id
              delete missing
              id : Int
            """
        func post(_ id: Int, user: Int, replyTo: Int? = nil) -> String {
            #"{"id":\#(id),"title":"t\#(id)","user":{"id":\#(user)}"# + (replyTo.map { #","reply_to":\#($0)"# } ?? "") + "}"
        }
        try expectSameOnBothStores(
            map: map,
            feeds: [
                "[" + (1...9).map { post($0, user: $0 % 3) }.joined(separator: ",") + "]",
                // Post 2 twice (as it is stored: a run that changes an object and changes it back counts
                // it as updated on PostgreSQL, unchanged on SQLite), post 7 only named.
                "[" + [post(2, user: 2), post(5, user: 2, replyTo: 7), post(9, user: 1), post(2, user: 2)].joined(separator: ",") + "]",
                "[" + [post(7, user: 4), post(5, user: 4)].joined(separator: ",") + "]",
                "[]",
                "[" + post(1, user: 1) + "]",
            ])
    }

    @Test(arguments: ["nullify", "cascade"])
    func deleteRulesAcrossRuns(rule: String) throws {
        let map = """
            records at accounts[*] as Account
            records at repos[*] as Repo
            records at issues[*] as Issue
            entity Account
              key id
              delete missing
              id : Int
              name : String
            entity Repo
              key id
              id : Int
              owner <- owner_id : Account? delete \(rule)
              watchers : [Account] delete \(rule)
            entity Issue
              key id
              id : Int
              repo <- repo_id : Repo delete cascade
            """
        try expectSameOnBothStores(
            map: map,
            feeds: [
                #"""
                {"accounts":[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"}],
                 "repos":[{"id":100,"owner_id":1,"watchers":[2,3]},{"id":101,"owner_id":2,"watchers":[1]},{"id":102,"owner_id":3}],
                 "issues":[{"id":7,"repo_id":101},{"id":8,"repo_id":102},{"id":9,"repo_id":100}]}
                """#,
                #"{"accounts":[{"id":1,"name":"renamed"},{"id":3,"name":"c"}],"repos":[],"issues":[]}"#,
                #"{"accounts":[{"id":3,"name":"c"}],"repos":[{"id":103,"owner_id":1}],"issues":[]}"#,
            ])
    }

    @Test func linesWithinTheirOrdersList() throws {
        let map = """
            records at orders[*] as Order
            entity Order
              key id
              id : Int
              lines : [Line] inverse order
            entity Line
              key orderId, line
              delete missing within order
              orderId <- @parent.id : Int
              line : Int
            """
        func order(_ id: Int, _ lines: [Int]?) -> String {
            #"{"id":\#(id)"# + (lines.map { #","lines":["# + $0.map { #"{"line":\#($0)}"# }.joined(separator: ",") + "]" } ?? "") + "}"
        }
        try expectSameOnBothStores(
            map: map,
            feeds: [
                #"{"orders":["# + [order(1, [1, 2, 3, 4]), order(2, [1, 2]), order(3, [1])].joined(separator: ",") + "]}",
                // Order 1 twice, in different batches: what its first list names is met.
                #"{"orders":["# + [order(1, [1, 2, 3]), order(2, nil), order(3, []), order(1, [1])].joined(separator: ",") + "]}",
                #"{"orders":["# + [order(2, [2]), order(4, [1])].joined(separator: ",") + "]}",
            ])
    }

    @Test func tagsWithinThePostsThatListThem() throws {
        let map = """
            records at posts[*] as Post
            entity Post
              key id
              id : Int
              tags : [Tag] inverse posts
            entity Tag
              key name
              delete missing within posts
              name : String
            """
        try expectSameOnBothStores(
            map: map,
            feeds: [
                #"{"posts":[{"id":1,"tags":["a","b"]},{"id":2,"tags":["c","d"]},{"id":3,"tags":["e"]}]}"#,
                #"{"posts":[{"id":1,"tags":["a"]},{"id":2,"tags":["b"]},{"id":3,"tags":["e"]}]}"#,
            ])
    }

    @Test func aDryRunReportsAndDeletesTheSame() throws {
        let map = """
            records at $[*] as Post
            entity Post
              key id
              delete missing
              id : Int
            """
        try expectSameOnBothStores(map: map, feeds: [#"[{"id":1},{"id":2},{"id":3}]"#, #"[{"id":2}]"#, #"[{"id":3}]"#], dryRuns: [1])
    }
}
