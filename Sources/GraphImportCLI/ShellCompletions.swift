import GraphImportMapping
import GraphImportSchema

/// `graphimport completions SHELL`: a completion script for bash, zsh or fish, made from the
/// commands' option lists (what the parser accepts) and their help screens (what each option means).
enum ShellCompletions {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    /// What the command line asks for: a shell's script, or the entities of a map.
    enum Request {
        case script(Shell)
        case entities(map: String)
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Request {
        let parsed = try ParsedArguments(arguments, options: [])
        guard let name = parsed.operands.first else {
            throw UsageError(message: "Missing expected argument '<shell>' (bash, zsh or fish)", hint: nil)
        }
        if name == entitiesWord, parsed.operands.count == 2 { return .entities(map: parsed.operands[1]) }
        guard parsed.operands.count == 1, let shell = Shell(rawValue: name) else {
            let guess = closestMatch(to: name, among: Shell.allCases.map(\.rawValue))
            throw UsageError(message: "The value '\(name)' is invalid for '<shell>'", hint: guess.map { "Did you mean '\($0)'?" } ?? "Use bash, zsh or fish.")
        }
        return .script(shell)
    }

    static func run(_ arguments: [String], io: ToolIO) throws(UsageError) -> ExitCode {
        switch try parse(arguments) {
        case .entities(let map): return entities(ofMap: map, io: io)
        case .script(let shell):
            io.writeOut(script(for: shell))
            return .ok
        }
    }

    /// `graphimport completions entities MAP`, what the scripts ask for a map's entity names.
    static let entitiesWord = "entities"

