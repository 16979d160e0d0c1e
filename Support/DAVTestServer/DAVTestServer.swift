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

/// A real CardDAV server on 127.0.0.1 started by a test, whichever it is: what a fixture needs
/// to know of it without knowing which server it is.
public protocol DAVTestServer: AnyObject, Sendable {
    /// The server as a person names it ("Radicale").
    var name: String { get }
    var port: Int { get }
    /// `http://127.0.0.1:PORT/`: the server's root.
    var url: URL { get }
    /// `user`'s principal (what `current-user-principal` names).
    func principal(_ user: String) -> URL
    /// `user`'s address book home set (what `addressbook-home-set` names).
    func home(_ user: String) -> URL
    /// The names of the cards stored in `user`'s address book `collection`, read from the
    /// server's folder (a card is there once its PUT has been written, whether or not the
    /// client heard back).
    func storedCards(user: String, collection: String) -> [String]
    /// The text of a stored card (see ``storedCards(user:collection:)``).
    func storedCard(user: String, collection: String, name: String) -> String?
    /// Ends the server and removes its folder.
    func stop()
}

extension DAVTestServer {
    /// The address book `collection` in `user`'s home: where Carnet makes its own (`carnet`).
    public func collection(_ user: String, _ collection: String = "carnet") -> URL {
        home(user).appendingPathComponent(collection + "/")
    }
}

public struct DAVTestServerFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Ports and processes of servers on loopback.
public enum Loopback {
    /// A port nobody listens on now: bind to port 0, read which port the system chose, close.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, streamSocket, 0)
        guard fd >= 0 else { throw DAVTestServerFailure("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw DAVTestServerFailure("no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Polls until something accepts a connection on the port (at most 20 s), or the process ends.
    public static func waitUntilAnswering(port: Int, process: Process) -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            guard process.isRunning else { return false }
            if canConnect(port: port) { return true }
            usleep(50_000)
        }
        return false
    }

    /// The port a server started by `start(_:_:log:)` wrote to `portFile` once it listened (at
    /// most 20 s); else the process is ended, `folder` removed, and the error names `what` with
    /// the end of its log.
    public static func port(writtenTo portFile: URL, by process: Process, log: URL, folder: URL, what: String) throws -> Int {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) { return port }
            usleep(20_000)
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        end(process)
        try? FileManager.default.removeItem(at: folder)
        throw DAVTestServerFailure("\(what) did not start: \(text.suffix(500))")
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

    /// Starts `executable` with `arguments`, its output (both streams) in `log`, made empty, and
    /// no input.
    public static func start(_ executable: String, _ arguments: [String], log: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends `process` and removes `folder`, the first time it is called for them (`stopped`,
    /// under `lock`): a server is stopped by its test and again when it is dropped.
    public static func stop(_ process: Process, removing folder: URL, once lock: NSLock, _ stopped: inout Bool) {
        let wasRunning = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard wasRunning else { return }
        end(process)
        try? FileManager.default.removeItem(at: folder)
    }

    /// SIGKILL: a process started from a test's worker thread inherits that thread's blocked
    /// signals, SIGTERM among them (and these servers keep nothing that needs a clean shutdown).
    public static func end(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
