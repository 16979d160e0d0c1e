import Foundation
import RadicaleServer
import TestNeeds
import Testing

/// The built `carnet sync` killed with SIGKILL in the middle of sending, then of bringing,
/// hundreds of cards, and run again: what reached the server is found again, not sent twice,
/// and both files end with every contact once, on both sides, with the same fields.
@Suite(.needs("radicale")) struct SyncKillTests {
    static let password = ["CARNET_SYNC_PASSWORD": "secret"]

    /// `count` cards with UIDs `prefix-N`, each with fields of several kinds and a property Carnet does not show.
    static func cards(_ prefix: String, count: Int) -> String {
        (0..<count).map { i in
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(prefix)-\(i)\r\nFN:\(prefix) Person \(i)\r\nN:Person \(i);\(prefix);;;\r\n"
                + "TEL;TYPE=work:555 \(1000 + i)\r\nEMAIL:\(prefix)\(i)@example.com\r\nTITLE:Title \(i)\r\nNOTE:note \(i)\r\nX-KEPT:\(prefix) \(i)\r\nEND:VCARD\r\n"
        }.joined()
    }

    @Test func aSyncKilledWhileSendingOrBringingConvergesOnTheRerun() throws {
        let server = try RadicaleServer(users: ["ada": "secret"], logRequests: true)
        let stored = { server.storedCards(user: "ada", collection: "carnet") }
        let a = Sandbox(), b = Sandbox()
        a.importCards(Self.cards("a", count: 300))
        #expect(a.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: Self.password).status == 0)
        let history = a.carnetInProcess(["history"]).stdout

        // Killed while sending: some cards are on the server, this file is as it was.
        let sending = a.startCarnet(["sync"], environment: Self.password)
        let sentSome = Self.wait { stored().count >= 40 || !sending.isRunning }
        kill(sending.processIdentifier, SIGKILL)
        sending.waitUntilExit()
        #expect(sentSome && sending.terminationReason == .uncaughtSignal, "the sync ended before it was killed")
        let sent = stored().count
        #expect(sent > 0 && sent < 300, "\(sent) cards on the server")
        #expect(a.carnetInProcess(["history"]).stdout == history)
        let pending = a.carnetInProcess(["sync", "status"]).lines
        #expect(pending.contains("synced contacts: 0") && pending.contains("to send: 300 new, 0 changed, 0 deleted"), "\(pending)")

        // The rerun links what is there (no duplicate) and sends the rest.
        let rerun = a.carnetInProcess(["sync"], environment: Self.password)
        #expect(rerun.status == 0 && rerun.stderr.isEmpty, "\(rerun)")
        #expect(stored().count == 300)
        #expect(Set(stored().compactMap { Self.uid(server.storedCard(user: "ada", collection: "carnet", name: $0)) }).count == 300)
        let synced = a.carnetInProcess(["sync", "status"]).lines
        #expect(synced.contains("synced contacts: 300") && synced.contains("to send: 0 new, 0 changed, 0 deleted"), "\(synced)")
        #expect(a.carnetInProcess(["list"]).lines.count == 301)

        // A second file with contacts of its own, killed while bringing the server's: nothing here.
        b.importCards(Self.cards("b", count: 40))
        #expect(b.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: Self.password).status == 0)
        let bHistory = b.carnetInProcess(["history"]).stdout
        let reports = server.requests("REPORT")
        let bringing = b.startCarnet(["sync"], environment: Self.password)
        // The sync-collection, then the first multiget of three: it is bringing cards.
        let broughtSome = Self.wait { server.requests("REPORT") >= reports + 2 || !bringing.isRunning }
        kill(bringing.processIdentifier, SIGKILL)
        bringing.waitUntilExit()
        #expect(broughtSome && bringing.terminationReason == .uncaughtSignal, "the sync ended before it was killed")
        #expect(b.carnetInProcess(["history"]).stdout == bHistory)
        #expect(b.carnetInProcess(["list"]).lines.count == 41)

        let bRerun = b.carnetInProcess(["sync"], environment: Self.password)
        #expect(bRerun.status == 0 && bRerun.stderr.isEmpty, "\(bRerun)")
        #expect(bRerun.stdout == "synced with 127.0.0.1:\(server.port): 300 down, 40 up (300 added here; 40 sent)\n", "\(bRerun)")
        let aAgain = a.carnetInProcess(["sync"], environment: Self.password)
        #expect(aAgain.stdout == "synced with 127.0.0.1:\(server.port): 40 down, 0 up (40 added here)\n", "\(aAgain)")

        // Every contact once on each side, the same fields everywhere.
        #expect(stored().count == 340)
        let contacts = try a.exported()
        #expect(contacts.count == 340)
        #expect(try b.exported() == contacts)
        #expect(Set(stored().compactMap { Self.uid(server.storedCard(user: "ada", collection: "carnet", name: $0)) }) == Set(contacts.keys))
        #expect(contacts["a-7"]?["extras"] as? [String] == ["X-KEPT:a 7"])
        #expect(a.carnetInProcess(["sync"], environment: Self.password).stdout == "synced with 127.0.0.1:\(server.port): 0 down, 0 up\n")
    }

    /// Polls `condition` every 5 ms for at most two minutes.
    static func wait(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            if condition() { return true }
            usleep(5_000)
        }
        return false
    }

    static func uid(_ card: String?) -> String? {
        card?.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
    }
}

extension Sandbox {
    func importCards(_ text: String) {
        let file = path("cards-\(UUID().uuidString).vcf")
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        let run = carnetInProcess(["import", file])
        #expect(run.status == 0, "\(run)")
    }

    /// `carnet ARGS --db <this sandbox's db>` started as a process of its own, its output thrown away.
    func startCarnet(_ arguments: [String], environment: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Sandbox.binary)
        process.arguments = arguments + ["--db", db]
        process.environment = self.environment(with: environment)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        return process
    }

    /// The contacts as `carnet export --format json` gives them, by UID, without what each file
    /// sets for itself (id, times, version).
    func exported() throws -> [String: NSDictionary] {
        let run = carnetInProcess(["export", "--format", "json"])
        let objects = try #require(json(run.stdout) as? [[String: Any]], "\(run)")
        var byUID: [String: NSDictionary] = [:]
        for var object in objects {
            for key in ["id", "createdAt", "updatedAt", "version"] { object[key] = nil }
            byUID[object["uid"] as? String ?? ""] = object as NSDictionary
        }
        return byUID
    }
}
