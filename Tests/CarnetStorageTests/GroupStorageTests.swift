import CarnetModels
import Foundation
import GRDB
import Testing
@testable import CarnetStorage

/// Group cards in the file (migrations/0014_groups.sql): rows of contacts apart from the people,
/// members by UID in group_members, every change in the history.
@Suite struct GroupStorageTests {
    let dir = TempDirectory()

    static func group(_ name: String, _ members: [String], form: GroupForm? = nil) -> ContactDraft {
        var draft = ContactDraft(name: name)
        draft.kind = .group
        draft.groupForm = form
        draft.members = members
        return draft
    }

    @Test func aFileOfTheLastSchemaOpensWithEveryContactAPerson() throws {
        let path = dir.database
        let old = try StorageController(path: path, options: StorageOptions(), migrations: Migration.embedded.filter { $0.version < 14 })
        // Today's storage writes the columns later schemas add: they are there while it writes
        // and go again, and the migrations bring them back in the same order.
        let later = ["kind TEXT NOT NULL DEFAULT 'individual'", "group_form TEXT", "pronouns TEXT NOT NULL DEFAULT ''", "gender TEXT NOT NULL DEFAULT ''"]
        try old.writer.write { db in for column in later { try db.execute(sql: "ALTER TABLE contacts ADD COLUMN \(column)") } }
        let ada = try old.insertContact(ContactDraft(name: "Ada Lovelace", email: "ada@example.com"))
        try old.writer.write { db in
            for column in later.reversed() { try db.execute(sql: "ALTER TABLE contacts DROP COLUMN \(column.prefix { $0 != " " })") }
        }
        try old.close()
        let storage = try StorageController(path: path)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        #expect(try storage.contact(id: ada.id).kind == .individual)
        #expect(try storage.contactCount() == 1 && storage.groupCount() == 0)
        #expect(try storage.integrityCheck() == ["ok"])
        // A contact from before the upgrade edits, undoes and redoes as any other; so does the
        // action recorded before it (fewer columns in its changeset).
        let edited = try storage.updateContact(try storage.contact(id: ada.id), with: ContactDraft(name: "Ada King", email: "ada@example.com"))
        _ = try storage.undo()
        #expect(try storage.contact(id: ada.id).name == "Ada Lovelace")
        _ = try storage.redo()
        #expect(try storage.contact(id: ada.id).name == edited.name)
        _ = try storage.undo()
        _ = try storage.undo()
        #expect(try storage.contactCount() == 0)
        _ = try storage.redo()
        #expect(try storage.contact(id: ada.id).kind == .individual)
    }

