import GraphImport
import GraphImportJSON
import Testing

/// The projection as text: members sorted, `*` for a whole value, `^` for a node already shown
/// on the way down (a cycle), so a test reads the whole graph at a glance.
private func shape(_ projection: JSONProjection, node: Int? = nil, seen: [Int] = []) -> String {
    let node = node ?? projection.root
    if projection.keepsAll(node) { return "*" }
    if seen.contains(node) { return "^" }
    let members = projection.members(of: node)
    let inner = members.keys.sorted().map { key in "\(key):" + shape(projection, node: members[key]!, seen: seen + [node]) }
    return "{" + inner.joined(separator: ",") + "}"
}

private func projections(_ map: String, hooks: ImportHooks = ImportHooks()) throws -> [String] {
    try ImportPlan.compile(text: map, fileName: "test.map").projections(hooks: hooks).map { shape($0) }
}

@Suite("Projections of a map: what the reader builds")
struct ProjectionPlanTests {
    @Test func recordKeepsThePathsTheMapReadsAndNestedEntitiesWhatTheyRead() throws {
        // tweetsMap: retweeted_status is a Tweet again (a cycle), in_reply_to_status_id a bare id.
        #expect(
            try projections(tweetsMap) == [
                "{created_at:*,entities:{hashtags:{text:*}},id:*,in_reply_to_status_id:^,retweeted_status:^,text:*,timestamp_ms:*,"
                    + "user:{followers_count:*,id:*,screen_name:*}}"
            ])
    }

    @Test func pathThroughAnEntityAndIntoItMergesBothNeeds() throws {
        let map = """
            records at items[*] as Item
            entity Item
              key id
              id : Int
              ownerName <- owner.profile.name : String?
              owner : Owner?
              parts <- parts[0].list : [Part] each part
            entity Owner
              key id
              id : Int
              city <- address.city : String?
            entity Part
              key sku
              sku : String
            """
        #expect(
            try projections(map) == [
                "{id:*,owner:{address:{city:*},id:*,profile:{name:*}},parts:{list:{part:{sku:*}}}}"
            ])
    }

    @Test func extrasKeyHandlersAndKindsWidenTheProjection() throws {
        let extras = """
            records at $[*] as Item
            entity Item
              key id
              id : Int
              extras unmapped
              tag <- tag : Tag?
            entity Tag
              key name
              name : String
            """
        #expect(try projections(extras) == ["*"])
        var hooks = ImportHooks()
        hooks.keyHandlers["Tag"] = ["color": { _, _ throws(HookFailure) in }]
        let handled = """
            records at $[*] as Tag
            entity Tag
              key name
              name : String
            """
        #expect(try projections(handled, hooks: hooks) == ["{color:*,name:*}"])
        let kinds = """
            records at data.children[*] by kind
              "t3" -> Post at data
              "more" -> ignore
            entity Post
              key id
              id : String
              title : String
            """
        #expect(try projections(kinds) == ["{data:{id:*,title:*},kind:*}"])
    }
}
