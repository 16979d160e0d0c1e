@_exported import DAVTestServer
import Foundation
import TestTools

/// A real Xandikos CardDAV server (Debian's `xandikos`, installed by `make deps`) on 127.0.0.1
/// with a free port and its own folder in a temp directory: the second server the sync tests
/// run against. Xandikos has no authentication (it ignores the password a client sends) and
/// serves one principal, `/USER/`, whose address book home is `/USER/contacts/`, made empty on
/// start. It answers before ``init(user:)`` returns; ``stop()`` (or dropping it) ends the
/// process and removes the folder.
public final class XandikosServer: DAVTestServer, @unchecked Sendable {
    public let name = "Xandikos"
    public let port: Int
    /// `http://127.0.0.1:PORT/`
    public let url: URL
    public let user: String
    private let folder: URL
    private let process: Process
    private let lock = NSLock()
    private var stopped = false

    public static let executable = TestTool.path("xandikos")
    /// What runs Debian's Xandikos (its script's `#!`).
    static let python = TestTool.python3(importing: ["xandikos"])

    /// With `vCardVersions`, the server's address books say they store those versions (their
    /// `supported-address-data`) where Xandikos says 3.0 alone: the same server, its answer to
    /// that one property changed by replacing the method that makes it before it starts.
    public init(user: String = "carnet", vCardVersions: [String]? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw DAVTestServerFailure("\(Self.executable) is missing; run `make deps` (apt-get install xandikos)")
        }
        self.user = user
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-xandikos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try Loopback.freePort()
            // --autocreate makes the principal and its (empty) address book home, as a new
            // account on a server is: the client finds no address book and makes its own.
            let arguments = [
                "-d", folder.appendingPathComponent("data").path, "--autocreate", "-l", "127.0.0.1", "-p", String(port),
                "--current-user-principal", "/\(user)/",
            ]
            let log = folder.appendingPathComponent("xandikos-\(port).log")
            let process: Process
            if let vCardVersions {
                let types = vCardVersions.map { "('text/vcard', '\($0)')" }.joined(separator: ", ")
                let script = """
                    import sys, xandikos.web
                    xandikos.web.AddressbookCollection.get_supported_address_data_types = lambda self: [\(types)]
                    from xandikos.__main__ import main
                    sys.exit(main(['xandikos'] + sys.argv[1:]))
                    """
                process = try Loopback.start(Self.python, ["-c", script] + arguments, log: log)
            } else {
                process = try Loopback.start(Self.executable, arguments, log: log)
            }
            if Loopback.waitUntilAnswering(port: port, process: process) {
                self.port = port
                self.process = process
                url = URL(string: "http://127.0.0.1:\(port)/")!
                return
            }
            Loopback.end(process)
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            lastError = DAVTestServerFailure("xandikos did not start on port \(port): \(text.suffix(500))")
        }
        try? FileManager.default.removeItem(at: folder)
        throw lastError ?? DAVTestServerFailure("xandikos did not start")
    }

    deinit { stop() }

    public func principal(_ user: String) -> URL { url.appendingPathComponent(user + "/") }

    public func home(_ user: String) -> URL { url.appendingPathComponent(user + "/contacts/") }

    /// Xandikos keeps each collection as a git repository with its cards checked out beside.
    private func collectionFolder(user: String, collection: String) -> URL {
        folder.appendingPathComponent("data/\(user)/contacts/\(collection)")
    }

    public func storedCards(user: String, collection: String) -> [String] {
        let path = collectionFolder(user: user, collection: collection).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".vcf") }.sorted()
    }

    public func storedCard(user: String, collection: String, name: String) -> String? {
        try? String(contentsOf: collectionFolder(user: user, collection: collection).appendingPathComponent(name), encoding: .utf8)
    }

    public func stop() {
        Loopback.stop(process, removing: folder, once: lock, &stopped)
    }
}
