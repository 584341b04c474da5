@testable import GraphImportJSON
import Testing

/// Reads the records of `$[*]` from `text`, building only what `projection` keeps.
private func project(_ text: String, _ projection: JSONProjection, bufferSize: Int = 1 << 16) throws(JSONError) -> [String] {
    let reader = JSONRecordReader(
        source: BytesSource(Array(text.utf8)), patterns: [.everyElement], projections: [projection],
        options: JSONReaderOptions(bufferSize: bufferSize))
    var texts: [String] = []
    while let record = try reader.next() { texts.append(record.value.jsonText) }
    return texts
}

private func projectionFailure(_ text: String, _ projection: JSONProjection) -> String {
    do throws(JSONError) {
        _ = try project(text, projection)
        return "accepted"
    } catch {
        return error.description
    }
}

/// The member `projection.member(of:matching:)` finds for `key` at the root, from a padded copy
/// of its bytes (as the scanner's buffer is padded).
private func lookUp(_ key: String, in projection: JSONProjection) -> Int? {
    let padded = Array(key.utf8) + Array(repeating: 0xAA, count: 8)
    return padded.withUnsafeBufferPointer { projection.member(of: 0, matching: UnsafeBufferPointer(rebasing: $0[..<key.utf8.count])) }
}

/// `{id, user: {id, name}, tags: [{text}], retweet: <the same>}`, where `tags` elements keep only `text`.
private func tweetProjection() -> JSONProjection {
    // 0 tweet, 1 user, 2 tag, 3 whole values. A retweet is read as a tweet again: the graph has a cycle.
    JSONProjection(
        nodes: [
            .init(members: ["id": 3, "user": 1, "tags": 2, "retweet": 0]), .init(members: ["id": 3, "name": 3]), .init(members: ["text": 3]),
            .init(keepsAll: true),
        ], root: 0)
}

