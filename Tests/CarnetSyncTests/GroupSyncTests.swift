import CarnetInterchange
import CarnetModels
import CarnetStorage
import CarnetSync
import Foundation
import Testing

/// Group cards through a real CardDAV server: each goes up in the form it came in, comes down
/// into another file unchanged, and a membership change made in one file reaches the other.
@Suite struct GroupSyncTests {
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

    @Test func aGroupMadeHereGoesUpInApplesFormToA30Server() throws {
        let fixture = try SyncFixture(.radicale)
        let a = try fixture.book("a")
        let ada = try a.add("Ada Lovelace")
        var draft = ContactDraft(name: "Choir")
        draft.kind = .group
        draft.members = [ada.uid]
        try a.storage.insertContact(draft)
        #expect(try a.sync().uploaded == 2)
        let choir = try #require(try fixture.serverCards().values.first { $0.contains("FN:Choir") })
        #expect(choir.contains("X-ADDRESSBOOKSERVER-KIND:group") && choir.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(ada.uid)"), "\(choir)")
        let b = try fixture.book("b")
        try b.sync()
        #expect(try b.storage.groups().map(\.draft.members) == [[ada.uid]])
    }
}
