@_exported import DAVTestServer
import Foundation
import TestTools

/// A real Radicale CardDAV server (Debian's `radicale`, installed by `make deps`) on 127.0.0.1
/// with a free port, its own storage folder and htpasswd file in a temp directory, for the sync
/// tests and the benchmark. It answers before ``init(users:)`` returns; ``stop()`` (or dropping
/// it) ends the process and removes the folder.
public final class RadicaleServer: DAVTestServer, @unchecked Sendable {
    public let name = "Radicale"
    public let port: Int
    /// `http://127.0.0.1:PORT/`
    public let url: URL
    public let users: [String: String]
    private let folder: URL
    private let process: Process
    private let log: URL
    private let lock = NSLock()
    private var stopped = false

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static let executable = TestTool.path("radicale")

    /// Starts a server where each of `users` (name → password) may log in and owns `/NAME/`.
    /// With `logRequests`, Radicale logs every request it receives (``requests(_:)`` counts them).
    /// With `tls` (PEM files), it speaks only HTTPS, with that certificate. `storageHook` is run
    /// by `/bin/sh` after each change to the storage: when it fails, the request that wrote
    /// answers 500.
    public init(
        users: [String: String] = ["carnet": "secret"], logRequests: Bool = false, tls: (certificate: String, key: String)? = nil,
        storageHook: String? = nil
    ) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(description: "\(Self.executable) is missing; run `make deps` (apt-get install radicale)")
        }
        self.users = users
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-radicale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("collections"), withIntermediateDirectories: true)
        let htpasswd = folder.appendingPathComponent("users")
        try users.map { "\($0.key):\($0.value)\n" }.joined().write(to: htpasswd, atomically: true, encoding: .utf8)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try Loopback.freePort()
            var arguments = [
                "--config", "", "--server-hosts", "127.0.0.1:\(port)",
                "--storage-filesystem-folder", folder.appendingPathComponent("collections").path,
                "--auth-type", "htpasswd", "--auth-htpasswd-filename", htpasswd.path, "--auth-htpasswd-encryption", "plain",
                "--auth-delay", "0", "--rights-type", "owner_only", "--logging-level", logRequests ? "info" : "warning",
            ]
            if let tls { arguments += ["--server-ssl", "True", "--server-certificate", tls.certificate, "--server-key", tls.key] }
            if let storageHook { arguments += ["--storage-hook", storageHook] }
            let log = folder.appendingPathComponent("radicale-\(port).log")
            let process = try Loopback.start(Self.executable, arguments, log: log)
            if Loopback.waitUntilAnswering(port: port, process: process) {
                self.port = port
                self.process = process
                self.log = log
                url = URL(string: "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)/")!
                return
            }
            Loopback.end(process)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            lastError = Failure(description: "radicale did not start on port \(port): \(text.suffix(500))")
        }
        try? FileManager.default.removeItem(at: folder)
        throw lastError ?? Failure(description: "radicale did not start")
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT/USER/`: where `user`'s address books are (Radicale's principal is its home set).
    public func home(_ user: String) -> URL { url.appendingPathComponent(user + "/") }

    public func principal(_ user: String) -> URL { home(user) }

    public func storedCards(user: String, collection: String) -> [String] {
        let path = folder.appendingPathComponent("collections/collection-root/\(user)/\(collection)").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".vcf") }.sorted()
    }

    /// Removes `user`'s address book `collection` behind the server's back, as an administrator would.
    public func removeCollection(user: String, collection: String) throws {
        try FileManager.default.removeItem(at: folder.appendingPathComponent("collections/collection-root/\(user)/\(collection)"))
    }

    public func storedCard(user: String, collection: String, name: String) -> String? {
        try? String(contentsOf: folder.appendingPathComponent("collections/collection-root/\(user)/\(collection)/\(name)"), encoding: .utf8)
    }

    /// How many `method` requests the server has received so far (started with `logRequests`).
    public func requests(_ method: String) -> Int {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "] \(method) request for ").count - 1
    }

    /// Ends the server (SIGKILL, see ``Loopback/end(_:)``) and removes its folder.
    public func stop() {
        Loopback.stop(process, removing: folder, once: lock, &stopped)
    }
}
