import CarnetModels
import Foundation
import GRDB
import Testing
@testable import CarnetStorage

/// Merging contacts is one action of the history; the merged-away UIDs stay the survivor's.
@Suite struct MergeStorageTests {
    let dir = TempDirectory()

    /// Every row of every recorded table but the bookkeeping an undo moves on (version, time).
    static func rows(_ storage: StorageController) throws -> [String] {
        try storage.writer.read { db in
            try History.tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { row -> String in
                    var copy: [String] = []
                    for (column, value) in row where !["version", "updated_at"].contains(column) { copy.append("\(column)=\(value)") }
                    return "\(table): " + copy.joined(separator: " ")
                }
            }.sorted()
        }
    }

    func threeAdas(_ storage: StorageController) throws -> [Contact] {
        var first = ContactStorageTests.rich
        first.categories = ["mathematicians"]
        let ada = try storage.insertContact(first, uid: "ada-1")
        var second = ContactDraft(name: "Lovelace, Ada")
        second.emails = [LabeledValue("ADA@work.example", label: "other"), LabeledValue("countess@example.org")]
        second.title = "Countess"
        second.categories = ["poets"]
        second.extras = ["X-PHONETIC-FIRST-NAME:Ada"]
        let lovelace = try storage.insertContact(second, uid: "ada-2")
        var third = ContactDraft(name: "ada lovelace")
        third.phones = [LabeledValue("020 7946 0000", label: "home")]
        third.photo = pngBytes
        let lower = try storage.insertContact(third, uid: "ada-3")
        try storage.addFavorite(contactID: lower.id)
        try storage.addFavorite(contactID: lovelace.id)
        return [ada, lovelace, lower]
    }

    @Test func duplicatesAreFoundInTheFileAndTheUserCanSayTheyAreDifferent() throws {
        let storage = try StorageController(path: dir.database)
        try storage.setPhoneRegion("GB")
        let adas = try threeAdas(storage)
        try storage.insertContact(ContactDraft(name: "Grace Hopper"))
        let found = try storage.duplicates()
        #expect(found.groups.map(\.contactIDs) == [adas.map(\.id)])
        #expect(found.groups[0].reasons.map(\.kind) == [.email, .phone, .name])
        #expect(found.contacts == 4)
        #expect(try storage.duplicates(scope: DuplicateScope(contactIDs: [adas[0].id, adas[1].id])).groups.map(\.contactIDs) == [[adas[0].id, adas[1].id]])
        #expect(try storage.duplicates(scope: DuplicateScope(involving: [adas[2].id])).groups.count == 1)

        try storage.markDifferentPeople(adas[1].id, adas[0].id)
        #expect(try storage.history().first?.summary == "marked Lovelace, Ada and Ada Lovelace as different people")
        let apart = try storage.duplicates()
        for group in apart.groups { #expect(!(group.contactIDs.contains(adas[0].id) && group.contactIDs.contains(adas[1].id))) }
        try storage.undo()
        #expect(try storage.duplicates().groups.map(\.contactIDs) == [adas.map(\.id)])
        #expect(throws: CarnetError.self) { try storage.markDifferentPeople(adas[0].id, adas[0].id) }
        #expect(throws: CarnetError.self) { try storage.markDifferentPeople(adas[0].id, 999) }
    }

    /// Several groups merged as one action: one undo restores every contact exactly, and a
    /// contact named in two groups, or saved since it was read, writes nothing.
    @Test func groupsMergedTogetherAreOneActionAndOneUndo() throws {
        let storage = try StorageController(path: dir.database)
        let adas = try threeAdas(storage)
        let grace = try storage.insertContact(ContactDraft(name: "Grace Hopper", email: "grace@navy.example"))
        let hopper = try storage.insertContact(ContactDraft(name: "Hopper, Grace", email: "GRACE@navy.example"))
        let before = try Self.rows(storage)
        let actions = try storage.history(limit: 100).count
        let phones = PhoneNormalForm(region: "GB")
        func merge(_ contacts: [Contact]) -> (contacts: [Contact], draft: ContactDraft) {
            (contacts, ContactMerge.merge(contacts.map(\.draft), phones: phones).draft)
        }
        #expect(throws: CarnetError.self) { try storage.mergeContactGroups([merge(adas), merge([grace, adas[1]])]) }
        var stale = grace
        stale = Contact(id: stale.id, uid: stale.uid, draft: stale.draft, createdAt: stale.createdAt, updatedAt: stale.updatedAt, version: 7)
        #expect(throws: CarnetError.self) { try storage.mergeContactGroups([merge(adas), merge([stale, hopper])]) }
        #expect(try Self.rows(storage) == before)

        let merged = try storage.mergeContactGroups([merge(adas), merge([grace, hopper])])
        #expect(merged.map(\.id) == [adas[0].id, grace.id])
        #expect(try storage.allContacts().map(\.id).sorted() == [adas[0].id, grace.id])
        #expect(try storage.contact(resolvingUID: hopper.uid)?.id == grace.id)
        let history = try storage.history(limit: 100)
        #expect(history.count == actions + 1)
        #expect(history.first?.summary == "merged 2 groups of likely duplicates (5 contacts into 2)")
        try SearchTests().indexIsSound(storage)
        try storage.undo()
        #expect(try Self.rows(storage) == before)
        try SearchTests().indexIsSound(storage)
        try storage.redo()
        #expect(try storage.allContacts().count == 2)
        try SearchTests().indexIsSound(storage)
        #expect(try storage.mergeContactGroups([]).isEmpty)
    }

    /// Groups given by ids are read inside the write, one at a time, and merged with the draft
    /// the caller makes of them; a group the caller leaves is not touched, and the whole is one
    /// action that one undo takes back.
    @Test func groupsGivenByIdsAreReadInsideTheWriteAndMergedAsOneAction() throws {
        let storage = try StorageController(path: dir.database)
        let adas = try threeAdas(storage)
        let grace = try storage.insertContact(ContactDraft(name: "Grace Hopper", email: "grace@navy.example"))
        let hopper = try storage.insertContact(ContactDraft(name: "Hopper, Grace", email: "GRACE@navy.example"))
        let alan = try storage.insertContact(ContactDraft(name: "Alan Turing"))
        let turing = try storage.insertContact(ContactDraft(name: "A. Turing"))
        let before = try Self.rows(storage)
        let phones = PhoneNormalForm(region: "GB")
        #expect(throws: CarnetError.self) {
            try storage.mergeContactGroups(ids: [[grace.id, hopper.id], [hopper.id, alan.id]], merging: { _ in nil }, merged: { _, _ in })
        }
        // Saved after the caller listed the group: the write merges the contact as it is now.
        let renamed = try storage.updateContact(hopper, with: ContactDraft(name: "Hopper, Grace", email: "GRACE@navy.example", phone: "+44 20 7946 0000"))
        var seen: [[Int64]] = []
        var made: [(ids: [Int64], saved: Contact)] = []
        let count = try storage.mergeContactGroups(
            ids: [adas.map(\.id), [grace.id, renamed.id], [alan.id, turing.id]],
            merging: { contacts in
                seen.append(contacts.map(\.id))
                return contacts[0].name == "Alan Turing" ? nil : ContactMerge.merge(contacts.map(\.draft), phones: phones).draft
            },
            merged: { contacts, saved in made.append((contacts.map(\.id), saved)) })
        #expect(count == 2)
        #expect(seen == [adas.map(\.id), [grace.id, hopper.id], [alan.id, turing.id]])
        #expect(made.map(\.ids) == [adas.map(\.id), [grace.id, hopper.id]])
        #expect(try storage.contact(id: grace.id).draft.phones.map(\.value) == ["+44 20 7946 0000"])
        #expect(try storage.allContacts().map(\.id).sorted() == [adas[0].id, grace.id, alan.id, turing.id])
        #expect(try storage.history(limit: 1).first?.summary == "merged 2 groups of likely duplicates (5 contacts into 2)")
        try storage.undo()
        try storage.undo()
        #expect(try Self.rows(storage) == before)
        try SearchTests().indexIsSound(storage)
    }

    /// A merge of thousands of groups is a long action: its changes go out in parts as they are
    /// made, so the recorder holds a few megabytes whatever the number of groups, and one undo
    /// still takes every merge back exactly.
    @Test func aMergeOfManyGroupsIsWrittenInParts() throws {
        let storage = try StorageController(path: dir.database)
        let note = String(repeating: "a long note ", count: 300)
        var drafts: [ContactDraft] = []
        for i in 0..<800 {
            for email in ["p\(i)@example.com", "P\(i)@example.com"] {
                var draft = ContactDraft(name: "Person \(i)", email: email)
                draft.note = note + "\(i)"
                drafts.append(draft)
            }
        }
        try storage.insertContacts(drafts)
        let contacts = try storage.allContacts().sorted { $0.id < $1.id }
        let before = try Self.rows(storage)
        let phones = PhoneNormalForm(region: nil)
        let groups = stride(from: 0, to: contacts.count, by: 2).map { Array(contacts[$0...$0 + 1]) }
        try storage.mergeContactGroups(groups.map { ($0, ContactMerge.merge($0.map(\.draft), phones: phones).draft) })
        #expect(try storage.contactCount() == 800)
        let parts = try storage.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM history_changesets") ?? 0 }
        #expect(parts >= 2)
        #expect(try storage.history(limit: 1).first?.summary == "merged 800 groups of likely duplicates (1600 contacts into 800)")
        try storage.undo()
        #expect(try Self.rows(storage) == before)
        try storage.redo()
        #expect(try storage.contactCount() == 800)
        try SearchTests().indexIsSound(storage)
    }

    @Test func aMergeIsOneActionAndUndoRestoresEveryContactExactly() throws {
        let storage = try StorageController(path: dir.database)
        let adas = try threeAdas(storage)
        let before = try Self.rows(storage)
        let favoritesBefore = try storage.favorites().map { [$0.contact.id, Int64($0.position)] }
        let actions = try storage.history(limit: 100).count
        let draft = ContactMerge.merge(adas.map(\.draft), phones: PhoneNormalForm(region: nil)).draft
        let merged = try storage.mergeContacts(adas, into: draft)

        #expect(try storage.history(limit: 100).count == actions + 1)
        #expect(try storage.history().first?.summary == "merged Lovelace, Ada, ada lovelace into Ada Lovelace")
        #expect(try storage.contactCount() == 1)
        let kept = try storage.contact(id: adas[0].id)
        #expect(kept == merged)
        #expect(kept.draft.emails.map(\.value) == ["ada@work.example", "ada@home.example", "a@x.example", "countess@example.org"])
        #expect(kept.draft.emails[0].label == "work,other")
        #expect(kept.draft.categories == ["mathematicians", "poets"])
        #expect(kept.draft.extras.contains("X-PHONETIC-FIRST-NAME:Ada"))
        #expect(kept.draft.photo == pngBytes)
        #expect(kept.draft.title == "Analyst")
        // The best placed favorite of the merged ones is the survivor's place.
        #expect(try storage.favorites().map { [$0.contact.id, Int64($0.position)] } == [[adas[0].id, 1]])
        // Merged-away UIDs name the survivor.
        #expect(try storage.contact(resolvingUID: "ada-2")?.id == adas[0].id)
        #expect(try storage.contact(resolvingUID: "ada-3")?.id == adas[0].id)
        #expect(try storage.contact(uid: "ada-2") == nil)
        #expect(try storage.mergedUIDs(of: adas[0].id) == ["ada-2", "ada-3"])
        #expect(try SearchTests().names(storage, "countess") == ["Ada Lovelace"])

        try storage.undo()
        #expect(try Self.rows(storage) == before)
        #expect(try storage.favorites().map { [$0.contact.id, Int64($0.position)] } == favoritesBefore)
        for ada in adas {
            let back = try storage.contact(id: ada.id)
            #expect(back.uid == ada.uid && back.draft == ada.draft && back.createdAt == ada.createdAt)
        }
        #expect(try storage.contact(resolvingUID: "ada-2")?.id == adas[1].id)
        #expect(try SearchTests().names(storage, "countess") == ["Lovelace, Ada"])
        try SearchTests().indexIsSound(storage)

        try storage.redo()
        #expect(try storage.contactCount() == 1)
        #expect(try storage.contact(resolvingUID: "ada-3")?.id == adas[0].id)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    @Test func aContactChangedSinceTheMergeWasPreparedIsAConflictAndNothingIsWritten() throws {
        let storage = try StorageController(path: dir.database)
        let adas = try threeAdas(storage)
        let before = try Self.rows(storage)
        var renamed = adas[1].draft
        renamed.title = "Poet"
        try storage.updateContact(adas[1], with: renamed)
        let after = try Self.rows(storage)
        #expect(after != before)
        #expect(throws: CarnetError.self) { try storage.mergeContacts(adas, into: ContactMerge.merge(adas.map(\.draft), phones: PhoneNormalForm(region: nil)).draft) }
        #expect(try Self.rows(storage) == after)
        #expect(throws: CarnetError.self) { try storage.mergeContacts([adas[0]], into: adas[0].draft) }
        #expect(throws: CarnetError.self) { try storage.mergeContacts([adas[0], adas[0]], into: adas[0].draft) }
    }

    @Test func reimportingAMergedAwayCardUpdatesTheSurvivorInsteadOfBringingItBack() throws {
        let storage = try StorageController(path: dir.database)
        let adas = try threeAdas(storage)
        try storage.mergeContacts(adas, into: ContactMerge.merge(adas.map(\.draft), phones: PhoneNormalForm(region: nil)).draft)
        var old = adas[1].draft
        old.urls = [LabeledValue("https://lovelace.example")]
        let records = [
            InterchangeRecord(uid: "ada-2", draft: old, updatedAt: Date(timeIntervalSince1970: 0), line: 1),
            InterchangeRecord(uid: "ada-3", draft: adas[2].draft, updatedAt: nil, line: 2),
        ]
        var iterator = records.makeIterator()
        let report = try storage.importContacts(source: "old.vcf") { () throws(InterchangeError) in iterator.next() }
        #expect(report.added == 0 && report.updated == 1 && report.unchanged == 1)
        #expect(try storage.contactCount() == 1)
        let kept = try storage.contact(id: adas[0].id)
        #expect(kept.name == "Ada Lovelace")
        #expect(kept.draft.urls.map(\.value).contains("https://lovelace.example"))
    }

    /// A group that lists a merged-away contact lists the survivor after the merge, and the
    /// merged-away one again after its undo; a group is neither proposed nor merged as a person.
    @Test func groupsFollowAMergeAndItsUndoAndAreNeverMerged() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace", email: "ada@example.com"), uid: "ada-1")
        let copy = try storage.insertContact(ContactDraft(name: "Lovelace, Ada", email: "ADA@example.com"), uid: "urn:uuid:ada-2")
        let club = try storage.insertContact(GroupStorageTests.group("Ada Lovelace", ["ada-2", "someone"], form: .apple))
        #expect(try storage.duplicates().groups.map(\.contactIDs) == [[ada.id, copy.id]])
        try storage.mergeContacts([ada, copy], into: ContactMerge.merge([ada.draft, copy.draft], phones: PhoneNormalForm(region: nil)).draft)
        #expect(try storage.contact(id: club.id).members == ["ada-1", "someone"])
        _ = try storage.undo()
        #expect(try storage.contact(id: club.id).members == ["ada-2", "someone"])
        #expect(throws: CarnetError.self) { try storage.mergeContacts([ada, try storage.contact(id: club.id)], into: ada.draft) }
    }
}
