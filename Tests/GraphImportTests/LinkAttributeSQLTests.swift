@testable import GraphImport
import Testing

/// The SQL of a join table with link attributes: its columns follow `position` in every statement.
@Suite struct LinkAttributeSQLTests {
    @Test func joinRowStatementsCarryTheLinkColumns() throws {
        let plan = try ImportPlan.compile(text: LinkAttributeImportTests.membersMap, fileName: "test.map")
        let sql = EntitySQL(plan.entities[0])
        #expect(sql.selectList == [#"SELECT "user_pk", "position", "role", "since", "weight" FROM "team_members" WHERE "team_pk" = ?"#])
        #expect(
            sql.insertList == [#"INSERT INTO "team_members" ("team_pk", "user_pk", "position", "role", "since", "weight") VALUES (?, ?, ?, ?, ?, ?)"#])
        #expect(
            sql.insertLinks == [
                #"INSERT INTO "team_members" ("team_pk", "user_pk", "position", "role", "since", "weight") VALUES "#
                    + Array(repeating: "(?, ?, ?, ?, ?, ?)", count: EntitySQL.linksPerInsert).joined(separator: ", ")
            ])
    }
}
