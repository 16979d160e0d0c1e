import CarnetInterchange
import CarnetModels
import CarnetStorage
import CarnetSync
import CarnetTestSupport
import Foundation
import RadicaleServer
import TestNeeds
import Testing

/// A book linked to a collection that already holds its cards, with no common base (the same
/// contact imported here and on a phone, or a link an old undo lost): a field the two hold
/// differently is a conflict nobody has settled. Neither side's value overwrites the other's, the
/// contact is not sent, and `sync status` lists it until `sync take` settles it.
@Suite(.needs("radicale", "xandikos")) struct SyncUnsettledLinkTests {
    static let card = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:shared-ada\r
        FN:Ada Lovelace\r
        N:Lovelace;Ada;;;\r
        TITLE:Countess\r
        EMAIL;TYPE=home:ada@home.example\r
        NOTE:added on the phone\r
        END:VCARD\r

        """

    /// The book's contact and the server's card of one UID, never synced together; a first sync.
    func linked(_ kind: ServerKind, prefer: SyncPreference) throws -> (SyncFixture, Book, SyncReport) {
        let fixture = try SyncFixture(kind)
        let a = try fixture.book("a")
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let put = try raw.send(
            "PUT", fixture.collectionURL.appendingPathComponent("shared-ada.vcf"),
            headers: ["If-None-Match": "*", "Content-Type": "text/vcard"], body: Self.card)
        try #require(put.isSuccess, "\(put.status) \(String(decoding: put.body, as: UTF8.self))")
        var draft = ContactDraft(name: "Ada Lovelace")
        draft.emails = [LabeledValue("ada@example.com", label: "work")]
        draft.nameParts = PersonName(given: "Ada", family: "Lovelace")
        draft.title = "Analyst"
        try a.storage.insertContact(draft, uid: "shared-ada")
        var options = SyncOptions()
        options.prefer = prefer
        return (fixture, a, try a.sync(options))
    }

    @Test(arguments: ServerKind.allCases, [SyncPreference.local, .remote])
    func aFieldHeldDifferentlyWithNoBaseWaitsForTheUser(_ kind: ServerKind, _ prefer: SyncPreference) throws {
        let (fixture, a, report) = try linked(kind, prefer: prefer)
        let clash = try #require(report.clashes.first, "\(report)")
        #expect(clash.unsettled && clash.fields == [.title], "\(report)")
        #expect(report.uploaded == 0, "nothing is sent over the server's card: \(report)")
        // Here: this file's title, and what only the server had (its email, its note).
        let ada = try a.contact(named: "Ada Lovelace")
        #expect(ada.title == "Analyst" && ada.note == "added on the phone")
        #expect(Set(ada.emails.map(\.value)) == ["ada@example.com", "ada@home.example"])
        // There: the card as the phone left it.
        let there = try #require(try fixture.serverCards().values.first)
        #expect(there.contains("TITLE:Countess") && !there.contains("Analyst"), "\(there)")

        let status = try #require(try a.storage.syncStatus())
        let conflict = try #require(status.conflicts.first)
        #expect(conflict.clash.unsettled && status.pendingChanged == 0, "\(status)")
        // Another sync sends nothing and records no second conflict.
        #expect(try a.sync().changedNothing)
        #expect(try a.storage.syncStatus()?.conflicts.count == 1)
        #expect(try fixture.serverCards().values.first == there)

        // Settled with this file's values: the next sync sends them (and what the server held
        // that this file lacked stays in the card).
        try a.engine.settleConflict(id: conflict.id)
        #expect(try a.storage.syncStatus()?.pendingChanged == 1)
        let sent = try a.sync()
        #expect(sent.uploaded == 1 && sent.clashes.isEmpty, "\(sent)")
        let after = try #require(try fixture.serverCards().values.first)
        #expect(after.contains("TITLE:Analyst") && after.contains("ada@home.example") && after.contains("ada@example.com"), "\(after)")
        #expect(try a.sync().changedNothing)
    }

    @Test(arguments: ServerKind.allCases)
    func takingTheServersValueSettlesItAndSendsTheRest(_ kind: ServerKind) throws {
        let (fixture, a, report) = try linked(kind, prefer: .local)
        try #require(report.clashes.first?.unsettled == true)
        let conflict = try #require(try a.storage.syncStatus()?.conflicts.first)
        // As `carnet sync take` does: the server's title, then settled.
        let ada = try a.contact(named: "Ada Lovelace")
        var draft = ada.draft
        draft.title = "Countess"
        try a.storage.updateContact(ada, with: draft)
        try a.engine.settleConflict(id: conflict.id)
        #expect(try a.sync().uploaded == 1)
        let after = try #require(try fixture.serverCards().values.first)
        #expect(after.contains("TITLE:Countess") && after.contains("ada@example.com"), "\(after)")
        #expect(try a.storage.syncStatus()?.conflicts.first?.clash.unsettled == false)
    }
}
