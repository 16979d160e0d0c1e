import CarnetModels
import CarnetStorage
import CarnetSync
import CarnetTestSupport
import Foundation
import TestNeeds
import Testing

/// A merge is an ordinary change to a sync: the merged-away cards are deleted on the server and
/// the kept one updated; its undo, synced, brings the originals back there.
@Suite(.needs("radicale", "xandikos", "sqlite3")) struct MergeSyncTests {
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
        try a.storage.mergeContacts(pair, into: ContactMerge.merge(pair.map(\.draft), phones: PhoneNormalForm(region: nil)).draft)
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

    /// Lists described by their entries alone (expertise, hobbies, interests) travel as their
    /// vCard properties, and two clients that each changed one contact's lists between syncs
    /// both keep what they added: the sync's merge takes them entry by entry.
    @Test func levelledListsTravelAndMergeEntryByEntry() throws {
        let fixture = try SyncFixture(.radicale)
        defer { fixture.server.stop() }
        let a = try fixture.book("a"), b = try fixture.book("b")
        var ada = ContactDraft(name: "Ada Lovelace")
        ada.expertise = [LabeledValue("mathematics", label: "expert")]
        ada.hobbies = [LabeledValue("riding", label: "high")]
        try a.storage.insertContact(ada, uid: "ada-1")
        try a.sync()
        try b.sync()
        #expect(try fixture.serverCards().values.contains { $0.contains("EXPERTISE;LEVEL=expert:mathematics\r\n") })
        let onB = try #require(try b.byUID()["ada-1"])
        #expect(onB.expertise == ada.expertise && onB.hobbies == ada.hobbies)

        let hereA = try #require(try a.contacts().first { $0.uid == "ada-1" })
        var mineA = hereA.draft
        mineA.hobbies.append(LabeledValue("chess"))
        mineA.expertise[0].label = "average"
        try a.storage.updateContact(hereA, with: mineA)
        let hereB = try #require(try b.contacts().first { $0.uid == "ada-1" })
        var mineB = hereB.draft
        mineB.hobbies.append(LabeledValue("sailing", label: "low"))
        mineB.interests = [LabeledValue("looms")]
        try b.storage.updateContact(hereB, with: mineB)
        try a.sync()
        try b.sync()
        try a.sync()
        let merged = try #require(try a.byUID()["ada-1"])
        #expect(Set(merged.hobbies.map(\.value)) == ["riding", "chess", "sailing"], "\(merged.hobbies)")
        #expect(merged.expertise == [LabeledValue("mathematics", label: "average")])
        #expect(merged.interests == [LabeledValue("looms")])
        #expect(try b.byUID() == a.byUID())
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
        try a.storage.mergeContacts(pair, into: ContactMerge.merge(pair.map(\.draft), phones: PhoneNormalForm(region: nil)).draft)
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

    /// A file whose merge was made before merges saved their groups as changed: the group is
    /// held in step while the server's card names the merged-away UID. `sync status` and
    /// `db check` name it; the next sync, or `db repair` then the sync, sends it.
    @Test(arguments: ServerKind.allCases)
    func aGroupAnEarlierMergeLeftNamingAMergedAwayCardIsNamedAndMended(_ kind: ServerKind) throws {
        let fixture = try SyncFixture(kind)
        defer { fixture.server.stop() }
        let a = try fixture.book("a")
        func group(_ name: String) throws -> String { try #require(try fixture.serverCards().values.first { $0.contains("FN:\(name)") }) }
        func mergeLeavingItsGroupInStep(_ uids: [String], group: String) throws {
            let pair = try a.contacts().filter { uids.contains($0.uid) }.sorted { $0.uid < $1.uid }
            try a.storage.mergeContacts(pair, into: ContactMerge.merge(pair.map(\.draft), phones: PhoneNormalForm(region: nil)).draft)
            try Self.sqlite(fixture.dir.path("a.sqlite"), """
                UPDATE sync_contacts SET synced_version = (SELECT version FROM contacts WHERE id = contact_id)
                WHERE contact_id = (SELECT id FROM contacts WHERE uid = '\(group)')
                """)
        }
        for (uid, name) in [("ada-1", "Ada Lovelace"), ("ada-2", "Lovelace, Ada"), ("grace-1", "Grace Hopper"), ("grace-2", "Hopper, Grace")] {
            try a.storage.insertContact(ContactDraft(name: name), uid: uid)
        }
        for (uid, name, member) in [("hiking-club", "Hiking club", "ada-2"), ("choir", "Choir", "grace-2")] {
            var draft = ContactDraft(name: name)
            draft.kind = .group
            draft.members = [member]
            try a.storage.insertContact(draft, uid: uid)
        }
        try a.sync()

        try mergeLeavingItsGroupInStep(["ada-1", "ada-2"], group: "hiking-club")
        let status = try #require(try a.storage.syncStatus())
        #expect(status.pendingChanged == 2, "the survivor, and the group the server has naming the card merged away")
        #expect(status.groupsNamingMergedUIDs.map { "\($0.name): \($0.mergedUID) → \($0.survivor)" } == ["Hiking club: ada-2 → Ada Lovelace"])
        let problems = try a.storage.integrityCheck()
        #expect(problems.count == 1 && problems.allSatisfy { $0.contains("Hiking club") && $0.contains("ada-2") }, "\(problems)")
        try a.sync()
        let club = try group("Hiking club")
        #expect(club.contains("urn:uuid:ada-1") && !club.contains("ada-2"), "\(club)")
        #expect(try a.storage.syncStatus()?.groupsNamingMergedUIDs.isEmpty == true)
        #expect(try a.storage.integrityCheck() == ["ok"])

        // db repair marks it to send; the status then counts it as any change.
        try mergeLeavingItsGroupInStep(["grace-1", "grace-2"], group: "choir")
        let repaired = try a.storage.repair()
        #expect(repaired.count == 1 && repaired.allSatisfy { $0.contains("Choir") }, "\(repaired)")
        #expect(try a.storage.integrityCheck() == ["ok"])
        let after = try #require(try a.storage.syncStatus())
        #expect(after.pendingChanged == 2 && after.groupsNamingMergedUIDs.isEmpty)
        try a.sync()
        let choir = try group("Choir")
        #expect(choir.contains("urn:uuid:grace-1") && !choir.contains("grace-2"), "\(choir)")
        #expect(try a.sync().changedNothing)
    }

    /// `sqlite3 FILE SQL`, as a person (or an earlier Carnet) would change the file.
    static func sqlite(_ path: String, _ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestTool.path("sqlite3"))
        process.arguments = [path, sql]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3 \(sql)")
    }
}
