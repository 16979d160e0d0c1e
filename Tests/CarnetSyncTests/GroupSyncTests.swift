import CarnetInterchange
import CarnetModels
import CarnetStorage
import CarnetSync
import Foundation
import TestNeeds
import Testing
import XandikosServer

/// Group cards through a real CardDAV server: each goes up in the form it came in, comes down
/// into another file unchanged, and a membership change made in one file reaches the other.
@Suite(.needs("radicale", "xandikos")) struct GroupSyncTests {
    static let cards = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:ada-1\r
        FN:Ada Lovelace\r
        N:Lovelace;Ada;;;\r
        EMAIL:ada@example.com\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:grace-2\r
        FN:Grace Hopper\r
        N:Hopper;Grace;;;\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:hiking-club\r
        FN:Hiking club\r
        N:Hiking club;;;;\r
        X-ADDRESSBOOKSERVER-KIND:group\r
        X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ada-1\r
        X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:someone-elsewhere\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:family\r
        KIND:group\r
        FN:Family\r
        MEMBER:urn:uuid:ada-1\r
        MEMBER:urn:uuid:grace-2\r
        END:VCARD\r

        """

    @Test(arguments: ServerKind.allCases)
    func groupsRoundTripThroughTheServer(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a")
        for record in try VCardReader.parse(Self.cards) {
            try a.storage.insertContact(record.draft, uid: record.uid)
        }
        let up = try a.sync()
        #expect(up.uploaded == 4, "\(up)")
        let onServer = try fixture.serverCards().values
        let club = try #require(onServer.first { $0.contains("FN:Hiking club") })
        #expect(club.contains("X-ADDRESSBOOKSERVER-KIND:group") && club.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:someone-elsewhere"), "\(club)")
        let family = try #require(onServer.first { $0.contains("FN:Family") })
        #expect(family.contains("VERSION:4.0") && family.contains("KIND:group") && family.contains("MEMBER:urn:uuid:grace-2"), "\(family)")
        #expect(!family.contains("X-ADDRESSBOOKSERVER"), "\(family)")

        // Another file gets the same groups, unchanged, and nothing goes back up.
        let b = try fixture.book("b")
        let down = try b.sync()
        #expect(down.added == 4, "\(down)")
        #expect(try b.byUID() == a.byUID())
        #expect(try b.storage.groupCount() == 2 && b.storage.contactCount() == 2)
        #expect(try a.sync().uploaded == 0)

        // A member added in b reaches a; the member not in either file is still kept.
        let clubInB = try #require(try b.storage.groups().first { $0.name == "Hiking club" })
        var draft = clubInB.draft
        draft.members.append("grace-2")
        try b.storage.updateContact(clubInB, with: draft)
        #expect(try b.sync().uploaded == 1)
        #expect(try a.sync().updated == 1)
        let clubInA = try #require(try a.storage.groups().first { $0.name == "Hiking club" })
        #expect(clubInA.draft.members == ["ada-1", "someone-elsewhere", "grace-2"])
        #expect(clubInA.draft.groupForm == .apple)
        let resolved = try a.storage.resolved(group: clubInA)
        #expect(resolved.members.map(\.name) == ["Ada Lovelace", "Grace Hopper"] && resolved.missing == ["someone-elsewhere"])
    }

    /// Radicale does not say what it stores (RFC 6352: then 3.0 alone), Xandikos says 3.0: a
    /// group made here goes up in Apple's form, a 3.0 card.
    @Test(arguments: ServerKind.allCases)
    func aGroupMadeHereGoesUpInApplesFormToA30Server(_ server: ServerKind) throws {
        let fixture = try SyncFixture(server)
        let a = try fixture.book("a")
        let ada = try a.add("Ada Lovelace")
        var draft = ContactDraft(name: "Choir")
        draft.kind = .group
        draft.members = [ada.uid]
        try a.storage.insertContact(draft)
        #expect(try a.sync().uploaded == 2)
        let choir = try #require(try fixture.serverCards().values.first { $0.contains("FN:Choir") })
        #expect(choir.contains("VERSION:3.0") && !choir.contains("\nKIND:"), "\(choir)")
        #expect(choir.contains("X-ADDRESSBOOKSERVER-KIND:group") && choir.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(ada.uid)"), "\(choir)")
        let b = try fixture.book("b")
        try b.sync()
        #expect(try b.storage.groups().map(\.draft.members) == [[ada.uid]])
        #expect(try b.storage.groups().map(\.draft.groupForm) == [.apple])
    }

    /// A Xandikos whose address books say they store 3.0 and 4.0 (`supported-address-data`):
    /// a group made here goes up as a vCard 4.0 `KIND:group` card while the contacts beside it
    /// stay 3.0, and stays 4.0 when it changes; a group that came in Apple's form keeps it.
    @Test func aGroupMadeHereGoesUpAsA40CardWhereTheCollectionSaysItStores40() throws {
        let fixture = SyncFixture(.xandikos, server: try XandikosServer(user: SyncFixture.user, vCardVersions: ["3.0", "4.0"]))
        defer { fixture.server.stop() }
        let a = try fixture.book("a")
        let ada = try a.add("Ada Lovelace")
        let grace = try a.add("Grace Hopper")
        var choir = ContactDraft(name: "Choir")
        choir.kind = .group
        choir.members = [ada.uid]
        try a.storage.insertContact(choir)
        let hiking = try #require(try VCardReader.parse(Self.cards).first { $0.draft.name == "Hiking club" })
        try a.storage.insertContact(hiking.draft, uid: hiking.uid)
        #expect(try a.sync().uploaded == 4)

        let onServer = try fixture.serverCards().values
        let card = try #require(onServer.first { $0.contains("FN:Choir") })
        #expect(card.contains("VERSION:4.0\r\n") && card.contains("\r\nKIND:group\r\n"), "\(card)")
        #expect(card.contains("\r\nMEMBER:urn:uuid:\(ada.uid)\r\n") && !card.contains("X-ADDRESSBOOKSERVER"), "\(card)")
        let person = try #require(onServer.first { $0.contains("FN:Ada Lovelace") })
        #expect(person.contains("VERSION:3.0"), "\(person)")
        let club = try #require(onServer.first { $0.contains("FN:Hiking club") })
        #expect(club.contains("VERSION:3.0") && club.contains("X-ADDRESSBOOKSERVER-KIND:group") && !club.contains("\nKIND:"), "\(club)")

        // Another file reads it as a 4.0 group; a member it adds goes back in the same form.
        let b = try fixture.book("b")
        #expect(try b.sync().added == 4)
        let choirInB = try #require(try b.storage.groups().first { $0.name == "Choir" })
        #expect(choirInB.draft.groupForm == .vcard4 && choirInB.draft.members == [ada.uid])
        var draft = choirInB.draft
        draft.members.append(grace.uid)
        try b.storage.updateContact(choirInB, with: draft)
        #expect(try b.sync().uploaded == 1)
        #expect(try a.sync().updated == 1)
        #expect(try a.storage.groups().first { $0.name == "Choir" }?.draft.members == [ada.uid, grace.uid])
        let changed = try #require(try fixture.serverCards().values.first { $0.contains("FN:Choir") })
        #expect(changed.contains("VERSION:4.0\r\n") && changed.contains("\r\nMEMBER:urn:uuid:\(grace.uid)\r\n"), "\(changed)")
        #expect(try a.sync().uploaded == 0 && b.sync().uploaded == 0)
    }
}
