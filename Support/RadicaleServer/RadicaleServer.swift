import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc)
private let streamSocket = Int32(SOCK_STREAM.rawValue)
#else
private let streamSocket = SOCK_STREAM
#endif

/// A real Radicale CardDAV server (Debian's `radicale`, installed by `make deps`) on 127.0.0.1
/// with a free port, its own storage folder and htpasswd file in a temp directory, for the sync
/// tests and the benchmark. It answers before ``init(users:)`` returns; ``stop()`` (or dropping
/// it) ends the process and removes the folder.
public final class RadicaleServer: @unchecked Sendable {
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

    public static let executable = "/usr/bin/radicale"

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
            let port = try Self.freePort()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.executable)
            process.arguments = [
                "--config", "", "--server-hosts", "127.0.0.1:\(port)",
                "--storage-filesystem-folder", folder.appendingPathComponent("collections").path,
                "--auth-type", "htpasswd", "--auth-htpasswd-filename", htpasswd.path, "--auth-htpasswd-encryption", "plain",
                "--auth-delay", "0", "--rights-type", "owner_only", "--logging-level", logRequests ? "info" : "warning",
            ]
            if let tls { process.arguments! += ["--server-ssl", "True", "--server-certificate", tls.certificate, "--server-key", tls.key] }
            if let storageHook { process.arguments! += ["--storage-hook", storageHook] }
            let log = folder.appendingPathComponent("radicale-\(port).log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
            try process.run()
            if Self.waitUntilAnswering(port: port, process: process) {
                self.port = port
                self.process = process
                self.log = log
                url = URL(string: "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)/")!
                return
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            lastError = Failure(description: "radicale did not start on port \(port): \(text.suffix(500))")
        }
        try? FileManager.default.removeItem(at: folder)
        throw lastError ?? Failure(description: "radicale did not start")
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT/USER/`: where `user`'s address books are.
    public func home(_ user: String) -> URL { url.appendingPathComponent(user + "/") }

    /// The names of the cards stored in `user`'s address book `collection`, read from Radicale's
    /// folder (a card is there once its PUT has been written, whether or not the client heard back).
    public func storedCards(user: String, collection: String) -> [String] {
        let path = folder.appendingPathComponent("collections/collection-root/\(user)/\(collection)").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".vcf") }.sorted()
    }

    /// Removes `user`'s address book `collection` behind the server's back, as an administrator would.
    public func removeCollection(user: String, collection: String) throws {
        try FileManager.default.removeItem(at: folder.appendingPathComponent("collections/collection-root/\(user)/\(collection)"))
    }

    /// The text of a stored card (see ``storedCards(user:collection:)``).
    public func storedCard(user: String, collection: String, name: String) -> String? {
        try? String(contentsOf: folder.appendingPathComponent("collections/collection-root/\(user)/\(collection)/\(name)"), encoding: .utf8)
    }

    /// How many `method` requests the server has received so far (started with `logRequests`).
    public func requests(_ method: String) -> Int {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "] \(method) request for ").count - 1
    }

    /// Ends the server and removes its folder. SIGKILL: a process started from a test's worker
    /// thread inherits that thread's blocked signals, SIGTERM among them (and the server keeps
    /// nothing that needs a clean shutdown).
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard wasRunning else { return }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// A port nobody listens on now: bind to port 0, read which port the system chose, close.
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Polls until something accepts a connection on the port (at most 20 s), or the process ends.
    private static func waitUntilAnswering(port: Int, process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard process.isRunning else { return false }
            if canConnect(port: port) { return true }
            usleep(50_000)
        }
        return false
    }

    private static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
