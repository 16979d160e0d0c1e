import Foundation
import RadicaleServer
import TestNeeds
import Testing

/// `carnet sync` with several address books, against a real Radicale on loopback: setup links
/// every address book of the home by name, a sync names each book, and a book that fails is
/// named while the others still sync.
@Suite(.needs("radicale", "curl")) struct BookSyncCommandTests {
    let box = Sandbox()
    let server: RadicaleServer
    let password = ["CARNET_SYNC_PASSWORD": "secret"]

    init() throws {
        server = try RadicaleServer(users: ["ada": "secret"])
    }

    /// Another client's request, with curl.
    @discardableResult
    func curl(_ method: String, _ path: String, body: String? = nil) -> Run {
        box.run(TestTool.path("curl"), ["-s", "-o", box.path("curl-body"), "-w", "%{http_code}", "-u", "ada:secret", "-X", method,
                                  "-H", "Content-Type: application/xml"] + (body.map { ["--data-binary", $0] } ?? [])
                + [server.url.absoluteString + path])
    }

    func makeCollection(_ path: String, _ name: String) {
        let made = curl("MKCOL", "ada/\(path)/", body: """
            <?xml version="1.0" encoding="utf-8"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>\
            <d:resourcetype><d:collection/><c:addressbook/></d:resourcetype><d:displayname>\(name)</d:displayname></d:prop></d:set></d:mkcol>
            """)
        #expect(made.stdout == "201", "\(made)")
    }

    @Test func everyBookSyncsAndAFailingBookIsNamed() throws {
        makeCollection("personal", "Personal")
        makeCollection("work", "Work")
        let setup = box.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password)
        let base = server.url.absoluteString + "ada/"
        #expect(setup.status == 0 && setup.lines == [
            "linked Personal (new here) to \(base)personal/",
            "linked Work (new here) to \(base)work/",
            "saved sync setup: 2 address books as ada (carnet sync to sync now)",
        ], "\(setup)")
        box.carnetInProcess(["add", "--book", "Personal", "--name", "Ada Lovelace"])
        box.carnetInProcess(["add", "--book", "Work", "--name", "Grace Hopper"])
        let host = "127.0.0.1:\(server.port)"
        let sync = box.carnetInProcess(["sync"], environment: password)
        #expect(sync.status == 0 && sync.lines == [
            "Personal: synced with \(host): 0 down, 1 up (1 sent)",
            "Work: synced with \(host): 0 down, 1 up (1 sent)",
        ], "\(sync)")
        let status = box.carnetInProcess(["sync", "status"])
        #expect(status.lines.contains("book: Personal") && status.lines.contains("book: Work"), "\(status)")

        // Moved here: it leaves Personal's collection and goes up to Work's.
        #expect(box.carnetInProcess(["move", "1", "--to", "Work"]).status == 0)
        let moved = box.carnetInProcess(["sync"], environment: password)
        #expect(moved.lines == [
            "Personal: synced with \(host): 0 down, 1 up (1 deleted there)",
            "Work: synced with \(host): 0 down, 1 up (1 sent)",
        ], "\(moved)")

        // Work's collection goes: Personal still syncs, Work is named, and the exit code is its failure's.
        let gone = curl("DELETE", "ada/work/")
        #expect(gone.stdout == "200" || gone.stdout == "204", "\(gone)")
        box.carnetInProcess(["add", "--book", "Personal", "--name", "Alan Turing"])
        let failed = box.carnetInProcess(["sync"], environment: password)
        #expect(failed.status != 0 && failed.stdout.contains("Personal: synced with \(host): 0 down, 1 up (1 sent)"), "\(failed)")
        #expect(failed.stderr.contains("Work: "), "\(failed)")
        #expect(failed.stderr.contains("the sync of Work failed (see above); the other books synced"), "\(failed)")
        let only = box.carnetInProcess(["sync", "--book", "personal"], environment: password)
        #expect(only.status == 0 && only.stdout == "synced with \(host): 0 down, 0 up\n", "\(only)")
    }

    /// `sync status --json` with two linked books: the first book's fields at the top, as with
    /// one book, and every book in `books`, each with its own account, counts and book name.
    @Test func statusJSONShowsEveryLinkedBook() throws {
        makeCollection("personal", "Personal")
        makeCollection("work", "Work")
        #expect(box.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password).status == 0)
        box.carnetInProcess(["add", "--book", "Personal", "--name", "Ada Lovelace"])
        #expect(box.carnetInProcess(["sync"], environment: password).status == 0)
        box.carnetInProcess(["add", "--book", "Work", "--name", "Grace Hopper"])
        box.carnetInProcess(["add", "--book", "Work", "--name", "Alan Turing"])

        let run = box.carnetInProcess(["sync", "status", "--json"])
        let json = try #require(box.json(run.stdout) as? [String: Any], "\(run)")
        let base = server.url.absoluteString + "ada/"
        #expect(json["book"] as? String == "Personal" && (json["account"] as? [String: Any])?["url"] as? String == base + "personal/")
        #expect(json["synced"] as? Int == 1 && (json["pending"] as? [String: Int]) == ["new": 0, "changed": 0, "deleted": 0])
        let books = try #require(json["books"] as? [[String: Any]], "\(run)")
        #expect(books.map { $0["book"] as? String } == ["Personal", "Work"])
        #expect(books.map { ($0["account"] as? [String: Any])?["url"] as? String } == [base + "personal/", base + "work/"])
        #expect(books.map { $0["synced"] as? Int } == [1, 0])
        #expect(books.map { ($0["pending"] as? [String: Int])?["new"] } == [0, 2])
        #expect(books.allSatisfy { $0["books"] == nil && $0["conflicts"] is [Any] && $0["cardsNotSynced"] is [Any] })

        // The human form: a block per book.
        let status = box.carnetInProcess(["sync", "status"])
        #expect(status.lines.contains("book: Work") && status.lines.contains("to send: 2 new, 0 changed, 0 deleted"), "\(status)")
    }

    /// `carnet undo` of a synced book's deletion says the book syncs again; when its collection
    /// has gone from the server meanwhile, the next sync says so, and `sync status` keeps saying so.
    @Test func undoingASyncedBooksDeletionSaysItSyncsAgainOrThatItsCollectionIsGone() throws {
        makeCollection("personal", "Personal")
        makeCollection("work", "Work")
        #expect(box.carnetInProcess(["sync", "setup", server.url.absoluteString, "--user", "ada"], environment: password).status == 0)
        box.carnetInProcess(["add", "--book", "Work", "--name", "Grace Hopper"])
        #expect(box.carnetInProcess(["sync"], environment: password).status == 0)
        let work = server.url.absoluteString + "ada/work/"

        #expect(box.carnetInProcess(["book", "delete", "Work", "--force"]).status == 0)
        let undo = box.carnetInProcess(["undo"])
        #expect(undo.status == 0 && undo.lines.contains("Work syncs again with \(work) (carnet sync)"), "\(undo)")
        let linked = box.carnetInProcess(["sync", "status"])
        #expect(linked.lines.contains("book: Work") && linked.lines.contains("address book: \(work)"), "\(linked)")

        // Its collection is gone from the server: the sync says so, and so does sync status.
        let gone = curl("DELETE", "ada/work/")
        #expect(gone.stdout == "200" || gone.stdout == "204", "\(gone)")
        let host = "127.0.0.1:\(server.port)"
        let failed = box.carnetInProcess(["sync"], environment: password)
        #expect(failed.status != 0 && failed.stderr.contains("Work: the server did not sync: \(host) has no address book at /ada/work/"), "\(failed)")
        let status = box.carnetInProcess(["sync", "status"])
        let said = "collection gone: \(host) had no address book at /ada/work/ at the last sync; carnet sync setup URL --book Work links the book to another"
        #expect(status.lines.contains(said), "\(status)")
        let json = box.carnetInProcess(["sync", "status", "--json"])
        #expect(json.stdout.contains("\"collectionGone\""), "\(json)")
    }
}
