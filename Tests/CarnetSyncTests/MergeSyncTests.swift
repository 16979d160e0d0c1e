import CarnetModels
import CarnetStorage
import CarnetSync
import CarnetTestSupport
import Foundation
import Testing

/// A merge is an ordinary change to a sync: the merged-away cards are deleted on the server and
/// the kept one updated; its undo, synced, brings the originals back there.
@Suite struct MergeSyncTests {
    @Test func aMergeSyncedLeavesOneCardAndItsUndoSyncedLeavesTheOriginals() throws {
        let fixture = try SyncFixture(.radicale)
        let a = try fixture.book("a"), b = try fixture.book("b")
        var ada = ContactDraft(name: "Ada Lovelace", email: "ada@example.com")
        ada.title = "Analyst"
        var lovelace = ContactDraft(name: "Lovelace, Ada", phone: "+44 20 7946 0000")
        lovelace.emails = [LabeledValue("ADA@example.com", label: "home")]
        try a.storage.insertContact(ada, uid: "ada-1")
        try a.storage.insertContact(lovelace, uid: "ada-2")
        try a.add("Grace Hopper")
        try a.sync()
        try b.sync()
        let originals = try fixture.serverCards()
        #expect(originals.count == 3)

        let pair = try a.contacts().filter { $0.uid.hasPrefix("ada-") }.sorted { $0.uid < $1.uid }
        try a.storage.mergeContacts(pair, into: ContactMerge.merge(pair.map(\.draft)).draft)
        let merged = try a.sync()
        #expect(merged.deletedRemotely == 1, "\(merged)")
        let cards = try fixture.serverCards()
        #expect(cards.count == 2)
        let adaCards = cards.values.filter { $0.contains("Lovelace") }
        #expect(adaCards.count == 1)
        #expect(adaCards.first?.contains("UID:ada-1") == true)
        #expect(adaCards.first?.contains("+44 20 7946 0000") == true)
        try b.sync()
        #expect(try b.byUID() == a.byUID())
        #expect(try b.contacts().count == 2)

        try a.storage.undo()
        try a.sync()
        let back = try fixture.serverCards()
        #expect(back.count == 3)
        #expect(back.values.contains { $0.contains("UID:ada-2") })
        let adaBack = try #require(back.values.first { $0.contains("UID:ada-1") })
        #expect(!adaBack.contains("+44 20 7946 0000"))
        try b.sync()
        #expect(try b.byUID() == a.byUID())
        #expect(try b.byUID()["ada-2"] == lovelace.validated())
    }

    /// A merged-away contact's groups: the merge changes them, so the sync that deletes its
    /// card sends them naming the survivor; undo and redo change them back and forth, and a
    /// client that puts the old member back finds it resolved to the survivor here.
    @Test(arguments: ServerKind.allCases)
    func aMergeSendsTheGroupsOfTheContactItMergedAway(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        defer { fixture.server.stop() }
        let a = try fixture.book("a"), phone = try fixture.book("phone")
        try a.storage.insertContact(ContactDraft(name: "Ada Lovelace", email: "ada@example.com"), uid: "ada-1")
        try a.storage.insertContact(ContactDraft(name: "Lovelace, Ada", phone: "+44 20 7946 0000"), uid: "ada-2")
        var club = ContactDraft(name: "Hiking club")
        club.kind = .group
        club.groupForm = .apple
        club.members = ["ada-2"]
        try a.storage.insertContact(club, uid: "hiking-club")
        try a.sync()
        try phone.sync()
        func clubCard() throws -> String { try #require(try fixture.serverCards().values.first { $0.contains("FN:Hiking club") }) }
        func clubHere() throws -> Contact { try #require(try a.storage.groups().first { $0.uid == "hiking-club" }) }
        #expect(try clubCard().contains("urn:uuid:ada-2"))

        let pair = try a.contacts().filter { $0.uid.hasPrefix("ada-") }.sorted { $0.uid < $1.uid }
        try a.storage.mergeContacts(pair, into: ContactMerge.merge(pair.map(\.draft)).draft)
        #expect(try a.storage.syncStatus()?.pendingChanged == 2, "the survivor and the group wait to be sent")
        try a.sync()
        let merged = try clubCard()
        #expect(merged.contains("urn:uuid:ada-1") && !merged.contains("ada-2"), "\(merged)")
        #expect(try a.storage.syncStatus().map { $0.pendingNew + $0.pendingChanged + $0.pendingDeletes } == 0)
        try phone.sync()
        #expect(try phone.byUID() == a.byUID())

        try a.storage.undo()
        #expect(try clubHere().draft.members == ["ada-2"])
        try a.sync()
        let undone = try clubCard()
        #expect(undone.contains("urn:uuid:ada-2") && !undone.contains("ada-1"), "\(undone)")
        try a.storage.redo()
        try a.sync()
        let redone = try clubCard()
        #expect(redone.contains("urn:uuid:ada-1") && !redone.contains("ada-2"), "\(redone)")
        try phone.sync()
        #expect(try phone.byUID() == a.byUID())

        // A client that never heard of the merge puts its old group back, with a new member:
        // the merged-away UID lands on the survivor here, and the group goes up naming it.
        let raw = RawClient(user: SyncFixture.user, password: SyncFixture.password)
        let href = try #require(try fixture.serverCards().first { $0.value.contains("FN:Hiking club") }?.key)
        let old = redone.replacingOccurrences(of: "urn:uuid:ada-1", with: "urn:uuid:ada-2")
            .replacingOccurrences(of: "END:VCARD", with: "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:grace-3\r\nEND:VCARD")
        let url = try #require(URL(string: href, relativeTo: fixture.server.url)).absoluteURL
        #expect(try raw.send("PUT", url, headers: ["Content-Type": "text/vcard"], body: old).isSuccess)
        try a.sync()
        #expect(try clubHere().draft.members == ["ada-1", "grace-3"])
        let mended = try clubCard()
        #expect(mended.contains("urn:uuid:ada-1") && mended.contains("urn:uuid:grace-3") && !mended.contains("ada-2"), "\(mended)")
        #expect(try a.sync().changedNothing)
        try phone.sync()
        #expect(try phone.byUID() == a.byUID())
    }
}
