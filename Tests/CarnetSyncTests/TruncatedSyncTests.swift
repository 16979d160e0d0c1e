import CarnetModels
import CarnetSync
import Foundation
import ScriptedDAVServer
import TestNeeds
import Testing

/// A server that answers a sync-collection REPORT with part of what changed, a 507 on the
/// collection and a token to go on from (RFC 6578 section 3.6, as Nextcloud pages a large
/// address book). No server installed here truncates, so these run against the scripted one.
@Suite(.needs("python3")) struct TruncatedSyncTests {
    let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)

    /// Another client's card, put straight on the server.
    static let names = ["Ada Lovelace", "Grace Hopper", "Katherine Johnson", "Dorothy Vaughan", "Mary Jackson"]

    /// A book whose five contacts went up, on a server that has since forgotten every token it
    /// gave (restored from a backup) and answers sync-collection two cards a page.
    func fiveCardsSentThenTokensForgotten() throws -> (ScriptedDAVServer, SyncFixture, Book, [String]) {
        let server = try ScriptedDAVServer()
        let fixture = SyncFixture(nil, server: server)
        let a = try fixture.book("a")
        for name in Self.names { try a.add(name) }
        #expect(try a.sync().uploaded == 5)
        try server.forgetSyncTokens()
        try server.setQuirks([.truncatesSyncCollection(pageSize: 2)])
        return (server, fixture, a, Self.names)
    }

    func put(_ uid: String, _ name: String, in fixture: SyncFixture, title: String? = nil) throws {
        let parts = name.split(separator: " ")
        var card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(uid)\r\nFN:\(name)\r\nN:\(parts.last ?? "");\(parts.first ?? "");;;\r\n"
        if let title { card += "TITLE:\(title)\r\n" }
        card += "END:VCARD\r\n"
        let stored = try raw.send("PUT", fixture.collection.appendingPathComponent("\(uid).vcf"), headers: ["Content-Type": "text/vcard"], body: card)
        #expect(stored.isSuccess, "PUT \(uid) answered \(stored.status)")
    }

    /// Each request after the first asks from the token the one before it answered, and only
    /// the last answer was whole.
    func expectContinued(_ requests: [ScriptedDAVServer.SyncCollectionRequest], pages: Int, from first: String) {
        #expect(requests.count == pages, "\(requests)")
        #expect(requests.first?.asked == first)
        #expect(requests.map(\.truncated) == Array(repeating: true, count: pages - 1) + [false])
        for (before, after) in zip(requests, requests.dropFirst()) { #expect(after.asked == before.answered) }
    }

    @Test func aFirstSyncAgainstATruncatingServerReceivesEveryCard() throws {
        let server = try ScriptedDAVServer(quirks: [.truncatesSyncCollection(pageSize: 2)])
        let fixture = SyncFixture(nil, server: server)
        let a = try fixture.book("a")
        let names = ["Ada Lovelace", "Grace Hopper", "Katherine Johnson", "Dorothy Vaughan", "Mary Jackson"]
        for (n, name) in names.enumerated() { try put("card-\(n)", name, in: fixture) }
        let report = try a.sync()
        #expect(report.added == 5 && report.deleted == 0 && report.uploaded == 0, "\(report)")
        #expect(try a.contacts().map(\.name).sorted() == names.sorted())
        expectContinued(server.syncCollectionRequests(), pages: 3, from: "")
        #expect(try a.sync().changedNothing)
        #expect(server.storedCards(user: SyncFixture.user, collection: "carnet").count == 5)
    }

    @Test func anIncrementalSyncWhoseAnswerIsTruncatedDeletesOnlyWhatWasReportedDeleted() throws {
        let server = try ScriptedDAVServer()
        let fixture = SyncFixture(nil, server: server)
        let a = try fixture.book("a")
        for n in 1...4 { try put("card-\(n)", "Person \(n)", in: fixture) }
        #expect(try a.sync().added == 4)
        let token = try #require(server.syncCollectionRequests().last?.answered)
        try server.setQuirks([.truncatesSyncCollection(pageSize: 2)])
        // Four changes, so two pages: the deletion and the edit come on the second.
        try put("card-5", "Person 5", in: fixture)
        try put("card-6", "Person 6", in: fixture)
        #expect(try raw.send("DELETE", fixture.collection.appendingPathComponent("card-2.vcf")).isSuccess)
        try put("card-1", "Person 1", in: fixture, title: "Engineer")
        let report = try a.sync()
        #expect(report.incremental)
        #expect(report.added == 2 && report.updated == 1 && report.deleted == 1, "\(report)")
        #expect(try a.contacts().map(\.name).sorted() == ["Person 1", "Person 3", "Person 4", "Person 5", "Person 6"])
        #expect(try a.contact(named: "Person 1").draft.title == "Engineer")
        expectContinued(Array(server.syncCollectionRequests().dropFirst()), pages: 2, from: token)
        #expect(try a.sync().changedNothing)
    }

    /// The server has forgotten the file's token (restored from a backup), so the sync lists
    /// the whole collection again, and that listing comes in pages: a linked card the first
    /// page does not name is on a later one, not deleted.
    @Test func aLinkedCardNotListedInATruncatedPageIsNeverDeletedHere() throws {
        let (server, _, a, names) = try fiveCardsSentThenTokensForgotten()
        let before = server.syncCollectionRequests().count
        let report = try a.sync()
        #expect(!report.incremental)
        #expect(report.deleted == 0 && report.added == 0 && report.uploaded == 0 && report.deletedRemotely == 0, "\(report)")
        #expect(try a.contacts().map(\.name).sorted() == names.sorted())
        #expect(server.storedCards(user: SyncFixture.user, collection: "carnet").count == 5)
        // The token the file kept, refused; then the whole collection, page by page.
        let requests = Array(server.syncCollectionRequests().dropFirst(before))
        expectContinued(requests, pages: 3, from: "")
        #expect(try a.sync().changedNothing)
    }

    /// A truncated answer without a token to go on from cannot be continued, and is not whole:
    /// the sync compares every card's ETag instead, and deletes nothing the server still has.
    @Test func aTruncatedAnswerWithNoWayOnIsNeverTakenAsTheWholeCollection() throws {
        let (server, fixture, a, names) = try fiveCardsSentThenTokensForgotten()
        let tokenless = TokenlessTruncationTransport()
        let b = fixture.reopen(a, transport: tokenless)
        let report = try b.sync()
        #expect(tokenless.stripped == 1)
        #expect(report.deleted == 0 && report.added == 0 && report.uploaded == 0, "\(report)")
        #expect(try b.contacts().map(\.name).sorted() == names.sorted())
        #expect(server.storedCards(user: SyncFixture.user, collection: "carnet").count == 5)
    }
}

/// The real transport, with the sync-token taken out of every truncated sync-collection answer
/// (507 on the collection): an answer that gives no way to continue.
final class TokenlessTruncationTransport: HTTPTransport {
    let inner = CurlTransport()
    private(set) var stripped = 0

    func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse {
        var response = try inner.send(request)
        let text = String(decoding: response.body, as: UTF8.self)
        if request.method == "REPORT", text.contains("507 Insufficient Storage") {
            stripped += 1
            response.body = Data(text.replacing(/<d:sync-token>[^<]*<\/d:sync-token>/, with: "").utf8)
        }
        return response
    }
}
