import GraphImportJSON

/// `--format json|jsonl|auto` and the file-name rule for `auto`, for every command that reads a feed.
enum InputFormatOption {
    /// The format `--format` names (nil: not given, `auto`).
    static func parse(_ value: String?) throws(UsageError) -> JSONInputFormat {
        switch value {
        case nil, "auto": return .auto
        case "json": return .json
        case "jsonl", "ndjson": return .jsonLines
        case let other?: throw UsageError(message: "The value '\(other)' is invalid for '--format'", hint: "Use json, jsonl or auto.")
        }
    }

    /// `auto` for a file named `.jsonl` or `.ndjson` is JSON Lines; anything else stays as asked.
    static func resolve(_ format: JSONInputFormat, path: String?) -> JSONInputFormat {
        guard format == .auto, let path, path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") else { return format }
        return .jsonLines
    }
}
