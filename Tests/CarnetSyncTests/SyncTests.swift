import CarnetInterchange
import CarnetModels
import CarnetStorage
import CarnetSync
import CarnetTestSupport
import Foundation
import TestNeeds
import Testing

/// Carnet files syncing through a real server on loopback, one server per test, each test on
/// Radicale and on Xandikos.
@Suite(.needs("radicale", "xandikos")) struct SyncTests {
    @Test(arguments: ServerKind.allCases) func setupFindsOrMakesTheAddressBook(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let first = try fixture.book("a", setUp: false)
        let made = try first.engine.setup(url: fixture.server.url.absoluteString, username: SyncFixture.user, passwordCommand: "")
        #expect(made.created)
        #expect(made.account.collectionURL == fixture.collection.absoluteString)
        // From the principal URL, and from the collection itself: the same address book, found.
        let second = try fixture.book("b", setUp: false)
        let found = try second.engine.setup(url: fixture.server.home(SyncFixture.user).absoluteString, username: SyncFixture.user, passwordCommand: "printf 'secret\\nignored\\n'")
        #expect(!found.created)
        #expect(found.account.collectionURL == made.account.collectionURL)
        #expect(found.account.passwordCommand == "printf 'secret\\nignored\\n'")
        let direct = try second.engine.setup(url: made.account.collectionURL, username: SyncFixture.user, passwordCommand: "")
        #expect(direct.account.collectionURL == made.account.collectionURL && !direct.created)
        // The password is nowhere in the file.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: fixture.dir.path("b.sqlite")))
        #expect(bytes.range(of: Data(SyncFixture.password.utf8)) == nil)
    }

    @Test(arguments: ServerKind.allCases) func twoFilesConvergeOnAddsAndEditsOfDifferentFields(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a"), b = try fixture.book("b")
        try a.add("Ada Lovelace", phone: "555 0100")
        try a.add("Charles Babbage")
        try b.add("Grace Hopper")
        let first = try a.sync()
        #expect(first.uploaded == 2 && first.added == 0)
        #expect(try b.sync().added == 2)
        #expect(try a.sync().added == 1)
        #expect(try a.byUID() == b.byUID())
        #expect(try a.contacts().count == 3)

        try a.edit("Ada Lovelace") { $0.title = "Analyst" }
        try b.edit("Ada Lovelace") { $0.phone = "555 0199" }
        try a.sync()
        let merged = try b.sync()
        #expect(merged.merged == 1 && merged.clashes.isEmpty && merged.uploaded == 1)
        let third = try a.sync()
        #expect(third.incremental)
        #expect(try a.byUID() == b.byUID())
        let ada = try a.contact(named: "Ada Lovelace")
        #expect(ada.title == "Analyst" && ada.phone == "555 0199")
        // Nothing more to do on either side.
        #expect(try a.sync().changedNothing)
        #expect(try b.sync().changedNothing)
    }

    /// Ada synced to a and b; then a sets her note "from A" and syncs, b sets it "from B" (and
    /// whatever `alsoInB` changes) and has not synced yet.
    static func bothChangeTheNote(_ fixture: SyncFixture, alsoInB: (inout ContactDraft) -> Void = { _ in }) throws -> (Book, Book) {
        let a = try fixture.book("a"), b = try fixture.book("b")
        try a.add("Ada Lovelace", note: "first")
        try a.sync()
        try b.sync()
        try a.edit("Ada Lovelace") { $0.note = "from A" }
        try b.edit("Ada Lovelace") { $0.note = "from B"; alsoInB(&$0) }
        try a.sync()
        return (a, b)
    }

    @Test(arguments: ServerKind.allCases) func sameFieldConflictKeepsLocalAndRecordsTheLoser(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let (a, b) = try Self.bothChangeTheNote(fixture) { $0.title = "Countess" }
        let report = try b.sync()
        #expect(report.clashes.map(\.fields) == [[.note]])
        #expect(report.clashes.first?.kept == .local)
        #expect(report.clashes.first?.lostCard.contains("NOTE:from A") == true)
        #expect(try b.contact(named: "Ada Lovelace").note == "from B")
        try a.sync()
        #expect(try a.byUID() == b.byUID())
        #expect(try a.contact(named: "Ada Lovelace").note == "from B")
        // The losing value is in the file, for carnet sync status.
        let status = try #require(try b.storage.syncStatus())
        #expect(status.recentClashes.first?.lostCard.contains("NOTE:from A") == true)
    }

    @Test(arguments: ServerKind.allCases) func preferRemoteTakesTheServersValueAndUndoBringsMineBack(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let (a, b) = try Self.bothChangeTheNote(fixture)
        let report = try b.sync(SyncOptions(prefer: .remote))
        #expect(report.clashes.first?.kept == .remote)
        #expect(report.clashes.first?.lostCard.contains("NOTE:from B") == true)
        #expect(try b.contact(named: "Ada Lovelace").note == "from A")
        // The sync is one action of the history; undoing it brings back what lost.
        let entry = try #require(try b.storage.history(limit: 1).first)
        #expect(entry.kind == .sync && entry.summary == "synced with \(fixture.server.url.host!):\(fixture.server.port): 1 down, 0 up")
        try b.storage.undo()
        #expect(try b.contact(named: "Ada Lovelace").note == "from B")
        // … and the next sync sends the undone state as a change of this file.
        #expect(try b.sync().uploaded == 1)
        try a.sync()
        #expect(try a.contact(named: "Ada Lovelace").note == "from B")
    }

    @Test(arguments: ServerKind.allCases) func deletesGoBothWaysAndAnEditWinsOverADelete(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a"), b = try fixture.book("b")
        for name in ["One", "Two", "Three"] { try a.add(name) }
        try a.sync()
        try b.sync()
        try a.storage.deleteContact(try a.contact(named: "One"))
        #expect(try a.storage.syncStatus()?.pendingDeletes == 1)
        #expect(try a.sync().deletedRemotely == 1)
        #expect(try b.sync().deleted == 1)
        try b.storage.deleteContact(try b.contact(named: "Two"))
        try b.sync()
        #expect(try a.sync().deleted == 1)
        // Deleted here, edited there: the edit is kept on both sides.
        try a.storage.deleteContact(try a.contact(named: "Three"))
        try b.edit("Three") { $0.title = "Kept" }
        try b.sync()
        let report = try a.sync()
        #expect(report.added == 1 && report.deletedRemotely == 0)
        #expect(try a.contact(named: "Three").title == "Kept")
        #expect(try a.byUID() == b.byUID())
        #expect(try fixture.serverCards().count == 1)
        #expect(try a.storage.syncStatus()?.pendingDeletes == 0)
    }

    @Test(arguments: ServerKind.allCases) func aCardPutByAnotherClientAppearsAndKeepsWhatCarnetDoesNotShow(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a")
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:curl-1\r\nFN:Katherine Johnson\r\nN:Johnson;Katherine;;;\r\nTEL;TYPE=work:555 0142\r\nX-ORBIT:Friendship 7\r\nEND:VCARD\r\n"
        let url = fixture.collection.appendingPathComponent("from-curl.vcf")
        #expect(try raw.send("PUT", url, headers: ["If-None-Match": "*", "Content-Type": "text/vcard"], body: card).status == 201)
        #expect(try a.sync().added == 1)
        let katherine = try a.contact(named: "Katherine Johnson")
        #expect(katherine.uid == "curl-1" && katherine.phone == "555 0142")
        #expect(katherine.extras == ["X-ORBIT:Friendship 7"])
        // Edited here and sent back: the property Carnet does not model goes with it.
        try a.edit("Katherine Johnson") { $0.title = "Mathematician" }
        #expect(try a.sync().uploaded == 1)
        let stored = String(decoding: try raw.send("GET", url).body, as: UTF8.self)
        #expect(stored.contains("X-ORBIT:Friendship 7") && stored.contains("TITLE:Mathematician"))
        // An edit by the other client comes down on the next (incremental) sync.
        let edited = stored.replacingOccurrences(of: "TITLE:Mathematician", with: "TITLE:Research mathematician")
        #expect(try raw.send("PUT", url, headers: ["Content-Type": "text/vcard"], body: edited).isSuccess)
        let report = try a.sync()
        #expect(report.incremental && report.updated == 1)
        #expect(try a.contact(named: "Katherine Johnson").title == "Research mathematician")
    }

    @Test(arguments: ServerKind.allCases) func aSyncStoppedMidwayConvergesOnTheNextRunWithoutDuplicates(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a")
        for index in 1...12 { try a.add("Person \(index)") }
        let before = try a.storage.history(limit: 100)
        // Stopped after the listing (the OPTIONS that recognises the server, the REPORT) and 5
        // uploads: the server has 5 cards, this file nothing new.
        let stopping = fixture.reopen(a, transport: StoppingTransport(after: 7))
        let error = carnetError { try stopping.sync() }
        // The message says what the stopped sync had done: the 5 cards sent.
        guard case .sync(.interrupted(.unreachable, let done)) = error else { Issue.record("expected a stop, got \(String(describing: error))"); return }
        #expect(done == "5 changes sent")
        #expect(try fixture.serverCards().count == 5)
        #expect(try a.storage.history(limit: 100) == before)
        #expect(try a.storage.syncStatus()?.linked == 0)
        // The rerun finds the 5 already there (412 on If-None-Match) and sends the 7 others.
        let report = try a.sync()
        #expect(report.uploaded == 7 && report.added == 0)
        #expect(try a.storage.syncStatus()?.linked == 12)
        #expect(try fixture.serverCards().count == 12)
        #expect(try a.contacts().count == 12)
        let b = try fixture.book("b")
        #expect(try b.sync(SyncOptions(batchSize: 5)).added == 12)
        #expect(try a.byUID() == b.byUID())
        // Stopped in the middle of downloading (in batches of 5): nothing here; then all of it.
        let c = try fixture.book("c")
        let error2 = carnetError { try fixture.reopen(c, transport: StoppingTransport(after: 4)).sync(SyncOptions(batchSize: 5)) }
        #expect(error2 != nil)
        #expect(try c.contacts().isEmpty)
        #expect(try c.sync(SyncOptions(batchSize: 5)).added == 12)
        #expect(try c.byUID() == a.byUID())
    }

    @Test(arguments: ServerKind.allCases) func withoutSyncCollectionETagsAreCompared(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let transport = NoSyncCollectionTransport()
        let a = try fixture.book("a", transport: transport), b = try fixture.book("b")
        try b.add("Ada Lovelace")
        try b.add("Charles Babbage")
        try b.sync()
        #expect(try a.sync().added == 2)
        try b.edit("Ada Lovelace") { $0.title = "Analyst" }
        try b.storage.deleteContact(try b.contact(named: "Charles Babbage"))
        try b.sync()
        let report = try a.sync()
        #expect(!report.incremental && report.updated == 1 && report.deleted == 1)
        #expect(transport.refused >= 2)
        #expect(try a.byUID() == b.byUID())
    }

    @Test(arguments: ServerKind.allCases) func aDryRunChangesNothingAnywhere(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a"), b = try fixture.book("b")
        try a.add("Ada Lovelace")
        try a.sync()
        try b.add("Grace Hopper")
        let report = try b.sync(SyncOptions(dryRun: true))
        #expect(report.dryRun && report.added == 1 && report.uploaded == 1)
        #expect(try b.contacts().map(\.name) == ["Grace Hopper"])
        #expect(try fixture.serverCards().count == 1)
        #expect(try b.storage.syncStatus()?.account.lastSyncAt == nil)
        #expect(try b.storage.history(limit: 10).count == 1)
    }

    /// Radicale only: Xandikos has no authentication, any password is let in.
    @Test func aWrongOrMissingPasswordChangesNothing() throws {
        let fixture = try SyncFixture(.radicale)
        let a = try fixture.book("a")
        try a.add("Ada Lovelace")
        let wrong = fixture.reopen(a, transport: CurlTransport(), environment: ["CARNET_SYNC_PASSWORD": "wrong"])
        #expect(carnetError { try wrong.sync() } == .sync(.unauthorized(server: "127.0.0.1:\(fixture.server.port)")))
        let noPassword = fixture.reopen(a, transport: CurlTransport(), environment: [:])
        guard case .sync(.password) = carnetError({ try noPassword.sync() }) else { Issue.record("expected no password"); return }
        #expect(try a.storage.syncStatus()?.linked == 0)
        #expect(try a.storage.syncStatus()?.account.lastSyncAt == nil)
        #expect(try a.storage.history(limit: 10).count == 1)
    }

    @Test(arguments: ServerKind.allCases) func aServerDownChangesNothing(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a")
        try a.add("Ada Lovelace")
        fixture.server.stop()
        guard case .sync(.unreachable) = carnetError({ try a.sync() }) else { Issue.record("expected unreachable"); return }
        #expect(try a.storage.syncStatus()?.linked == 0)
        #expect(try a.storage.syncStatus()?.account.lastSyncAt == nil)
        #expect(try a.storage.history(limit: 10).count == 1)
    }

    /// Another client changes the card between this side's download and its upload: the server
    /// answers 412 to the PUT (If-Match the old ETag), and the sync fetches, merges, sends again.
    @Test(arguments: ServerKind.allCases) func aPreconditionFailedUploadIsFetchedMergedAndSentAgain(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a")
        try a.add("Ada Lovelace", phone: "555 0100")
        try a.sync()
        let href = try #require(try fixture.serverCards().keys.first)
        let transport = try fixture.otherClientAdds("NOTE:from the other client", to: href, before: "PUT")
        let racing = fixture.reopen(a, transport: transport)
        try a.edit("Ada Lovelace") { $0.title = "Countess" }
        let report = try racing.sync()
        #expect(transport.preconditionFailures == 1)
        #expect(report.uploaded == 1 && report.clashes.isEmpty && report.skipped.isEmpty, "\(report)")
        let ada = try a.contact(named: "Ada Lovelace")
        #expect(ada.title == "Countess" && ada.note == "from the other client")
        let stored = try #require(try fixture.serverCards()[href])
        #expect(stored.contains("TITLE:Countess") && stored.contains("NOTE:from the other client"))
        #expect(try a.sync().changedNothing)
        let b = try fixture.book("b")
        try b.sync()
        #expect(try b.byUID() == a.byUID())
    }

    /// A deletion sent with If-Match an ETag the card no longer has (changed there meanwhile):
    /// 412, and the change wins over the deletion, on both sides.
    @Test(arguments: ServerKind.allCases) func aPreconditionFailedDeleteBringsTheChangedCardBack(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a")
        try a.add("Ada Lovelace")
        try a.sync()
        let href = try #require(try fixture.serverCards().keys.first)
        let transport = try fixture.otherClientAdds("TITLE:Kept", to: href, before: "DELETE")
        try a.storage.deleteContact(try a.contact(named: "Ada Lovelace"))
        let report = try fixture.reopen(a, transport: transport).sync()
        #expect(transport.preconditionFailures == 1)
        #expect(report.deletedRemotely == 0 && report.added == 1, "\(report)")
        #expect(try a.contact(named: "Ada Lovelace").title == "Kept")
        #expect(try fixture.serverCards().count == 1)
        #expect(try a.storage.syncStatus()?.pendingDeletes == 0)
        #expect(try a.sync().changedNothing)
    }

    /// Favorites and quotes are this file's own: nothing of them goes to the server, and a sync
    /// that changes a favorite contact keeps it a favorite.
    @Test(arguments: ServerKind.allCases) func favoritesAndQuotesStayInTheirFile(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a"), b = try fixture.book("b")
        let ada = try a.add("Ada Lovelace")
        _ = try a.storage.addFavorite(contactID: ada.id)
        _ = try a.storage.addQuote(QuoteDraft(text: "Imagination is the discovering faculty", author: "Ada Lovelace"), makeCurrent: true)
        let bQuotes = try b.storage.quotes()
        try a.sync()
        try b.sync()
        #expect(try b.storage.favorites().isEmpty)
        #expect(try b.storage.quotes() == bQuotes)
        #expect(try fixture.serverCards().count == 1)
        #expect(try fixture.serverCards().values.allSatisfy { !$0.contains("Imagination") })
        try b.edit("Ada Lovelace") { $0.title = "Countess" }
        try b.sync()
        #expect(try a.sync().updated == 1)
        #expect(try a.storage.favorites().map(\.contact.name) == ["Ada Lovelace"])
        #expect(try a.storage.favorites().first?.contact.title == "Countess")
        #expect(try a.storage.quotes().contains { $0.text.hasPrefix("Imagination") })
    }
}
