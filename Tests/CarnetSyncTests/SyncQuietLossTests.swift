import CarnetModels
import CarnetStorage
import CarnetSync
import CarnetTestSupport
import Foundation
import TestNeeds
import Testing

/// What a sync used to lose without a word: a card it could not take (named once, then never),
/// a password given inside the URL (stored and shown), an answer with no end (held in memory).
@Suite(.needs("radicale", "python3")) struct SyncQuietLossTests {
    /// A card Radicale stores and Carnet cannot take: one property past Carnet's limit for a
    /// property (8 MiB).
    static func oversizedCard(uid: String) -> String {
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:Too Large\r\n\(blob)END:VCARD\r\n"
    }

    static let blob = "X-BLOB:" + String(repeating: "x", count: 9 << 20) + "\r\n"

    @Test func aCardThatCannotBeTakenIsNamedByEverySyncUntilItSyncsOrIsSkipped() throws {
        let fixture = try SyncFixture()
        let a = try fixture.book("a")
        try a.add("Ada Lovelace")
        try a.sync()
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let collection = fixture.server.url.appendingPathComponent("\(SyncFixture.user)/carnet/")
        let href = "/\(SyncFixture.user)/carnet/too-long.vcf"
        let put = try raw.send(
            "PUT", collection.appendingPathComponent("too-long.vcf"), headers: ["Content-Type": "text/vcard"],
            body: Self.oversizedCard(uid: "too-long"))
        #expect(put.isSuccess, "\(put.status)")

        let first = try a.sync()
        #expect(first.skipped.count == 1 && first.skipped.first?.hasPrefix(href + ": ") == true, "\(first)")
        // The token has moved past the card: it is named again all the same, and listed.
        let second = try a.sync()
        #expect(second.skipped == first.skipped)
        #expect(second.incremental)
        let listed = try #require(try a.engine.status()?.cardsNotSynced)
        #expect(listed.map(\.href) == [href] && listed.map(\.skipped) == [false])
        #expect(listed.first?.reason.contains("longer than 8388608 bytes") == true, "\(listed)")

        // Skipped: no longer named (nor fetched), still listed as skipped.
        #expect(try a.engine.skipCard("\(try #require(listed.first).id)")?.href == href)
        #expect(try a.sync().skipped.isEmpty)
        #expect(try a.engine.status()?.cardsNotSynced.map(\.skipped) == [true])
        #expect(try a.engine.skipCard("nonsense") == nil)

        // Changed there into a card Carnet can take: it syncs, and the row goes.
        let fixed = Self.oversizedCard(uid: "too-long").replacingOccurrences(of: Self.blob, with: "")
        #expect(try raw.send("PUT", collection.appendingPathComponent("too-long.vcf"), headers: ["Content-Type": "text/vcard"], body: fixed).isSuccess)
        let synced = try a.sync()
        #expect(synced.added == 1 && synced.skipped.isEmpty)
        #expect(try a.engine.status()?.cardsNotSynced == [])

        // Another one, deleted on the server while named: the row goes with it.
        let gone = collection.appendingPathComponent("gone.vcf")
        #expect(try raw.send("PUT", gone, headers: ["Content-Type": "text/vcard"], body: Self.oversizedCard(uid: "gone")).isSuccess)
        #expect(try a.sync().skipped.count == 1)
        #expect(try raw.send("DELETE", gone).isSuccess)
        #expect(try a.sync().skipped.isEmpty)
        #expect(try a.engine.status()?.cardsNotSynced == [])
    }

    @Test func setupRefusesAPasswordInTheURLAndTakesAUserNameFromIt() throws {
        let fixture = try SyncFixture()
        let book = try fixture.book("a", setUp: false)
        let port = fixture.server.port
        var refused: CarnetError?
        do { _ = try book.engine.setup(url: "http://carnet:secret@127.0.0.1:\(port)/", username: "", passwordCommand: "") } catch { refused = error }
        #expect(refused == .sync(.passwordInURL("http://carnet@127.0.0.1:\(port)/")))
        #expect(!(refused?.description.contains("secret") ?? true))
        #expect(refused?.description.contains("--password-command") == true)
        #expect(try book.storage.syncAccount() == nil)

        do { _ = try book.engine.setup(url: "http://carnet@127.0.0.1:\(port)/", username: "other", passwordCommand: "") } catch { refused = error }
        #expect(refused == .sync(.userMismatch(inURL: "carnet", given: "other")))

        let setup = try book.engine.setup(url: "http://carnet@127.0.0.1:\(port)/", username: "", passwordCommand: "")
        #expect(setup.account.username == "carnet")
        #expect(setup.account.collectionURL == "http://127.0.0.1:\(port)/carnet/carnet/")
    }

    @Test(arguments: [AnswerServer.Mode.endless, .declared])
    func anAnswerPastTheCeilingStopsWithOneLine(_ mode: AnswerServer.Mode) throws {
        let server = try AnswerServer(mode)
        let limit = 1_048_576
        let transport = CurlTransport(maxResponseBytes: limit)
        var failure: CarnetError?
        do {
            _ = try transport.send(HTTPRequest(method: "PROPFIND", url: server.url, headers: ["Depth": "1"], body: Data("<x/>".utf8)))
        } catch { failure = error }
        #expect(failure == .sync(.tooLarge(server: "127.0.0.1:\(server.port)", limit: limit)))
        #expect(failure?.description.contains("larger than 1 MiB") == true, "\(String(describing: failure))")
        // A small answer from the same server still comes through the same transport.
        let small = try transport.send(HTTPRequest(method: "GET", url: server.url.appendingPathComponent("small")))
        #expect(small.status == 207 && small.body.count == 9)
    }
}

/// A server on 127.0.0.1 (python3's http.server) that answers every request a 207 that never
/// ends (`endless`), or one that declares a length of 2 GiB (`declared`), and `/small` a short one.
final class AnswerServer {
    enum Mode: String, CustomTestStringConvertible, Sendable {
        case endless, declared
        var testDescription: String { rawValue }
    }

    let process = Process()
    let port: Int
    var url: URL { URL(string: "http://127.0.0.1:\(port)/book/")! }

    static let script = """
        import sys, http.server
        mode = sys.argv[1]
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length: self.rfile.read(length)
                if self.path.endswith("/small"):
                    self.send_response(207); self.send_header("Content-Length", "9"); self.end_headers()
                    self.wfile.write(b"<small/>\\n"); return
                self.send_response(207)
                self.send_header("Content-Type", "application/xml")
                chunk = b"<d:response><d:href>/x</d:href></d:response>" * 1000
                try:
                    if mode == "declared":
                        self.send_header("Content-Length", str(2 << 30)); self.end_headers()
                        while True: self.wfile.write(chunk)
                    self.send_header("Transfer-Encoding", "chunked"); self.end_headers()
                    head = b'<d:multistatus xmlns:d="DAV:">'
                    self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(head), head))
                    while True: self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(chunk), chunk))
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True
            do_GET = do_PROPFIND = do_REPORT = answer
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    init(_ mode: Mode) throws {
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: TestTool.path("python3"))
        process.arguments = ["-c", Self.script, mode.rawValue]
        process.standardOutput = pipe
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = pipe.fileHandleForReading.availableData
            guard !more.isEmpty else { break }
            line += more
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CarnetError.sync(.server("the test's answer server did not start"))
        }
        self.port = port
    }

    deinit {
        // SIGKILL: the test runner's children may have SIGTERM ignored.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
