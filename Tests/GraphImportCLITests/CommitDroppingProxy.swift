import Foundation
import GraphImportTestSupport

/// A unix-socket proxy in front of a PostgreSQL server: it passes every byte through, except that
/// in place of the server's reply to a session's `dropping`th COMMIT it closes the session. The
/// server committed; the client never hears so, as when a network fails at that moment.
///
/// libpq reaches it as `host=<directory>`: its socket is `.s.PGSQL.5432` there.
final class CommitDroppingProxy: @unchecked Sendable {
    let directory = TemporaryDirectory("gi-proxy")
    private let listener: Int32
    private let upstream: String
    private let dropping: Int

    /// CommandComplete (`C`, length 11) with the tag `COMMIT`, as the server sends it.
    private static let commitReply: [UInt8] = [UInt8(ascii: "C"), 0, 0, 0, 11] + Array("COMMIT".utf8) + [0]

    init(server socketDirectory: String, dropping: Int) throws {
        upstream = socketDirectory + "/.s.PGSQL.5432"
        self.dropping = dropping
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0, Self.withAddress(directory.path(".s.PGSQL.5432"), { bind(listener, $0, $1) }) == 0, listen(listener, 8) == 0 else {
            throw FaultSetupError(message: "the proxy cannot listen: \(String(cString: strerror(errno)))")
        }
        Thread.detachNewThread { [listener, upstream, dropping] in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                guard Self.withAddress(upstream, { connect(server, $0, $1) }) == 0 else {
                    close(client)
                    close(server)
                    continue
                }
                // The second pump to end closes both sockets.
                let ended = DispatchGroup()
                ended.enter()
                ended.enter()
                ended.notify(queue: .global()) {
                    close(client)
                    close(server)
                }
                Thread.detachNewThread {
                    Self.pump(from: client, to: server, dropping: nil)
                    ended.leave()
                }
                Thread.detachNewThread {
                    Self.pump(from: server, to: client, dropping: dropping)
                    ended.leave()
                }
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Copies `source` to `target` until either ends; with `dropping`, ends both instead of
    /// passing on the `dropping`th COMMIT reply.
    private static func pump(from source: Int32, to target: Int32, dropping: Int?) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var seen = 0
        var tail: [UInt8] = []
        defer {
            shutdown(source, Int32(SHUT_RDWR))
            shutdown(target, Int32(SHUT_RDWR))
        }
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { return }
            let chunk = Array(buffer[0..<count])
            if let dropping {
                let window = tail + chunk
                seen += occurrences(of: commitReply, in: window) - occurrences(of: commitReply, in: tail)
                if seen >= dropping { return }
                tail = Array(window.suffix(commitReply.count - 1))
            }
            var written = 0
            while written < count {
                let sent = chunk[written...].withUnsafeBytes { write(target, $0.baseAddress, $0.count) }
                guard sent > 0 else { return }
                written += sent
            }
        }
    }

    private static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> Int {
        guard bytes.count >= pattern.count else { return 0 }
        return (0...(bytes.count - pattern.count)).filter { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }.count
    }

    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
