import CarnetModels
import CarnetSync
import Foundation
import ScriptedDAVServer
import TestNeeds
import Testing

/// Quirks of servers that cannot run here (Nextcloud, and SabreDAV's answer to a card it
/// changed), met through the real client against the scripted server (see CarnetSync's
/// ServerProfile for how each is recognised).
@Suite(.needs("python3")) struct ScriptedQuirkTests {
    let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)

    /// Another client puts a card with the UID of a contact this side is about to send for the
    /// first time. Nextcloud refuses the second card with 400, not RFC 6352's 409: a server
    /// whose `DAV:` header names Nextcloud has that 400 read as the UID taken, and the two are
    /// merged into the one card, as on a server that answers 409. Where the header names no
    /// Nextcloud, a 400 is a refusal like any other, and the contact waits.
    @Test(arguments: [true, false]) func aNextcloudRefusalOfATakenUIDIsMergedNotSkipped(_ announced: Bool) throws {
        let server = try ScriptedDAVServer(quirks: announced ? [.announcesNextcloud, .refusesTakenUIDWithBadRequest] : [.refusesTakenUIDWithBadRequest])
        let fixture = SyncFixture(nil, server: server)
        let a = try fixture.book("a")
        let contact = try a.add("Same Person", phone: "555 0102")
        let theirs = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(contact.uid)\r\nFN:Same Person\r\nN:Person;Same;;;\r\nEMAIL:same@example.org\r\nEND:VCARD\r\n"
        let elsewhere = fixture.collectionURL.appendingPathComponent("from-phone.vcf")
        let transport = BeforePutTransport(newCard: true) { [raw] in
            _ = try raw.send("PUT", elsewhere, headers: ["If-None-Match": "*", "Content-Type": "text/vcard"], body: theirs)
        }
        let report = try fixture.reopen(a, transport: transport).sync()
        let cards = try fixture.serverCards()
        #expect(Array(cards.keys) == [fixture.collectionHref + "from-phone.vcf"])
        guard announced else {
            #expect(report.skipped.count == 1 && report.skipped.first?.contains("refused it (400") == true, "\(report)")
            #expect(cards.values.first?.contains("555 0102") == false)
            return
        }
        #expect(report.skipped.isEmpty, "\(report)")
        let merged = try a.contact(named: "Same Person")
        #expect(merged.emails.map(\.value) == ["same@example.org"] && merged.phones.map(\.value) == ["555 0102"])
        #expect(cards.values.first?.contains("555 0102") == true)
        #expect(try a.sync().changedNothing)
    }

    /// Every PUT answered without an ETag (as SabreDAV answers one whose card it changed): the
    /// client asks for each card's ETag, so the next sync fetches nothing back and a change
    /// goes up over the card with If-Match. The server is asked what it is once a sync.
    @Test func aPutAnsweredWithoutAnETagIsFollowedByAQuestionForIt() throws {
        let server = try ScriptedDAVServer(quirks: [.omitsETagFromPut])
        let fixture = SyncFixture(nil, server: server)
        let recorder = MethodRecorder()
        let a = fixture.reopen(try fixture.book("a"), transport: recorder)
        try a.add("Ada Lovelace")
        try a.add("Grace Hopper")
        #expect(try a.sync().uploaded == 2)
        let cardPaths = Set(server.storedCards(user: SyncFixture.user, collection: "carnet").map { fixture.collectionHref + $0 })
        #expect(cardPaths.count == 2)
        #expect(recorder.sent.filter { $0.method == "PUT" }.map(\.path).sorted() == cardPaths.sorted())
        #expect(recorder.sent.filter { $0.method == "PROPFIND" && $0.depth == "0" }.map(\.path).sorted() == cardPaths.sorted())
        #expect(recorder.sent.filter { $0.method == "OPTIONS" }.count == 1)

        recorder.reset()
        #expect(try a.sync().changedNothing)
        #expect(recorder.sent.map(\.method) == ["OPTIONS", "REPORT"], "\(recorder.sent)")

        try a.edit("Ada Lovelace") { $0.title = "Analyst" }
        let up = try a.sync()
        #expect(up.uploaded == 1 && up.skipped.isEmpty && up.down == 0, "\(up)")
        #expect(try fixture.serverCards().values.contains { $0.contains("TITLE:Analyst") })
        #expect(try a.sync().changedNothing)
    }
}

/// The real transport, keeping each request's method, path and Depth.
final class MethodRecorder: HTTPTransport {
    struct Sent: CustomStringConvertible {
        var method: String
        var path: String
        var depth: String?
        var description: String { "\(method) \(path)" }
    }

    let inner = CurlTransport()
    private(set) var sent: [Sent] = []

    func reset() { sent = [] }

    func send(_ request: HTTPRequest) throws(CarnetError) -> HTTPResponse {
        sent.append(Sent(method: request.method, path: request.url.path.removingPercentEncoding ?? request.url.path, depth: request.headers["Depth"]))
        return try inner.send(request)
    }
}
