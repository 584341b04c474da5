import GraphImportMapping
import Testing

/// `{*}` (every member of an object) and `$key` (the member's name): where they may stand.
@Suite struct KeyedStepParsingTests {
    static let users = "records at users{*} as User\nentity User\n key id\n id <- $key : String\n"

    @Test func recordsPathAndToManyMayTakeMembers() throws {
        let mapping = try parse(Self.users + " friends <- friends{*} : [User]\n")
        #expect(mapping.records[0].paths == [KeyPath([.key("users"), .anyMember])])
        #expect(mapping.entities[0].attribute(named: "id")?.source == KeyPath([.memberName]))
        #expect(mapping.entities[0].relationship(named: "friends")?.source == KeyPath([.key("friends"), .anyMember]))
        #expect(KeyPath([.key("users"), .anyMember]).description == "users{*}")
        #expect(KeyPath([.memberName]).description == "$key")
    }

    @Test func memberNameMayKeyAnEntityReachedThroughAToMany() throws {
        let map =
            "records at teams[*] as Team\nentity Team\n key id\n id : Int\n members <- members{*} : [User]\n"
            + "entity User\n key id\n id <- $key : String\n"
        #expect(try parse(map).entities[1].key == ["id"])
    }

    @Test(arguments: [
        (" x <- a{*} : String\n", "test.map:5:7: error: '{*}' is allowed only in a `records` path and at the end of a to-many's path"),
        (" x <- a{*} : User?\n", "test.map:5:7: error: '{*}' is allowed only in a `records` path and at the end of a to-many's path"),
        (" x <- a{*}.b : [User]\n", "test.map:5:7: error: '{*}' is allowed only in a `records` path and at the end of a to-many's path"),
        (" x <- $key : User?\n", "test.map:5:7: error: `$key` cannot be the path of a relationship"),
        (" x <- $key.a : String\n", "test.map:5:7: error: `$key` is the name of a member and has nothing below it"),
        (" x <- a : [User] each $key\n", "test.map:5:23: error: `$key` cannot be the path of `each`"),
        (" x <- a{x} : [User]\n", "test.map:5:9: error: expected '*' after '{' (`{*}`: every member of an object), found 'x'"),
    ])
    func refusesKeyedStepsOutOfPlace(member: String, headline: String) {
        #expect(headlines(Self.users + member) == [headline])
    }

    @Test func refusesMemberNameInMetaAndRecordsPaths() {
        #expect(
            headlines("meta m <- $key : String\nrecords at $key as User\nentity User\n key id\n id : String\n") == [
                "test.map:1:11: error: `$key` cannot be the path of a `meta` line",
                "test.map:2:12: error: `$key` cannot be the path of a `records` line",
            ])
    }

    @Test func memberNameNeedsAKeyedIteration() {
        let error = onlyError("records at users[*] as User\nentity User\n key id\n id <- $key : String\n")
        #expect(error?.0 == "test.map:4:8: error: `$key` is read by User, but no `{*}` takes User objects from an object's members")
        #expect(error?.1 == "take User objects with `records at PATH{*} as User` or a to-many `NAME <- PATH{*} : [User]`")
    }
}
