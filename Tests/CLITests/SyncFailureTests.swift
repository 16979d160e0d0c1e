import Foundation
import RadicaleServer
import TestNeeds
import Testing

/// What a failing server makes of `carnet sync`, with a real Radicale made to fail: one plain
/// line on stderr, an exit code of its own, and the file as it was.
@Suite(.needs("radicale", "openssl", "python3")) struct SyncFailureTests {
    let box = Sandbox()
    static let login = ["--user", "ada", "--password-command", "echo secret"]

    init() {
        box.carnetInProcess(["add", "--name", "Ada Lovelace"])
    }

    /// Expects `arguments` refused with exit `code` and the one line `carnet: <line…>` (`line`
    /// a prefix of it), free of control characters, and the file unchanged.
    @discardableResult
    func expectRefused(_ arguments: [String], _ code: Int32, _ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> Run {
        let before = box.snapshot()
        let run = box.carnetInProcess(arguments)
        #expect(run.status == code, "\(run)", sourceLocation: sourceLocation)
        #expect(run.stderr.hasPrefix("carnet: " + line) && run.stderr.hasSuffix(" nothing was changed\n"), "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(!run.stderr.dropLast().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(run.stderr)", sourceLocation: sourceLocation)
        #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(box.snapshot() == before, "\(arguments) changed the file", sourceLocation: sourceLocation)
        return run
    }

    @Test func anUntrustedCertificateOrAServerWithoutTLSIsExit76() throws {
        let keys = Sandbox()
        let certificate = keys.path("cert.pem"), key = keys.path("key.pem")
        let made = keys.run(TestTool.path("openssl"), [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1",
        ])
        #expect(made.status == 0, "\(made)")
        let secure = try RadicaleServer(users: ["ada": "secret"], tls: (certificate, key))
        let plain = try RadicaleServer(users: ["ada": "secret"])
        #expect(secure.url.absoluteString.hasPrefix("https://"))

        // A self-signed certificate ("self signed" before OpenSSL 3).
        let untrusted = "no secure connection to 127.0.0.1:\(secure.port) (its certificate is not trusted: self"
        expectRefused(["sync", "setup", secure.url.absoluteString] + Self.login, 76, untrusted)
        // https:// to a server that speaks plain HTTP.
        expectRefused(
            ["sync", "setup", "https://127.0.0.1:\(plain.port)/"] + Self.login, 76,
            "no secure connection to 127.0.0.1:\(plain.port) (the TLS handshake failed: wrong version number; is it an https server on that port?)")

        // A file that syncs, whose address book is then found behind an untrusted certificate.
        #expect(box.carnetInProcess(["sync", "setup", plain.url.absoluteString] + Self.login).status == 0)
        #expect(box.carnetInProcess(["sync"]).status == 0)
        #expect(box.sqlite("UPDATE sync_accounts SET collection_url = '\(secure.url.absoluteString)ada/carnet/'").status == 0)
        box.carnetInProcess(["edit", "1", "--title", "Countess"])
        expectRefused(["sync"], 76, untrusted)
        #expect(box.carnetInProcess(["sync", "status"]).lines.contains("to send: 0 new, 1 changed, 0 deleted"))
    }

    /// A server that takes a request and thinks for long before answering (a large address
    /// book on a slow machine) is waited for up to --timeout seconds; past it, one line that
    /// says so and names the option, and a rerun that waits long enough converges.
    @Test func aServerSilentPastTheTimeoutIsOneLineAndALongerTimeoutWaitsForIt() throws {
        let slow = box.path("slow")
        // Radicale runs its storage hook before it answers a request that wrote.
        let server = try RadicaleServer(users: ["ada": "secret"], storageHook: "test ! -e '\(slow)' || sleep 4")
        let host = "127.0.0.1:\(server.port)"
        #expect(box.carnetInProcess(["sync", "setup", server.url.absoluteString] + Self.login).status == 0)
        _ = FileManager.default.createFile(atPath: slow, contents: nil)
        expectRefused(
            ["sync", "--timeout", "1"], 75,
            "\(host) took the request but sent nothing for 1 s (a slow server with a large address book may need longer: carnet sync --timeout 3);")
        #expect(box.carnetInProcess(["sync", "status"]).lines.contains("to send: 1 new, 0 changed, 0 deleted"))
        let waited = box.carnetInProcess(["sync", "--timeout", "30"])
        #expect(waited.status == 0 && waited.stdout == "synced with \(host): 0 down, 0 up\n", "\(waited)")
        #expect(server.storedCards(user: "ada", collection: "carnet").count == 1)
        #expect(box.carnetInProcess(["sync", "status"]).lines.contains("to send: 0 new, 0 changed, 0 deleted"))
        box.expectRefused(["sync", "--timeout", "0"], 64, mentioning: "--timeout must be 1 or more seconds (got 0)")
        box.expectRefused(["sync", "--timeout", "-5"], 64, mentioning: "--timeout must be 1 or more seconds (got -5)")
    }

    @Test func aForbiddenOrDeletedAddressBookOrAServerErrorIsOneLine() throws {
        let failWrites = box.path("fail-writes")
        let server = try RadicaleServer(users: ["ada": "secret", "bob": "secret"], storageHook: "test ! -e '\(failWrites)'")
        let host = "127.0.0.1:\(server.port)"

        // 403: another user's address book.
        let bob = Sandbox()
        #expect(bob.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "bob", "--password-command", "echo secret"]).status == 0)
        expectRefused(
            ["sync", "setup", server.url.absoluteString + "bob/carnet/"] + Self.login, 77,
            "\(host) refused this user access to /bob/carnet/ (403 Forbidden); check the URL and --user")

        // 500: the server fails to store the card sent.
        #expect(box.carnetInProcess(["sync", "setup", server.url.absoluteString] + Self.login).status == 0)
        _ = FileManager.default.createFile(atPath: failWrites, contents: nil)
        let failed = expectRefused(["sync"], 76, "the server did not sync: PUT /ada/carnet/")
        #expect(failed.stderr.contains(".vcf answered 500 (Internal Server Error); nothing was changed"), "\(failed)")
        // Radicale had stored the card before its hook failed: the rerun finds it there (412 to
        // If-None-Match: *) and links it, sending nothing twice.
        try FileManager.default.removeItem(atPath: failWrites)
        #expect(box.carnetInProcess(["sync"]).stdout == "synced with \(host): 0 down, 0 up\n")
        #expect(server.storedCards(user: "ada", collection: "carnet").count == 1)

        // 404: the address book was deleted on the server. No contact changes; the file notes
        // that the collection is gone, for sync status to say.
        try server.removeCollection(user: "ada", collection: "carnet")
        let gone = box.carnetInProcess(["sync"])
        #expect(gone.status == 76 && gone.stdout.isEmpty, "\(gone)")
        #expect(gone.stderr == """
            carnet: the server did not sync: \(host) has no address book at /ada/carnet/ (404 Not Found): deleted or moved? \
            run carnet sync setup again; no contact was changed (carnet sync status says so until a sync reaches it)\n
            """, "\(gone.stderr)")
        let status = box.carnetInProcess(["sync", "status"]).lines
        #expect(status.contains("synced contacts: 1") && status.contains { $0.hasPrefix("collection gone: \(host) had no address book at /ada/carnet/") })
    }
}
