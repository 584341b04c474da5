import Foundation
import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `SampleCheck`: a whole sample read through a map, and a warning at the map's line and column
/// for each path, type or records line that does not fit.
@Suite struct SampleCheckTests {
    /// Writes `sample` to a file in a temporary directory and checks it against `map`, reading the
    /// file as the command line does.
    func check(_ map: String, sample: String, name: String = "sample.json") throws -> SampleReport {
        let directory = TemporaryDirectory("graphimport-sample")
        let path = directory.write(name, sample)
        let mapping = try MapParser.parse(
            map, fileName: "test.map", converters: ConverterCatalog.standard.signatures, validators: ValidatorCatalog.standard.signatures)
        let plan = try ImportPlan(mapping: mapping)
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        func source() -> FileDescriptorSource {
            let descriptor = open(path, O_RDONLY)
            opened.append(descriptor)
            return FileDescriptorSource(fileDescriptor: descriptor)
        }
        return try SampleCheck(plan: plan).run(
            source: source(), format: name.hasSuffix(".jsonl") ? .jsonLines : .auto)
    }

    static let users = """
        entity User
          key id
          id : Int
          login <- logn : String?
          name : String?

        """

    @Test func typoInAPathIsFoundWithTheKeyItMeant() throws {
        let sample = """
            {"id": 1, "login": "ada", "name": "Ada"}
            {"id": 2, "login": "bob", "name": null}
            {"id": 3, "login": "cy"}

            """
        let report = try check(Self.users, sample: sample, name: "users.jsonl")
        #expect(report.records == 3)
        #expect(report.format == .jsonLines)
        #expect(report.diagnostics.map(\.headline) == ["test.map:4:12: warning: no record of the sample holds 'logn' (User.login): 0 of 3 User objects"])
        #expect(report.diagnostics.map(\.hint) == ["did you mean 'login'?"])
        #expect(report.diagnostics.map(\.severity) == [.warning])
    }

