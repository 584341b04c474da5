import GraphImport
import GraphImportStoreTestSupport
import Testing

/// The two shapes a polymorphic relationship meets besides Reddit's `parent_id`: a nested object
/// that says what it is, and an array of keys whose form says what each names.
@Suite("Polymorphic relationships: shapes")
struct PolymorphicRelationshipShapeTests {
    /// GitHub's repositories: the owner is a user or an organization, as its `type` says.
    @Test(arguments: StoreKind.testable)
    func aFieldOfANestedObjectChoosesTheEntityOfAToOne(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(
            text: """
                records at $[*] as Repo
                entity Repo
                  key id
                  id : Int
                  owner : (User | Organization)? by type inverse repos
                    "User" -> User
                    "Organization" -> Organization
                entity User
                  key id
                  id : Int
                  login : String
                entity Organization
                  key id
                  id : Int
                  login : String
                """, fileName: "test.map")
        _ = try store.importJSON(
            #"[{"id":1,"owner":{"id":7,"login":"ann","type":"User"}},{"id":2,"owner":{"id":7,"login":"acme","type":"Organization"}},{"id":3,"owner":null}]"#,
            plan: plan
        ).get()
        #expect(try store.select(#"SELECT id, login FROM "users""#) == [["7", "ann"]])
        #expect(try store.select("SELECT id, login FROM organizations") == [["7", "acme"]])
        #expect(
            try store.select(
                """
                SELECT repos.id, u.login, organizations.login FROM repos
                LEFT JOIN "users" u ON u.pk = repos.owner_user_pk LEFT JOIN organizations ON organizations.pk = repos.owner_organization_pk
                ORDER BY repos.id
                """) == [["1", "ann", "NULL"], ["2", "NULL", "acme"], ["3", "NULL", "NULL"]])
    }

    /// Saved things as fullnames: each key's prefix says whether it names a post or a comment.
    @Test(arguments: StoreKind.testable)
    func theFormOfEachKeyChoosesTheEntityOfAToMany(kind: StoreKind) throws {
        let store = try StoreUnderTest(kind)
        let plan = try ImportPlan.compile(
            text: """
                records at $[*] as Saved
                entity Saved
                  key id
                  id : Int
                  things : [Post | Comment] by $
                    has prefix "t3_" -> Post
                    has prefix "t1_" -> Comment
                    else -> ignore
                entity Post
                  key name
                  name : String
                entity Comment
                  key name
                  name : String
                """, fileName: "test.map")
        let summary = try store.importJSON(#"[{"id":1,"things":["t1_b","t5_sub","t3_a","t3_c"]}]"#, plan: plan).get()
        #expect(summary.counts(of: "Post") == [2, 0, 0, 0])
        #expect(
            try store.select("SELECT posts.name FROM saveds_things_post JOIN posts ON posts.pk = posts_pk ORDER BY position") == [["t3_a"], ["t3_c"]])
        #expect(try store.select("SELECT comments.name FROM saveds_things_comment JOIN comments ON comments.pk = comments_pk") == [["t1_b"]])
    }
}
