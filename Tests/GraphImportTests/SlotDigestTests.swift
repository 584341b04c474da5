@testable import GraphImport
import Foundation
import GraphImportJSON
import GraphImportTestSupport
import Testing

/// The slot digest (`DraftBuilder.SlotDigest`) and the light walk (`DraftBuilder.lightWalk`),
/// as properties over generated records: equal mapped bytes give equal digests, any change of
/// what the map reads changes them, and the light walk lists what the full draft makes.
@Suite("Slot digests and the light walk")
struct SlotDigestTests {
    static let map = """
        records at $[*] as Post
        entity Post
          key id
          id : Int
          title : String?
          score : Double?
          flag : Bool?
          author <- user : User?
          tags : [Tag]
          replies : [Post]
        entity User
          key id
          id : Int
          name : String?
        entity Tag
          key name
          name : String
        """

    /// A JSON value as the generator renders it: members in a chosen order, strings escaped or not.
    indirect enum JSON {
        case literal(String)
        case string(String)
        case object([(String, JSON)])
        case array([JSON])

        /// `escapesAll`: every character of a string as `\\u` (its unescaped bytes are the same).
        func text(escapesAll: Bool = false) -> String {
            switch self {
            case .literal(let text): return text
            case .string(let text): return Self.quoted(text, escapesAll: escapesAll)
            case .object(let members):
                return "{" + members.map { Self.quoted($0.0, escapesAll: false) + ": " + $0.1.text(escapesAll: escapesAll) }.joined(separator: ", ") + "}"
            case .array(let elements): return "[" + elements.map { $0.text(escapesAll: escapesAll) }.joined(separator: ",") + "]"
            }
        }

        static func quoted(_ text: String, escapesAll: Bool) -> String {
            var out = "\""
            for unit in text.utf16 {
                let scalar = Unicode.Scalar(unit)
                switch scalar {
                case "\""?: out += "\\\""
                case "\\"?: out += "\\\\"
                case let scalar? where unit >= 0x20 && !escapesAll: out.unicodeScalars.append(scalar)
                default: out += "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count) + String(unit, radix: 16)
                }
            }
            return out + "\""
        }

        /// The object with its members shuffled and an unmapped member or two added.
        func rearranged(_ random: inout GraphRandom) -> JSON {
            switch self {
            case .object(var members):
                members = members.map { ($0.0, $0.1.rearranged(&random)) }
                if random.chance(1, in: 2) { members.append(("unmapped", .string(GeneratedGraph.text(&random)))) }
                if random.chance(1, in: 3) { members.insert(("other", .array([.literal("1"), .literal("true")])), at: 0) }
                members.shuffle(using: &random)
                return .object(members)
            case .array(let elements): return .array(elements.map { $0.rearranged(&random) })
            default: return self
            }
        }
    }

    static func user(_ random: inout GraphRandom) -> JSON {
        var members: [(String, JSON)] = [("id", .literal(String(GeneratedGraph.id(&random))))]
        if random.chance(1, in: 2) { members.append(("name", random.chance(1, in: 4) ? .literal("null") : .string(GeneratedGraph.text(&random)))) }
        return .object(members)
    }

    /// A post: each mapped member present, null or absent, of each kind the map may read.
    static func post(_ random: inout GraphRandom, depth: Int = 0) -> JSON {
        var members: [(String, JSON)] = [("id", .literal(String(GeneratedGraph.id(&random))))]
        if random.chance(3, in: 4) { members.append(("title", random.chance(1, in: 5) ? .literal("null") : .string(GeneratedGraph.text(&random)))) }
        if random.chance(3, in: 4) { members.append(("score", .literal(random.pick(["1", "1.5", "-0.25", "2e3", "12345678901", "null"])))) }
        if random.chance(3, in: 4) { members.append(("flag", .literal(random.pick(["true", "false", "null"])))) }
        switch random.next(4) {
        case 0: members.append(("user", user(&random)))
        case 1: members.append(("user", .literal(String(GeneratedGraph.id(&random)))))
        case 2: members.append(("user", .literal("null")))
        default: break
        }
        if random.chance(3, in: 4) {
            let names = random.distinct(random.next(4), below: GeneratedGraph.pieces.count).map { GeneratedGraph.pieces[$0] }
            members.append(("tags", .array(names.map { random.chance(1, in: 2) ? .string($0) : .object([("name", .string($0))]) })))
        }
        if depth == 0, random.chance(1, in: 2) {
            members.append(("replies", .array((0..<random.next(3)).map { _ in post(&random, depth: 1) })))
        }
        return .object(members)
    }

