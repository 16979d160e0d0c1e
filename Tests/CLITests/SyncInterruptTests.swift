import Foundation
import RadicaleServer
import TestNeeds
import Testing

/// The built `carnet sync` killed with SIGKILL at seeded random moments of a sync that merges a
/// conflict and sends the merge: however it ends, the value the merge overrode stays in the file.
@Suite(.needs("radicale", "python3")) struct SyncInterruptTests {
    static let rounds = 10

    @Test func aSyncKilledAtAnyMomentNeverLosesTheValueItsMergeOverrode() throws {
        let users = Dictionary(uniqueKeysWithValues: (0..<Self.rounds).map { ("u\($0)", "secret") })
        let server = try RadicaleServer(users: users)
        // Every request through the proxy takes a little longer, so the kills spread over the
        // whole sync: its listing, the download, the commit, the uploads.
        let proxy = try FaultProxy(upstream: server.url)
        try proxy.arm([:], delay: 0.1)
        let password = ["CARNET_SYNC_PASSWORD": "secret"]
        var seed: UInt64 = 0x5EED_C0DE
        var killedMidway = 0
        for round in 0..<Self.rounds {
            let user = "u\(round)"
            let a = Sandbox(), b = Sandbox()
            #expect(b.carnetInProcess(["add", "--name", "Ada Lovelace", "--note", "first"]).status == 0)
            #expect(b.carnetInProcess(["add", "--name", "Charles Babbage"]).status == 0)
            #expect(b.carnetInProcess(["sync", "setup", proxy.through(server.url).absoluteString, "--user", user], environment: password).status == 0)
            #expect(b.carnetInProcess(["sync"], environment: password).status == 0)
            #expect(a.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", user], environment: password).status == 0)
            #expect(a.carnetInProcess(["sync"], environment: password).status == 0)
            let ada = try #require(a.id(of: "Ada Lovelace"))
            #expect(a.carnetInProcess(["edit", String(ada), "--note", "from A"]).status == 0)
            #expect(a.carnetInProcess(["sync"], environment: password).status == 0)
            #expect(b.carnetInProcess(["edit", "1", "--note", "from B"]).status == 0)
            #expect(b.carnetInProcess(["edit", "2", "--title", "Engineer"]).status == 0)

            // SplitMix64: a moment from 0 to 800 ms into the sync (which takes about that long).
            seed &+= 0x9E37_79B9_7F4A_7C15
            var z = seed
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            let moment = useconds_t((z ^ (z >> 31)) % 800_000)
            let sync = b.startCarnet(["sync"], environment: password)
            usleep(moment)
            if sync.isRunning { killedMidway += 1 }
            kill(sync.processIdentifier, SIGKILL)
            sync.waitUntilExit()

            let rerun = b.carnetInProcess(["sync"], environment: password)
            #expect(rerun.status == 0, "round \(round), killed at \(moment / 1000) ms: \(rerun)")
            let lost = b.sqlite("SELECT lost_card FROM sync_conflicts").stdout
            #expect(lost.contains("NOTE:from A"), "round \(round), killed at \(moment / 1000) ms: the value the merge overrode is gone")
            #expect(a.carnetInProcess(["sync"], environment: password).status == 0)
            #expect(a.carnetInProcess(["show", String(ada)]).stdout.contains("from B"), "round \(round)")
            #expect(server.storedCards(user: user, collection: "carnet").count == 2, "round \(round)")
            #expect(b.carnetInProcess(["sync"], environment: password).stdout.hasSuffix(": 0 down, 0 up\n"), "round \(round)")
        }
        #expect(killedMidway >= 3, "only \(killedMidway) of \(Self.rounds) kills landed while the sync ran")
    }
}

extension Sandbox {
    /// The id of the contact named `name`, from `carnet list --json`.
    func id(of name: String) -> Int? {
        let objects = json(carnetInProcess(["list", "--json"]).stdout) as? [[String: Any]]
        return objects?.first { $0["name"] as? String == name }?["id"] as? Int
    }
}
