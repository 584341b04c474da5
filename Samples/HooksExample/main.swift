// hooks-example: what Swift code can add to a map, in one short program.
//
// It registers a converter and a check of its own, names them from the map, sets a value when an
// object is inserted, refuses a movie that ends before it starts, and reads a JSON key the map
// cannot ("runtime": "2h 50m"). It imports an embedded feed into a temporary store, prints the
// rows and exits 0. Run it with `swift run hooks-example`.

import Foundation
import GraphImport

let map = """
    records at $[*] as Movie
    entity Movie
      key id
      id : Int
      title : String | squish                 # a converter registered below
      rating : String check mpaa              # a check registered below
      startsAt <- starts : Date | iso8601
      endsAt <- ends : Date | iso8601
      minutes : Int?                          # set by the key handler for "runtime"
      firstSeenBy : String?                   # set by the onInsert hook
    """

let feed = """
    [{"id": 1, "title": "  Heat ", "rating": "R", "starts": "2024-05-01T20:00:00Z", "ends": "2024-05-01T22:50:00Z", "runtime": "2h 50m"},
     {"id": 2, "title": "Up", "rating": "PG", "starts": "2024-05-02T18:00:00Z", "ends": "2024-05-02T17:00:00Z", "runtime": "1h 36m"},
     {"id": 3, "title": "Alien", "rating": "R", "starts": "2024-05-03T21:00:00Z", "ends": "2024-05-03T22:57:00Z", "runtime": "1h 57m"}]
    """

/// Minutes in "2h 50m", "95m" or "2h"; nil for anything else.
func minutes(in text: String) -> Int64? {
    var total: Int64 = 0
    for part in text.split(separator: " ") {
        guard let number = Int64(part.dropLast()) else { return nil }
        switch part.last {
        case "h": total += number * 60
        case "m": total += number
        default: return nil
        }
    }
    return text.isEmpty ? nil : total
}

/// The standard converters, plus `| squish`: the text trimmed, with runs of spaces collapsed into one.
func makeConverters() -> ConverterCatalog {
    var converters = ConverterCatalog.standard
    converters.register(
        Converter(signature: ConverterSignature(name: "squish", parameters: [], summary: "text with single spaces, trimmed")) {
            _ throws(ConversionError) in
            { value throws(ConversionError) in
                guard case .json(.string(let text)) = value else { throw ConversionError("is not text") }
                return .string(text.split(separator: " ").joined(separator: " "))
            }
        })
    return converters
}

/// The standard checks, plus `check mpaa`: a film rating of the MPA.
func makeValidators() -> ValidatorCatalog {
    var validators = ValidatorCatalog.standard
    validators.register(
        Validator(signature: ConverterSignature(name: "mpaa", parameters: [], summary: "an MPA film rating")) { _ throws(ConversionError) in
            { value in
                guard case .text(let rating) = value, ["G", "PG", "PG-13", "R", "NC-17"].contains(rating) else { return "is not an MPA rating" }
                return nil
            }
        })
    return validators
}

/// A rule across fields, judged on the whole object (stored values merged with the feed's).
func endsAfterStarts(_ movie: ObjectValues) throws(HookFailure) {
    // Dates are stored as ISO 8601 text in UTC, so text order is time order.
    if case .text(let starts)? = movie["startsAt"], case .text(let ends)? = movie["endsAt"], ends <= starts {
        throw HookFailure("ends at \(ends), before it starts at \(starts)")
    }
}

/// Reads "runtime": "2h 50m" into `minutes`; the key then counts as mapped (it is not an extra).
func readRuntime(_ value: JSONValue, _ movie: inout ObjectValues) throws(HookFailure) {
    guard case .string(let text) = value, let total = minutes(in: text) else { throw HookFailure("runtime is not like '2h 50m'") }
    movie["minutes"] = .integer(total)
}

/// The hooks of the Movie entity, looked up by entity name (and JSON key).
func makeHooks() -> ImportHooks {
    var hooks = ImportHooks()
    // Runs only when a movie is new, after the map's defaults.
    hooks.onInsert["Movie"] = { movie in movie["firstSeenBy"] = .text("hooks-example") }
    hooks.beforeSave["Movie"] = endsAfterStarts
    hooks.keyHandlers["Movie"] = ["runtime": readRuntime]
    return hooks
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hooks-example-\(UUID().uuidString)")
let storePath = directory.appendingPathComponent("movies.sqlite").path
do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // The catalogs let the map name the custom converters and checks, and make them run.
    let plan = try ImportPlan.compile(text: map, fileName: "movies.map", converters: makeConverters(), validators: makeValidators())
    let summary = try GraphImporter(plan: plan, hooks: makeHooks()).run(
        source: BytesSource(Array(feed.utf8)), inputName: "feed", storePath: storePath, options: ImportOptions(skipInvalid: true),
        onSkip: { print("skipped \($0)") })
    print("imported \(summary.importedRecords) of \(summary.records) records, skipped \(summary.skippedRecords)")
    let graph = try ObjectGraph(store: storePath, plan: plan, readOnly: true)
    defer { graph.close() }
    for movie in try graph.objects("Movie", sortedBy: [.ascending("id")]) {
        let values = try ["id", "title", "rating", "minutes", "firstSeenBy"].map { name throws(GraphError) in try movie[name] }
        print(values.map { value in if case .text(let text) = value { text } else { value.description } }.joined(separator: " | "))
    }
} catch {
    print("hooks-example: error: \(error)")
    exit(1)
}