    /// Per record of `json` (an array of records): the full draft's objects (`ObjectDraft.walked`)
    /// or its error, and the light walk's list (nil: "cannot"; its error as text).
    static func drafted(map: String, json: String) throws -> [(full: [WalkedObject]?, drafts: [ObjectDraft], light: [WalkedObject]?)] {
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        let hooks = ImportHooks()
        let reader = plan.recordReader(source: BytesSource(Array(json.utf8)), projections: plan.projections(hooks: hooks), format: .auto)
        var full = DraftBuilder(plan: plan, hooks: EntityHooks.bind(hooks, to: plan))
        full.readsSlots = true
        var light = full
        var slots = JSONSlots()
        var results: [(full: [WalkedObject]?, drafts: [ObjectDraft], light: [WalkedObject]?)] = []
        while let record = try reader.next(into: &slots) {
            let routed = plan.routes.route(takingRecordIn: slots, matchedBy: record.patternIndex)
            guard let route = routed.route else { continue }
            let draft = try? full.draft(record: record, route: plan.routes[route], slots: slots, tree: routed.tree)
            var drafts: [ObjectDraft] = []
            func collect(_ draft: ObjectDraft) {
                drafts.append(draft)
                for case .object(let nested)? in draft.toOne { collect(nested) }
                for list in draft.toMany { for case .object(let nested) in list ?? [] { collect(nested) } }
            }
            if let draft { collect(draft) }
            let walked = try? light.lightWalk(record: record, route: plan.routes[route], slots: slots, tree: routed.tree)
            results.append((draft?.walked, drafts, walked))
        }
        return results
    }

    /// The digests of the full draft's objects of one record.
    static func digests(map: String = Self.map, record: String) throws -> [ContentDigest?] {
        let results = try drafted(map: map, json: "[\(record)]")
        try #require(results.count == 1 && results[0].full != nil, "\(record)")
        return results[0].drafts.map(\.contentDigest)
    }

    @Test(arguments: 0..<4)
    func equalMappedBytesGiveEqualDigests(_ seed: UInt64) throws {
        var random = GraphRandom(state: seed)
        for _ in 0..<40 {
            let record = Self.post(&random)
            let digests = try Self.digests(record: record.text())
            #expect(digests.allSatisfy { $0 != nil })
            let rearranged = record.rearranged(&random)
            #expect(try Self.digests(record: rearranged.text(escapesAll: random.chance(1, in: 2))) == digests, "\(rearranged.text())")
        }
    }

    /// Each change of what the map reads in the record's own object: a mapped byte, a member's
    /// presence, null against absent, a link's key, the order of a to-many's elements.
    static func mutations(of members: [(String, JSON)]) -> [[(String, JSON)]] {
        var changed: [[(String, JSON)]] = []
        for (index, (name, value)) in members.enumerated() {
            var removed = members
            removed.remove(at: index)
            if name != "id" { changed.append(removed) }
            func with(_ replacement: JSON) {
                var copy = members
                copy[index] = (name, replacement)
                changed.append(copy)
            }
            switch value {
            case .literal(let text) where name == "id": with(.literal(String((Int64(text) ?? 0) &+ 1)))
            case .literal("null") where name == "title": with(.string("null"))
            case .literal("null") where name == "score": with(.literal("0"))
            case .literal("null") where name == "flag": with(.literal("true"))
            case .literal("null"): changed.append(removed)
            case .literal("true"): with(.literal("false"))
            case .literal("false"): with(.literal("null"))
            case .literal(let text) where name == "score": with(.literal(text == "1" ? "1.0" : "1"))
            case .literal(let text): with(.literal(String((Int64(text) ?? 0) &+ 1)))
            case .string(let text): with(.string(text + "a"))
            case .object(var userMembers):
                if case .literal(let id) = userMembers[0].1 { userMembers[0].1 = .literal(String((Int64(id) ?? 0) &+ 1)) }
                with(.object(userMembers))
            case .array(let elements) where name == "tags":
                if elements.count >= 2 { with(.array(elements.reversed())) }
                if !elements.isEmpty { with(.array(Array(elements.dropLast()))) }
                with(.array(elements + [.string("new tag")]))
            default: break
            }
        }
        return changed
    }