    @Test func groupsAreKeptApartFromPeople() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace", email: "ada@example.com"))
        let club = try storage.insertContact(Self.group("Climbing club", [ada.uid, "not-here"], form: .apple))
        // Not name-parsed.
        #expect(club.draft.nameParts.isEmpty && club.draft.groupForm == .apple)
        #expect(try storage.contacts(limit: 10).contacts.map(\.name) == ["Ada Lovelace"])
        #expect(try storage.contactCount() == 1 && storage.contactCount(matching: "club") == 0)
        #expect(try storage.groupCount() == 1 && storage.info().contacts == 1 && storage.info().groups == 1)
        #expect(try storage.groups(containing: ada.uid).map(\.id) == [club.id])
        let resolved = try storage.resolved(group: try storage.contact(id: club.id))
        #expect(resolved.members.map(\.id) == [ada.id] && resolved.missing == ["not-here"])
        // A member's `urn:uuid:` UID matches the reference without it, and the other way round.
        let grace = try storage.insertContact(ContactDraft(name: "Grace"), uid: "urn:uuid:g-2")
        let family = try storage.insertContact(Self.group("Family", ["g-2"], form: .vcard4))
        #expect(try storage.resolved(group: family).members.map(\.id) == [grace.id])
        #expect(try storage.groups(containing: grace.uid).map(\.name) == ["Family"])
        // The schema refuses what the model refuses.
        try storage.writer.write { db in
            #expect(throws: (any Error).self) { try db.execute(sql: "UPDATE contacts SET kind = 'team' WHERE id = ?", arguments: [club.id]) }
            #expect(throws: (any Error).self) { try db.execute(sql: "UPDATE contacts SET group_form = 'apple' WHERE id = ?", arguments: [ada.id]) }
        }
        #expect(throws: CarnetError.self) { try storage.insertContact(ContactDraft(name: "Bob", email: "bob@example.com").with(members: ["x"])) }
        // Deleting the group deletes its member rows, never the members.
        try storage.deleteContact(club)
        #expect(try storage.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM group_members WHERE contact_id = ?", arguments: [club.id]) } == 0)
        #expect(try storage.contact(id: ada.id).name == "Ada Lovelace")
    }

    @Test func everyGroupChangeIsUndoneAndRedone() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace"))
        let club = try storage.insertContact(Self.group("Climbing club", []))
        var draft = club.draft
        draft.members = [ada.uid, "x-1"]
        let withMembers = try storage.updateContact(club, with: draft)
        _ = try storage.undo()
        #expect(try storage.contact(id: club.id).draft.members.isEmpty)
        _ = try storage.redo()
        #expect(try storage.contact(id: club.id).draft.members == [ada.uid, "x-1"])
        try storage.deleteContact(try storage.contact(id: withMembers.id))
        #expect(try storage.groupCount() == 0)
        _ = try storage.undo()
        #expect(try storage.contact(id: club.id).draft == draft.normalized())
        #expect(History.tables.contains("group_members"))
    }

    /// The bytes the history keeps for the last action (its row's changeset and any parts).
    func lastActionBytes(_ storage: StorageController) throws -> Int {
        try storage.writer.read { db in
            try Int.fetchOne(db, sql: """
                SELECT coalesce(length(h.changeset), 0)
                       + (SELECT coalesce(sum(length(p.changeset)), 0) FROM history_changesets p WHERE p.action_id = h.id)
                FROM history h ORDER BY h.id DESC LIMIT 1
                """) ?? 0
        }
    }

    /// Taking one member out of a big group writes that member's row, not the whole list again:
    /// the history of the change stays the size of one entry, and undo and redo are exact.
    /// Every other change of a list (an entry added at the end or in the middle, reordered)
    /// keeps the list in the order given.
    @Test func removingOneMemberOfABigGroupRecordsOneRow() throws {
        let storage = try StorageController(path: dir.database)
        let uids = (1...2_000).map { "member-\($0)" }
        let club = try storage.insertContact(Self.group("Climbing club", uids))
        for (removed, expected) in [("member-1", uids.dropFirst()), ("member-1000", uids.dropFirst().filter { $0 != "member-1000" })] {
            let before = try storage.contact(id: club.id)
            let after = try storage.updateContact(before, with: before.draft.with(members: before.draft.members.filter { $0 != removed }))
            #expect(after.draft.members == Array(expected))
            #expect(try storage.contact(id: club.id).draft.members == Array(expected))
            let bytes = try lastActionBytes(storage)
            #expect(bytes < 1_000, "\(bytes) bytes of history")
            _ = try storage.undo()
            #expect(try storage.contact(id: club.id).draft.members == before.draft.members)
            _ = try storage.redo()
            #expect(try storage.contact(id: club.id).draft.members == Array(expected))
        }
        var members = try storage.contact(id: club.id).draft.members
        for change in [{ (list: inout [String]) in list.append("late") }, { $0.insert("middle", at: 500) }, { $0.swapAt(0, 1) }, { $0.removeAll() }] {
            change(&members)
            let current = try storage.contact(id: club.id)
            try storage.updateContact(current, with: current.draft.with(members: members))
            #expect(try storage.contact(id: club.id).draft.members == members)
        }
        #expect(try storage.integrityCheck() == ["ok"])
    }
}

private extension ContactDraft {
    func with(members: [String]) -> ContactDraft {
        var draft = self
        draft.members = members
        return draft
    }
}
