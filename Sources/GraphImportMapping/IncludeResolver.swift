/// A map file as an `include` reaches it: its text and how diagnostics name it.
public struct MapFile: Sendable, Equatable {
    /// How diagnostics name the file (`Mappings/mastodon-entities.map`).
    public var name: String
    /// The same for every path that reaches this file (a resolved path), so that a file included
    /// twice is read once and a file that includes itself, however named, is seen as a cycle.
    public var identity: String
    public var text: String

    public init(name: String, identity: String? = nil, text: String) {
        self.name = name
        self.identity = identity ?? name
        self.text = text
    }
}

/// Why the file an `include` names cannot be used: one sentence, reported at the `include` line.
public struct IncludeFailure: Error, Sendable, Equatable {
    /// What went wrong, lower case and without a final period (`no such file or directory`).
    public var reason: String
    public var hint: String?

    public init(_ reason: String, hint: String? = nil) {
        self.reason = reason
        self.hint = hint
    }
}

/// Finds the files a map includes, for the parser, which reads no files itself: the command line
/// reads them from disk, relative to the including file; tests give them from memory.
public struct IncludeResolver: Sendable {
    /// The identity of the map given by `fileName` (see `MapFile.identity`).
    public var identity: @Sendable (_ fileName: String) -> String
    /// The file `name` (as written after `include`) names, seen from the file `includer`.
    public var read: @Sendable (_ name: String, _ includer: MapFile) -> Result<MapFile, IncludeFailure>

    public init(
        identity: @escaping @Sendable (_ fileName: String) -> String = { $0 },
        read: @escaping @Sendable (_ name: String, _ includer: MapFile) -> Result<MapFile, IncludeFailure>
    ) {
        self.identity = identity
        self.read = read
    }

    /// Includes nothing: for a map given as text, with no files beside it.
    public static let none = IncludeResolver { _, _ in
        .failure(IncludeFailure("this map was given as text, with no files to include", hint: "read the map from a file"))
    }

    /// Files from memory, by name; a name is taken relative to the directory of the including
    /// file's name (`maps/a.map` includes `b.map` as `maps/b.map`), an absolute one as it is.
    public static func files(_ texts: [String: String]) -> IncludeResolver {
        IncludeResolver { name, includer in
            let path = relativePath(name, from: includer.name)
            guard let text = texts[path] else { return .failure(IncludeFailure("no such file")) }
            return .success(MapFile(name: path, text: text))
        }
    }

    /// `name` seen from the directory of `includer`, textually (no file system involved).
    public static func relativePath(_ name: String, from includer: String) -> String {
        guard !name.hasPrefix("/"), let slash = includer.lastIndex(of: "/") else { return name }
        return String(includer[...slash]) + name
    }
}
