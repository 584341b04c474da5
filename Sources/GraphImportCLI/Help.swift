/// The help screens, in argument-parser's OVERVIEW / USAGE / OPTIONS shape; printed on stdout.
enum Help {
    static func usage(for command: Subcommand) -> String {
        switch command {
        case .import, .help:
            "graphimport [<file>] --map <map> [--store <path>] [--dry-run] [--skip-invalid] [--json] [--quiet] [--format <format>] [--wait <seconds>] [--allow-empty]"
        case .check: "graphimport check --map <map>"
        case .schema: "graphimport schema --map <map>"
        }
    }

    static func text(for command: Subcommand) -> String {
        switch command {
        case .import, .help: importHelp
        case .check:
            """
            OVERVIEW: Check a map for errors without importing anything.

            USAGE: \(usage(for: .check))

            OPTIONS:
              --map <map>             The mapping file to check.
              -h, --help              Show help information.

            EXAMPLES:
              graphimport check --map Mappings/tweets.map

            Exits 0 when the map is valid, 78 with every error listed when it is not.

            """
        case .schema:
            """
            OVERVIEW: Print the SQL that creates a map's tables in an empty store.

            USAGE: \(usage(for: .schema))

            OPTIONS:
              --map <map>             The mapping file.
              -h, --help              Show help information.

            EXAMPLES:
              graphimport schema --map Mappings/tweets.map | sqlite3 empty.sqlite

            """
        }
    }

    static var importHelp: String {
        let codes = ExitCode.allCases.map { code in
            "  " + String(code.rawValue).padding(toLength: 4, withPad: " ", startingAt: 0) + code.meaning
        }.joined(separator: "\n")
        return """
            OVERVIEW: Upsert web-service JSON into an SQLite object graph, as a map describes.

            Each record is matched to the object with the same unique key: new objects are
            inserted, changed ones updated, the rest left alone. The whole import is one
            transaction: on any error nothing is written.

            USAGE: \(usage(for: .import))

            ARGUMENTS:
              <file>                  The JSON (or JSON Lines) feed; - or nothing for standard input.

            OPTIONS:
              --map <map>             The mapping file (.map) that says what the feed becomes.
              --store <path>          The SQLite store. (default: beside the map, named after it:
                                      Mappings/tweets.map -> Mappings/tweets.sqlite)
              --dry-run               Import, report what would change, and roll everything back.
              --skip-invalid          Skip records that do not fit the map, report each on stderr,
                                      and import the rest (exit 3 when any was skipped).
              --json                  Print the summary as one JSON object on stdout.
              --quiet                 Print no summary; errors are still printed.
              --format <format>       json, jsonl or auto. (default: auto: JSON Lines when the
                                      file ends in .jsonl/.ndjson or holds one value per line)
              --wait <seconds>        How long to wait for another import's lock. (default: 30)
              --allow-empty           Accept an input that holds no JSON at all.
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              check                   Check a map for errors.
              schema                  Print the SQL of a map's tables.

            EXAMPLES:
              graphimport Samples/tweets.json --map Mappings/tweets.map
              curl -sf https://api.example.com/timeline | graphimport --map tweets.map --json
              sqlite3 Mappings/tweets.sqlite 'SELECT handle, count(*) FROM user JOIN tweet ON tweet.author_pk = user.pk GROUP BY 1'

            EXIT STATUS:
            \(codes)

            """
    }
}
