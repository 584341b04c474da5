import GraphImport
import GraphImportJSON
import GraphImportMapping
import GraphImportSchema
import GraphImportStoreTestSupport
import Testing

/// Movies with a director and a cast; the attributes without `<-` that hooks fill read keys no feed has.
private let moviesMap = """
    records at $[*] as Movie
    entity Movie
      key id
      extras rest
      id : Int
      title : String
      startsAt <- starts : Date? | iso8601
      endsAt <- ends : Date? | iso8601
      status : String default "new"
      seenStatus : String?
      firstTitle : String?
      minutes : Int?
      director : Person?
      cast : [Person]
    entity Person
      key id
      id : Int
      name : String
    """

/// Refuses a movie whose end is not after its start, judged on the whole object (stored and new values).
private let endsAfterStarts: @Sendable (ObjectValues) throws(HookFailure) -> Void = { movie throws(HookFailure) in
    // Dates are stored as ISO 8601 text in UTC, which sorts as time does.
    if case .text(let starts)? = movie["startsAt"], case .text(let ends)? = movie["endsAt"], ends <= starts {
        throw HookFailure("ends at \(ends), before it starts at \(starts)")
    }
}

/// Refuses an item titled "a" whose `onchange` mark says it changed.
private func refusesAChangedFirstTitle(_ item: ObjectValues) throws(HookFailure) {
    if item["mark"] == .text("changed") && item["title"] == .text("a") { throw HookFailure("changed") }
}

/// Refuses item "b2" whose `seen` is not what `onInsert` set (1).
private func refusesB2UnlessSeenIsOnInserts(_ item: ObjectValues) throws(HookFailure) {
    if item["title"] == .text("b2") && item["seen"] != .integer(1) { throw HookFailure("sees \(String(describing: item["seen"]))") }
}

/// Refuses person 13, a stub as much as an object the feed gives.
private func refusesThirteen(_ person: ObjectValues) throws(HookFailure) {
    if case .integer(13)? = person["id"] { throw HookFailure("13 is unlucky") }
}

private func movie(_ id: Int, title: String = "Heat", starts: String = "2024-01-01", ends: String = "2024-01-02", more: String = "") -> String {
    #"{"id":\#(id),"title":"\#(title)","starts":"\#(starts)","ends":"\#(ends)""# + more + "}"
}

