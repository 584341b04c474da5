/// The help screens, in argument-parser's OVERVIEW / USAGE / OPTIONS shape; printed on stdout.
enum Help {
    static func usage(for command: Subcommand) -> String {
        switch command {
        case .import, .help:
            "graphimport [<file>] --map <map> [--store <path>] [--dry-run] [--skip-invalid] [--json] [--quiet] [--format <format>] [--wait <seconds>] [--allow-empty] [--if-changed] [--set-meta <key=value> ...] [--adopt-store] [--check-store] [--mode <mode>] [--compare-all] [--verbose] [--include-path <dir> ...]"
        case .meta:
            "graphimport meta (get <key> [--default <value>] | set <key> <value> [--type <type>] | unset <key> | list [--json]) (--store <path> | --map <map>)"
        case .runs: "graphimport runs [--last <n>] [--json] (--store <path> | --map <map>)"
        case .changes: "graphimport changes --map <map> --since-run <n> [--store <path>] [--entity <name> ...] [--include-path <dir> ...]"
        case .check: "graphimport check --map <map> [--sample <feed>] [--format <format>] [--strict] [--include-path <dir> ...]"
        case .schema: "graphimport schema --map <map> [--store <store>] [--include-path <dir> ...]"
        case .completions: "graphimport completions (bash | zsh | fish)"
        case .manpage: "graphimport manpage [map <file>]"
        case .export:
            "graphimport export --map <map> [--store <path>] [<entity> [--key <key> ...] [--where <condition>] [--format <format>]] [--depth <n>] [--wait <seconds>] [--quiet] [--include-path <dir> ...]"
        case .draft: "graphimport init <feed> ... [--entity <name>] [--format <format>] [--output <file>]"
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
              -m, --map <map>         The mapping file to check.
              --sample <feed>         A feed to read through the map (- for standard input).
                                      Nothing is stored.
              --format <format>       json, jsonl or auto, as for an import. (default: auto)
              --strict                Treat the sample's warnings as errors (exit 65).
              --include-path <dir>    Also let the map's includes read files under this directory
                                      (repeatable; GRAPHIMPORT_INCLUDE_PATH adds more, separated
                                      by colons). (default: only the map's own directory tree)
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
              set <key> <value>       Set a value; --type is one of Bool, Int, Double, String,
                                      Date (ISO 8601) or JSON, as in maps. (default: String)
              unset <key>             Remove a key.
              list                    Print every key, its type and value (tab-separated), or one
                                      JSON object with --json.

            OPTIONS:
              -s, --store <path>      The store.
              -m, --map <map>         Use the store beside this map (its default store).
              --default <value>       For get: the value to print when the key is not set.
              --type <type>           For set: the value's type. (default: String)
              --json                  For list: one JSON object on stdout.
              --wait <seconds>        For set and unset: how long to wait for an import's lock.
                                      (default: 30)
              -h, --help              Show help information.

            EXAMPLES:
              etag=$(graphimport meta get etag --default '' --map feed.map)
              graphimport meta set since_id 674674925823787008 --type Int --map tweets.map
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
              -s, --store <path>      The store.
              -m, --map <map>         Use the store beside this map.
              -h, --help              Show help information.

            EXAMPLES:
              graphimport runs --map Mappings/tweets.map --last 5

            """
        case .completions:
            """
            OVERVIEW: Print a completion script for a shell.

            The script completes commands, options, map files and option values, and the entity
            names of the map on the command line where a command takes one (export's <entity>,
            changes' --entity), which it asks of 'graphimport completions entities MAP'. The
            set-up command installs it; to load it by hand instead:

            USAGE: \(usage(for: .completions))

            OPTIONS:
              -h, --help              Show help information.

            EXAMPLES:
              source <(graphimport completions bash)
              graphimport completions zsh > ~/.zfunc/_graphimport
              graphimport completions fish > ~/.config/fish/completions/graphimport.fish

            """
        case .manpage:
            """
            OVERVIEW: Print the manual page graphimport(1), in roff, made from the help screens.

            With `map FILE`, print graphimport-map(5), the map language, made from its reference
            (Mappings/README.md in the source tree, which `bash .ci/setup` installs this way).

            USAGE: \(usage(for: .manpage))

            OPTIONS:
              -h, --help              Show help information.

            EXAMPLES:
              graphimport manpage | man -l -
              graphimport manpage > /usr/local/share/man/man1/graphimport.1
              graphimport manpage map Mappings/README.md > /usr/local/share/man/man5/graphimport-map.5

            """
        case .changes:
            """
            OVERVIEW: List the objects inserted, changed or deleted since a run, as JSON Lines.

            One line per object, entity by entity, in the order of the runs that did it:
            {"entity", "key", "change": "inserted" | "changed" | "deleted", "run", "values"}.
            "values" holds the attributes by name, each to-one as its target's key and each
            to-many as its targets' keys; a deleted object has none. Keep the largest "run" read
            as the next --since-run. Objects deleted before the store recorded deletions (a
            store made by an older graphimport) are not listed, and a warning says which runs.

            USAGE: \(usage(for: .changes))

            OPTIONS:
              -m, --map <map>         The mapping file, which names the entities and attributes.
              --since-run <n>         Changes by the runs after run n; 0 for every object.
              -s, --store <path>      The store. (default: beside the map)
              --entity <name>         Only this entity's objects. Repeatable.
              --include-path <dir>    Also let the map's includes read files under this directory
                                      (repeatable; GRAPHIMPORT_INCLUDE_PATH adds more, separated
                                      by colons). (default: only the map's own directory tree)
              -h, --help              Show help information.

            EXAMPLES:
              graphimport changes --map Mappings/tweets.map --since-run 41 > changes.jsonl
              graphimport changes --map Mappings/tweets.map --since-run 0 --entity User | jq -c .key

            Exits 0 with the changes listed, 64 for a wrong command line (an unknown --entity
            included), 66 when the map or the store cannot be read, 78 when the map has errors.

            """
        case .draft: initHelp
        case .schema:
            """
            OVERVIEW: Print the SQL that creates a map's tables in an empty store.

            USAGE: \(usage(for: .schema))

            OPTIONS:
              -m, --map <map>         The mapping file.
              -s, --store <store>     A PostgreSQL store (postgresql://... or host=... dbname=...):
                                      print PostgreSQL's SQL instead of SQLite's.
              --include-path <dir>    Also let the map's includes read files under this directory
                                      (repeatable; GRAPHIMPORT_INCLUDE_PATH adds more, separated
                                      by colons). (default: only the map's own directory tree)
              -h, --help              Show help information.

            EXAMPLES:
              graphimport schema --map Mappings/tweets.map | sqlite3 empty.sqlite
              graphimport schema --map Mappings/tweets.map --store postgresql:///feeds | psql feeds

            """
        case .export: exportHelp
        }
    }

    static let initHelp = """
        OVERVIEW: Draft a starter map from a sample feed.

        Reads every record of the samples and prints a map that imports it as a graph: an
        entity for each shape of object with an id (the same shape met in two places is one
        entity), nested objects as to-one relationships, arrays of objects as to-many, arrays
        of strings as value entities, types and date converters from the values. Comments say
        where it guessed. Several samples (responses of one endpoint) make one draft whose
        types fit them all. The draft passes `check` and imports each sample as it is; read it,
        rename what you like, and keep it.

        USAGE: \(usage(for: .draft))

        ARGUMENTS:
          <feed>                  A sample: JSON or JSON Lines; - for standard input.

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
          graphimport init page1.json page2.json -o feed.map

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
              -m, --map <map>         The mapping file (.map) that says what the feed becomes.
              -s, --store <path>      The SQLite store, or a PostgreSQL one (postgresql://... or
                                      host=... dbname=...). (default: beside the map, named after it:
                                      Mappings/tweets.map -> Mappings/tweets.sqlite)
              -n, --dry-run           Import, report what would change, and roll everything back.
              --skip-invalid          Skip records that do not fit the map, and malformed lines of
                                      JSON Lines; report each on stderr, and import the rest (exit 3
                                      when any was skipped).
              --json                  Print one JSON object on stdout: the summary, or on a failure
                                      its error, position and exit status ("outcome": "failed").
              -q, --quiet             Print no summary and no progress; errors are still printed.
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
              --mode <mode>           insert: leave stored objects as they are; update: insert no
                                      new objects; upsert: both. Narrows each entity's `mode` in
                                      the map. (default: as the map says, upsert)
              --compare-all           Compare every object value by value, as if none were stored
                                      with its content digest: after a change to a library's
                                      converter or hook code that no digest covers.
              -v, --verbose           After the summary, list the objects inserted or changed
                                      (with --dry-run: that would be), each with its key and its
                                      changed fields (old -> new): the first 10 per entity, then a
                                      count.
              --include-path <dir>    Also let the map's includes read files under this directory
                                      (repeatable; GRAPHIMPORT_INCLUDE_PATH adds more, separated
                                      by colons). (default: only the map's own directory tree)
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              init                    Draft a starter map from a sample feed.
              check                   Check a map for errors, and against a sample feed.
              schema                  Print the SQL of a map's tables.
              export                  Write the store back as JSON, in the shape the map reads.
              changes                 List the objects changed since a run, as JSON Lines.
              meta                    Read and write the store's metadata.
              runs                    List the store's import runs.
              completions             Print a shell completion script (bash, zsh, fish).
              manpage                 Print the man page, graphimport(1), in roff.

            EXAMPLES:
              graphimport Samples/tweets.json --map Mappings/tweets.map
              curl -sf https://api.example.com/timeline | graphimport --map tweets.map --json
              sqlite3 Mappings/tweets.sqlite 'SELECT handle, count(*) FROM tweets JOIN users ON users.pk = tweets.author_pk GROUP BY 1'

            EXIT STATUS:
            \(codes)

            """
    }

    static let exportHelp = """
        OVERVIEW: Write the store back as JSON, in the shape the map reads.

        Without an entity, the document the map imports: the records where the map reads
        them, inside the wrapper, with the meta values and a polymorphic record's kind.
        Importing it into an empty store gives the same graph. With an entity, its objects
        as a JSON array (or JSON Lines), all of them or those --key or --where select.

        Each attribute is written at its JSON path, its converters inverted (a date back to
        its pattern or epoch number); to-ones and to-manys are nested, in stored order; an
        object already on the way down (a cycle), beyond --depth, or known only by its key
        is written as its key. null is written, never dropped; extras go back where they
        came from. What a map cannot write back is named on stderr.

        USAGE: \(usage(for: .export))

        ARGUMENTS:
          <entity>                The entity whose objects are written.

        OPTIONS:
          -m, --map <map>         The mapping file.
          -s, --store <path>      The store. (default: beside the map, named after it)
          --key <key>             Only the object with this key (repeatable; a compound key's
                                  values separated by commas, in key order).
          --where <condition>     Only the objects it holds for: NAME = VALUE [and …], with
                                  =, !=, <, <=, >, >= or 'is null'; text in double quotes.
                                  Values are bound, never pasted into SQL.
          --depth <n>             Nest relationships n levels deep, then write keys.
                                  (default: as deep as the graph goes)
          --format <format>       json or jsonl (one object per line; with an entity).
                                  (default: json)
          --wait <seconds>        How long to wait for a store whose first import holds
                                  it. (default: 30)
          -q, --quiet             Do not list what the map cannot write back.
          --include-path <dir>    Also let the map's includes read files under this directory
                                  (repeatable; GRAPHIMPORT_INCLUDE_PATH adds more, separated
                                  by colons). (default: only the map's own directory tree)
          -h, --help              Show help information.

        EXAMPLES:
          graphimport export --map Mappings/tweets.map > timeline.json
          graphimport export --map Mappings/tweets.map Tweet --where 'lang = "en"' --format jsonl
          graphimport export --map Mappings/tweets.map User --key 12 --depth 0

        During an import, an export reads the store as the last committed import left it.
        Exits 0 when written, 64 for an unknown entity or attribute or a bad condition, 66
        when there is no store, 75 when the store stays busy past --wait or the export is
        interrupted (SIGINT, SIGTERM: what was written is a part).

        """
}
