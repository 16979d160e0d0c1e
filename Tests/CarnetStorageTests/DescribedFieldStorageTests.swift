import CarnetModels
import Foundation
import GRDB
import Testing
@testable import CarnetStorage

/// The fields added by their entry alone (``ContactFields``) are stored, read, searched or not as
/// their entry says, and go through the history like every other field.
@Suite struct DescribedFieldStorageTests {
    let dir = TempDirectory()

    /// A contact saved with `first` in the field, then edited to `edited`, the edit undone and
    /// redone: the field as stored after each step, and the history's summary of the edit.
    func storedThroughAnUndoneEdit(
        _ keyPath: WritableKeyPath<ContactDraft, String>, first: String, edited: String
    ) throws -> (values: [String], summary: String?) {
        let storage = try StorageController(path: dir.database)
        var draft = ContactDraft(name: "Ada Lovelace")
        draft[keyPath: keyPath] = first
        let ada = try storage.insertContact(draft)
        var values = [try storage.contact(id: ada.id).draft[keyPath: keyPath]]
        draft = try storage.contact(id: ada.id).draft
        draft[keyPath: keyPath] = edited
        _ = try storage.updateContact(try storage.contact(id: ada.id), with: draft)
        let summary = try storage.history(limit: 1).first?.summary
        values.append(try storage.contact(id: ada.id).draft[keyPath: keyPath])
        try storage.undo()
        values.append(try storage.contact(id: ada.id).draft[keyPath: keyPath])
        try storage.redo()
        values.append(try storage.contact(id: ada.id).draft[keyPath: keyPath])
        return (values, summary)
    }

    @Test func pronounsAreStoredAndAnEditOfThemUndoes() throws {
        let (values, summary) = try storedThroughAnUndoneEdit(\.pronouns, first: "she/her", edited: "they/them")
        #expect(values == ["she/her", "they/them", "she/her", "they/them"])
        #expect(summary == "edited Ada Lovelace: pronouns")
        let storage = try StorageController(path: dir.database)
        #expect(try storage.writer.read { db in try String.fetchOne(db, sql: "SELECT pronouns FROM contacts") } == "they/them")
        // Not searched: "they" is a word too many contacts would match.
        #expect(try storage.contactCount(matching: "they") == 0)
    }

    @Test func theSchemaRefusesPronounsThatBreakTheRules() throws {
        let storage = try StorageController(path: dir.database)
        _ = try storage.insertContact(ContactDraft(name: "Ada"))
        for bad in [" she", "she\nher", String(repeating: "x", count: 101)] {
            #expect(throws: DatabaseError.self) {
                try storage.writer.write { db in try db.execute(sql: "UPDATE contacts SET pronouns = ?", arguments: [bad]) }
            }
        }
        #expect(ContactDraft(name: "Ada", pronouns: String(repeating: "x", count: 101)).issues().map(\.field) == [.pronouns])
    }

    /// A file of schema 16 with an edit and an insert in its history: once migrated, both undo,
    /// and the contact comes back without pronouns.
    @Test func aHistoryEntryMadeBeforeTheFieldStillUndoes() throws {
        let old = try StorageController(path: dir.database, options: StorageOptions(), migrations: Migration.embedded.filter { $0.version <= 16 })
        let stamp = "2026-01-02T03:04:05.678Z"
        // Written as schema 16's Carnet writes them, with the history recording.
        try old.writer.write { db in
            try HistoryRecorder.record(db) { recorder in
                try db.execute(
                    sql: """
                        INSERT INTO contacts (uid, name, given_name, family_name, title, created_at, updated_at, version, sort_given, sort_family)
                        VALUES ('u-1', 'Ada Lovelace', 'Ada', 'Lovelace', 'Analyst', ?, ?, 1, 'ada lovelace', 'lovelace ada')
                        """, arguments: [stamp, stamp])
                recorder.note = HistoryNote(.add, subject: "Ada Lovelace", "added Ada Lovelace")
            }
            try HistoryRecorder.record(db) { recorder in
                try db.execute(sql: "UPDATE contacts SET title = 'Countess', version = 2 WHERE id = 1")
                recorder.note = HistoryNote(.edit, subject: "Ada Lovelace", "edited Ada Lovelace: title")
            }
        }
        try old.close()

        let storage = try StorageController(path: dir.database)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        #expect(try storage.contact(id: 1).title == "Countess")
        #expect(try storage.contact(id: 1).pronouns == "")
        try storage.undo()
        #expect(try storage.contact(id: 1).title == "Analyst")
        try storage.redo()
        #expect(try storage.contact(id: 1).title == "Countess")
        // An edit after the migration records the new column, and undoes too.
        let ada = try storage.contact(id: 1)
        var draft = ada.draft
        draft.pronouns = "she/her"
        _ = try storage.updateContact(ada, with: draft)
        try storage.undo()
        #expect(try storage.contact(id: 1).pronouns == "")
        try storage.undo()
        try storage.undo()
        #expect(try storage.allContacts().isEmpty)
    }

    @Test func genderIsStoredInOneFormAndAnEditOfItUndoes() throws {
        let (values, summary) = try storedThroughAnUndoneEdit(\.gender, first: "o; non-binary", edited: "F")
        #expect(values == ["O;non-binary", "F", "O;non-binary", "F"])
        #expect(summary == "edited Ada Lovelace: gender")
        let storage = try StorageController(path: dir.database)
        #expect(try storage.contactCount(matching: "binary") == 0)
        for bad in ["f", "X;y", "F;", ";", "F; woman", "woman"] {
            #expect(throws: DatabaseError.self, "\(bad)") {
                try storage.writer.write { db in try db.execute(sql: "UPDATE contacts SET gender = ?", arguments: [bad]) }
            }
        }
        #expect(throws: CarnetError.self) { try storage.insertContact(ContactDraft(name: "Al", gender: "X;robot")) }
    }
}
