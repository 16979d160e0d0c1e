import DAVTestServer
import Foundation
import TestTools

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP proxy on 127.0.0.1 in front of a real server, that makes chosen requests fail the ways
/// a network and a server fail: answered 500 without reaching the server, dropped before the
/// server sees them, or passed to the server and then dropped before its answer comes back (the
/// server did the work; the client never heard). It can also slow every request down, so a test
/// can stop a client at a moment of its choosing. A real process (`python3`), so the client
/// under test talks to it over a real socket, as it would to the server.
public final class FaultProxy: @unchecked Sendable {
    /// How one request fails.
    public enum Fault: String, Sendable {
        /// Answered `500 Internal Server Error`; the server never sees it.
        case error500 = "500"
        /// The connection is closed before the request reaches the server.
        case drop
        /// The server does the request; the connection is closed before its answer is sent on.
        case lose
    }

    public let url: URL
    private let process: Process
    private let folder: URL

    /// Proxies to `upstream` (`http://127.0.0.1:PORT/`), passing every request on until
    /// ``arm(_:delay:)`` says otherwise.
    public init(upstream: URL) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("proxy.py")
        try Self.script.write(to: script, atomically: true, encoding: .utf8)
        let portFile = folder.appendingPathComponent("port")
        let log = folder.appendingPathComponent("log")
        process = try Loopback.start(
            TestTool.path("python3"), [script.path, upstream.absoluteString, portFile.path, folder.appendingPathComponent("faults").path], log: log)
        let port = try Loopback.port(writtenTo: portFile, by: process, log: log, folder: folder, what: "the fault proxy")
        url = URL(string: "http://127.0.0.1:\(port)/")!
    }

    deinit { stop() }

    /// From the next request on: `faults` maps "METHOD N" (the Nth request of that method from
    /// now, counting from 1) to how it fails, and `delay` seconds are added to every request.
    public func arm(_ faults: [String: Fault], delay: TimeInterval = 0) throws {
        let lines = ["delay \(delay)"] + faults.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.rawValue)" }
        let file = folder.appendingPathComponent("faults")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    }

    public func stop() {
        Loopback.end(process)
        try? FileManager.default.removeItem(at: folder)
    }

    /// `url` with the proxy's host and port in place of the server's.
    public func through(_ url: URL) -> URL {
        var parts = URLComponents(url: url, resolvingAgainstBaseURL: true)!
        parts.port = self.url.port
        return parts.url!
    }

    private static let script = #"""
        import http.client, os, sys, threading, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlsplit

        upstream = urlsplit(sys.argv[1])
        port_file, faults_file = sys.argv[2], sys.argv[3]
        state = {"stamp": None, "faults": {}, "delay": 0.0, "counts": {}}
        lock = threading.Lock()

        def reload():
            # A new faults file starts the counts again.
            try: stamp = os.stat(faults_file).st_mtime_ns
            except FileNotFoundError: return
            if stamp == state["stamp"]: return
            lines = [l.rsplit(" ", 1) for l in open(faults_file).read().splitlines() if l]
            state.update(stamp=stamp, counts={}, faults={k: v for k, v in lines if k != "delay"},
                         delay=float(dict(lines).get("delay", 0)))

        class Proxy(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def handle_any(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                with lock:
                    reload()
                    counts = state["counts"]
                    counts[self.command] = counts.get(self.command, 0) + 1
                    fault = state["faults"].get("%s %d" % (self.command, counts[self.command]))
                    delay = state["delay"]
                if delay: time.sleep(delay)
                if fault == "500":
                    self.send_response(500); self.send_header("Content-Length", "0"); self.end_headers(); return
                if fault == "drop":
                    self.close_connection = True; return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "keep-alive")}
                conn = http.client.HTTPConnection(upstream.hostname, upstream.port, timeout=600)
                conn.request(self.command, self.path, body=body, headers=headers)
                answer = conn.getresponse()
                data = answer.read()
                conn.close()
                if fault == "lose":
                    self.close_connection = True; return
                self.send_response(answer.status, answer.reason)
                for k, v in answer.getheaders():
                    if k.lower() not in ("content-length", "transfer-encoding", "connection", "keep-alive", "date", "server"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def __getattr__(self, name):
                if name.startswith("do_"): return self.handle_any
                raise AttributeError(name)

        ThreadingHTTPServer.daemon_threads = True
        server = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
        with open(port_file + ".tmp", "w") as f: f.write(str(server.server_address[1]))
        os.rename(port_file + ".tmp", port_file)
        server.serve_forever()
        """#
}
