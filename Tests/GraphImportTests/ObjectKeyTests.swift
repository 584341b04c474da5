@testable import GraphImport
import GraphImportSchema
import Testing

@Suite struct ObjectKeyTests {
    static let values: [SQLValue] = [.integer(7), .text("seven"), .real(7.5), .blob([7]), .null]

    /// A key of one value is held inline, whichever way it is made: the same key, the same hash,
    /// read as a collection of that one value.
    @Test(arguments: values)
    func aKeyOfOneValueIsTheSameKeyHoweverMade(value: SQLValue) {
        let inline = ObjectKey(value)
        let fromArray = ObjectKey(values: [value])
        #expect(inline == fromArray)
        #expect(inline.hashValue == fromArray.hashValue)
        #expect(inline.count == 1)
        #expect(inline[0] == value)
        #expect(Array(inline) == [value])
    }

    /// A key of several values reads them in order; the order, the count and each value count.
    @Test func aKeyOfSeveralValuesKeepsThemInOrder() {
        let key = ObjectKey(values: [.text("octocat"), .integer(7)])
        #expect(key.count == 2)
        #expect(Array(key) == [.text("octocat"), .integer(7)])
        #expect(key[1] == .integer(7))
        #expect(key == ObjectKey(values: [.text("octocat"), .integer(7)]))
        #expect(key != ObjectKey(values: [.integer(7), .text("octocat")]))
        #expect(key != ObjectKey(.text("octocat")))
        #expect(ObjectKey(values: [.text("octocat")]) != ObjectKey(values: [.text("octocat"), .null]))
        #expect(ObjectKey(.integer(1)) != ObjectKey(.text("1")))
        #expect(Set([key, ObjectKey(values: [.text("octocat"), .integer(7)]), ObjectKey(.integer(7))]).count == 2)
    }

    /// A key's values appended to rows, as the writers bind and copy them.
    @Test func aKeyAppendsItsValuesToARow() {
        var row: [SQLValue] = [.integer(0)]
        row += ObjectKey(.text("a"))
        row += ObjectKey(values: [.integer(1), .integer(2)])
        #expect(row == [.integer(0), .text("a"), .integer(1), .integer(2)])
        #expect(ChangeLog.text(ObjectKey(values: [.text("octocat"), .integer(7)])) == "('octocat', 7)")
        #expect(ChangeLog.text(ObjectKey(.integer(42))) == "42")
    }
}
