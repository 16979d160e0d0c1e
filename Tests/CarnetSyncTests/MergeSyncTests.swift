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
}