@Suite("Projections: building only what a map reads")
struct JSONProjectionTests {
    @Test func keepsOnlyProjectedMembersAtEveryLevelAndSeesThroughArrays() throws {
        let feed = """
            [{"id":1,"junk":{"deep":[1,2,{"x":null}]},"user":{"id":5,"name":"Ann","bio":"long text"},
              "tags":[{"text":"a","indices":[0,1]},{"text":"b"}],"retweet":{"id":0,"user":{"id":6,"pic":"p"},"junk":true}}]
            """
        #expect(
            try project(feed, tweetProjection()) == [
                #"{"id":1,"user":{"id":5,"name":"Ann"},"tags":[{"text":"a"},{"text":"b"}],"retweet":{"id":0,"user":{"id":6}}}"#
            ])
    }

    @Test func allKeepsTheWholeValueAndScalarsAreKeptWhateverTheProjection() throws {
        let feed = #"[{"id":1,"user":"not an object","more":[1,{"a":2}]},7]"#
        #expect(try project(feed, .all) == [#"{"id":1,"user":"not an object","more":[1,{"a":2}]}"#, "7"])
        #expect(try project(feed, tweetProjection()) == [#"{"id":1,"user":"not an object"}"#, "7"])
    }

    /// Skipped values are still checked: a broken feed is the same error, at the same place,
    /// whatever the map reads of it.
    @Test func syntaxErrorInsideASkippedValueIsReportedWhereItIs() {
        let broken = "[{\"id\":1,\n \"junk\":{\"a\":[1,2,}}]"
        let failure = projectionFailure(broken, tweetProjection())
        #expect(failure.contains("line 2, column 19"))
        #expect(failure == projectionFailure(broken, .all))
    }

    @Test func duplicateKeyAmongSkippedMembersIsStillFound() {
        let failure = projectionFailure(#"[{"id":1,"junk":1,"junk":2}]"#, tweetProjection())
        #expect(failure.contains(#"column 19: duplicate key "junk""#))
        // Between a kept member and a skipped one, in a nested object, past the linear search's
        // limit; each the same error as without a projection.
        let many = (0..<100).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        // Kept members past the limit too, where the check goes by the key's text (a kept key is
        // otherwise remembered only as its member of the projection).
        for feed in [
            #"[{"id":1,"user":{"id":1,"pic":1,"id":2}}]"#, #"[{"id":1,\#(many),"k7":0}]"#, #"[{"id":1,"x":0,"id":2}]"#,
            #"[{\#(many),"id":1,"id":2}]"#, #"[{"id":1,\#(many),"id":2}]"#, #"[{\#(many),"user":{"id":1},"tags":[],"user":2}]"#,
            // A kept key repeated after its value's own keys were read.
            #"[{"user":{"id":1,"name":"a"},"user":2}]"#,
        ] {
            let failure = projectionFailure(feed, tweetProjection())
            #expect(failure.contains("duplicate key"))
            #expect(failure == projectionFailure(feed, .all))
        }
    }

    /// The window drops bytes once past them; skipping inside a record must not lose its place.
    /// Members are found by a table per node: many keys of one length and the same first, middle
    /// and last bytes (one slot to start from), the empty key and keys that are nearly members.
    @Test func findsEveryKeptMemberAmongKeysThatShareTheirSlot() {
        let kept = (0..<40).map { "a" + String(repeating: "m", count: $0 % 3) + "\($0 % 10)" + "z" } + [""]
        var members: [String: Int] = [:]
        for key in kept { members[key] = 1 }
        let projection = JSONProjection(nodes: [.init(members: members), .init(keepsAll: true)], root: 0)
        let table = Set(kept)
        for key in table {
            let found = lookUp(key, in: projection)
            #expect(found.map { projection.key(of: $0) } == key)
        }
        for key in ["a0", "a0zz", "b0z", "am0y", "amm9z ", "z", "\u{0}"] {
            let found = lookUp(key, in: projection)
            #expect(found == nil, "\(key) is not a member")
        }
        // A node without members finds nothing.
        let none = JSONProjection(nodes: [.init(members: [:])], root: 0)
        #expect(lookUp("a0z", in: none) == nil)
    }

    /// Keys of up to 16 bytes are compared as two words, longer ones byte for byte: keys that
    /// share their first and last eight bytes, or differ only past the 16th, are told apart.
    @Test func findsLongKeysThatShareTheirWords() {
        let kept = ["abcdefgh", "abcdefghabcdefgh", "abcdefghXabcdefgh", "abcdefghYabcdefgh", "abcdefgh12345678abcdefgh", "é€😀"]
        var members: [String: Int] = [:]
        for key in kept { members[key] = 1 }
        let projection = JSONProjection(nodes: [.init(members: members), .init(keepsAll: true)], root: 0)
        for key in kept { #expect(lookUp(key, in: projection).map { projection.key(of: $0) } == key) }
        for key in ["abcdefg", "abcdefghi", "abcdefghZabcdefgh", "abcdefgh12345679abcdefgh", "abcdefgh1234567abcdefgh", "é€😁"] {
            #expect(lookUp(key, in: projection) == nil, "\(key) is not a member")
        }
    }

    /// A kept key's duplicate check is its bit among its node's first 64 members; the members past
    /// those, and every skipped key, go through the key log. A repeat of each kind is the same
    /// error as without a projection, and an object with each kept key once is read whole.
    @Test func duplicateKeptKeysAreFoundWithAndWithoutTheirBit() throws {
        var members: [String: Int] = [:]
        for index in 0..<80 { members["k\(index)"] = 1 }
        let projection = JSONProjection(nodes: [.init(members: members), .init(keepsAll: true)], root: 0)
        // Members are numbered in the order of their keys: "k0", "k1", "k10", … "k79", "k8", "k9".
        let all = (0..<80).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let skipped = (0..<70).map { #""s\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(try project("[{\(all),\(skipped)}]", projection) == ["{\(all)}"])
        for feed in [
            #"[{"k1":1,"s":0,"k1":2}]"#, #"[{"k9":1,"k8":0,"k9":2}]"#, "[{\(all),\"k9\":0}]", "[{\(skipped),\(all),\"k3\":0}]",
            "[{\(all),\(skipped),\"s3\":0}]", #"[{"k1":{"k1":1,"k2":2},"k2":3,"k1":4}]"#,
        ] {
            let failure = projectionFailure(feed, projection)
            #expect(failure.contains("duplicate key"), "\(feed)")
            #expect(failure == projectionFailure(feed, .all), "\(feed)")
        }
    }

    /// Objects read by a shape learnt from the records before them (`KeyShapes`): a duplicate
    /// after the shape's keys, where an object leaves its shape (an escaped key leaves it too) or
    /// in a nested object is the same error as without a projection; and records that follow a
    /// shape, leave it partway, outgrow it, stop short of it or start another are read as they
    /// are when each is read alone, before any shape is learnt.
    @Test func objectsReadByTheirShapeKeepEveryRule() throws {
        let teach = #"{"id":1,"x":0,"user":{"id":1,"pic":1},"junk":2}"#
        for body in [
            #"{"id":1,"x":0,"user":{"id":1,"pic":1},"junk":2,"id":3}"#, #"{"id":1,"x":0,"user":{"id":1,"pic":1},"junk":2,"x":3}"#,
            #"{"id":1,"x":0,"x":1}"#, #"{"id":1,"x":0,"\u0078":1}"#, #"{"id":1,"x":0,"user":{"id":1,"pic":1,"id":2}}"#,
            #"{"id":1,"junk":2,"id":3}"#, #"{"id":1,"x":0,"user":{"id":1,"pic":1},"junk":2,"user":3}"#,
        ] {
            let feed = "[" + teach + "," + teach + "," + body + "]"
            let failure = projectionFailure(feed, tweetProjection())
            #expect(failure.contains("duplicate key"), "\(body)")
            #expect(failure == projectionFailure(feed, .all), "\(body)")
        }
        let records = [
            teach, #"{"id":2,"x":0,"user":{"id":2},"junk":2}"#, #"{"id":3,"x":0,"user":{"id":3,"pic":1},"junk":2,"tags":[{"text":"t"}]}"#,
            #"{"id":4}"#, #"{"junk":1,"id":5,"x":0}"#, #"{"id":6,"user":{"pic":0,"id":6},"x":0}"#, #"{"id":7,"\u0078":0,"user":{"id":7}}"#,
            #"{"id":8,"x":0,"retweet":{"id":9,"x":0,"user":{"id":1,"pic":1},"junk":2},"user":{"id":8,"pic":1}}"#, teach,
        ]
        let oneByOne = try records.flatMap { try project("[\($0)]", tweetProjection()) }
        #expect(try project("[" + records.joined(separator: ",") + "]", tweetProjection()) == oneByOne)
        #expect(oneByOne[7] == #"{"id":8,"retweet":{"id":9,"user":{"id":1}},"user":{"id":8}}"#)
    }

    /// A key of its object's shape is compared where it stands (`KeyShapes.isAt`), by its first
    /// and last eight bytes up to 16 and whole past that: keys of every length from 0 to 20, each
    /// then changed in its first, middle or last byte, lengthened or shortened by one, give the
    /// records they give when each record is read alone, and a repeat of one is a duplicate.
    @Test func shapeKeysOfEveryLengthAreComparedWhole() throws {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let keys = (0...20).map { length in String((0..<length).map { letters[(length + $0) % 26] }) }
        let shapeNode = JSONProjection.Node(members: Dictionary(uniqueKeysWithValues: keys.enumerated().filter { $0.offset % 2 == 0 }.map { ($0.element, 0) }))
        let projection = JSONProjection(nodes: [JSONProjection.Node(keepsAll: true), shapeNode], root: 1)
        func record(_ keys: [String]) -> String { "{" + keys.enumerated().map { #""\#($0.element)":\#($0.offset)"# }.joined(separator: ",") + "}" }
        let teach = record(keys)
        var records = [teach, teach]
        for (index, key) in keys.enumerated() where !key.isEmpty {
            let half = key.count / 2
            let changes: [String] = [
                "Z" + String(key.dropFirst()), String(key.prefix(half)) + "Z" + String(key.dropFirst(half + 1)), String(key.dropLast()) + "Z",
                key + "Z", String(key.dropLast()),
            ]
            for changed in changes {
                var other = keys
                other[index] = changed
                if Set(other).count == other.count { records.append(record(other)) }
            }
        }
        records.append(teach)
        let oneByOne = try records.flatMap { try project("[\($0)]", projection) }
        #expect(try project("[" + records.joined(separator: ",") + "]", projection) == oneByOne)
        #expect(oneByOne.count == records.count)
        // A kept key (its bit) and a skipped one (the log) repeated after the shape's keys.
        for repeated in [keys[16], keys[17]] {
            let feed = "[" + teach + "," + teach + "," + record(keys + [repeated]) + "]"
            #expect(projectionFailure(feed, projection).contains("duplicate key"))
            #expect(projectionFailure(feed, projection) == projectionFailure(feed, .all))
        }
    }

    /// A skipped member's scalar is stepped over without `skipValue` (`skipMemberValue`): each
    /// kind of damage to one, through windows small enough to cut it, is the error reading
    /// everything gives, at the same position; an undamaged one is skipped.
    @Test func damagedSkippedScalarsFailAsWhenEverythingIsRead() throws {
        let damaged = [
            "nul", "nulx", "tru", "fals", "-", "01", "1.", "1e", "--1", #""abc"#, "\"a\u{01}b\"", #""a\qb""#, #""\u12""#, "x",
        ]
        for junk in damaged {
            for bufferSize in [5, 16, 1 << 16] {
                let feed = #"[{"id":1,"junk":\#(junk),"user":{"id":2}}]"#
                func failure(_ projection: JSONProjection) -> String {
                    do throws(JSONError) {
                        _ = try project(feed, projection, bufferSize: bufferSize)
                        return "accepted"
                    } catch {
                        return error.description
                    }
                }
                #expect(failure(tweetProjection()) != "accepted", "\(junk)")
                #expect(failure(tweetProjection()) == failure(.all), "\(junk), window \(bufferSize)")
            }
        }
        let plain = #"[{"id":1,"a":"x","b":-1.5e3,"c":true,"d":false,"e":null,"user":{"id":2}}]"#
        #expect(try project(plain, tweetProjection()) == [#"{"id":1,"user":{"id":2}}"#])
    }

    @Test func smallReadWindowGivesTheSameRecords() throws {
        let records = (0..<50).map { #"{"id":\#($0),"junk":"\#(String(repeating: "x", count: $0 * 7))","user":{"id":\#($0),"bio":[\#($0)]}}"# }
        let feed = "[" + records.joined(separator: ",") + "]"
        #expect(try project(feed, tweetProjection(), bufferSize: 16) == project(feed, tweetProjection()))
        #expect(try project(feed, tweetProjection()).last == #"{"id":49,"user":{"id":49}}"#)
    }
}

@Suite("The key log of duplicate checks")
struct KeyLogTests {
    private func keys(_ log: KeyLog) -> [String] {
        (0..<log.count).map { String(decoding: log.key(at: $0, end: log.byteCount), as: UTF8.self) }
    }

    private func append(_ key: String, to log: inout KeyLog) {
        Array(key.utf8).withUnsafeBufferPointer { bytes in
            let start = log.appendBytes(bytes)
            log.record(hash: UInt32(key.utf8.count), start: start)
        }
    }

    /// Growing past the first buffers keeps every key, and a copy that grows leaves the other
    /// copy's keys where they were (its memory is not freed under it).
    @Test func keepsKeysAcrossGrowthAndCopies() {
        var log = KeyLog(byteCapacity: 4, entryCapacity: 2)
        for index in 0..<10 { append("key\(index)", to: &log) }
        #expect(keys(log) == (0..<10).map { "key\($0)" })
        let copy = log
        for index in 10..<200 { append("key\(index)", to: &log) }
        #expect(keys(copy) == (0..<10).map { "key\($0)" })
        #expect(keys(log) == (0..<200).map { "key\($0)" })
        log.truncate(count: 3, byteCount: 12)
        #expect(keys(log) == ["key0", "key1", "key2"])
        #expect(log.hash(at: 2) == 4)
    }
}
