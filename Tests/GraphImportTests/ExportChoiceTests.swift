import GraphImport
import GraphImportStoreTestSupport
import Testing

/// Export writes what the import needs to choose and find each target: the discriminator of a
/// polymorphic relationship chosen by a field, and the key of a target keyed by `$key` (found by
/// the model-based test, `GeneratedGraphTests`).
@Suite("Export: what the import chooses and finds targets by")
struct ExportChoiceTests {
    @Test(arguments: StoreKind.testable)
    func aPolymorphicElementIsWrittenWithTheValueThatChoosesItsEntity(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(
            text: """
                records at $[*] as Repo
                entity Repo
                  key id
                  id : Int
                  watchers : [User | Org] by kind each ref
                    "user" -> User
                    "org" -> Org
                  owner : (User | Org)? by type
                    "u" -> User
                    else -> Org
                  assignee : (User | Org)? by kind each ref
                    "user" -> User
                    "org" -> Org
                entity User
                  key id
                  id : Int
                  login : String
                entity Org
                  key slug
                  slug : String
                """, fileName: "watchers.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(
            #"[{"id":1,"watchers":[{"kind":"user","ref":{"id":7,"login":"ann"}},{"kind":"org","ref":"acme"}],"owner":{"type":"x","slug":"acme"},"assignee":{"kind":"user","ref":7}}]"#,
            plan: plan
        ).get()
        let exported = try store.export(plan: plan)
        // The `else` case is written as `null`: a value no other case names, where a missing field would fit none.
        #expect(
            exported
                == #"[{"id":1,"owner":{"slug":"acme","type":null},"assignee":{"kind":"user","ref":{"id":7,"login":"ann"}},"watchers":[{"kind":"user","ref":{"id":7,"login":"ann"}},{"kind":"org","ref":{"slug":"acme"}}]}]"#
                + "\n")
        let again = try StoreUnderTest(kind)
        _ = try again.importJSON(exported, plan: plan).get()
        #expect(try again.rows(plan: plan) == store.rows(plan: plan))
    }

    @Test(arguments: StoreKind.testable)
    func aTargetKeyedByMemberNameIsWrittenByItsKeyOutsideItsObject(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(
            text: """
                records at users{*} as User
                records at teams[*] as Team
                entity User
                  key login
                  login <- $key : String
                  name : String
                entity Team
                  key id
                  id : Int
                  lead : User?
                  members : [User]
                """, fileName: "teams.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(
            #"{"users":{"ann":{"name":"Ann"},"bob":{"name":"Bob"}},"teams":[{"id":1,"lead":"ann","members":["ann","bob"]}]}"#, plan: plan
        ).get()
        let exported = try store.export(plan: plan)
        #expect(exported == #"{"users":{"ann":{"name":"Ann"},"bob":{"name":"Bob"}},"teams":[{"id":1,"lead":"ann","members":["ann","bob"]}]}"# + "\n")
        let again = try StoreUnderTest(kind)
        _ = try again.importJSON(exported, plan: plan).get()
        #expect(try again.rows(plan: plan) == store.rows(plan: plan))
    }
}
