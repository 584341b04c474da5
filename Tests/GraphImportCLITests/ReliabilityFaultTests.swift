import Foundation
import GraphImportSchema
import GraphImportStore
import GraphImportTestSupport
import Testing

/// The store's file system fails under the binary: a full disk, a file-size limit, no permission,
/// a symbolic link, another import's lock. Each ends with its documented exit status and a clear
/// message, and a store that existed is left as it was. SQLite only: the file system under its
/// file is the subject; PostgresFaultTests give the server's full disk, stop and lost reply.
///
/// The permission tests run the binary as `nobody` (root bypasses file permissions), and the full
/// disk is a 300 KiB tmpfs: both need root, as CI has; elsewhere they are skipped, saying why.
/// Nobody runs a copy of the binary and the map from the fixtures' temporary directory, since the
/// clone itself may sit where nobody cannot enter (under /root, or in a `mktemp -d` directory).
@Suite("Reliability: faults")
struct ReliabilityFaultTests {
    static let map = repoFile("Mappings/tweets.map")
    static let nobody: uid_t = 65534

    /// Root can mount a tmpfs here (not in every container).
    static let canMount: Bool = {
        guard getuid() == 0 else { return false }
        let dir = TemporaryDirectory()
        let point = dir.path("probe")
        try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)
        return withExtendedLifetime(dir) {
            guard (try? command("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", point]))?.exitStatus == 0 else { return false }
            _ = try? command("/bin/umount", [point])
            return true
        }
    }()

    static let isRoot = getuid() == 0

    /// Root can run the binary as nobody: the fixtures' temporary directory, where its copy is, is
    /// one that nobody can enter (not so when TMPDIR is a private directory).
    static let canRunAsNobody: Bool = {
        guard isRoot, let binary = try? nobodyBinary() else { return false }
        let probe = try? SpawnedTool(
            "/usr/bin/setpriv", ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--", binary, "--version"],
            in: TemporaryDirectory()
        ).finish()
        return probe?.exitStatus == 0
    }()
    static let asNobodyReason: Comment =
        "needs root, and a temporary directory that nobody can enter (TMPDIR), to run the binary as nobody"

    /// 60 tweets: a store small enough for the small disk and the file-size limit.
    static func smallStore(_ dir: TemporaryDirectory, at path: String) throws {
        let small = try ReliabilityFixtures.shared.fixture("small.sqlite") { path in
            let feed = try EndToEnd.generateTimeline(["--tweets", "60", "--seed", "7"], into: path + ".json")
            let result = try runBinary([feed, "--map", Self.map, "--store", path, "--quiet"])
            try #require(result.status == 0, "\(result.stderr)")
        }
        try copyStore(small, to: path)
    }

    // MARK: Full disk and file-size limit

    @Test(.enabled(if: canMount, "mount -t tmpfs is not permitted here (needs root and a privileged container)"))
    func fullDiskExits74AndLeavesTheStoreUnchanged() throws {
        let dir = TemporaryDirectory()
        let disk = dir.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mounted = try Self.command("/bin/mount", ["-t", "tmpfs", "-o", "size=300k", "tmpfs", disk])
        try #require(mounted.exitStatus == 0, "\(mounted.report)")
        // Unmounted before the directory is removed.
        defer { withExtendedLifetime(dir) { _ = try? Self.command("/bin/umount", [disk]) } }
        let feed = try ReliabilityFixtures.shared.revisedFeed()

        // No store yet: no data reaches the one the run began.
        let fresh = disk + "/fresh.sqlite"
        let first = try runTool([feed, "--map", Self.map, "--store", fresh, "--quiet"], in: dir)
        #expect(first.exitStatus == 74, "\(first.report)")
        #expect(first.stderr.hasPrefix("graphimport: error: the disk is full while writing \(fresh)\n"), "\(first.report)")
        #expect(try storeHasNoDataTables(fresh))
        // The failed run's -wal file keeps the space it took (its last commit, the run's record,
        // cannot be copied into the full store): removed here to make room for the next case.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: fresh + suffix) }

        // An existing store keeps its rows.
        let store = disk + "/timeline.sqlite"
        try Self.smallStore(dir, at: store)
        let before = try StoreState.counts(store)
        let second = try runTool([feed, "--map", Self.map, "--store", store, "--quiet"], in: dir)
        #expect(second.exitStatus == 74, "\(second.report)")
        #expect(second.stderr.contains("the disk is full"), "\(second.report)")
        #expect(try StoreState.integrity(store) == "ok")
        #expect(try StoreState.counts(store) == before)
    }

    @Test func fileSizeLimitExits74WithAnIOErrorNotASignal() throws {
        let dir = TemporaryDirectory()
        let feed = try ReliabilityFixtures.shared.revisedFeed()
        // `ulimit -f` counts 1024-byte blocks.
        func limited(_ blocks: Int, _ store: String) throws -> ToolOutcome {
            let script = "ulimit -f \(blocks); exec \"$0\" \"$@\""
            return try SpawnedTool(
                "/bin/bash", ["-c", script, graphimportBinary.path, feed, "--map", Self.map, "--store", store, "--quiet"], in: dir
            ).finish()
        }
        let fresh = dir.path("fresh.sqlite")
        let first = try limited(64, fresh)
        #expect(first.signal == nil, "killed by SIGXFSZ instead of failing with an error: \(first.report)")
        #expect(first.exitStatus == 74, "\(first.report)")
        #expect(first.stderr.hasPrefix("graphimport: error: \(fresh): "), "\(first.report)")
        #expect(first.stderr.contains("I/O error"), "\(first.report)")
        #expect(try storeHasNoDataTables(fresh))

        let store = dir.path("timeline.sqlite")
        try Self.smallStore(dir, at: store)
        let before = try StoreState.counts(store)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: store)[.size] as? Int)
        let second = try limited(size / 1024 + 64, store)
        #expect(second.signal == nil, "\(second.report)")
        #expect(second.exitStatus == 74, "\(second.report)")
        #expect(second.stderr.contains("I/O error"), "\(second.report)")
        #expect(try StoreState.integrity(store) == "ok")
        #expect(try StoreState.counts(store) == before)
    }

    // MARK: Permissions

    @Test(.enabled(if: canRunAsNobody, asNobodyReason))
    func readOnlyStoreFileExits77AndStaysIntact() throws {
        let dir = TemporaryDirectory()
        let home = try Self.directoryOwnedByNobody(dir, mode: 0o755)
        let store = home + "/timeline.sqlite"
        try Self.smallStore(dir, at: store)
        try Self.own(store, mode: 0o444)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        try Self.expectPermissionRefusal(importingInto: store, in: dir)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
    }

    @Test(.enabled(if: canRunAsNobody, asNobodyReason))
    func readOnlyDirectoryExits77AndTheStoreStaysIntact() throws {
        let dir = TemporaryDirectory()
        let home = try Self.directoryOwnedByNobody(dir, mode: 0o755)
        let store = home + "/timeline.sqlite"
        try Self.smallStore(dir, at: store)
        try Self.own(store, mode: 0o644)
        // The file is writable, its directory is not: SQLite cannot create the rollback journal.
        try Self.own(home, mode: 0o555)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        try Self.expectPermissionRefusal(importingInto: store, in: dir)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
    }

    @Test(.enabled(if: canRunAsNobody, asNobodyReason))
    func newStoreInADirectoryThatIsNotWritableExits77() throws {
        let dir = TemporaryDirectory()
        let home = try Self.directoryOwnedByNobody(dir, mode: 0o555)
        let store = home + "/timeline.sqlite"
        try Self.expectPermissionRefusal(importingInto: store, in: dir)
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    // MARK: Symbolic links

    @Test func danglingSymlinkStoreExits73AndCreatesNothing() throws {
        let dir = TemporaryDirectory()
        let target = dir.path("target.sqlite")
        let link = dir.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let feed = try ReliabilityFixtures.shared.baseFeed()
        let outcome = try runTool([feed, "--map", Self.map, "--store", link], in: dir)
        #expect(outcome.exitStatus == 73, "\(outcome.report)")
        #expect(outcome.stderr.hasPrefix("graphimport: error: cannot open the store \(link): "), "\(outcome.report)")
        #expect(!FileManager.default.fileExists(atPath: target))
        #expect(!FileManager.default.fileExists(atPath: target + "-journal"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
    }

    @Test func liveSymlinkToAStoreExits73AndLeavesTheTargetUntouched() throws {
        let dir = TemporaryDirectory()
        let target = dir.path("target.sqlite")
        try Self.smallStore(dir, at: target)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: target))
        let link = dir.path("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let outcome = try runTool([try ReliabilityFixtures.shared.baseFeed(), "--map", Self.map, "--store", link], in: dir)
        #expect(outcome.exitStatus == 73, "\(outcome.report)")
        #expect(outcome.stderr.contains("symbolic link"), "\(outcome.report)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == bytes)
    }

    // MARK: Another import's lock

    @Test func storeLockedPastTheWaitExits75() throws {
        let dir = TemporaryDirectory()
        let store = dir.path("timeline.sqlite")
        try Self.smallStore(dir, at: store)
        let before = try StoreState.counts(store)
        let holder = try Database(path: store)
        try holder.beginImmediate()
        defer { holder.rollback() }
        let outcome = try runTool([try ReliabilityFixtures.shared.baseFeed(), "--map", Self.map, "--store", store, "--wait", "0.5"], in: dir)
        #expect(outcome.exitStatus == 75, "\(outcome.report)")
        #expect(outcome.stderr.hasPrefix("graphimport: error: the store \(store) is busy"), "\(outcome.report)")
        #expect(outcome.seconds >= 0.5 && outcome.seconds < 10, "waited \(outcome.seconds) s")
        holder.rollback()
        #expect(try StoreState.counts(store) == before)
    }

    // MARK: Helpers

    /// Runs a system command to its end.
    static func command(_ executable: String, _ arguments: [String]) throws -> ToolOutcome {
        let dir = TemporaryDirectory()
        return try SpawnedTool(executable, arguments, in: dir).finish(timeout: 30)
    }

    /// Imports into `store` as nobody and expects the refusal of a store that cannot be written:
    /// exit 77, an error naming the store and saying it is not writable.
    static func expectPermissionRefusal(importingInto store: String, in dir: TemporaryDirectory) throws {
        let map = try ReliabilityFixtures.shared.fixture("nobody.map") { path in
            try FileManager.default.copyItem(atPath: Self.map, toPath: path)
        }
        let outcome = try runAsNobody([try ReliabilityFixtures.shared.baseFeed(), "--map", map, "--store", store], in: dir)
        #expect(outcome.exitStatus == 77, "\(outcome.report)")
        #expect(outcome.stderr.hasPrefix("graphimport: error: "), "\(outcome.report)")
        #expect(outcome.stderr.contains(store), "\(outcome.report)")
        #expect(outcome.stderr.contains("writable") || outcome.stderr.contains("read-only"), "\(outcome.report)")
    }

    /// Runs the binary as `nobody`, with no supplementary groups.
    static func runAsNobody(_ arguments: [String], in dir: TemporaryDirectory) throws -> ToolOutcome {
        let id = String(nobody)
        return try SpawnedTool(
            "/usr/bin/setpriv", ["--reuid=\(id)", "--regid=\(id)", "--clear-groups", "--", try nobodyBinary()] + arguments, in: dir
        ).finish()
    }

    /// A copy of the binary in the fixtures' temporary directory, which nobody may enter where the clone may not be.
    static func nobodyBinary() throws -> String {
        try ReliabilityFixtures.shared.fixture("graphimport") { path in
            try FileManager.default.copyItem(atPath: graphimportBinary.path, toPath: path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
    }

    /// A new directory inside `dir` owned by nobody.
    static func directoryOwnedByNobody(_ dir: TemporaryDirectory, mode: mode_t) throws -> String {
        let path = dir.path("home")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try own(path, mode: mode)
        return path
    }

    /// Gives `path` to nobody with `mode`.
    static func own(_ path: String, mode: mode_t) throws {
        try #require(chown(path, nobody, gid_t(nobody)) == 0 && chmod(path, mode) == 0, "cannot chown/chmod \(path): errno \(errno)")
    }
}
