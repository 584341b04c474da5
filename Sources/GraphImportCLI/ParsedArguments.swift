import GraphImportMapping

/// A usage error: printed as `Error: …`, the usage line and "See 'graphimport --help'.", exit 64.
struct UsageError: Error {
    var message: String
    var hint: String?
}

/// The options and operands of one command, parsed by hand in argument-parser's manner.
struct ParsedArguments {
    /// An option the command accepts: `--store PATH` takes a value, `--json` does not; `-s` is
    /// `--store`'s short name.
    struct OptionSpec {
        var name: String
        var takesValue: Bool
        var short: Character? = nil
    }

    var values: [String: String] = [:]
    /// Every value of a repeatable option, in order.
    var repeated: [String: [String]] = [:]
    var flags: Set<String> = []
    var operands: [String] = []

    /// Parses `arguments` against `options`; `--name=value` and `--name value` both work, `--` ends
    /// options. Short names work as in argument-parser: `-m MAP`, `-mMAP`, and flags grouped (`-nq`).
    init(_ arguments: [String], options: [OptionSpec]) throws(UsageError) {
        var index = 0
        var onlyOperands = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyOperands || argument == "-" || !argument.hasPrefix("-") || Self.isNegativeNumber(argument) {
                operands.append(argument)
                continue
            }
            if argument == "--" { onlyOperands = true; continue }
            if !argument.hasPrefix("--") {
                index = try parseShort(argument, at: index, in: arguments, options: options)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let spec = options.first(where: { $0.name == name }) else {
                let guess = closestMatch(to: name, among: options.map(\.name))
                throw UsageError(message: "Unknown option '\(name)'", hint: guess.map { "Did you mean '\($0)'?" })
            }
            if spec.takesValue {
                if let inlineValue {
                    values[name] = inlineValue
                    repeated[name, default: []].append(inlineValue)
                } else if index < arguments.count {
                    values[name] = arguments[index]
                    repeated[name, default: []].append(arguments[index])
                    index += 1
                } else {
                    throw UsageError(message: "Missing value for '\(name)'", hint: nil)
                }
            } else {
                if inlineValue != nil { throw UsageError(message: "The option '\(name)' takes no value", hint: nil) }
                flags.insert(name)
            }
        }
    }

    /// Parses a group of short options (`-nq`, `-m MAP`, `-mMAP`); returns the index of the next argument.
    private mutating func parseShort(_ argument: String, at index: Int, in arguments: [String], options: [OptionSpec]) throws(UsageError) -> Int {
        var letters = argument.dropFirst()[...]
        while let letter = letters.popFirst() {
            guard let spec = options.first(where: { $0.short == letter }) else {
                let known = options.compactMap { $0.short.map { "-\($0)" } }
                let hint = known.isEmpty ? "This command has no short options; see its --help." : "Its short options are \(known.joined(separator: ", "))."
                throw UsageError(message: "Unknown option '-\(letter)'", hint: hint)
            }
            guard spec.takesValue else {
                flags.insert(spec.name)
                continue
            }
            let value: String
            var next = index
            if !letters.isEmpty {
                value = String(letters.drop(while: { $0 == "=" }))
            } else if index < arguments.count {
                value = arguments[index]
                next += 1
            } else {
                throw UsageError(message: "Missing value for '-\(letter)' (\(spec.name))", hint: nil)
            }
            values[spec.name] = value
            repeated[spec.name, default: []].append(value)
            return next
        }
        return index
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// `-7`, `-2e3`, `-.5`: an operand (a value for `meta set`), not an option.
    static func isNegativeNumber(_ argument: String) -> Bool {
        guard let second = argument.utf8.dropFirst().first else { return false }
        return (second >= UInt8(ascii: "0") && second <= UInt8(ascii: "9")) || second == UInt8(ascii: ".")
    }

    /// All values given for a repeatable option.
    func all(_ name: String) -> [String] { repeated[name] ?? [] }
}
