/// The help screens, in argument-parser's OVERVIEW / USAGE / OPTIONS shape; printed on stdout.
enum Help {
    static func usage(for command: Subcommand) -> String {
        switch command {
        case .import, .help:
            "graphimport [<file>] --map <map> [--store <path>] [--dry-run] [--skip-invalid] [--json] [--quiet] [--format <format>] [--wait <seconds>] [--allow-empty] [--if-changed] [--set-meta <key=value> ...] [--adopt-store] [--check-store]"
        case .meta:
            "graphimport meta (get <key> [--default <value>] | set <key> <value> [--type <type>] | unset <key> | list [--json]) (--store <path> | --map <map>)"
        case .runs: "graphimport runs [--last <n>] [--json] (--store <path> | --map <map>)"
        case .check: "graphimport check --map <map> [--sample <feed>] [--format <format>] [--strict]"
        case .schema: "graphimport schema --map <map>"
        case .draft: "graphimport init <feed> [--entity <name>] [--format <format>] [--output <file>]"
        }
    }

    static func text(for command: Subcommand) -> String {
        switch command {
        case .import, .help: importHelp
        case .check:
            """
            OVERVIEW: Check a map for errors without importing anything.

            With --sample, also read a whole feed through the map and warn, at the map's line
            and column, about every path no record holds (a typo), every value the map's type or
            converters refuse, and every records path that matches nothing.

            USAGE: \(usage(for: .check))

            OPTIONS:
              --map <map>             The mapping file to check.
              --sample <feed>         A feed to read through the map (- for standard input).
                                      Nothing is stored.
              --format <format>       json, jsonl or auto, as for an import. (default: auto)
              --strict                Treat the sample's warnings as errors (exit 65).
              -h, --help              Show help information.

            EXAMPLES:
              graphimport check --map Mappings/tweets.map
              graphimport check --map Mappings/tweets.map --sample Samples/tweets.json --strict

            Exits 0 when the map is valid, 78 with every error listed when it is not. With
            --sample: 0 when the sample fits or only warns, 65 when --strict finds anything
            or the sample is not valid JSON, 66 when the sample cannot be read.

            """
        case .meta:
            """
            OVERVIEW: Read and write the store's typed metadata (an ETag, a cursor, a since_id).

            Metadata lives in the same SQLite file as the data (table graphimport_meta), so a
            backup or copy keeps the two in step.

            USAGE: \(usage(for: .meta))

            ACTIONS:
              get <key>               Print the bare value. A key that is not set exits 1, unless
                                      --default gives a value to print instead.
              set <key> <value>       Set a value; --type is one of bool, integer, double, string,
                                      date (ISO 8601) or json. (default: string)
              unset <key>             Remove a key.
              list                    Print every key, its type and value (tab-separated), or one
                                      JSON object with --json.

            OPTIONS:
              --store <path>          The store.
              --map <map>             Use the store beside this map (its default store).
              -h, --help              Show help information.

            EXAMPLES:
              etag=$(graphimport meta get etag --default '' --map feed.map)
              graphimport meta set since_id 674674925823787008 --type integer --map tweets.map
              graphimport meta list --json --store tweets.sqlite

            """
        case .runs:
            """
            OVERVIEW: List the store's import runs, newest first.

            Every import is recorded in graphimport_runs, successful or not: its times, process,
            host, input and its SHA-256, the map, counts per entity, outcome and error.

            USAGE: \(usage(for: .runs))

            OPTIONS:
              --last <n>              How many runs. (default: 20)
              --json                  One JSON array on stdout.
              --store <path>          The store.
              --map <map>             Use the store beside this map.
              -h, --help              Show help information.

            EXAMPLES:
              graphimport runs --map Mappings/tweets.map --last 5

            """
        case .draft: initHelp
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

    static let initHelp = """
        OVERVIEW: Draft a starter map from a sample feed.

        Reads every record of the sample and prints a map that imports it as a graph: an
        entity for each shape of object with an id (the same shape met in two places is one
        entity), nested objects as to-one relationships, arrays of objects as to-many, arrays
        of strings as value entities, types and date converters from the values. Comments say
        where it guessed. The draft passes `check` and imports the sample as it is; read it,
        rename what you like, and keep it.

        USAGE: \(usage(for: .draft))

        ARGUMENTS:
          <feed>                  The sample: JSON or JSON Lines; - for standard input.

        OPTIONS:
          --entity <name>         The name of the records' entity. (default: from the records
                                  path, or from a one-word file name: tweets.json -> Tweet)
          --format <format>       json, jsonl or auto, as for an import. (default: auto)
          -o, --output <file>     Write the map to a new file instead of standard output (an
                                  existing file is not overwritten).
          -h, --help              Show help information.

        EXAMPLES:
          graphimport init Samples/tweets.json --entity Tweet -o tweets.map
          curl -sf https://api.example.com/timeline | graphimport init - > timeline.map

        Exits 0 with the map, 65 when the sample is not valid JSON, 66 when it cannot be
        read, 73 when --output names a file that exists.

        """

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
              --skip-invalid          Skip records that do not fit the map, and malformed lines of
                                      JSON Lines; report each on stderr, and import the rest (exit 3
                                      when any was skipped).
              --json                  Print one JSON object on stdout: the summary, or on a failure
                                      its error, position and exit status ("outcome": "failed").
              --quiet                 Print no summary; errors are still printed.
              --format <format>       json, jsonl or auto. (default: auto: JSON Lines when the
                                      file ends in .jsonl/.ndjson or holds one value per line)
              --wait <seconds>        How long to wait for another import's lock. (default: 30)
              --allow-empty           Accept an input that holds no JSON at all.
              --if-changed            Skip the import (exit 0, recorded as skipped) when the input
                                      is byte for byte the input of the last successful run.
              --set-meta <key=value>  Set metadata in the same transaction as the data, so it is
                                      kept only if the import succeeds; KEY:TYPE=VALUE for a type
                                      other than string. Repeatable.
              --adopt-store           Import into a SQLite database that holds other tables and
                                      none of graphimport's; the map's tables are added beside them.
              --check-store           Run PRAGMA quick_check on the store first, whatever its size.
                                      (default: only stores up to 16 MiB are checked)
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              init                    Draft a starter map from a sample feed.
              check                   Check a map for errors, and against a sample feed.
              schema                  Print the SQL of a map's tables.
              meta                    Read and write the store's metadata.
              runs                    List the store's import runs.

            EXAMPLES:
              graphimport Samples/tweets.json --map Mappings/tweets.map
              curl -sf https://api.example.com/timeline | graphimport --map tweets.map --json
              sqlite3 Mappings/tweets.sqlite 'SELECT handle, count(*) FROM user JOIN tweet ON tweet.author_pk = user.pk GROUP BY 1'

            EXIT STATUS:
            \(codes)

            """
    }
}
