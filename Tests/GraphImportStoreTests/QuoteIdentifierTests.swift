import GraphImportSchema
import GraphImportStore
import Testing

@Suite struct QuoteIdentifierTests {
    @Test(arguments: [
        ("tweet", "\"tweet\""),
        ("we\"ird", "\"we\"\"ird\""),
        ("\"", "\"\"\"\""),
        ("a; DROP TABLE x; --", "\"a; DROP TABLE x; --\""),
        ("ünïcödé 😀", "\"ünïcödé 😀\""),
        ("", "\"\""),
    ])
    func wrapsInQuotesAndDoublesEmbeddedQuotes(name: String, quoted: String) {
        #expect(quoteIdentifier(name) == quoted)
    }

    @Test(arguments: ["we\"ird", "a; DROP TABLE x; --", "ünïcödé 😀", "select", "\"\""])
    func quotedNamesWorkAsTableAndColumnNames(name: String) throws {
        try withFixture { fixture throws in
            let database = try fixture.open()
            let table = TableDescription(name: name, columns: [ColumnDescription(name: name, type: .text)], uniqueKeys: [[name]])
            for statement in SchemaSQL.createStatements(for: table) {
                try database.execute(statement)
            }
            try database.run("INSERT INTO \(quoteIdentifier(name)) (\(quoteIdentifier(name))) VALUES (?)", [.text(name)])
            let names = try database.rows("SELECT name FROM sqlite_schema WHERE type = 'table'")
            #expect(names == [[.text(name)]])
            #expect(try database.scalar("SELECT \(quoteIdentifier(name)) FROM \(quoteIdentifier(name))") == .text(name))
        }
    }
}
