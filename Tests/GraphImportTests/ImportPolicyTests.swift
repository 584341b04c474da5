import GraphImport
import GraphImportMapping
import GraphImportStoreTestSupport
import GraphImportTestSupport
import Testing

/// `merge`, `link existing` and import modes, with feeds shaped like the APIs that motivate them.
@Suite("Import policies: merge, link existing, modes")
struct ImportPolicyTests {
    /// GitHub's stargazers of a repository, a page per request (`?page=2`): each page names some.
    static let stargazersMap = """
        records at $ as Repo
        entity Repo
          key id
          id : Int
          stargazers : [User] merge
        entity User
          key id
          id : Int
          login : String
        """

    static func page(_ users: [(Int, String)]) -> String {
        #"{"id": 1, "stargazers": ["# + users.map { #"{"id": \#($0.0), "login": "\#($0.1)"}"# }.joined(separator: ", ") + "]}"
    }

    static let stargazerRows = "SELECT u.login, j.position FROM repos_stargazers j JOIN users u ON u.pk = j.users_pk ORDER BY j.position"

    @Test(arguments: StoreKind.testable)
    func mergeKeepsTheStoredTargetsAndAppendsTheNewOnesInFeedOrder(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.stargazersMap)
        try store.importJSON(Self.page([(1, "ann"), (2, "bob")]))
        let second = try store.importJSON(Self.page([(4, "dan"), (2, "bob"), (3, "cy")]))
        #expect(try store.select(Self.stargazerRows) == [["ann", "0"], ["bob", "1"], ["dan", "2"], ["cy", "3"]])
        #expect(second.counts(of: "Repo") == [0, 1, 0, 0])
    }

    @Test(arguments: StoreKind.testable)
    func reimportingAMergedPageChangesNothing(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.stargazersMap)
        try store.importJSON(Self.page([(1, "ann"), (2, "bob")]))
        try store.importJSON(Self.page([(3, "cy")]))
        let again = try store.importJSON(Self.page([(3, "cy")]))
        #expect(!again.changed)
        #expect(again.counts(of: "Repo") == [0, 0, 1, 0])
        #expect(try store.select(Self.stargazerRows) == [["ann", "0"], ["bob", "1"], ["cy", "2"]])
        #expect(try store.value("SELECT changed_run FROM repos") == "2")
    }

    @Test(arguments: StoreKind.testable)
    func withoutMergeAPageReplacesTheList(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.stargazersMap.replacingOccurrences(of: " merge", with: ""))
        try store.importJSON(Self.page([(1, "ann"), (2, "bob")]))
        try store.importJSON(Self.page([(3, "cy")]))
        #expect(try store.select(Self.stargazerRows) == [["cy", "0"]])
    }

    /// Pages within one run add up, whether one batch holds them or each is written apart.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func mergeAddsUpPagesWithinOneRunToo(kind: StoreKind, batchSize: Int) throws {
        let map = Self.stargazersMap.replacingOccurrences(of: "records at $ as Repo", with: "records at $[*] as Repo")
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        let summary = try store.importJSON("[" + Self.page([(1, "ann"), (2, "bob")]) + ", " + Self.page([(3, "cy"), (1, "ann")]) + "]")
        #expect(try store.select(Self.stargazerRows) == [["ann", "0"], ["bob", "1"], ["cy", "2"]])
        #expect(summary.counts(of: "Repo") == [1, 0, 0, 0])
    }

    /// A merged page of an empty list, or of null, adds nothing and leaves the owner unchanged.
    @Test(arguments: StoreKind.testable)
    func anEmptyMergedPageAddsNothing(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.stargazersMap)
        try store.importJSON(Self.page([(1, "ann")]))
        let empty = try store.importJSON(#"{"id": 1, "stargazers": []}"#)
        let null = try store.importJSON(#"{"id": 1, "stargazers": null}"#)
        #expect(try store.select(Self.stargazerRows) == [["ann", "0"]])
        #expect(empty.counts(of: "Repo") == [0, 0, 1, 0] && null.counts(of: "Repo") == [0, 0, 1, 0])
    }

    /// Slack's channel members with a role on each link, a page at a time.
    static let membersMap = """
        records at $ as Channel
        entity Channel
          key id
          id : String
          members : [User] each user merge
            link role : String
        entity User
          key id
          id : String
        """

    static let memberRows = #"SELECT u.id, j.role, j.position FROM channels_members j JOIN "users" u ON u.pk = j.users_pk ORDER BY j.position"#

    @Test(arguments: StoreKind.testable)
    func mergeKeepsStoredLinkValuesAndTakesTheFeedsForTargetsItGives(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.membersMap)
        try store.importJSON(#"{"id": "C1", "members": [{"user": "U1", "role": "admin"}, {"user": "U2", "role": "member"}]}"#)
        let second = try store.importJSON(#"{"id": "C1", "members": [{"user": "U2", "role": "admin"}, {"user": "U3", "role": "member"}]}"#)
        #expect(try store.select(Self.memberRows) == [["U1", "admin", "0"], ["U2", "admin", "1"], ["U3", "member", "2"]])
        #expect(second.counts(of: "Channel") == [0, 1, 0, 0])
        let again = try store.importJSON(#"{"id": "C1", "members": [{"user": "U2", "role": "admin"}]}"#)
        #expect(!again.changed)
        // A changed value alone marks the owner updated, and keeps every place.
        let demoted = try store.importJSON(#"{"id": "C1", "members": [{"user": "U1", "role": "member"}]}"#)
        #expect(demoted.counts(of: "Channel") == [0, 1, 0, 0])
        #expect(try store.select(Self.memberRows) == [["U1", "member", "0"], ["U2", "admin", "1"], ["U3", "member", "2"]])
    }

    /// The rule for long lists too (past the few targets a search covers): a target named twice
    /// in one page keeps its first place and value; a later page, in the same run or the next,
    /// gives a stored target its value and adds the others after the stored ones.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func longMergedListsKeepFirstPlacesAndTakeTheLatestPagesValues(kind: StoreKind, batchSize: Int) throws {
        let map = Self.membersMap.replacingOccurrences(of: "records at $ as Channel", with: "records at $[*] as Channel")
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        func page(_ members: [(Int, String)]) -> String {
            #"{"id": "C1", "members": ["# + members.map { #"{"user": "U\#($0.0)", "role": "\#($0.1)"}"# }.joined(separator: ", ") + "]}"
        }
        try store.importJSON("[" + page((0..<20).map { ($0, "first") } + [(5, "again")]) + "]")
        try store.importJSON("[" + page([(18, "b"), (20, "b"), (20, "b again"), (21, "b")]) + ", " + page([(21, "c"), (0, "c"), (22, "c")]) + "]")
        var expected = (0..<23).map { ["U\($0)", "first", "\($0)"] }
        for (user, role) in [(0, "c"), (18, "b"), (20, "b"), (21, "c"), (22, "c")] { expected[user][1] = role }
        #expect(try store.select(Self.memberRows) == expected)
    }

    /// Sync's rule: a post names its tags by id, and only tags already stored are linked.
    static let taggedMap = """
        records at posts[*] as Post
        entity Post
          key id
          id : Int
          tags <- tag_ids : [Tag] link existing
          author <- author_id : User? link existing
        entity Tag
          key id
          id : Int
        entity User
          key id
          id : Int
        """

    @Test(arguments: StoreKind.testable)
    func linkExistingLinksStoredObjectsAndCountsTheUnknownKeysWithTheirPaths(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.taggedMap)
        try store.importJSON(#"{"posts": [{"id": 9, "tag_ids": [1]}]}"#)
        #expect(try store.value("SELECT count(*) FROM tags") == "0")
        let summary = try store.importJSON(#"{"posts": [{"id": 1, "tag_ids": [5, 6, 5], "author_id": 3}, {"id": 2, "tag_ids": [7, 8]}]}"#)
        #expect(try store.value("SELECT count(*) FROM tags") == "0")
        #expect(try store.value(#"SELECT count(*) FROM "users""#) == "0")
        // In the order first met: a post's to-ones are linked before its to-manys.
        #expect(unlinkedCounts(summary) == [["Post.author", "User", "1"], ["Post.tags", "Tag", "5"]])
        #expect(summary.unlinked[0].samples.map(\.path) == ["$.posts[0].author_id"])
        #expect(summary.unlinked[1].samples.map(\.path) == ["$.posts[0].tag_ids[0]", "$.posts[0].tag_ids[1]", "$.posts[0].tag_ids[2]"])
        #expect(summary.unlinked[1].samples.map(\.key) == ["5", "6", "5"])
        #expect(summary.counts(of: "Post") == [2, 0, 0, 0])
    }

    /// Tags are stored by another feed first; then posts link to them.
    static let tagsThenPostsMap = """
        records at tags[*] as Tag
        records at posts[*] as Post missing empty
        entity Tag
          key id
          id : Int
          name : String
        entity Post
          key id
          id : Int
          tags <- tag_ids : [Tag] link existing
          author <- author_id : Tag? link existing
        """

    static let postTags = "SELECT t.name FROM posts_tags j JOIN tags t ON t.pk = j.tags_pk ORDER BY j.position"
    static let postAuthor = "SELECT t.name FROM posts p JOIN tags t ON t.pk = p.author_pk"

    @Test(arguments: StoreKind.testable)
    func linkExistingLinksObjectsStoredBeforeOrEarlierInTheRun(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.tagsThenPostsMap)
        try store.importJSON(#"{"tags": [{"id": 1, "name": "swift"}]}"#)
        let summary = try store.importJSON(#"{"tags": [{"id": 2, "name": "sqlite"}], "posts": [{"id": 1, "tag_ids": [2, 1, 3], "author_id": 1}]}"#)
        #expect(try store.select(Self.postTags) == [["sqlite"], ["swift"]])
        #expect(try store.value(Self.postAuthor) == "swift")
        #expect(summary.unlinked.map(\.count) == [1])
        // An unknown key for a to-one links nothing: the stored link stays.
        let unknown = try store.importJSON(#"{"tags": [], "posts": [{"id": 1, "author_id": 99}]}"#)
        #expect(try store.value(Self.postAuthor) == "swift")
        #expect(unknown.counts(of: "Post") == [0, 0, 1, 0])
    }

    /// "Earlier in the run" is document order: a key met before its object, even in one batch, links nothing.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func linkExistingDoesNotLinkAnObjectTheFeedGivesLater(kind: StoreKind, batchSize: Int) throws {
        let map = Self.tagsThenPostsMap.replacingOccurrences(of: "records at tags[*] as Tag", with: "records at tags[*] as Tag missing empty")
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        let summary = try store.importJSON(#"{"posts": [{"id": 1, "tag_ids": [2], "author_id": 2}], "tags": [{"id": 2, "name": "sqlite"}]}"#)
        #expect(try store.select(Self.postTags) == [])
        #expect(try store.value("SELECT author_pk FROM posts") == "NULL")
        #expect(unlinkedCounts(summary) == [["Post.author", "Tag", "1"], ["Post.tags", "Tag", "1"]])
        // The next run finds it stored.
        let next = try store.importJSON(#"{"posts": [{"id": 1, "tag_ids": [2], "author_id": 2}]}"#)
        #expect(try store.select(Self.postTags) == [["sqlite"]])
        #expect(next.unlinked.isEmpty && next.counts(of: "Post") == [0, 1, 0, 0])
    }

    /// An object met twice in a run: a later unknown key of a to-one keeps what an earlier occurrence linked.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aLaterUnknownKeyKeepsTheToOneAnEarlierOccurrenceLinked(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.tagsThenPostsMap, batchSize: batchSize)
        let summary = try store.importJSON(
            #"{"tags": [{"id": 1, "name": "swift"}], "posts": [{"id": 1, "author_id": 1}, {"id": 1, "author_id": 98}, {"id": 1, "author_id": 99}]}"#)
        #expect(try store.value(Self.postAuthor) == "swift")
        #expect(summary.unlinked.first?.samples.map(\.path) == ["$.posts[1].author_id", "$.posts[2].author_id"])
    }

    @Test(arguments: StoreKind.testable)
    func withoutLinkExistingAnUnknownKeyMakesAStub(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: Self.taggedMap.replacingOccurrences(of: " link existing", with: ""))
        let summary = try store.importJSON(#"{"posts": [{"id": 1, "tag_ids": [5]}]}"#)
        #expect(try store.value("SELECT count(*) FROM tags") == "1")
        #expect(summary.unlinked.isEmpty)
    }

    // MARK: Modes

    static let usersMap = """
        records at $[*] as User
        entity User
          key id
          id : Int
          name : String
          team : Team?
        entity Team
          key id
          id : Int
          title : String?
        """

    static func seeded(_ kind: StoreKind, _ map: String, batchSize: Int = 5000) throws -> MappedStore {
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        try store.importJSON(#"[{"id": 1, "name": "Ann", "team": {"id": 10, "title": "Core"}}]"#)
        return store
    }

    static let changes = #"[{"id": 1, "name": "Ann B", "team": {"id": 10, "title": "Platform"}}, {"id": 2, "name": "Bob", "team": {"id": 11}}]"#

    static let users = "SELECT id, name FROM users ORDER BY id"
    static let teams = "SELECT id, title FROM teams ORDER BY id"

    static func options(_ mode: ImportMode) -> ImportOptions {
        var options = ImportOptions()
        options.mode = mode
        return options
    }

    @Test(arguments: StoreKind.testable)
    func insertOnlyLeavesStoredObjectsAndTheirTreesAsTheyAreAndCountsThemUnchanged(kind: StoreKind) throws {
        let store = try Self.seeded(kind, Self.usersMap)
        let summary = try store.importJSON(Self.changes, options: Self.options(.insert))
        #expect(try store.select(Self.users) == [["1", "Ann"], ["2", "Bob"]])
        #expect(try store.select(Self.teams) == [["10", "Core"], ["11", "NULL"]])
        #expect(summary.counts(of: "User") == [1, 0, 1, 0])
        #expect(summary.counts(of: "Team") == [1, 0, 0, 0])
    }

    @Test(arguments: StoreKind.testable)
    func updateOnlySkipsNewObjectsAndCountsThem(kind: StoreKind) throws {
        let store = try Self.seeded(kind, Self.usersMap)
        let summary = try store.importJSON(Self.changes, options: Self.options(.update))
        #expect(try store.select(Self.users) == [["1", "Ann B"]])
        #expect(try store.select(Self.teams) == [["10", "Platform"]])
        #expect(summary.counts(of: "User") == [0, 1, 0, 0])
        #expect(summary.entities.map(\.counts.notInserted) == [1, 0])
    }

    @Test(arguments: StoreKind.testable)
    func updateOnlyMakesNoStubAndReportsTheKeyAsUnlinked(kind: StoreKind) throws {
        let store = try Self.seeded(kind, Self.usersMap.replacingOccurrences(of: "  team : Team?", with: "  team <- team_id : Team?"))
        let summary = try store.importJSON(#"[{"id": 1, "name": "Ann", "team_id": 12}]"#, options: Self.options(.update))
        #expect(try store.value("SELECT count(*) FROM teams") == "0")
        #expect(summary.unlinked.map { [$0.member, String($0.count)] } == [["User.team", "1"]])
    }

    @Test(arguments: StoreKind.testable)
    func theMapsModeAppliesToItsEntityAlone(kind: StoreKind) throws {
        let store = try Self.seeded(kind, Self.usersMap.replacingOccurrences(of: "  title : String?", with: "  title : String?\n  mode insert"))
        let summary = try store.importJSON(Self.changes)
        #expect(try store.select(Self.users) == [["1", "Ann B"], ["2", "Bob"]])
        #expect(try store.select(Self.teams) == [["10", "Core"], ["11", "NULL"]])
        #expect(summary.counts(of: "Team") == [1, 0, 1, 0])
    }

    @Test(arguments: StoreKind.testable)
    func theRunsModeNarrowsTheMapsAndTwoModesThatDisagreeAllowNothing(kind: StoreKind) throws {
        let store = try Self.seeded(kind, Self.usersMap.replacingOccurrences(of: "  name : String", with: "  name : String\n  mode insert"))
        let summary = try store.importJSON(Self.changes, options: Self.options(.update))
        #expect(try store.select(Self.users) == [["1", "Ann"]])
        #expect(summary.counts(of: "User") == [0, 0, 1, 0])
        #expect(summary.entities[0].counts.notInserted == 1)
    }

    @Test(arguments: StoreKind.testable)
    func anUpdateOnlyRunDoesNotRefuseANewObjectThatLacksARequiredValue(kind: StoreKind) throws {
        let store = try Self.seeded(kind, Self.usersMap)
        let summary = try store.importJSON(#"[{"id": 3}]"#, options: Self.options(.update))
        #expect(summary.entities[0].counts.notInserted == 1)
        #expect(try store.value(#"SELECT count(*) FROM "users""#) == "1")
    }

    /// An object inserted earlier in the run counts as stored: under `insert` its first
    /// occurrence wins, whether the writer still holds it (one batch) or has written it, and when
    /// that first occurrence was a stub made for its key.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func insertOnlyKeepsTheFirstOccurrenceOfAnObjectNewInTheRun(kind: StoreKind, batchSize: Int) throws {
        let store = try Self.seeded(
            kind, Self.usersMap.replacingOccurrences(of: "  team : Team?", with: "  team : Team?\n  lead <- lead_id : Team?"), batchSize: batchSize)
        let summary = try store.importJSON(
            #"""
            [{"id": 2, "name": "Bob", "lead_id": 12, "team": {"id": 11, "title": "First"}},
             {"id": 2, "name": "Bob B", "team": {"id": 11, "title": "Second"}},
             {"id": 3, "name": "Cy", "team": {"id": 12, "title": "After its stub"}}]
            """#, options: Self.options(.insert))
        #expect(try store.select(Self.users) == [["1", "Ann"], ["2", "Bob"], ["3", "Cy"]])
        #expect(try store.select(Self.teams) == [["10", "Core"], ["11", "First"], ["12", "NULL"]])
        #expect(summary.counts(of: "User") == [2, 0, 0, 0])
        #expect(summary.counts(of: "Team") == [2, 0, 0, 0])
    }

    /// A stored object its mode leaves alone still links from the objects that name it; a new one
    /// its mode does not insert links from nothing, in a list that is replaced too.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aListInAnUpdatedObjectLinksOnlyTargetsThatExist(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(
            kind,
            map: """
                records at $[*] as Team
                entity Team
                  key id
                  id : Int
                  members : [User]
                entity User
                  key id
                  id : Int
                  name : String
                  mode update
                """, batchSize: batchSize)
        try store.importJSON(#"[{"id": 1, "members": []}]"#)
        try store.execute(#"INSERT INTO "users" (id, name, inserted_run, changed_run) VALUES (5, 'Eve', 1, 1)"#)
        let summary = try store.importJSON(#"[{"id": 1, "members": [{"id": 6, "name": "New"}, {"id": 5, "name": "Eve B"}]}]"#)
        #expect(try store.select(#"SELECT u.id, u.name, j.position FROM teams_members j JOIN "users" u ON u.pk = j.users_pk"#) == [["5", "Eve B", "0"]])
        #expect(summary.entities.map(\.counts.notInserted) == [0, 1])
        #expect(summary.counts(of: "Team") == [0, 1, 0, 0])
    }

    // MARK: What changed

    static func verbose(limit: Int = 10, dryRun: Bool = false) -> ImportOptions {
        var options = ImportOptions()
        options.changeLimit = limit
        options.dryRun = dryRun
        return options
    }

    @Test(arguments: StoreKind.testable)
    func theChangeLogShowsTheFirstObjectsOfEachEntityWithOldAndNewValuesThenACount(kind: StoreKind) throws {
        let store = try Self.seeded(kind, Self.usersMap)
        let summary = try store.importJSON(
            #"[{"id": 1, "name": "Ann B", "team": {"id": 11}}, {"id": 2, "name": "Bob"}, {"id": 3, "name": "Cy"}]"#,
            options: Self.verbose(limit: 1, dryRun: true))
        #expect(
            summary.changes == [
                EntityChanges(
                    entity: "User",
                    objects: [
                        ObjectChange(
                            key: "1", isNew: false,
                            fields: [FieldChange(name: "name", old: "'Ann'", new: "'Ann B'"), FieldChange(name: "team", old: "10", new: "11")])
                    ], more: 2),
                EntityChanges(entity: "Team", objects: [ObjectChange(key: "11", isNew: true, fields: [])], more: 0),
            ])
        #expect(try store.select(Self.users) == [["1", "Ann"]])
    }

    @Test(arguments: StoreKind.testable)
    func withoutAChangeLimitNoChangesAreKept(kind: StoreKind) throws {
        let store = try Self.seeded(kind, Self.usersMap)
        let summary = try store.importJSON(Self.changes)
        #expect(summary.changes.isEmpty)
    }

    static let castMap = """
        records at $[*] as Movie
        entity Movie
          key id
          id : Int
          title : String
          year : Int?
          director <- director_id : Person?
          cast <- cast_ids : [Person]
        entity Person
          key id
          id : Int
        """

    /// Changed values, a changed to-one (by its target's key) and a rewritten to-many (as counts),
    /// new objects (stubs too) after them; an object changed by two records shows its first old
    /// value and its last new one, whether one batch holds both or not.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func theChangeLogShowsValuesToOnesAndListsAsOnEitherStore(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.castMap, batchSize: batchSize)
        let first = #"[{"id": 1, "title": "Heat", "year": 1995, "director_id": 7, "cast_ids": [8, 9]}, {"id": 2, "title": "Up"}]"#
        try store.importJSON(first)
        let summary = try store.importJSON(
            #"""
            [{"id": 1, "title": "Heat 2", "director_id": 10, "cast_ids": [9, 8]},
             {"id": 2, "title": "Up", "cast_ids": []},
             {"id": 3, "title": "Big", "director_id": 7},
             {"id": 1, "title": "Heat 3"}]
            """#, options: Self.verbose())
        #expect(
            summary.changes == [
                EntityChanges(
                    entity: "Movie",
                    objects: [
                        ObjectChange(
                            key: "1", isNew: false,
                            fields: [
                                FieldChange(name: "title", old: "'Heat'", new: "'Heat 3'"), FieldChange(name: "director", old: "7", new: "10"),
                                FieldChange(name: "cast", old: "2 linked", new: "2 linked"),
                            ]),
                        ObjectChange(key: "3", isNew: true, fields: []),
                    ], more: 0),
                EntityChanges(entity: "Person", objects: [ObjectChange(key: "10", isNew: true, fields: [])], more: 0),
            ])
        // The same feed again changes nothing, and lists nothing.
        let again = try store.importJSON(first, options: Self.verbose())
        let unchanged = try store.importJSON(first, options: Self.verbose())
        #expect(!again.changes.isEmpty)
        #expect(unchanged.changes == [])
    }

    /// A key of `link existing` that names no stored object leaves the to-one as it was, and is
    /// no change; one that names a stored object is.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func anUnknownLinkExistingKeyIsNoChange(kind: StoreKind, batchSize: Int) throws {
        let map = Self.castMap.replacingOccurrences(of: "director <- director_id : Person?", with: "director <- director_id : Person? link existing")
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        try store.importJSON(#"[{"id": 1, "title": "Heat", "cast_ids": [7, 8]}]"#)
        try store.importJSON(#"[{"id": 1, "title": "Heat", "director_id": 7}]"#)
        let unknown = try store.importJSON(#"[{"id": 1, "title": "Heat", "director_id": 99}]"#, options: Self.verbose())
        #expect(unknown.changes == [])
        let known = try store.importJSON(#"[{"id": 1, "title": "Heat", "director_id": 8}]"#, options: Self.verbose())
        #expect(known.changes.first?.objects.first?.fields == [FieldChange(name: "director", old: "7", new: "8")])
    }

    /// The samples show the same changes from either store, and a second import shows none.
    @Test(arguments: StoreKind.testable, [("Mappings/tweets.map", "Samples/tweets.json"), ("Mappings/issues.map", "Samples/issues.json")])
    func theSamplesShowTheSameChangesOnEitherStore(kind: StoreKind, sample: (map: String, feed: String)) throws {
        let map = try String(contentsOf: repositoryRoot.appendingPathComponent(sample.map), encoding: .utf8)
        let feed = try String(contentsOf: repositoryRoot.appendingPathComponent(sample.feed), encoding: .utf8)
        let store = try MappedStore(kind, map: map)
        let first = try store.importJSON(feed, options: Self.verbose())
        let reference = try MappedStore(.sqlite, map: map).importJSON(feed, options: Self.verbose())
        #expect(!first.changes.isEmpty)
        #expect(first.changes == reference.changes)
        #expect(try store.importJSON(feed, options: Self.verbose()).changes == [])
    }

    /// What PostgreSQL shows otherwise: an object that two records of one batch change is
    /// compared once, merged, so its fields come in the columns' order; a batch per record shows
    /// what SQLite shows.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func anObjectChangedByTwoRecordsOfOneBatch(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.castMap, batchSize: batchSize)
        try store.importJSON(#"[{"id": 1, "title": "Heat", "director_id": 7}]"#)
        let merged = kind == .postgresql && batchSize > 1
        let two = try store.importJSON(#"[{"id": 1, "title": "Heat", "director_id": 8}, {"id": 1, "title": "Heat 2"}]"#, options: Self.verbose())
        #expect(two.changes.first?.objects.first?.fields.map(\.name) == (merged ? ["title", "director"] : ["director", "title"]))
    }

    /// A value or a to-one that one record changes and a later one puts back ends the run as it
    /// was stored: no change, whether one batch holds both records or not; the object's other
    /// changes are still shown.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aValuePutBackWithinTheRunIsNoChange(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: Self.castMap, batchSize: batchSize)
        try store.importJSON(#"[{"id": 1, "title": "Heat", "director_id": 7}, {"id": 2, "title": "Up", "director_id": 8}]"#)
        let back = try store.importJSON(
            #"[{"id": 1, "title": "X", "director_id": 8}, {"id": 1, "title": "Heat", "director_id": 7}]"#, options: Self.verbose())
        #expect(back.changes == [])
        if kind == .sqlite { #expect(countsByEntity(back)["Movie"] == [0, 0, 1, 0]) }
        let year = try store.importJSON(#"[{"id": 1, "title": "X", "year": 1995}, {"id": 1, "title": "Heat"}]"#, options: Self.verbose())
        let changed = ObjectChange(key: "1", isNew: false, fields: [FieldChange(name: "year", old: "NULL", new: "1995")])
        #expect(year.changes.first?.objects == [changed])
    }

    // MARK: Skipped records

    /// A record refused after it wrote (its derived value fails a check) is undone whole under
    /// `--skip-invalid`: what it left unlinked and what it changed go with it.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aSkippedRecordTakesItsUnlinkedKeysAndChangesWithIt(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(
            kind,
            map: """
                records at $[*] as Movie
                entity Movie
                  key id
                  id : Int
                  title : String
                  director <- director_id : Person? link existing
                  cast : [Person]
                  short : String derived "{title}" check length(1, 5)
                entity Person
                  key id
                  id : Int
                """, batchSize: batchSize)
        var options = ImportOptions(skipInvalid: true)
        options.changeLimit = 10
        let summary = try store.importJSON(
            #"[{"id": 1, "title": "Heat", "director_id": 7}, {"id": 2, "title": "Heat and Dust", "director_id": 8, "cast": [{"id": 9}]}]"#,
            options: options)
        #expect(summary.skippedRecords == 1)
        #expect(summary.unlinked.map(\.count) == [1])
        #expect(summary.unlinked.first?.samples.map(\.key) == ["7"])
        #expect(summary.changes.map(\.entity) == ["Movie"])
        #expect(summary.changes.first?.objects.map(\.key) == ["1"])
    }
}
