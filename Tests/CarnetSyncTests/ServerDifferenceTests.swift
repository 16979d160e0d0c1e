import CarnetModels
import Foundation
import TestNeeds
import Testing

@testable import CarnetSync

/// Where the two servers behave differently, each case on both (see CarnetSync's ServerProfile).
@Suite(.needs("radicale", "xandikos")) struct ServerDifferenceTests {
    /// The address book deleted and made again on the server (as an administrator or a web
    /// interface does): the sync token this file kept names a state the server no longer has.
    /// Radicale answers 403 valid-sync-token, Xandikos 500; either way the sync starts again
    /// from a whole listing instead of failing at every run.
    @Test(arguments: ServerKind.allCases) func anAddressBookMadeAgainIsListedAfresh(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a")
        try a.add("Ada Lovelace")
        try a.sync()
        try a.add("Grace Hopper")
        try a.sync()
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        #expect(try raw.send("DELETE", fixture.collection).isSuccess)
        let mkcol = """
            <?xml version="1.0" encoding="utf-8"?><d:mkcol xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:carddav"><d:set><d:prop>\
            <d:resourcetype><d:collection/><c:addressbook/></d:resourcetype></d:prop></d:set></d:mkcol>
            """
        #expect(try raw.send("MKCOL", fixture.collection, body: mkcol).isSuccess)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:curl-1\r\nFN:Katherine Johnson\r\nN:Johnson;Katherine;;;\r\nEND:VCARD\r\n"
        let put = try raw.send("PUT", fixture.collection.appendingPathComponent("curl-1.vcf"), headers: ["Content-Type": "text/vcard"], body: card)
        #expect(put.isSuccess)
        let report = try a.sync()
        #expect(!report.incremental)
        #expect(report.added == 1 && report.deleted == 2, "\(report)")
        #expect(try a.contacts().map(\.name) == ["Katherine Johnson"])
        #expect(try a.sync().changedNothing)
    }

    /// A card another client named with characters an href escapes (`@`, a space, `+`): Carnet
    /// fetches, edits and deletes the one card by the href both servers list it under, never
    /// making it two.
    @Test(arguments: ServerKind.allCases) func aCardWithAnEscapedHrefIsOneCard(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a")
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:k@x\r\nFN:Kay Escaped\r\nN:Escaped;Kay;;;\r\nEND:VCARD\r\n"
        let url = try #require(URL(string: fixture.collection.absoluteString + "kay%20x%2B1%40example.org.vcf"))
        #expect(try raw.send("PUT", url, headers: ["If-None-Match": "*", "Content-Type": "text/vcard"], body: card).isSuccess)
        #expect(try a.sync().added == 1)
        try a.edit("Kay Escaped") { $0.title = "Tester" }
        let up = try a.sync()
        #expect(up.uploaded == 1 && up.skipped.isEmpty, "\(up)")
        let cards = try fixture.serverCards()
        #expect(cards.count == 1)
        #expect(cards.values.first?.contains("TITLE:Tester") == true)
        #expect(try a.sync().changedNothing)
        try a.storage.deleteContact(try a.contact(named: "Kay Escaped"))
        #expect(try a.sync().deletedRemotely == 1)
        #expect(try fixture.serverCards().isEmpty)
    }

    /// Each real server recognised from its own answers, as a sync begins: the `DAV:` header of
    /// its answer to OPTIONS (both name `addressbook`; neither names itself there), then the
    /// token its listing gives (Xandikos's, a git commit, names it).
    @Test(arguments: ServerKind.allCases) func eachServerIsRecognisedFromWhatItSays(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        _ = try fixture.book("a")
        let client = CardDAVClient(
            collection: fixture.collection, username: SyncFixture.user, password: SyncFixture.password, transport: CurlTransport())
        try client.recognise(token: nil)
        #expect(client.requests == 1)
        let classes = try #require(client.evidence.davClasses)
        #expect(classes.isSuperset(of: ["1", "3", "addressbook"]), "\(classes)")
        #expect(client.profile == .standard)
        let listed = try #require(try client.changes(since: nil))
        #expect(listed.token != nil && client.evidence.syncToken == listed.token)
        #expect(client.profile == (server == .xandikos ? .xandikos : .standard))
        // A later sync, recognised from the header again and the token the account keeps.
        let later = CardDAVClient(
            collection: fixture.collection, username: SyncFixture.user, password: SyncFixture.password, transport: CurlTransport())
        try later.recognise(token: listed.token)
        #expect(later.profile == client.profile)
    }

    /// The `DAV:` headers and tokens each server gives, as recognised: Radicale's and Xandikos's
    /// headers name no server, Nextcloud's adds classes of its own to SabreDAV's (Baïkal's).
    @Test func theProfileIsRecognisedFromTheHeaderAndTheToken() {
        func profile(dav: String?, token: String?) -> ServerProfile {
            var evidence = ServerEvidence()
            if let dav { evidence.read(HTTPResponse(status: 200, headers: ["dav": dav])) }
            evidence.syncToken = token
            return ServerProfile(recognising: evidence)
        }
        let radicale = "1, 2, 3, calendar-access, addressbook, extended-mkcol"
        let xandikos = "1, 2, 3, calendar-access, calendar-auto-scheduling, addressbook, extended-mkcol, add-member, sync-collection, quota"
        let baikal = "1, 3, extended-mkcol, access-control, calendarserver-principal-property-search, addressbook"
        let nextcloud = baikal + ", nextcloud-checksum-update, nc-calendar-search, nc-enable-birthday-calendar"
        #expect(profile(dav: nil, token: nil) == .standard)
        #expect(profile(dav: radicale, token: "http://radicale.org/ns/sync/f3e9fbaee1a2f00378bf76ba2617999e24e767f63144245c581b3fc51ff40b05") == .standard)
        #expect(profile(dav: xandikos, token: nil) == .standard)
        #expect(profile(dav: xandikos, token: "e4eae798e34f5c247466c2d53ffed1bdd6f44f5f") == .xandikos)
        #expect(profile(dav: nil, token: "e4eae798e34f5c247466c2d53ffed1bdd6f44f5f") == .xandikos)
        #expect(profile(dav: baikal, token: "http://sabre.io/ns/sync/12") == .standard)
        #expect(profile(dav: nextcloud, token: "http://sabre.io/ns/sync/12") == .nextcloud)
        #expect(profile(dav: "1, 3, ADDRESSBOOK, NC-Calendar-Search", token: nil) == .nextcloud)
        #expect(ServerProfile.xandikos.unknownTokenStatuses.contains(500) && !ServerProfile.standard.unknownTokenStatuses.contains(500))
        #expect(ServerProfile.nextcloud.isUIDConflict(400, body: "<s:message>VCard object with uid already exists in this addressbook collection.</s:message>"))
        #expect(!ServerProfile.standard.isUIDConflict(400, body: "<s:message>VCard object with uid already exists in this addressbook collection.</s:message>"))
        #expect(ServerProfile.standard.isUIDConflict(409, body: "<c:no-uid-conflict/>"))
    }
}