    /// The map's entity names, one a line, for a script to offer; nothing when the map does not
    /// load (a half-typed path), and no message: the shell is in the middle of a line.
    static func entities(ofMap path: String, io: ToolIO) -> ExitCode {
        do throws(MapLoadFailure) {
            let plan = try MapLoader.load(path)
            io.writeOut(plan.entities.map { $0.name + "\n" }.joined())
            return .ok
        } catch {
            return .configuration
        }
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    // MARK: What each command offers

    /// What the value of an option completes to, from its placeholder in the help screen.
    enum ValueCompletion: Equatable {
        /// `entities`: the names of the map given on the command line (`--entity <name>`).
        case mapFiles, files, words([String]), entities, nothing
    }

    struct Option {
        var long: String
        var short: Character?
        var takesValue: Bool
        var summary: String
        var value: ValueCompletion
    }

    /// The commands other than the default import, in order.
    static var namedCommands: [Subcommand] { Subcommand.allCases.filter { $0 != .import } }

    /// The options of `command`: every one it parses, with `--help`, described by its help screen.
    static func options(of command: Subcommand) -> [Option] {
        let entries = HelpDocument(Help.text(for: command)).entries("OPTIONS")
        var specs = command.options
        specs.append(.init(name: "--help", takesValue: false, short: "h"))
        if command == .import { specs.append(.init(name: "--version", takesValue: false)) }
        return specs.map { spec in
            let entry = entries.first { $0.names.contains(spec.name) }
            return Option(
                long: spec.name, short: spec.short, takesValue: spec.takesValue,
                summary: entry.map { firstSentence($0.description) } ?? "",
                value: spec.takesValue ? valueCompletion(entry?.value) : .nothing)
        }
    }

    static func valueCompletion(_ placeholder: String?) -> ValueCompletion {
        switch placeholder {
        case "<map>": .mapFiles
        case "<path>", "<feed>", "<file>": .files
        case "<format>": .words(["auto", "json", "jsonl"])
        case "<mode>": .words(["insert", "update", "upsert"])
        case "<type>": .words(MetaType.allCases.map(\.name))
        case "<name>": .entities
        default: .nothing
        }
    }

    static func summary(of command: Subcommand) -> String {
        command == .help ? "Show help for a command" : firstSentence(HelpDocument(Help.text(for: command)).summary)
    }

    /// The text up to the first full stop, without it.
    static func firstSentence(_ text: String) -> String {
        let sentence = text.range(of: ". ").map { String(text[..<$0.lowerBound]) } ?? text
        return sentence.hasSuffix(".") ? String(sentence.dropLast()) : sentence
    }

    // MARK: bash

    static func bash() -> String {
        let commandNames = namedCommands.map(\.rawValue).joined(separator: " ")
        var valueCases: [String] = []
        var seen = Set<String>()
        for command in Subcommand.allCases {
            for option in options(of: command) where option.takesValue && !seen.contains(option.long) {
                seen.insert(option.long)
                let names = ([option.long] + (option.short.map { ["-\($0)"] } ?? [])).joined(separator: "|")
                let action =
                    switch option.value {
                    case .mapFiles: #"COMPREPLY=($(compgen -f -X '!*.map' -- "$cur") $(compgen -d -- "$cur"))"#
                    case .files: #"COMPREPLY=($(compgen -f -- "$cur"))"#
                    case .words(let words): #"COMPREPLY=($(compgen -W ""# + words.joined(separator: " ") + #"" -- "$cur"))"#
                    case .entities: #"COMPREPLY=($(compgen -W "$(_graphimport_entities)" -- "$cur"))"#
                    case .nothing: "COMPREPLY=()"
                    }
                valueCases.append("        \(names)) \(action); return ;;")
            }
        }
        var commandCases: [String] = []
        for command in Subcommand.allCases {
            let words = options(of: command).flatMap { [$0.long] + ($0.short.map { ["-\($0)"] } ?? []) }
            let operands = command == .import ? namedCommands.map(\.rawValue) : command.operandWords
            let pattern = command == .import ? "\"\"" : command.rawValue
            commandCases.append(
                "        \(pattern)) opts=\"\(words.joined(separator: " "))\"; operands=\"\(operands.joined(separator: " "))\"; "
                    + "files=\(command.takesFile ? 1 : 0); entities=\(command.takesEntity ? 1 : 0) ;;")
        }
        return """
            # bash completion for graphimport; made by `graphimport completions bash`.
            # The entity names of the map the line names (--map MAP or -m MAP), asked of graphimport.
            _graphimport_entities() {
                local i map=""
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case "${COMP_WORDS[i]}" in --map|-m) map="${COMP_WORDS[i+1]}" ;; --map=*) map="${COMP_WORDS[i]#--map=}" ;; esac
                done
                [[ -n "$map" ]] || return 0
                map="${map/#\\~/$HOME}"
                "${COMP_WORDS[0]}" completions \(entitiesWord) "$map" 2>/dev/null
            }
            _graphimport() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                local command=""
                if ((COMP_CWORD > 1)); then
                    case " \(commandNames) " in *" ${COMP_WORDS[1]} "*) command="${COMP_WORDS[1]}" ;; esac
                fi
                case "$prev" in
            \(valueCases.joined(separator: "\n"))
                esac
                local opts operands files entities
                case "$command" in
            \(commandCases.joined(separator: "\n"))
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
                else
                    COMPREPLY=($(compgen -W "$operands" -- "$cur"))
                    ((files == 0)) || COMPREPLY+=($(compgen -f -- "$cur"))
                    ((entities == 0)) || COMPREPLY+=($(compgen -W "$(_graphimport_entities)" -- "$cur"))
                fi
            }
            complete -o filenames -F _graphimport graphimport

            """
    }

    // MARK: zsh

    static func zsh() -> String {
        func quoted(_ text: String) -> String {
            text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
                .replacingOccurrences(of: ":", with: "\\:")
        }
        func specs(_ command: Subcommand) -> String {
            options(of: command).map { option in
                let action =
                    switch option.value {
                    case .mapFiles: ":map:_files -g '*.map'"
                    case .files: ":file:_files"
                    case .words(let words): ":value:(\(words.joined(separator: " ")))"
                    case .entities: ":entity:_graphimport_entities"
                    case .nothing: option.takesValue ? ":value: " : ""
                    }
                let text = "[\(quoted(option.summary))]\(action)"
                if let short = option.short {
                    return "    '(-\(short) \(option.long))'{-\(short),\(option.long)}'\(text)'"
                }
                return "    '\(option.long)\(text)'"
            }.joined(separator: " \\\n")
        }
        let commandList = namedCommands.map { "    '\($0.rawValue):\(quoted(summary(of: $0)))'" }.joined(separator: "\n")
        var cases: [String] = []
        for command in namedCommands {
            var body = "_arguments -s \\\n\(specs(command))"
            if !command.operandWords.isEmpty { body += " \\\n    '1:\(command == .meta ? "action" : "word"):(\(command.operandWords.joined(separator: " ")))'" }
            if command == .meta { body += " \\\n    '*:argument: '" }
            if command.takesFile { body += " \\\n    '1:feed:_files'" }
            if command.takesEntity { body += " \\\n    '1:entity:_graphimport_entities'" }
            cases.append("  \(command.rawValue))\n    \(body) ;;")
        }
        return """
            #compdef graphimport
            # zsh completion for graphimport; made by `graphimport completions zsh`.
            # The entity names of the map the line names (--map MAP or -m MAP), asked of graphimport.
            _graphimport_entities() {
              local i map
              for (( i = 1; i < CURRENT; i++ )); do
                case $words[i] in
                  (--map|-m) map=$words[i+1] ;;
                  (--map=*) map=${words[i]#--map=} ;;
                esac
              done
              [[ -n $map ]] || return 1
              local -a names
              names=(${(f)"$(${program:-graphimport} completions \(entitiesWord) ${~map} 2>/dev/null)"})
              compadd -a names
            }
            _graphimport() {
              local program=$words[1]
              local -a commands
              commands=(
            \(commandList)
              )
              if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
                _alternative 'commands:command:_describe command commands' 'files:feed:_files'
                return
              fi
              local command=$words[2]
              if (( ${commands[(I)$command:*]} )); then
                shift words; (( CURRENT-- ))
              else
                command=import
              fi
              case $command in
            \(cases.joined(separator: "\n"))
              *)
                _arguments -s \\
            \(specs(.import)) \\
                '1:feed:_files' ;;
              esac
            }
            _graphimport "$@"

            """
    }

    // MARK: fish

    static func fish() -> String {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'" }
        let names = namedCommands.map(\.rawValue).joined(separator: " ")
        var lines = [
            "# fish completion for graphimport; made by `graphimport completions fish`.",
            "# The entity names of the map the line names (--map MAP or -m MAP), asked of graphimport.",
            "function __graphimport_entities",
            "    set -l tokens (commandline -opc)",
            "    set -l map",
            "    for i in (seq (count $tokens))",
            "        switch $tokens[$i]",
            "            case --map -m",
            "                set map $tokens[(math $i + 1)]",
            "            case '--map=*'",
            "                set map (string replace -- --map= '' $tokens[$i])",
            "        end",
            "    end",
            "    test -n \"$map\"; or return",
            "    $tokens[1] completions \(entitiesWord) (string replace -r '^~' $HOME -- $map) 2>/dev/null",
            "end",
            "complete -c graphimport -f",
        ]
        for command in namedCommands {
            lines.append("complete -c graphimport -n '__fish_use_subcommand' -a \(command.rawValue) -d \(quoted(summary(of: command)))")
        }
        lines.append("complete -c graphimport -n '__fish_use_subcommand' -F")
        for command in Subcommand.allCases {
            let condition = command == .import ? "not __fish_seen_subcommand_from \(names)" : "__fish_seen_subcommand_from \(command.rawValue)"
            for option in options(of: command) {
                var line = "complete -c graphimport -n '\(condition)' -l \(option.long.dropFirst(2))"
                if let short = option.short { line += " -s \(short)" }
                switch option.value {
                case .mapFiles: line += " -r -F"
                case .files: line += " -r -F"
                case .words(let words): line += " -x -a \(quoted(words.joined(separator: " ")))"
                case .entities: line += " -x -a '(__graphimport_entities)'"
                case .nothing: if option.takesValue { line += " -x" }
                }
                line += " -d \(quoted(option.summary))"
                lines.append(line)
            }
            if !command.operandWords.isEmpty {
                lines.append("complete -c graphimport -n '\(condition)' -a \(quoted(command.operandWords.joined(separator: " ")))")
            }
            if command.takesFile && command != .import {
                lines.append("complete -c graphimport -n '\(condition)' -F")
            }
            if command.takesEntity {
                lines.append("complete -c graphimport -n '\(condition)' -a '(__graphimport_entities)'")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
