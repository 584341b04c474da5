import Foundation

/// Where the shared corpus of real payloads is: `shared/corpus` beside the repository,
/// found by walking up from this file (a clean clone in CI has `shared/` beside it too).
public enum Corpus {
    public static let directory: URL? = {
        if let override = ProcessInfo.processInfo.environment["GRAPHIMPORT_CORPUS"] {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent("shared/corpus", isDirectory: true)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }()

    /// Whether the corpus is there: the tests that read it are skipped when it is not.
    public static var isPresent: Bool {
        directory.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
    }

    /// The one line a test run shows for the corpus tests it skipped, saying how to run them.
    public static let skipReason =
        "the shared corpus is not beside this clone (../shared/corpus): its tests are skipped; put shared/ beside the repository or set GRAPHIMPORT_CORPUS=DIR to run them"

    /// The URL of a corpus file such as `twitter-v1.1/get_home_timeline.json`.
    public static func file(_ relativePath: String) -> URL? {
        directory.map { $0.appendingPathComponent(relativePath) }
    }
}

/// The repository's root, found from this file's path.
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A fresh directory under the system's temporary directory, removed when the value is released.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init(_ label: String = "graphimport-test") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` inside the directory and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) -> String {
        let path = path(name)
        try! FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try! text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
