@testable import GraphImport
import Testing

/// The SQL of a join table with link attributes: its columns follow `position` in every statement.
@Suite struct LinkAttributeSQLTests {
    @Test func joinRowStatementsCarryTheLinkColumns() throws {
        let plan = try ImportPlan.compile(text: LinkAttributeImportTests.membersMap, fileName: "test.map")
        let sql = EntitySQL(plan.entities[0])
        #expect(sql.selectList == [#"SELECT "users_pk", "position", "role", "since", "weight" FROM "teams_members" WHERE "teams_pk" = ?"#])
        #expect(
            sql.insertList == [#"INSERT INTO "teams_members" ("teams_pk", "users_pk", "position", "role", "since", "weight") VALUES (?, ?, ?, ?, ?, ?)"#])
        #expect(
            sql.insertLinks == [
                #"INSERT INTO "teams_members" ("teams_pk", "users_pk", "position", "role", "since", "weight") VALUES "#
                    + Array(repeating: "(?, ?, ?, ?, ?, ?)", count: EntitySQL.linksPerInsert).joined(separator: ", ")
            ])
    }
}
