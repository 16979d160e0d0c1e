import CarnetInterchange
import CarnetModels
import CarnetStorage
import CarnetSync
import Foundation
import RadicaleServer

/// The sync rows, with a real Radicale on loopback (the server's own time is in them, and is
/// most of it; Carnet's own CPU time is in the notes). No raw side: the rows are absolute.
///
/// - first sync down: another client put N cards (one whole-collection PUT, Radicale's import);
///   an empty Carnet file syncs them (sync-collection, then addressbook-multiget, 100 a request).
/// - first sync up: a file of M contacts (at most 1,000) syncs into an empty address book, one
///   PUT each. Radicale checks every PUT's UID against the whole collection, so its time per PUT
///   grows with the collection; 10,000 would measure Radicale, for hours.
/// - incremental: one change made here goes up, one made by another client comes down, with
///   the N-card address book.
enum SyncBench {
    struct Result {
        var rows: [ReportRow]
        var notes: [String]
    }

    static let password = "secret"

    static func run(n: Int, in directory: String) throws -> Result {
        let server = try RadicaleServer(users: ["bench": password])
        defer { server.stop() }
        let raw = CurlTransport(answerTimeout: 600)
        let auth = ["Authorization": "Basic " + Data("bench:\(password)".utf8).base64EncodedString()]
        let books = server.home("bench")
        func send(_ method: String, _ url: URL, _ body: String) throws {
            let response = try raw.send(HTTPRequest(method: method, url: url, headers: auth.merging(["Content-Type": "text/vcard"]) { $1 }, body: Data(body.utf8)))
            guard response.isSuccess else { throw BenchError("sync: \(method) \(url.path) answered \(response.status)") }
        }
        func book(_ name: String, collection: URL) throws -> (StorageController, CardDAVSync) {
            let path = "\(directory)/sync-\(name).sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let storage = try StorageController(path: path)
            let engine = CardDAVSync(storage: storage, transport: CurlTransport(answerTimeout: 600), environment: ["CARNET_SYNC_PASSWORD": password])
            _ = try engine.setup(url: collection.absoluteString, username: "bench", passwordCommand: "")
            return (storage, engine)
        }
        var cpu: [String] = []
        func timed(_ what: String, _ body: () throws -> SyncReport) throws -> (Double, SyncReport) {
            progress("sync: \(what)…")
            let (startCPU, start) = (cpuSeconds(), nowNanos())
            let report = try body()
            let wall = Double(nowNanos() - start) / 1e9
            cpu.append("\(what): \(formatSeconds(cpuSeconds() - startCPU)) of Carnet's CPU in \(formatSeconds(wall))")
            return (wall, report)
        }
        let sync = { (engine: CardDAVSync) throws -> SyncReport in try engine.sync(options: SyncOptions(), progress: nil) }

        // Down: N cards put by another client, into an empty file.
        progress("sync: putting \(n) cards on the server…")
        let drafts = ContactData.drafts(count: n)
        let cards = drafts.enumerated().map { VCardWriter.card(uid: "bench-\($0.offset)", draft: $0.element, updatedAt: nil, version: .v3) }
        let shared = books.appendingPathComponent("shared/")
        try send("PUT", shared, cards.joined())
        let (b, bEngine) = try book("down", collection: shared)
        let (down, downReport) = try timed("first sync down, \(n) contacts") { try sync(bEngine) }
        guard downReport.added == n else { throw BenchError("sync: the first sync brought \(downReport.added) of \(n)") }
        let rss = maxRSSMiB()

        // Up: M contacts into an empty address book, a PUT each.
        let m = min(n, 1_000)
        let upCollection = books.appendingPathComponent("up/")
        try send("PUT", upCollection, "")
        let (a, aEngine) = try book("up", collection: upCollection)
        try a.insertContacts(drafts.prefix(m))
        let (up, upReport) = try timed("first sync up, \(m) contacts") { try sync(aEngine) }
        guard upReport.uploaded == m else { throw BenchError("sync: the first sync sent \(upReport.uploaded) of \(m)") }

        // Incremental, with the N-card book: one change from here up, one from another client down.
        var changeUp: [Double] = [], changeDown: [Double] = []
        for k in 0..<3 {
            guard let contact = try b.contacts(after: nil, limit: 1 + k).contacts.last else { break }
            var draft = contact.draft
            draft.note = "changed here \(k)"
            try b.updateContact(contact, with: draft)
            let (t1, r1) = try timed("incremental sync, 1 change up") { try sync(bEngine) }
            guard r1.uploaded == 1, r1.incremental else { throw BenchError("sync: an incremental sync did not send one change") }
            var theirs = drafts[n - 1 - k]
            theirs.note = "changed there \(k)"
            try send("PUT", shared.appendingPathComponent("bench-\(n - 1 - k).vcf"), VCardWriter.card(uid: "bench-\(n - 1 - k)", draft: theirs, updatedAt: nil, version: .v3))
            let (t2, r2) = try timed("incremental sync, 1 change down") { try sync(bEngine) }
            guard r2.updated == 1, r2.incremental else { throw BenchError("sync: an incremental sync did not bring one change") }
            changeUp.append(t1)
            changeDown.append(t2)
        }
        func row(_ workload: String, _ count: Int, _ seconds: Double) -> ReportRow {
            ReportRow(workload: workload, n: formatCount(count), carnet: formatSeconds(seconds), raw: "n/a", ratio: "n/a", target: "(absolute)", verdict: "")
        }
        return Result(
            rows: [
                row("sync: first, down (multiget ×100)", n, down),
                row("sync: first, up (a PUT each)", m, up),
                row("sync: incremental, 1 change up (book of N)", n, median(changeUp)),
                row("sync: incremental, 1 change down (book of N)", n, median(changeDown)),
            ],
            notes: [
                "sync: Radicale \(radicaleVersion()) on 127.0.0.1 (filesystem storage, htpasswd plain); first syncs once, incremental "
                    + "the median of \(changeUp.count); peak RSS of this process after the \(formatCount(n))-card first sync: \(rss) MiB; "
                    + cpu.prefix(2).joined(separator: "; ") + " (this process's CPU; the rest of the wall time is the server's).",
            ])
    }

    private static func maxRSSMiB() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss / 1024  // KiB on Linux
        #else
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss / 1024 / 1024  // bytes on macOS
        #endif
    }

    private static func radicaleVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: RadicaleServer.executable)
        process.arguments = ["--version"]
        let pipe = Pipe()
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return "?" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
