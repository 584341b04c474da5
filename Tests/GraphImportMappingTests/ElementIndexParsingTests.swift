import GraphImportMapping
import Testing

/// `$index` (an object's 0-based position in its array): where it may stand, and which objects have one.
@Suite struct ElementIndexParsingTests {
    static let lines =
        "records at orders[*] as Order\nentity Order\n key id\n id : Int\n lines : [Line]\n"
        + "entity Line\n key orderId, position\n orderId <- @parent.id : Int\n position <- $index : Int\n"

    @Test func anAttributeOfAnElementReadsItsPosition() throws {
        let mapping = try parse(Self.lines)
        #expect(mapping.entities[1].attribute(named: "position")?.source == KeyPath([.elementIndex]))
        #expect(KeyPath([.elementIndex]).description == "$index")
        #expect(try parse("records at $[*] as A\nentity A\n key n\n n <- $index : Int\n").entities[0].key == ["n"])
        #expect(try parse("records at items[*?] as A\nentity A\n key n\n n <- $index : Int\n").entities[0].key == ["n"])
    }

    @Test(arguments: [
        (" x <- $index : Order?\n", "test.map:10:7: error: `$index` cannot be the path of a relationship"),
        (" x <- $index.a : String\n", "test.map:10:7: error: `$index` is a position in an array and has nothing below it"),
        (" x <- a : [Order] each $index\n", "test.map:10:24: error: `$index` cannot be the path of `each`"),
    ])
    func refusesElementIndexOutOfPlace(member: String, headline: String) {
        #expect(headlines(Self.lines + member) == [headline])
    }

    @Test(arguments: [
        (
            "records at order as Line\n", "test.map:1:12",
            "`$index` is read by Line, but `records at order` takes a single object, which is in no array"
        ),
        (
            "records at orders{*} as Line\n", "test.map:1:12",
            "`$index` is read by Line, but `records at orders{*}` takes it from an object's members, which have names (`$key`), not positions"
        ),
    ])
    func refusesARecordThatIsInNoArray(records: String, at: String, message: String) {
        let error = onlyError(records + "entity Line\n key position\n position <- $index : Int\n")
        #expect(error?.0 == "test.map:4:14: error: \(message)", "\(at)")
        #expect(error?.1?.contains("`records at PATH[*] as Line`") == true)
    }

    @Test func refusesAToManyOverMembers() {
        let map =
            "records at orders[*] as Order\nentity Order\n key id\n id : Int\n lines <- lines{*} : [Line]\n"
            + "entity Line\n key orderId, position\n orderId <- @parent.id : Int\n position <- $index : Int\n"
        #expect(
            onlyError(map)?.0
                == "test.map:9:14: error: `$index` is read by Line, but Order.lines takes it from an object's members, which have names (`$key`), not positions"
        )
    }

    @Test func refusesAnEntityNoArrayTakes() {
        let map =
            "records at orders[*] as Order\nentity Order\n key id\n id : Int\n first : Line?\n"
            + "entity Line\n key position\n position <- $index : Int\n"
        #expect(
            onlyError(map)?.0
                == "test.map:8:14: error: `$index` is read by Line, but no `records` path with `[*]` and no to-many takes Line objects from an array")
    }
}
