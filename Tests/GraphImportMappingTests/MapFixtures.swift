import GraphImportMapping
import Testing

/// The converters the tests offer the parser: the engine's usual ones plus a few that exercise
/// every parameter kind and an optional parameter.
let testConverters: [ConverterSignature] = [
    ConverterSignature(name: "date", parameters: [.string], summary: "parses a date with a pattern"),
    ConverterSignature(name: "iso8601", parameters: [], summary: "parses an ISO 8601 date"),
    ConverterSignature(name: "epochSeconds", parameters: [], summary: "seconds since 1970"),
    ConverterSignature(name: "epochMillis", parameters: [], summary: "milliseconds since 1970"),
    ConverterSignature(name: "trim", parameters: [], summary: "removes surrounding spaces"),
    ConverterSignature(name: "lowercase", parameters: [], summary: "lowercases text"),
    ConverterSignature(name: "round", parameters: [.int], requiredCount: 0, summary: "rounds to N digits"),
    ConverterSignature(name: "scale", parameters: [.double], summary: "multiplies a number"),
    ConverterSignature(name: "replace", parameters: [.string, .string], summary: "replaces text"),
    ConverterSignature(name: "nonEmpty", parameters: [.bool], summary: "treats empty text as null"),
]

/// The validators the tests offer `check` clauses: those the engine plans to offer, one of them variadic.
let testValidators: [ConverterSignature] = [
    ConverterSignature(name: "url", parameters: [], summary: "an absolute URL"),
    ConverterSignature(name: "matches", parameters: [.string], summary: "matches a regular expression"),
    ConverterSignature(name: "range", parameters: [.double, .double], summary: "a number from min to max"),
    ConverterSignature(name: "length", parameters: [.int, .int], summary: "a text length from min to max"),
    ConverterSignature(name: "oneOf", parameters: [.string], requiredCount: 1, summary: "one of the values", isVariadic: true),
    ConverterSignature(name: "nonEmpty", parameters: [], summary: "not empty"),
]

/// Parses `text` as `test.map` with the test converters and validators.
func parse(_ text: String) throws(MappingErrors) -> Mapping {
    try MapParser.parse(text, fileName: "test.map", converters: testConverters, validators: testValidators)
}

/// The diagnostics of a map that must fail; records a test failure when it parses.
func diagnostics(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [Diagnostic] {
    do {
        _ = try parse(text)
        Issue.record("the map parsed without errors", sourceLocation: sourceLocation)
        return []
    } catch {
        return error.diagnostics
    }
}

/// The headlines of a failing map's diagnostics.
func headlines(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [String] {
    diagnostics(text, sourceLocation: sourceLocation).map(\.headline)
}

/// The only diagnostic of a failing map as (headline, hint); records a failure when there are more.
func onlyError(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> (String, String?)? {
    let found = diagnostics(text, sourceLocation: sourceLocation)
    #expect(found.count == 1, "\(found.map(\.headline))", sourceLocation: sourceLocation)
    return found.first.map { ($0.headline, $0.hint) }
}

/// A location as the parser computes it.
func at(_ line: Int, _ column: Int, _ offset: Int) -> GraphImportMapping.SourceLocation {
    GraphImportMapping.SourceLocation(line: line, column: column, offset: offset)
}

/// The tweets map of the language reference.
let tweetsMap = """
    # tweets.map
    records at $[*] as Tweet            # where the records are; `as` defaults to the first entity
    entity Tweet table tweets           # `table NAME` optional (NAME: identifier or "quoted string")
      key id                            # unique key: one attribute, or compound `key owner, name`
      id                                : Int              # shorthand: path defaults to the name
      text      <- text                 : String
      createdAt <- created_at           : Date  | date("EEE MMM dd HH:mm:ss Z yyyy")
      sentAt    <- timestamp_ms         : Date? | epochMillis
      lang      <- metadata.iso_language_code : String? | trim | lowercase
      lat       <- geometry.coordinates[1] : Double?
      author    <- user                 : User      inverse tweets     # to-one relationship
      hashtags  <- entities.hashtags    : [Hashtag] inverse tweets     # to-many
      retweetOf <- retweeted_status     : Tweet?    inverse retweets   # into the same entity
      replyTo   <- in_reply_to_status_id : Tweet?                      # a scalar there = the target's key
    entity User
      key id
      id : Int
      handle <- screen_name : String
    entity Hashtag
      key text
      text : String | lowercase

    """
