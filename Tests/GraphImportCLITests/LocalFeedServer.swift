import Foundation
import GraphImportTestSupport
import Testing

/// A python3 HTTP server on 127.0.0.1 serving the JSON files of a directory with a weak ETag
/// (answering 304 to a matching If-None-Match) and logging each request's path and If-None-Match.
/// `/feed` serves feed.json and `/feed?...after=C` serves C.json.
final class LocalFeedServer {
    static let program = #"""
        import hashlib, http.server, os, sys, urllib.parse
        root, log = sys.argv[1], sys.argv[2]
        def etag(body): return 'W/"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                sent = self.headers.get('If-None-Match')
                with open(log, 'a') as out: out.write('%s %s\n' % (self.path, sent or '-'))
                url = urllib.parse.urlsplit(self.path)
                after = urllib.parse.parse_qs(url.query).get('after')
                name = after[0] + '.json' if after else url.path.strip('/') + '.json'
                path = os.path.join(root, name)
                if not os.path.isfile(path):
                    self.send_error(404); return
                body = open(path, 'rb').read()
                if sent == etag(body):
                    self.send_response(304); self.send_header('ETag', etag(body)); self.end_headers(); return
                self.send_response(200); self.send_header('ETag', etag(body))
                self.send_header('Content-Type', 'application/json'); self.send_header('Content-Length', str(len(body)))
                self.end_headers(); self.wfile.write(body)
            def log_message(self, *args): pass
        server = http.server.HTTPServer(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    let process = Process()
    let root: TemporaryDirectory
    let port: Int
    private let logPath: String

    init(root: TemporaryDirectory) throws {
        self.root = root
        let serverDir = TemporaryDirectory("graphimport-server")
        let program = serverDir.write("server.py", Self.program)
        logPath = serverDir.path("requests.log")
        try Data().write(to: URL(fileURLWithPath: logPath))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", program, root.url.path, logPath]
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line = ""
        while !line.contains("\n") {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            line += String(decoding: data, as: UTF8.self)
        }
        port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        // The log and the program live until the server stops.
        self.serverDir = serverDir
        if port == 0 { stop() }
        try #require(port > 0, "the python3 server did not start")
    }

    private var serverDir: TemporaryDirectory?

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// Each request so far as "PATH IF-NONE-MATCH" ("-" when none was sent).
    func requests() -> [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The ETag the server sends for a file of its root.
    func etag(of name: String) throws -> String {
        let hex = try sha256sum(root.path(name))
        return "W/\"\(hex.prefix(16))\""
    }

    /// Kills the server (SIGKILL: children of the test runner start with SIGTERM blocked).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}
