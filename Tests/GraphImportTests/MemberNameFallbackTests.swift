import GraphImport
import GraphImportStoreTestSupport
import Testing

/// `$key` and `$index` as a fallback path (`id <- id, $key`): read where the first path is absent.
/// Found by the model-based test (`GeneratedGraphTests`): the fallback was never given the name.
@Suite("$key and $index as fallback paths")
struct MemberNameFallbackTests {
    @Test(arguments: StoreKind.testable)
    func aKeyReadsTheMemberNameWhereTheObjectLacksItsField(_ kind: StoreKind) throws {
        let plan = try ImportPlan.compile(
            text: """
                records at users{*} as User
                records at teams[*] as Team
                entity User
                  key id
                  id <- id, $key : Int | int
                  name : String
                entity Team
                  key id
                  id : Int
                  lines : [Line]
                  lead : User?
                entity Line
                  key teamId, position
                  teamId <- @parent.id : Int
                  position <- at, $index : Int
                  sku : String
                """, fileName: "fallback.map")
        let store = try StoreUnderTest(kind)
        _ = try store.importJSON(
            #"""
            {"users": {"9007199254740993": {"name": "Ann"}, "7": {"id": 8, "name": "Bob"}},
             "teams": [{"id": 1, "lead": {"id": 9, "name": "Cy"}, "lines": [{"sku": "a"}, {"at": 5, "sku": "b"}]}]}
            """#, plan: plan
        ).get()
        #expect(try store.select(#"SELECT "id", "name" FROM "users" ORDER BY "id""#) == [["8", "Bob"], ["9", "Cy"], ["9007199254740993", "Ann"]])
        #expect(try store.select(#"SELECT "position", "sku" FROM "lines" ORDER BY "position""#) == [["0", "a"], ["5", "b"]])
    }
}
