import GraphImportMapping
import Testing

/// `entity NAME owned`: objects without a key of their own, held by one relationship.
@Suite struct OwnedEntityMapTests {
    static let person = """
        entity Person
          key id
          id : Int
          addresses : [Address]

        """
    static let address = "entity Address owned\n  street : String\n"

    @Test func parsesOwnedBeforeTheTable() throws {
        let mapping = try parse(Self.person + "entity Address owned table postal\n  street : String\n")
        #expect(mapping.entities.map(\.isOwned) == [false, true])
        #expect(mapping.entities[1].tableName == "postal")
        #expect(mapping.entities[1].key.isEmpty)
    }

    @Test func aMisspelledOwnedIsAnErrorThatSuggestsIt() {
        let error = onlyError(Self.person + "entity Address ownd\n  street : String\n")
        #expect(error?.0 == "test.map:5:16: error: expected 'table' or end of line after the entity name, found 'ownd'")
        #expect(error?.1 == "did you mean 'owned'?")
    }

    @Test func refusesAKey() {
        let error = onlyError(Self.person + Self.address + "  key street\n")
        #expect(error?.0 == "test.map:7:3: error: 'Address' is owned: its objects are identified by their owner and their position, not by a key")
        #expect(error?.1 == "remove the `key` line, or remove `owned` from the entity line to give Address a key of its own")
    }

    @Test func refusesBeingTheRecords() {
        let error = onlyError("records at $[*] as Address\n" + Self.person + Self.address)
        #expect(error?.0.hasPrefix("test.map:1:1: error: records cannot be the owned entity 'Address'") == true)
    }

    @Test func refusesBeingACaseOfTheRecords() {
        let error = onlyError("records at $[*] by kind\n  \"p\" -> Person\n  \"a\" -> Address\n" + Self.person + Self.address)
        #expect(error?.0.contains("records cannot be the owned entity 'Address'") == true)
    }

    @Test func holdsRelationshipsIntoKeyedEntities() throws {
        let mapping = try parse(Self.person + Self.address + "  resident : Person?\n  visitors : [Person] delete cascade inverse visits\n")
        #expect(mapping.entity(named: "Address")?.relationships.map(\.target) == ["Person", "Person"])
    }

    @Test func refusesHoldingAnOwnedEntity() {
        let error = onlyError(Self.person + Self.address + "  rooms : [Room]\nentity Room owned\n  size : Int\n")
        #expect(
            error?.0
                == "test.map:7:3: error: the owned entity 'Address' cannot hold the owned entity 'Room' ('rooms'): an owned object is placed by its owner's key, and Address has none"
        )
        #expect(error?.1?.hasPrefix("hold Room in the entity that owns Address instead") == true)
    }

    @Test func refusesASecondOwner() {
        let error = onlyError(Self.person + "entity Company\n  key id\n  id : Int\n  offices : [Address]\n" + Self.address)
        #expect(error?.0 == "test.map:8:3: error: the owned entity 'Address' already belongs to 'Person.addresses' (line 4); an owned entity has one owner")
    }

    @Test func refusesAnOwnedEntityNothingHolds() {
        let error = onlyError("entity Person\n  key id\n  id : Int\n" + Self.address)
        #expect(error?.0 == "test.map:4:16: error: no relationship holds the owned entity 'Address'")
    }

    @Test func refusesDeleteMissing() {
        let error = onlyError(Self.person + Self.address + "  delete missing\n")
        #expect(error?.0 == "test.map:7:3: error: `delete missing` on the owned entity 'Address'")
    }

    @Test func refusesClausesThatAssumeAnIdentity() {
        for (clause, column) in [("merge", 25), ("link existing", 25), ("unkeyed skip", 25), ("delete cascade", 25), ("inverse home", 33)] {
            let text = Self.person.replacingOccurrences(of: "[Address]", with: "[Address] \(clause)") + Self.address
            let error = onlyError(text)
            #expect(error?.0.hasPrefix("test.map:4:\(column): error: `") == true, "\(clause): \(error?.0 ?? "")")
            #expect(error?.0.hasSuffix("on 'Person.addresses', which holds the owned entity 'Address'") == true)
        }
    }

    @Test func refusesAPolymorphicRelationship() {
        let polymorphic = "place : (Address | Office) by kind\n    \"a\" -> Address\n    \"o\" -> Office"
        let text = Self.person.replacingOccurrences(of: "addresses : [Address]", with: polymorphic)
        let error = onlyError(text + Self.address + "entity Office\n  key id\n  id : Int\n")
        #expect(error?.0.contains("the polymorphic relationship 'Person.place' cannot hold the owned entity 'Address'") == true)
    }
}

extension ReadmeExampleTests {
    @Test func ownedExampleParses() throws {
        let mapping = try parse(try Self.block(after: "### Owned objects without a key: `owned`"))
        #expect(mapping.entities.filter(\.isOwned).map(\.name) == ["Address", "Phone", "Home"])
        #expect(mapping.entity(named: "Home")?.tableName == "homes")
    }

    @Test func ownedRelationshipsExampleParses() throws {
        let mapping = try parse(try Self.block(after: "**Relationships of an owned object.**"))
        #expect(mapping.entity(named: "Change")?.isOwned == true)
        #expect(mapping.entity(named: "Change")?.relationships.map(\.target) == ["User", "Label"])
    }
}