    @Test(arguments: 0..<4)
    func anyChangeOfWhatTheMapReadsChangesTheDigest(_ seed: UInt64) throws {
        var random = GraphRandom(state: 100 + seed)
        for _ in 0..<25 {
            guard case .object(let members) = Self.post(&random) else { continue }
            let digest = try Self.digests(record: JSON.object(members).text())[0]
            for changed in Self.mutations(of: members) {
                let text = JSON.object(changed).text()
                #expect(try Self.digests(record: text)[0] != digest, "\(text)")
            }
        }
    }

    /// A map that reads the same bytes otherwise (another entity beside) gives other digests.
    @Test func theMapIsPartOfTheDigest() throws {
        var random = GraphRandom(state: 7)
        let other = Self.map + "\nentity Label\n  key code\n  code : String\n"
        for _ in 0..<20 {
            let record = Self.post(&random).text()
            let theirs = try Self.digests(map: other, record: record)
            let ours = try Self.digests(record: record)
            #expect(zip(ours, theirs).allSatisfy { $0 != $1 })
        }
    }

    /// A slot digest is never the drafted digest of the same draft.
    @Test func aSlotDigestIsNotADraftedDigest() throws {
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        var random = GraphRandom(state: 11)
        for _ in 0..<20 {
            for draft in try Self.drafted(map: Self.map, json: "[\(Self.post(&random).text())]")[0].drafts {
                #expect(draft.contentDigest != draft.draftedDigest(seed: plan.digestSeed))
            }
        }
    }