@Suite("Swift hooks")
struct HookTests {
    @Test(arguments: StoreKind.testable)
    func onInsertSetsValuesOnlyWhenTheObjectIsInserted(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: moviesMap)
        var hooks = ImportHooks()
        hooks.onInsert["Movie"] = { movie in
            movie["firstTitle"] = movie["title"]
            movie["seenStatus"] = movie["status"]  // the map's defaults are already set
        }
        try store.run("[\(movie(1, title: "Heat"))]", hooks: hooks)
        #expect(try store.select("SELECT first_title, seen_status FROM movies") == [["Heat", "new"]])
        let summary = try store.run("[\(movie(1, title: "Heat 4K"))]", hooks: hooks)
        #expect(summary.counts(of: "Movie") == [0, 1, 0, 0])
        #expect(try store.select("SELECT title, first_title FROM movies") == [["Heat 4K", "Heat"]])
    }

    /// An object new in the run is inserted once: a later occurrence is an update, which
    /// `onInsert` does not see, and `beforeSave` judges it with what the earlier one wrote;
    /// whether the writer still holds the object (one batch) or has written it.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func aLaterOccurrenceInTheRunIsAnUpdate(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: moviesMap, batchSize: batchSize)
        var hooks = ImportHooks()
        hooks.onInsert["Movie"] = { movie in movie["firstTitle"] = movie["title"] }
        hooks.beforeSave["Movie"] = endsAfterStarts
        let later = #"{"id":1,"title":"Heat 4K","ends":"2024-01-01"}"#
        #expect(store.recordFailure("[\(movie(1, title: "Heat", starts: "2024-01-02", ends: "2024-01-03")),\(later)]", hooks: hooks)?.recordIndex == 1)
        let summary = try store.run("[\(movie(1, title: "Heat")),\(movie(2)),\(later.replacingOccurrences(of: "01-01", with: "02-01"))]", hooks: hooks)
        #expect(try store.select("SELECT id, title, first_title FROM movies ORDER BY id") == [["1", "Heat 4K", "Heat"], ["2", "Heat", "Heat"]])
        #expect(summary.counts(of: "Movie") == [2, 0, 0, 0])
    }

    /// A stub is inserted like any new object: `onInsert` and `beforeSave` see it, with its key
    /// and defaults; a stored object named by key is not inserted again.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func hooksSeeAStubAsANewObject(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(
            kind,
            map: directorStubsMap(
                person: """
                      role : String default "director"
                      label : String?
                    """), batchSize: batchSize)
        var hooks = ImportHooks()
        hooks.onInsert["Person"] = { person in
            if case .text(let role)? = person["role"], case .integer(let id)? = person["id"] { person["label"] = .text("\(role) \(id)") }
        }
        hooks.beforeSave["Person"] = refusesThirteen
        try store.run(#"[{"id":1,"director_id":7},{"id":2,"director_id":7}]"#, hooks: hooks)
        #expect(try store.select("SELECT id, label FROM people") == [["7", "director 7"]])
        var skipped: [RecordError] = []
        let summary = try store.run(
            #"[{"id":3,"director_id":13},{"id":4,"director_id":7}]"#, hooks: hooks, options: ImportOptions(skipInvalid: true),
            onSkip: { skipped.append($0) })
        #expect(skipped.map { [$0.member, $0.message] } == [["Person", "13 is unlucky"]])
        #expect(try store.select("SELECT id FROM movies ORDER BY id") == [["1"], ["2"], ["4"]])
        #expect(summary.counts(of: "Person") == [0, 0, 0, 0])
    }

    /// With a batch of one object, the records before the refused one were sent to the server: rolled back all the same.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func beforeSaveRejectionStopsTheImportAndLeavesTheStoreAlone(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: moviesMap, batchSize: batchSize)
        var hooks = ImportHooks()
        hooks.beforeSave["Movie"] = endsAfterStarts
        try store.run("[\(movie(1))]", hooks: hooks)
        let before = try store.rows()
        let error = store.recordFailure("[\(movie(1, title: "changed")),\(movie(2, ends: "2023-12-31"))]", hooks: hooks)
        #expect(error?.recordIndex == 1)
        #expect(error?.path == "$[1]")
        #expect(error?.member == "Movie")
        #expect(error?.message == "ends at 2023-12-31T00:00:00.000Z, before it starts at 2024-01-01T00:00:00.000Z")
        #expect(error?.hint == "the map's Swift hooks refused the object")
        #expect(try store.rows() == before)
    }

    @Test(arguments: StoreKind.testable)
    func beforeSaveJudgesStoredValuesMergedWithTheFeeds(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: moviesMap)
        var hooks = ImportHooks()
        hooks.beforeSave["Movie"] = endsAfterStarts
        try store.run("[\(movie(1, starts: "2024-01-02", ends: "2024-01-03"))]", hooks: hooks)
        // The record has no start; the stored one makes the new end too early.
        let error = store.recordFailure(#"[{"id":1,"title":"Heat","ends":"2024-01-01"}]"#, hooks: hooks)
        #expect(error?.member == "Movie")
        let summary = try store.run(#"[{"id":1,"title":"Heat","ends":"2024-01-04"}]"#, hooks: hooks)
        #expect(summary.counts(of: "Movie") == [0, 1, 0, 0])
    }

    /// The rejected record changed director 5 and inserted person 6 before the movie was refused;
    /// both are undone in the store and in the run's memory, so counts and later records see neither.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func beforeSaveRejectionUnderSkipInvalidUndoesOnlyThatRecord(kind: StoreKind, batchSize: Int) throws {
        let store = try MappedStore(kind, map: moviesMap, batchSize: batchSize)
        var hooks = ImportHooks()
        hooks.beforeSave["Movie"] = endsAfterStarts
        try store.run("[\(movie(1, more: #","director":{"id":5,"name":"Ann"}"#))]", hooks: hooks)
        var skipped: [RecordError] = []
        let summary = try store.run(
            """
            [\(movie(1, more: #","director":{"id":5,"name":"Ann"}"#)),
             \(movie(2, ends: "2023-01-01", more: #","director":{"id":5,"name":"Changed"},"cast":[{"id":6,"name":"New"}]"#)),
             \(movie(3, more: #","cast":[{"id":6,"name":"New"}]"#))]
            """, hooks: hooks, options: ImportOptions(skipInvalid: true), onSkip: { skipped.append($0) })
        #expect(skipped.map(\.recordIndex) == [1])
        #expect(skipped.first?.member == "Movie")
        #expect(summary.counts(of: "Movie") == [1, 0, 1, 1])
        #expect(summary.counts(of: "Person") == [1, 0, 1, 0])
        #expect(try store.select("SELECT id, name FROM people ORDER BY id") == [["5", "Ann"], ["6", "New"]])
        #expect(try store.select("SELECT id FROM movies ORDER BY id") == [["1"], ["3"]])
        #expect(
            try store.select(
                "SELECT people.id FROM movies JOIN movies_cast ON movies_pk = movies.pk JOIN people ON people.pk = people_pk WHERE movies.id = 3"
            ) == [["6"]])
    }

    /// Without a later record to set it back, a stale memory of director 5 would count it as updated.
    @Test(arguments: StoreKind.testable)
    func rejectedRecordsChangeToAnEarlierObjectIsNotCounted(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: moviesMap)
        var hooks = ImportHooks()
        hooks.beforeSave["Movie"] = endsAfterStarts
        try store.run("[\(movie(1, more: #","director":{"id":5,"name":"Ann"}"#))]", hooks: hooks)
        let summary = try store.run(
            "[\(movie(1, more: #","director":{"id":5,"name":"Ann"}"#)),\(movie(2, ends: "2023-01-01", more: #","director":{"id":5,"name":"Bo"}"#))]",
            hooks: hooks, options: ImportOptions(skipInvalid: true))
        #expect(summary.counts(of: "Person") == [0, 0, 1, 0])
        #expect(!summary.changed)
        #expect(try store.value("SELECT name FROM people") == "Ann")
    }

    @Test(arguments: StoreKind.testable)
    func keyHandlerTakesOverAKey(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: moviesMap)
        let summary = try store.run("[\(movie(1, more: #","runtime":"2h 22m","rating":"R""#))]", hooks: runtimeHooks)
        #expect(try store.value("SELECT minutes FROM movies") == "142")
        // The handled key is not an extra; the unhandled one is.
        #expect(summary.extrasKeys.first?.keys.map(\.key) == ["rating"])
        #expect(try store.value("SELECT rest FROM movies") == #"{"rating":"R"}"#)
    }

    @Test(arguments: StoreKind.testable)
    func keyHandlerRefusalIsARecordError(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: moviesMap)
        let error = store.recordFailure("[\(movie(1, more: #","runtime":"soon""#))]", hooks: runtimeHooks)
        #expect(error?.member == "Movie (key 'runtime')")
        #expect(error?.message == "runtime 'soon' is not like '2h 22m'")
        #expect(error?.path == "$[0].runtime")
        #expect(try store.tableNames() == [])
    }

    /// `beforeSave` sees an update as it is saved: `onchange` moved only by a change, and a feed
    /// value of an `always` attribute (replaced by its own) is none. Decided once for both stores
    /// (`ObjectDecisions.update`); PostgreSQL's copy once counted the `always` value as a change.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func beforeSaveSeesOnchangeMovedOnlyByAChange(kind: StoreKind, batchSize: Int) throws {
        let map = """
            records at $[*] as Item
            entity Item
              key id
              id : Int
              title : String
              seen <- seen : Int always 7
              mark <- mark : String onchange "changed"
            """
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        var hooks = ImportHooks()
        hooks.beforeSave["Item"] = refusesAChangedFirstTitle
        try store.run(#"[{"id":1,"title":"a","seen":1,"mark":"fresh"}]"#, hooks: hooks)
        let same = try store.run(#"[{"id":1,"title":"a","seen":2,"mark":"fresh"}]"#, hooks: hooks)
        #expect(same.counts(of: "Item") == [0, 0, 1, 0])
        #expect(store.recordFailure(#"[{"id":1,"title":"a","seen":2,"mark":"other"}]"#, hooks: hooks)?.message == "changed")
        try store.run(#"[{"id":1,"title":"b","seen":2,"mark":"fresh"}]"#, hooks: hooks)
        #expect(try store.select("SELECT title, seen, mark FROM items") == [["b", "7", "changed"]])
    }

    /// What `onInsert` sets on a new object stays, `always` attributes too: the engine's values of
    /// an update are those of an object stored before the run, not of a later occurrence of one
    /// the run inserted (nor of the end of the run on PostgreSQL), and the feed's value of an
    /// `always` attribute is never written. The next run's update sets them.
    @Test(arguments: StoreKind.testable, [5000, 1])
    func onInsertKeepsWhatItSetOnAnAlwaysAttributeForTheRun(kind: StoreKind, batchSize: Int) throws {
        let map = """
            records at $[*] as Item
            entity Item
              key id
              id : Int
              title : String
              seen <- seen : Int always 7
              mark : String onchange "changed"
            """
        let store = try MappedStore(kind, map: map, batchSize: batchSize)
        var hooks = ImportHooks()
        hooks.onInsert["Item"] = { item in
            item["seen"] = .integer(1)
            item["mark"] = .text("inserted")
        }
        // The hook judges the values as saved: the later occurrence's, over what `onInsert` set.
        hooks.beforeSave["Item"] = refusesB2UnlessSeenIsOnInserts
        try store.run(#"[{"id":1,"title":"a"},{"id":2,"title":"b"},{"id":2,"title":"b2","seen":5}]"#, hooks: hooks)
        #expect(try store.select("SELECT id, title, seen, mark FROM items ORDER BY id") == [["1", "a", "1", "inserted"], ["2", "b2", "1", "inserted"]])
        try store.run(#"[{"id":1,"title":"a"},{"id":2,"title":"c","seen":5},{"id":3,"title":"d"}]"#, hooks: hooks)
        #expect(
            try store.select("SELECT id, title, seen, mark FROM items ORDER BY id")
                == [["1", "a", "7", "inserted"], ["2", "c", "7", "changed"], ["3", "d", "1", "inserted"]])
    }

    @Test(arguments: StoreKind.testable)
    func keyWithoutHandlerGoesToExtras(kind: StoreKind) throws {
        let store = try MappedStore(kind, map: moviesMap)
        let summary = try store.run("[\(movie(1, more: #","runtime":"2h 22m""#))]")
        #expect(summary.extrasKeys.first?.keys.map(\.key) == ["runtime"])
        #expect(try store.value("SELECT minutes FROM movies") == "NULL")
    }

    @Test(arguments: StoreKind.testable)
    func customConverterAndValidatorAreUsableByNameFromAMap(kind: StoreKind) throws {
        let map = """
            entity Film
              key id
              id : Int
              minutes <- runtime : Int | hoursMinutes check multipleOf(2) "must be even"
            """
        let mapping = try MapParser.parse(
            map, fileName: "films.map", converters: customConverters.signatures, validators: customValidators.signatures)
        let plan = try ImportPlan(mapping: mapping, converters: customConverters, validators: customValidators)
        let store = try StoreUnderTest(kind)
        try store.run(#"[{"id":1,"runtime":"2h 22m"}]"#, plan: plan)
        #expect(try store.value("SELECT minutes FROM films") == "142")
        let record = store.recordFailure(#"[{"id":2,"runtime":"1h 1m"}]"#, plan: plan)
        #expect(record?.member == "Film.minutes")
        #expect(record?.message == "must be even (value: 61)")
        #expect(try store.select("SELECT id FROM films") == [["1"]])
    }

    @Test(arguments: StoreKind.testable)
    func customConverterErrorIsARecordError(kind: StoreKind) throws {
        let mapping = try MapParser.parse(
            "entity Film\n  key id\n  id : Int\n  minutes <- runtime : Int | hoursMinutes", fileName: "films.map",
            converters: customConverters.signatures)
        let plan = try ImportPlan(mapping: mapping, converters: customConverters)
        let store = try StoreUnderTest(kind)
        #expect(store.recordFailure(#"[{"id":1,"runtime":"long"}]"#, plan: plan)?.member == "Film.minutes")
    }

    @Test func mapNamingUnregisteredConverterOrCheckIsRefused() {
        let map = "entity Film\n  key id\n  id : Int\n  minutes <- runtime : Int | hoursMinutes check multipleOf(2)"
        #expect {
            _ = try MapParser.parse(
                map, fileName: "films.map", converters: ConverterCatalog.standard.signatures, validators: ValidatorCatalog.standard.signatures)
        } throws: { error in
            let messages = (error as? MappingErrors)?.diagnostics.map(\.message) ?? []
            return messages.contains("unknown converter 'hoursMinutes'") && messages.contains { $0.hasPrefix("unknown check 'multipleOf'") }
        }
    }
}

/// Minutes from `"2h 22m"`, `"95m"` or `"2h"`; nil for anything else.
private func minutes(_ text: String) -> Int64? {
    var total: Int64 = 0
    var found = false
    for part in text.split(separator: " ") {
        guard let unit = part.last, let number = Int64(part.dropLast()) else { return nil }
        switch unit {
        case "h": total += number * 60
        case "m": total += number
        default: return nil
        }
        found = true
    }
    return found ? total : nil
}

/// Hooks whose key handler turns `"runtime": "2h 22m"` into `minutes`.
private let runtimeHooks: ImportHooks = {
    var hooks = ImportHooks()
    hooks.keyHandlers["Movie"] = [
        "runtime": { value, movie throws(HookFailure) in
            guard case .string(let text) = value else { throw HookFailure("runtime must be text like '2h 22m'") }
            guard let total = minutes(text) else { throw HookFailure("runtime '\(text)' is not like '2h 22m'") }
            movie["minutes"] = .integer(total)
        }
    ]
    return hooks
}()

/// The standard converters plus `hoursMinutes`, which reads `"2h 22m"` as 142.
private let customConverters: ConverterCatalog = {
    var catalog = ConverterCatalog.standard
    catalog.register(
        Converter(signature: ConverterSignature(name: "hoursMinutes", parameters: [], summary: "\"2h 22m\" as minutes")) { _ throws(ConversionError) in
            { value throws(ConversionError) in
                guard case .json(.string(let text)) = value, let total = minutes(text) else {
                    throw ConversionError("is not a duration like '2h 22m'")
                }
                return .int(total)
            }
        })
    return catalog
}()

/// The standard checks plus `multipleOf(n)`.
private let customValidators: ValidatorCatalog = {
    var catalog = ValidatorCatalog.standard
    catalog.register(
        Validator(signature: ConverterSignature(name: "multipleOf", parameters: [.int], summary: "an integer multiple of n")) {
            arguments throws(ConversionError) in
            guard case .int(let divisor)? = arguments.first, divisor != 0 else { throw ConversionError("multipleOf needs a non-zero integer") }
            return { value in
                guard case .integer(let number) = value else { return "is not an integer" }
                return number % divisor == 0 ? nil : "must be a multiple of \(divisor)"
            }
        })
    return catalog
}()
