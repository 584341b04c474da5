import Foundation
@testable import GraphImport
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

@Suite("Read API: conditions written as text")
struct ConditionParsingTests {
    @Test func textParsesIntoTheTypedCondition() throws {
        #expect(try Condition(parsing: #"lang = "en""#) == .equals("lang", "en"))
        #expect(
            try Condition(parsing: #"  lang != "a\"b\u00e9" AND retweets > 3 and score <= -1.5e2 and sensitive = true and text is not null "#)
                == .and([.notEquals("lang", "a\"bé"), .greaterThan("retweets", 3), .atMost("score", -150.0), .equals("sensitive", true), .isNotNull("text")]))
        #expect(try Condition(parsing: "lang = null and text != NULL and score is null") == .and([.isNull("lang"), .isNotNull("text"), .isNull("score")]))
        #expect(try Condition(parsing: "été < 2 and b >= 0 and c = false") == .and([.lessThan("été", 2), .atLeast("b", 0), .equals("c", false)]))
    }

    @Test(arguments: [
        ("age ~ 3", "in the condition, expected =, !=, <, <=, > or >= at column 5, found '~ 3'"),
        ("lang = ", "in the condition, expected a value (\"text\", a number, true or false) at column 8, found its end"),
        (#"lang = "en" or id = 1"#, "in the condition, expected 'and' or the end of the condition at column 13, found 'or id = 1'"),
        ("= 3", "in the condition, expected an attribute name at column 1, found '= 3'"),
        ("lang is nul", "in the condition, expected null at column 9, found 'nul'"),
        ("id < null", "null can only be compared with = or != (at column 4)"),
        (#"lang = "en"#, "the condition's text value opened at column 8 is not closed with \""),
        (#"lang = "a\q""#, "invalid escape \\q in the condition at column 10"),
        (#"lang = "\u12""#, "invalid \\u escape in the condition at column 9"),
    ])
    func textThatDoesNotParseSaysWhereAndWhat(text: String, message: String) {
        let error = #expect(throws: GraphError.self) { try Condition(parsing: text) }
        #expect(error?.kind == .syntax)
        #expect(error?.message == message)
    }

    @Test(arguments: StoreKind.testable) func hostileTextIsBoundOrRefusedNeverExecuted(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            for hostile in [#"lang = "en' OR '1'='1""#, #"lang = "x\"; DROP TABLE tweet; --""#, #"text = "'); DELETE FROM user; --""#] {
                #expect(try graph.objects("Tweet", where: try Condition(parsing: hostile)).isEmpty)
            }
            // SQL after a condition is not a condition: it is refused before any SQL is made.
            for hostile in [#"lang = "en"; DROP TABLE tweet; --"#, "lang = \"en\" OR 1 = 1", "id = 1) OR (1 = 1"] {
                #expect(throws: GraphError.self) { try Condition(parsing: hostile) }
            }
            #expect(throws: GraphError.self) { try graph.objects("Tweet", where: try Condition(parsing: #"lang" = 1 OR "1 = 1"#)) }
            #expect(try graph.objects("Tweet").count == 3)
            #expect(try graph.objects("User").count == 2)
        }
    }

    @Test(arguments: StoreKind.testable) func aToOneIsComparedByItsTargetsKey(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            #expect(try graph.objects("Tweet", where: .equals("author", 8)).map { try $0.int("id") } == [3])
            #expect(try graph.objects("Tweet", where: try Condition(parsing: "author != 8")).map { try $0.int("id") } == [1, 2])
            #expect(try graph.objects("Tweet", where: .in("author", [7, 9])).map { try $0.int("id") } == [1, 2])
            #expect(try graph.objects("Tweet", where: .isNull("author")).isEmpty)
            #expect(throws: GraphError(.misuse, "Tweet.hashtags is a to-many relationship; a condition compares attributes and to-ones")) {
                try graph.objects("Tweet", where: .equals("hashtags", "swift"))
            }
        }
    }

    @Test(arguments: StoreKind.testable) func aValueIsComparedAsTheAttributeStoresIt(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            // Dates are stored as `2024-05-01T10:00:00.000Z`: text is read as a date first.
            #expect(try graph.objects("Tweet", where: try Condition(parsing: #"createdAt = "2024-05-01T10:00:00Z""#)).map { try $0.int("id") } == [1])
            #expect(try graph.objects("Tweet", where: .atLeast("createdAt", "2024-05-02")).map { try $0.int("id") } == [2, 3])
            let text = #expect(throws: GraphError.self) { try graph.objects("Tweet", where: try Condition(parsing: #"id = "two""#)) }
            #expect(text?.kind == .misuse)
            #expect(text?.message.hasPrefix(#""two" cannot be compared with Tweet.id (Int)"#) == true)
        }
    }

    @Test(arguments: StoreKind.testable) func notEqualHoldsForAnObjectWithoutAValue(_ kind: StoreKind) throws {
        try withGraph(on: kind) { graph throws in
            // Only tweet 1 has `sensitive` (false); the others have none, so none is true.
            #expect(try graph.objects("Tweet", where: .notEquals("sensitive", true)).map { try $0.int("id") } == [1, 2, 3])
            #expect(try graph.objects("Tweet", where: try Condition(parsing: "sensitive != false")).map { try $0.int("id") } == [2, 3])
        }
        let people = """
            records at $[*] as Person
            entity Person
              key id
              id : Int
              friend : Person?
            """
        try withGraph(on: kind, map: people, feed: #"[{"id": 1, "friend": 2}, {"id": 2, "friend": 1}, {"id": 3}]"#) { graph throws in
            #expect(try graph.objects("Person", where: try Condition(parsing: "friend != 2")).map { try $0.int("id") } == [2, 3])
        }
    }
}