    /// Objects whose draft reads their tree (`$index` here) keep the drafted digest, and a
    /// record that holds one is one the light walk cannot take.
    @Test func objectsThatReadTheirTreeKeepTheDraftedDigest() throws {
        // Tag, the map's last entity.
        let map = Self.map + "\n  pos <- $index : Int?\n"
        let plan = try ImportPlan.compile(text: map, fileName: "test.map")
        var random = GraphRandom(state: 13)
        var tagObjects = 0
        for _ in 0..<40 {
            let result = try Self.drafted(map: map, json: "[\(Self.post(&random).text())]")[0]
            let tags = result.drafts.filter { plan.entities[$0.entity].name == "Tag" }
            tagObjects += tags.count
            for tag in tags { #expect(tag.contentDigest == tag.draftedDigest(seed: plan.digestSeed)) }
            #expect((result.light == nil) == !tags.isEmpty)
        }
        #expect(tagObjects > 10)
    }

    /// The light walk's contract: where it does not say "cannot", its list is the full draft's
    /// objects (with their digests, all slot digests) and references, in order.
    @Test(arguments: 0..<4)
    func theLightWalkListsWhatTheFullDraftMakes(_ seed: UInt64) throws {
        var random = GraphRandom(state: 200 + seed)
        let records = (0..<60).map { _ in Self.post(&random).text() }
        let results = try Self.drafted(map: Self.map, json: "[" + records.joined(separator: ",\n") + "]")
        #expect(results.count == records.count)
        for (result, record) in zip(results, records) {
            let light = try #require(result.light, "\(record)")
            #expect(light == result.full, "\(record)")
            #expect(result.drafts.allSatisfy { $0.contentDigest != nil })
        }
    }

    /// The light walk converts no non-key value, so it takes a record the full draft refuses for
    /// one (see `lightWalk`); a key that does not convert it refuses as the full draft does.
    @Test func theLightWalkChecksKeysOnly() throws {
        let results = try Self.drafted(map: Self.map, json: #"[{"id": 1, "score": "many"}, {"id": "x"}, {"id": 2, "user": "y"}]"#)
        #expect(results.count == 3)
        #expect(results[0].full == nil && results[0].light?.count == 1)
        #expect(results[1].full == nil && results[1].light == nil)
        #expect(results[2].full == nil && results[2].light == nil)
    }
}

/// A harness, not a test: with `GRAPHIMPORT_LIGHT_WALK_FEED` set to a feed of tweets (and
/// `GRAPHIMPORT_LIGHT_WALK_MODE` `light` or `full`), drafts its every record one way, so that
/// callgrind counts the instructions of the light walk against the full draft's (inclusive costs
/// of `DraftBuilder.lightWalk` and `DraftBuilder.draft(record:…)` by `callgrind_annotate
/// --inclusive=yes`). Off unless the feed is given.
@Suite("The light walk's cost")
struct LightWalkBenchmark {
    static let feed = ProcessInfo.processInfo.environment["GRAPHIMPORT_LIGHT_WALK_FEED"]

    @Test(.enabled(if: feed != nil))
    func lightWalkBenchmark() throws {
        let map = try String(contentsOf: repositoryRoot.appendingPathComponent("Mappings/tweets.map"), encoding: .utf8)
        let light = ProcessInfo.processInfo.environment["GRAPHIMPORT_LIGHT_WALK_MODE"] == "light"
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Self.feed ?? "")))
        let plan = try ImportPlan.compile(text: map, fileName: "tweets.map")
        let hooks = ImportHooks()
        let reader = plan.recordReader(source: BytesSource(bytes), projections: plan.projections(hooks: hooks), format: .auto)
        var builder = DraftBuilder(plan: plan, hooks: EntityHooks.bind(hooks, to: plan))
        builder.readsSlots = true
        var slots = JSONSlots()
        var records = 0
        var walked = 0
        while let record = try reader.next(into: &slots) {
            let routed = plan.routes.route(takingRecordIn: slots, matchedBy: record.patternIndex)
            guard let route = routed.route else { continue }
            records += 1
            if light {
                if try builder.lightWalk(record: record, route: plan.routes[route], slots: slots, tree: routed.tree) != nil { walked += 1 }
            } else {
                _ = try builder.draft(record: record, route: plan.routes[route], slots: slots, tree: routed.tree)
            }
        }
        print("records \(records), light walks \(light ? walked : 0)")
    }
}

extension SlotDigestTests {
    /// `lightRecord` hands over the light walk's objects and references, in order, and drafts
    /// (nil) a record the light walk cannot take or refuses.
    @Test func aLightRecordHoldsTheLightWalk() throws {
        let plan = try ImportPlan.compile(text: Self.map, fileName: "test.map")
        let hooks = ImportHooks()
        var random = GraphRandom(state: 17)
        let records = (0..<30).map { _ in Self.post(&random).text() } + [#"{"id": "x"}"#]
        let json = "[" + records.joined(separator: ",\n") + "]"
        let reader = plan.recordReader(source: BytesSource(Array(json.utf8)), projections: plan.projections(hooks: hooks), format: .auto)
        var builder = DraftBuilder(plan: plan, hooks: EntityHooks.bind(hooks, to: plan))
        builder.readsSlots = true
        var walker = builder
        var slots = JSONSlots()
        var handed = 0
        while let record = try reader.next(into: &slots) {
            let route = try #require(plan.routes.route(takingRecordIn: slots, matchedBy: record.patternIndex).route)
            let walked = try? walker.lightWalk(record: record, route: plan.routes[route], slots: slots)
            let light = builder.lightRecord(record: record, route: route, routes: plan.routes, slots: slots)
            guard let light else {
                #expect(walked == nil || walked == [])
                continue
            }
            handed += 1
            let objects = light.objects.map { WalkedObject.object(entity: $0.entity, key: $0.key, digest: $0.digest) }
            let references = light.references.map { WalkedObject.reference(entity: $0.entity, key: $0.key) }
            #expect(objects == walked?.filter { if case .object = $0 { true } else { false } })
            #expect(references == walked?.filter { if case .reference = $0 { true } else { false } })
            #expect(light.record.index == record.index && light.route == route)
        }
        #expect(handed == 30)
    }
}