    /// An import refuses a new object without a required value; a stored one keeps its value, so
    /// the sample check, which does not know the store, says "if it is new".
    @Test func requiredValueSomeObjectsLackIsAWarning() throws {
        let map = """
            records at $[*] as Post
            entity Post
              key id
              id : Int
              author <- user : User
            entity User
              key id
              id : Int
              name : String
              bio : String?
              lang : String missing keep
            """
        let report = try check(map, sample: #"[{"id": 1, "user": {"id": 7, "name": "a", "lang": "en"}}, {"id": 2, "user": {"id": 8, "bio": "b"}}]"#)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:9:3: warning: 'name' (User.name) is required but 1 of 2 User objects have no such key "
                    + "(first: record 1 at line 1, column 59, $[1].user.name)"
            ])
        #expect(
            report.diagnostics.map(\.hint) == [
                "an import refuses such an object if it is new (not yet stored): make the attribute optional (`: String?`) "
                    + "if objects without it can be new, or give it a `default` or a `missing` rule"
            ])
    }

    @Test func sampleThatFitsGivesNoWarning() throws {
        let map = Self.users.replacingOccurrences(of: "login <- logn", with: "login")
        let report = try check(map, sample: #"[{"id": 1, "login": "ada"}, {"id": 2, "login": null, "name": "Bob"}]"#)
        #expect(report.records == 2)
        #expect(report.diagnostics.isEmpty)
    }

    @Test func stringAtADateWithoutConverterNeverConverts() throws {
        let map = "entity Tweet\n  key id\n  id : Int\n  createdAt <- created_at : Date\n"
        let sample = #"[{"id": 1, "created_at": "Wed Oct 10 20:19:24 +0000 2018"}, {"id": 2, "created_at": "Thu Oct 11 08:00:00 +0000 2018"}]"#
        let report = try check(map, sample: sample)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:4:16: warning: no value of 'created_at' (Tweet.createdAt) converts to Date: 2 of 2 fail: "
                    + "expected a date, found a string ('Wed Oct 10 20:19:24 +0000 2018') (first: record 0 at line 1, column 2, $[0].created_at)"
            ])
        #expect(report.diagnostics.first?.hint?.contains("iso8601") == true)
    }

    @Test func someValuesFailingAreCountedWithTheFirst() throws {
        let map = "entity Item\n  key id\n  id : Int\n  count : Int? | int\n  label : String? check nonEmpty\n"
        let sample = """
            [{"id": 1, "count": "3", "label": "a"},
             {"id": 2, "count": "x", "label": ""},
             {"id": 3, "count": null, "label": "c"}]
            """
        let report = try check(map, sample: sample)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:4:3: warning: 1 of 2 values of 'count' (Item.count) do not convert to Int: 'x' is not an integer "
                    + "(first: record 1 at line 2, column 2, $[1].count)",
                "test.map:5:3: warning: 1 of 3 values of 'label' (Item.label) fail its checks: must not be empty (value: '') "
                    + "(first: record 1 at line 2, column 2, $[1].label)",
            ])
    }

    @Test func recordsPathThatMatchesNothingSaysWhatTheSampleHoldsThere() throws {
        let map = "records at data.chldren[*] as Post\nentity Post\n  key id\n  id : String\n"
        let sample = #"{"kind": "Listing", "data": {"after": null, "children": [{"id": "a"}]}}"#
        let report = try check(map, sample: sample)
        #expect(report.records == 0)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:1:12: warning: records path 'data.chldren[*]' matches nothing in the sample: "
                    + "`data` is an object with keys after, children"
            ])
        #expect(report.diagnostics.map(\.hint) == ["did you mean 'data.children[*]'?"])
    }

    @Test func recordsPathIntoAnArrayOfObjectsSaysItIsAnArray() throws {
        let map = "records at items[*] as Post\nentity Post\n  key id\n  id : String\n"
        let report = try check(map, sample: #"[{"id": "a"}, {"id": "b"}]"#)
        #expect(
            report.diagnostics.map(\.message) == [
                "records path 'items[*]' matches nothing in the sample: the top level is an array of 2 elements, not an object"
            ])
    }

    @Test func recordsLineWithSeveralPathsIsQuietWhenOneOfThemMatches() throws {
        let map = "records at statuses[*], data[*] as Post\nentity Post\n  key id\n  id : String\n"
        let report = try check(map, sample: #"{"statuses": [{"id": "a"}]}"#)
        #expect(report.records == 1)
        #expect(report.diagnostics.isEmpty)
    }

    @Test func absentKeysAndNullsInRequiredMembersAreCounted() throws {
        let map = """
            entity Post
              key id
              id : Int
              title : String
              author <- user : User
            entity User
              key id
              id : Int

            """
        let sample = #"[{"id": 1, "title": "a", "user": 7}, {"title": null, "user": null}, {"id": 3, "title": "c", "user": 8}]"#
        let report = try check(map, sample: sample)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:3:3: warning: 'id' (Post.id), the key of Post, is absent or null in 1 of 3 Post objects (first: record 1 at line 1, column 38, $[1].id)",
                "test.map:4:3: warning: 'title' (Post.title) is required but 1 of 3 values are null (first: record 1 at line 1, column 38, $[1].title)",
                "test.map:5:13: warning: 'user' (Post.author) is required but 1 of 3 values are null (first: record 1 at line 1, column 38, $[1].user)",
            ])
        #expect(report.diagnostics.map(\.hint) == [nil, "declare it optional: `: String?`", "declare it optional: `: User?`"])
    }

    static let tweets = """
        entity Tweet
          key id
          id : Int
          author <- user : User inverse tweets
          hashtags <- entities.hashtags : [Hashtag] inverse tweets
        entity User
          key id
          id : Int
          handle <- screen_nme : String?
        entity Hashtag
          key code
          code : Int

        """

    @Test func nestedPathsAreCheckedInTheObjectsTheyReach() throws {
        let sample = """
            [{"id": 1, "user": {"id": 7, "screen_name": "ada"}, "entities": {"hashtags": ["swift", "sqlite"]}},
             {"id": 2, "user": 7, "entities": {"hashtags": []}}]
            """
        let report = try check(Self.tweets, sample: sample)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:5:15: warning: no element of 'entities.hashtags' (Tweet.hashtags) converts to a Hashtag: 2 of 2 fail: "
                    + "as the key Hashtag.code: expected an integer, found a string ('swift') (first: record 0 at line 1, column 2, $[0].entities.hashtags[0])",
                "test.map:9:13: warning: no record of the sample holds 'screen_nme' (User.handle): 0 of 1 User object",
            ])
        #expect(report.diagnostics.map(\.hint) == ["add `| int` to read numbers written as text", "did you mean 'screen_name'?"])
    }

    @Test func polymorphicRecordsWithoutACaseAreCounted() throws {
        let map = """
            records at data.children[*] by kind
              "t1" -> Comment at data
              "more" -> ignore
            entity Comment
              key id
              id : String

            """
        let sample = """
            {"data": {"children": [{"kind": "t1", "data": {"id": "c1"}}, {"kind": "t5", "data": {}}, {"kind": "more"}]}}
            """
        let report = try check(map, sample: sample)
        #expect(
            report.diagnostics.map(\.headline) == [
                "test.map:1:29: warning: 1 of 3 records at 'data.children[*]' do not fit the map: no rule of the map for kind = 't5' "
                    + "(first: record 1 at line 1, column 62, $.data.children[1])"
            ])
    }

    @Test func metaFieldNoDocumentHoldsIsFound() throws {
        let map = "records at data[*] as Item\nmeta cursor <- paging.nxt : String?\nentity Item\n  key id\n  id : Int\n"
        let report = try check(map, sample: #"{"data": [{"id": 1}], "paging": {"next": "abc"}}"#)
        #expect(report.diagnostics.map(\.headline) == ["test.map:2:16: warning: no document of the sample holds 'paging.nxt' (meta cursor)"])
    }

    @Test func invalidJSONIsAnErrorWithItsPosition() throws {
        #expect {
            _ = try check(Self.users, sample: "[{\"id\": 1},\n {\"id\": }]")
        } throws: { error in
            guard let error = error as? JSONError else { return false }
            return error.position.line == 2 && error.position.column == 9
        }
    }
}
