import Foundation
import RadicaleServer
import TestNeeds
import Testing

/// `carnet sync status`, `take` and `skip`, and `setup`'s refusals, against a real Radicale.
@Suite(.needs("radicale", "curl", "openssl", "python3")) struct SyncStatusCommandTests {
    let box = Sandbox()
    let password = ["CARNET_SYNC_PASSWORD": "secret"]

    /// Ada synced to two files; both change her title, `other` syncs last (its value wins here,
    /// the server's is kept in the conflict).
    func conflict(_ server: RadicaleServer, _ other: Sandbox) {
        for sandbox in [box, other] { sandbox.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password) }
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--title", "Analyst", "--note", "first"])
        box.carnetInProcess(["sync"], environment: password)
        other.carnetInProcess(["sync"], environment: password)
        box.carnetInProcess(["edit", "1", "--title", "Countess", "--note", "from box"])
        other.carnetInProcess(["edit", "1", "--title", "Mathematician"])
        box.carnetInProcess(["sync"], environment: password)
        other.carnetInProcess(["edit", "1", "--note", "from other"])
        #expect(other.carnetInProcess(["sync"], environment: password).status == 0)
    }

    /// The same contact imported on both sides before they ever synced: the title they hold
    /// differently waits for the user (status says so; nothing is sent), and `take --mine` sends
    /// this file's.
    @Test func aConflictWithNoBaseWaitsForTakeMine() throws {
        let server = try RadicaleServer(users: ["ada": "secret"])
        let other = Sandbox()
        func card(_ title: String) -> String { "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:shared-ada\r\nFN:Ada Lovelace\r\nTITLE:\(title)\r\nEND:VCARD\r\n" }
        box.carnetInProcess(["import", box.write("ada.vcf", card("Analyst"))])
        box.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password)
        #expect(box.carnetInProcess(["sync"], environment: password).status == 0)
        other.carnetInProcess(["import", other.write("ada.vcf", card("Countess"))])
        other.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password)
        let first = other.carnetInProcess(["sync"], environment: password)
        #expect(first.status == 0 && first.stderr.contains("never synced together: neither is sent until you settle it"), "\(first)")

        let status = other.carnetInProcess(["sync", "status"])
        #expect(status.lines.contains(
            "  1  Ada Lovelace: title (unsettled: never synced together, neither side sent; carnet sync take 1 takes the server's, --mine sends this file's)"),
            "\(status)")
        #expect(status.lines.contains("       title here: Countess") && status.lines.contains("       title there: Analyst"), "\(status)")
        #expect(status.stdout.contains("to send: 0 new, 0 changed"), "\(status)")
        let json = try #require(other.json(other.carnetInProcess(["sync", "status", "--json"]).stdout) as? [String: Any])
        #expect((json["conflicts"] as? [[String: Any]])?.first?["unsettled"] as? Bool == true)

        other.expectRefused(["sync", "take", "1", "--mine", "--field", "title"], 64, mentioning: "--mine keeps every field")
        let mine = other.carnetInProcess(["sync", "take", "1", "--mine"])
        #expect(mine.status == 0 && mine.stdout == "kept this file's title of conflict 1 for Ada Lovelace (carnet sync sends it)\n", "\(mine)")
        other.expectRefused(["sync", "take", "1", "--mine"], 65, mentioning: "settled already")
        #expect(other.carnetInProcess(["sync"], environment: password).status == 0)
        #expect(box.carnetInProcess(["sync"], environment: password).status == 0)
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("Countess"))
    }

    @Test func statusShowsBothValuesAndTakeIsOneUndoableChangeSentByTheNextSync() throws {
        let server = try RadicaleServer(users: ["ada": "secret"])
        let other = Sandbox()
        conflict(server, other)
        let status = other.carnetInProcess(["sync", "status"])
        #expect(status.lines.contains("recent conflicts (carnet sync take NUMBER takes the value that lost):"), "\(status)")
        #expect(status.lines.contains("  1  Ada Lovelace: title, note (kept this file's)"), "\(status)")
        #expect(status.lines.contains("       title kept: Mathematician"), "\(status)")
        #expect(status.lines.contains("       title lost: Countess"), "\(status)")
        #expect(status.lines.contains("       note kept: from other"), "\(status)")
        #expect(status.lines.contains("       note lost: from box"), "\(status)")

        let json = try #require(other.json(other.carnetInProcess(["sync", "status", "--json"]).stdout) as? [String: Any])
        let conflicts = try #require(json["conflicts"] as? [[String: Any]])
        #expect(conflicts.count == 1 && conflicts[0]["id"] as? Int == 1 && conflicts[0]["kept"] as? String == "local")
        let fields = try #require(conflicts[0]["fields"] as? [[String: Any]])
        let title = try #require(fields.first { $0["field"] as? String == "title" })
        #expect(title["kept"] as? [String] == ["Mathematician"] && title["lost"] as? [String] == ["Countess"])
        #expect((json["pending"] as? [String: Int]) == ["new": 0, "changed": 0, "deleted": 0])
        // Keys sorted, as the rest of the CLI's JSON.
        let text = other.carnetInProcess(["sync", "status", "--json"]).stdout
        let keys = ["\"account\"", "\"cardsNotSynced\"", "\"conflicts\"", "\"pending\"", "\"synced\""].map { text.range(of: $0)!.lowerBound }
        #expect(keys == keys.sorted())

        // One field of it: one change in the history, left to send.
        let took = other.carnetInProcess(["sync", "take", "1", "--field", "title"])
        #expect(took.status == 0 && took.stdout == "took title of conflict 1 for Ada Lovelace (carnet undo takes it back; carnet sync sends it)\n", "\(took)")
        #expect(other.carnetInProcess(["show", "1"]).stdout.contains("Countess"))
        #expect(other.carnetInProcess(["show", "1"]).stdout.contains("from other"))
        #expect(other.carnetInProcess(["sync", "status"]).lines.contains("to send: 0 new, 1 changed, 0 deleted"))
        #expect(other.carnetInProcess(["history", "--limit", "1"]).stdout.contains("edited Ada Lovelace: title"))
        #expect(other.carnetInProcess(["undo"]).status == 0)
        #expect(other.carnetInProcess(["show", "1"]).stdout.contains("Mathematician"))

        // All its fields, then the next sync sends them and the first file gets them back.
        let all = other.carnetInProcess(["sync", "take", "1", "--json"])
        let object = try #require(other.json(all.stdout) as? [String: Any], "\(all)")
        #expect(object["changed"] as? Bool == true && object["conflict"] as? Int == 1)
        let taken = try #require(object["fields"] as? [[String: Any]])
        #expect(taken.map { $0["field"] as? String } == ["title", "note"])
        #expect(taken.first?["before"] as? [String] == ["Mathematician"] && taken.first?["now"] as? [String] == ["Countess"])
        let again = other.carnetInProcess(["sync", "take", "1"])
        #expect(again.stdout == "Ada Lovelace already holds the other side's title, note of conflict 1; nothing was changed\n", "\(again)")
        let sent = other.carnetInProcess(["sync"], environment: password)
        #expect(sent.status == 0 && sent.stdout.contains("1 sent"), "\(sent)")
        box.carnetInProcess(["sync"], environment: password)
        let shown = box.carnetInProcess(["show", "1"]).stdout
        #expect(shown.contains("Countess") && shown.contains("from box") && !shown.contains("from other"), "\(shown)")

        // Bad input: one line each.
        other.expectRefused(["sync", "take", "999"], 66, mentioning: "no sync conflict has id 999")
        other.expectRefused(["sync", "take", "0"], 64, mentioning: "the conflict's number must be 1 or more")
        other.expectRefused(["sync", "take", "1", "--field", "colour"], 64, mentioning: "--field colour is not a field of a contact")
        other.expectRefused(["sync", "take", "1", "--field", "phone"], 65, mentioning: "conflict 1 is about title, note, not phone")
    }

    @Test func aCardThatCannotBeTakenIsNamedUntilSkipped() throws {
        let server = try RadicaleServer(users: ["ada": "secret"])
        #expect(box.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password).status == 0)
        #expect(box.carnetInProcess(["sync"], environment: password).status == 0)
        let card = box.write("big.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:big-1\r\nFN:Big\r\nX-BLOB:\(String(repeating: "y", count: 9 << 20))\r\nEND:VCARD\r\n")
        let put = box.run(TestTool.path("curl"), [
            "-sS", "-u", "ada:secret", "-T", card, "-H", "Content-Type: text/vcard", "-o", "/dev/null", "-w", "%{http_code}",
            server.url.absoluteString + "ada/carnet/big.vcf",
        ])
        #expect(put.stdout == "201", "\(put)")
        let named = "carnet: not synced: /ada/carnet/big.vcf: line 5: this property is longer than 8388608 bytes\n"
        for _ in 0..<2 {
            let sync = box.carnetInProcess(["sync"], environment: password)
            #expect(sync.status == 0 && sync.stderr == named, "\(sync)")
        }
        let status = box.carnetInProcess(["sync", "status"])
        #expect(status.lines.contains("cards on the server not synced (carnet sync skip NUMBER stops naming one):"), "\(status)")
        #expect(status.lines.contains("  1  /ada/carnet/big.vcf: line 5: this property is longer than 8388608 bytes"), "\(status)")

        box.expectRefused(["sync", "skip", "nonsense"], 66, mentioning: "no card not synced has the number or href nonsense")
        let skip = box.carnetInProcess(["sync", "skip", "/ada/carnet/big.vcf"])
        #expect(skip.status == 0 && skip.stdout == "skipping /ada/carnet/big.vcf (it stays on the server; syncs no longer name it)\n", "\(skip)")
        let quiet = box.carnetInProcess(["sync"], environment: password)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet)")
        #expect(box.carnetInProcess(["sync", "status"]).lines.contains("cards not synced that you said to skip: 1 (carnet sync status --json lists them)"))
    }

    @Test func setupRefusesAPasswordInTheURLAndTakesTheUserFromIt() throws {
        let server = try RadicaleServer(users: ["ada": "secret"])
        let withPassword = "http://ada:secret@127.0.0.1:\(server.port)/"
        let run = box.carnetInProcess(["sync", "setup", withPassword])
        #expect(run.status == 64 && !run.stderr.contains("secret") && run.stderr.contains("--password-command"), "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run)")
        #expect(!FileManager.default.fileExists(atPath: box.db))
        box.expectRefused(["sync", "setup", "http://ada@127.0.0.1:\(server.port)/", "--user", "bob"], 64, mentioning: "the URL names the user ada and --user says bob")

        let setup = box.carnetInProcess(["sync", "setup", "http://ada@127.0.0.1:\(server.port)/", "--password-command", "echo secret"])
        #expect(setup.status == 0, "\(setup)")
        #expect(setup.lines.last == "saved sync setup: \(server.url.absoluteString)ada/carnet/ as ada (carnet sync to sync now)")
    }

    @Test func aCAFileIsPinnedForTheAccountAndAWrongOneIsStillRefused() throws {
        let keys = Sandbox()
        func selfSigned(_ name: String) -> (certificate: String, key: String) {
            let certificate = keys.path(name + ".pem"), key = keys.path(name + "-key.pem")
            let made = keys.run(TestTool.path("openssl"), [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
            #expect(made.status == 0, "\(made)")
            return (certificate, key)
        }
        let home = selfSigned("home"), stranger = selfSigned("stranger")
        let secure = try RadicaleServer(users: ["ada": "secret"], tls: home)
        let url = secure.url.absoluteString
        let login = ["--user", "ada", "--password-command", "echo secret"]
        box.carnetInProcess(["add", "--name", "Ada Lovelace"])

        // Another CA than the one that signed the server's certificate: still refused.
        let wrong = box.carnetInProcess(["sync", "setup", url, "--ca-file", stranger.certificate] + login)
        #expect(wrong.status == 76, "\(wrong)")
        #expect(wrong.stderr.hasPrefix("carnet: no secure connection to 127.0.0.1:\(secure.port) (its certificate is not trusted: "), "\(wrong)")
        #expect(wrong.stderr.contains("checked against the CA given to carnet sync setup --ca-file only") && wrong.lines.isEmpty, "\(wrong)")

        // The server's own CA, from a file that then goes: it is kept in the file, for every sync.
        let copy = box.path("home-ca.pem")
        try FileManager.default.copyItem(atPath: home.certificate, toPath: copy)
        let setup = box.carnetInProcess(["sync", "setup", url, "--ca-file", copy] + login)
        #expect(setup.status == 0, "\(setup)")
        try FileManager.default.removeItem(atPath: copy)
        let sync = box.carnetInProcess(["sync"])
        #expect(sync.status == 0 && sync.stdout == "synced with 127.0.0.1:\(secure.port): 0 down, 1 up (1 sent)\n", "\(sync)")
        #expect(box.carnetInProcess(["sync", "status"]).lines.contains("certificate: checked against the CA given to --ca-file only"))
        #expect(box.sqlite("SELECT ca_certificate LIKE '-----BEGIN CERTIFICATE-----%' FROM sync_accounts").stdout == "1\n")

        box.expectRefused(["sync", "setup", url, "--ca-file", copy] + login, 64, mentioning: "home-ca.pem: no such file")
        let notPEM = box.write("not.pem", "hello\n")
        box.expectRefused(["sync", "setup", url, "--ca-file", notPEM] + login, 64, mentioning: "not.pem is not a CA certificate in PEM")
    }

    /// A server that declares an answer far past the ceiling: one line, its own exit code,
    /// and nothing read or kept.
    @Test func anAnswerPastTheCeilingIsOneLine() throws {
        let script = box.write("huge.py", """
            import http.server
            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def log_message(self, *args): pass
                def do_PROPFIND(self):
                    self.rfile.read(int(self.headers.get("Content-Length") or 0))
                    self.send_response(207); self.send_header("Content-Length", str(300 << 20)); self.end_headers()
                    try:
                        while True: self.wfile.write(b" " * 65536)
                    except (BrokenPipeError, ConnectionResetError):
                        self.close_connection = True
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """)
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: TestTool.path("python3"))
        process.arguments = [script]
        process.standardOutput = pipe
        try process.run()
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let line = String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(Int(line.trimmingCharacters(in: .whitespacesAndNewlines)))
        box.carnetInProcess(["add", "--name", "Ada Lovelace"])
        let run = box.carnetInProcess(["sync", "setup", "http://127.0.0.1:\(port)/", "--user", "ada", "--password-command", "echo secret"])
        #expect(run.status == 76, "\(run)")
        #expect(run.stderr == "carnet: 127.0.0.1:\(port) sent an answer larger than 256 MiB, more than any address book holds, and it was not read further; check that the URL is your address book (carnet sync status) and that the server works; nothing was changed\n", "\(run)")
    }
}
