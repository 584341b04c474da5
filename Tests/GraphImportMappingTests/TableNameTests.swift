import GraphImportMapping
import Testing

/// The table-name rules, in the one place the validator and the plan both ask.
@Suite struct TableNameTests {
    @Test(arguments: [
        ("tweets", nil), ("sqlite_stat1", TableName.Rule.sqlitePrefix), ("SQLite_x", .sqlitePrefix), ("sqlitex", nil),
        ("graphimport_runs", .internalPrefix), ("GraphImport_x", .internalPrefix), ("graphimportx", nil),
        (String(repeating: "t", count: TableName.maxLength), nil), (String(repeating: "t", count: TableName.maxLength + 1), .tooLong),
        (String(repeating: "é", count: TableName.maxLength), nil), ("tab\tle", .controlCharacter), ("del\u{7F}", .controlCharacter),
        ("new\nline", .controlCharacter), ("tweets ünïcode", nil),
    ])
    func eachNameBreaksTheRuleItShould(name: String, rule: TableName.Rule?) {
        #expect(TableName.brokenRule(name) == rule)
    }

    @Test func planMessageForAReservedNameNamesTheRuleAndTheWayOut() throws {
        let mapping = try MapParser.parse("records at $[*] as E\nentity E\n  key id\n  id : Int\n", fileName: "m.map", converters: [])
        let diagnostic = mapping.diagnostic(.unusableTableName("sqlite_e", .sqlitePrefix, at: mapping.entities[0].location))
        #expect(diagnostic.message == "the table name 'sqlite_e' is reserved: SQLite keeps names starting with 'sqlite_'")
        #expect(diagnostic.hint == "choose another name with `table NAME`")
        #expect(diagnostic.location == mapping.entities[0].location)
    }
}
