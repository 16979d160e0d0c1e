import CarnetModels
import Foundation
import GRDB
import TestNeeds
import Testing
@testable import CarnetStorage

/// Every write records what it changed in its own transaction; undo and redo restore
/// exactly, refuse a conflict without writing anything, and survive closing the file.
@Suite struct HistoryTests {
    let dir = TempDirectory()

    /// Everything a user can see in the file, to compare before and after.
    struct Book: Equatable {
        let contacts: [Contact]
        let favorites: [Int64]
        let quotes: [Quote]
    }

    func book(_ storage: StorageController) throws -> Book {
        Book(
            contacts: try storage.allContacts().sorted { $0.id < $1.id }, favorites: try storage.favorites().map(\.contact.id),
            quotes: try storage.quotes())
    }

    /// Contacts as the user sees them: version and time aside (an undo saves anew).
    func drafts(_ storage: StorageController) throws -> [Int64: ContactDraft] {
        Dictionary(uniqueKeysWithValues: try storage.allContacts().map { ($0.id, $0.draft) })
    }

    @Test func everyWriteIsAnActionWithASummary() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactStorageTests.rich)
        var draft = ada.draft
        draft.phones[0].value = "+44 20 7946 0001"
        let edited = try storage.updateContact(ada, with: draft)
        try storage.updateContact(edited, with: draft)  // unchanged: no action
        try storage.addFavorite(contactID: ada.id)
        try storage.addFavorite(contactID: ada.id)  // already a favorite: no action
        try storage.removeFavorite(contactID: ada.id)
        let quote = try storage.addQuote(QuoteDraft(text: "Simplicity is prerequisite for reliability.", author: "Dijkstra"))
        try storage.useQuote(id: quote.id)
        try storage.deleteContact(id: ada.id)
        let summaries = try storage.history().map(\.summary)
        #expect(summaries == [
            "deleted Ada Lovelace", "made quote \(quote.id) the current quote",
            "added quote \(quote.id): “Simplicity is prerequisite for reliability.”", "unfavorited Ada Lovelace",
            "favorited Ada Lovelace at 1", "edited Ada Lovelace: phone", "added Ada Lovelace",
        ])
        let status = try storage.historyStatus()
        #expect(status.nextUndo?.title == "Delete Ada Lovelace")
        #expect(status.nextRedo == nil)
        #expect(try storage.history().allSatisfy { $0.bytes > 0 })
    }

    @Test func undoingADeleteRestoresTheContactWithEveryRowAndItsFavoritePlace() throws {
        let storage = try StorageController(path: dir.database)
        let first = try storage.insertContact(ContactDraft(name: "First"))
        let ada = try storage.insertContact(ContactStorageTests.rich)
        let last = try storage.insertContact(ContactDraft(name: "Last"))
        for id in [first.id, ada.id, last.id] { try storage.addFavorite(contactID: id) }
        let before = try book(storage)
        try storage.deleteContact(ada)
        #expect(try storage.favorites().map(\.contact.id) == [first.id, last.id])

        let step = try storage.undo()
        #expect(step.entries.map(\.summary) == ["deleted Ada Lovelace"])
        #expect(step.contactIDs == [ada.id])
        let restored = try storage.contact(id: ada.id)
        #expect(restored.uid == ada.uid)
        #expect(restored.draft == ada.draft)  // every list, the photo, the extras
        #expect(restored.createdAt == ada.createdAt)
        #expect(try storage.favorites().map(\.contact.id) == [first.id, ada.id, last.id])
        #expect(try drafts(storage) == Dictionary(uniqueKeysWithValues: before.contacts.map { ($0.id, $0.draft) }))

        // Redo deletes it again; undo brings it back again.
        try storage.redo()
        #expect(carnetError { try storage.contact(id: ada.id) } == .notFound(.contact, id: ada.id))
        try storage.undo()
        #expect(try storage.contact(id: ada.id).draft == ada.draft)
    }

    @Test func undoAndRedoOfAnEditSaveAsNewVersions() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactStorageTests.rich)
        var draft = ada.draft
        draft.phones = [LabeledValue("555 0199", label: "work")]
        draft.emails.removeFirst()
        draft.name = "Ada King"
        let edited = try storage.updateContact(ada, with: draft)
        #expect(edited.version == 2)

        try storage.undo()
        let undone = try storage.contact(id: ada.id)
        #expect(undone.draft == ada.draft)
        // Not version 1 again: an editor that read version 2 must not save over the undo unseen,
        // and one that read version 1 is told it was saved again.
        #expect(undone.version == 3)
        #expect(throws: CarnetError.self) { try storage.updateContact(edited, with: ContactStorageTests.rich) }
        #expect(throws: CarnetError.self) { try storage.updateContact(ada, with: draft) }

        try storage.redo()
        let redone = try storage.contact(id: ada.id)
        #expect(redone.draft == draft)
        #expect(redone.version == 4)
        #expect(try storage.contacts(after: nil, limit: 10, query: ContactQuery(order: .family)).contacts.map(\.name) == ["Ada King"])
    }

    @Test func undoingAnImportRemovesWhatItAddedAndRestoresWhatItUpdated() throws {
        let storage = try StorageController(path: dir.database)
        let kept = try storage.insertContact(ContactDraft(name: "Grace Hopper", email: "grace@example.com"), uid: "grace")
        let before = try drafts(storage)
        var records: [InterchangeRecord] = (1...30).map {
            InterchangeRecord(uid: "new-\($0)", draft: ContactDraft(name: "New \($0)", phone: "555 01\($0)"), updatedAt: nil, line: $0)
        }
        records.append(InterchangeRecord(uid: "grace", draft: ContactDraft(name: "Grace Brewster Hopper", email: "grace@navy.example"), updatedAt: nil, line: 31))
        records[3].favorite = true
        var iterator = records.makeIterator()
        let report = try storage.importContacts(source: "/tmp/people.vcf") { () throws(InterchangeError) in iterator.next() }
        #expect(report.added == 30 && report.updated == 1)
        #expect(try storage.history().first?.summary == "imported 31 contacts from people.vcf (30 added, 1 updated)")
        #expect(try storage.favorites().count == 1)

        try storage.undo()
        #expect(try drafts(storage) == before)
        #expect(try storage.favorites().isEmpty)
        #expect(try storage.contact(id: kept.id).version == 3)  // saved back, above the import's 2

        try storage.redo()
        #expect(try storage.contactCount() == 31)
        #expect(try storage.contact(uid: "grace")?.name == "Grace Brewster Hopper")
        #expect(try storage.favorites().count == 1)
    }

    @Test func aRowChangedOutsideTheHistoryIsAConflictAndNothingIsWritten() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactStorageTests.rich)
        try storage.addFavorite(contactID: ada.id)
        var draft = ada.draft
        draft.phones[0].value = "555 0100"
        draft.title = "Countess"
        try storage.updateContact(ada, with: draft)
        try storage.close()

        // A hand edit with sqlite3 (here GRDB, with no history) to a value the edit changed.
        let queue = try DatabaseQueue(path: dir.database)
        try queue.write { db in try db.execute(sql: "UPDATE contact_phones SET value = '555 0111' WHERE contact_id = ? AND position = 1", arguments: [ada.id]) }
        try queue.close()

        let reopened = try StorageController(path: dir.database)
        let before = try bytesOfTables(reopened)
        let error = carnetError { try reopened.undo() }
        guard case let .historyConflict(conflict)? = error else {
            Issue.record("expected a history conflict, got \(String(describing: error))")
            return
        }
        #expect(conflict.changed == "contact \(ada.id)'s phones were changed")
        #expect(conflict.entry.summary == "edited Ada Lovelace: title, phone")
        #expect(error?.description.contains("nothing was written") == true)
        #expect(try bytesOfTables(reopened) == before)
        #expect(try reopened.contact(id: ada.id).title == "Countess")
        #expect(try reopened.historyStatus().nextUndo?.id == conflict.entry.id)
    }

    @Test func aDeletedRowOrAHandAddedOneIsAConflictToo() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada"))
        try storage.deleteContact(id: ada.id)
        // Someone puts a row back by hand with the same id: the undo of the delete would clash.
        try storage.writer.write { db in
            try db.execute(sql: """
                INSERT INTO contacts (id, uid, name, created_at, updated_at) VALUES (?, 'other', 'Other', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')
                """, arguments: [ada.id])
        }
        guard case let .historyConflict(conflict)? = carnetError({ try storage.undo() }) else {
            Issue.record("expected a conflict")
            return
        }
        #expect(conflict.changed == "contact \(ada.id) was added")
        #expect(try storage.contact(id: ada.id).name == "Other")

        let grace = try storage.insertContact(ContactDraft(name: "Grace"))
        try storage.writer.write { db in try db.execute(sql: "DELETE FROM contacts WHERE id = ?", arguments: [grace.id]) }
        guard case let .historyConflict(gone)? = carnetError({ try storage.undo() }) else {
            Issue.record("expected a conflict")
            return
        }
        #expect(gone.changed == "contact \(grace.id) was deleted")
    }

    /// Schema 9 moves the changeset of each action of one part into its history row; a file of
    /// schema 8 (every changeset in history_changesets) keeps its history, and undo and redo
    /// work on it as before. A long action's parts stay where they are.
    @Test func aSchema8HistoryMovesIntoItsRowsAndStillUndoes() throws {
        // Made at 9 and taken back to 8 below: the migrations after 9 apply when it is opened again.
        var storage = try StorageController(path: dir.database, options: StorageOptions(), migrations: Migration.embedded.filter { $0.version <= 9 })
        // Action 1: a long action of two parts (as an import writes them).
        try storage.writer.write { db in
            try db.execute(sql: """
                INSERT INTO history (id, time, kind, summary, bytes) VALUES (1, '2026-01-02T03:04:05.678Z', 'import', 'imported 2 contacts', 6);
                INSERT INTO history_changesets (action_id, part, changeset) VALUES (1, 1, x'010203'), (1, 2, x'040506');
                """)
            // Today's storage writes the columns schemas 13, 14, 17 and 18 add; they go again
            // below, and the migrations bring them back as the same last columns, in this order.
            try db.execute(sql: """
                ALTER TABLE contacts ADD COLUMN book_id INTEGER NOT NULL DEFAULT 1;
                ALTER TABLE contacts ADD COLUMN kind TEXT NOT NULL DEFAULT 'individual';
                ALTER TABLE contacts ADD COLUMN group_form TEXT;
                ALTER TABLE contacts ADD COLUMN pronouns TEXT NOT NULL DEFAULT '';
                ALTER TABLE contacts ADD COLUMN gender TEXT NOT NULL DEFAULT '';
                """)
            // And the tables of the lists added since, which go again below too.
            for table in ContactChildTable.described {
                try db.execute(sql: """
                    CREATE TABLE \(table.name) (
                        contact_id INTEGER NOT NULL, position INTEGER NOT NULL, label TEXT NOT NULL, value TEXT NOT NULL,
                        preferred INTEGER NOT NULL, PRIMARY KEY (contact_id, position)) WITHOUT ROWID
                    """)
            }
        }
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace", title: "Analyst"))
        let edited = try storage.updateContact(ada, with: ContactDraft(name: "Ada Lovelace", title: "Countess"))
        _ = try storage.addFavorite(contactID: ada.id)
        // The file as schema 8 left it.
        try storage.writer.writeWithoutTransaction { db in
            try db.execute(sql: """
                INSERT INTO history_changesets (action_id, part, changeset) SELECT id, 1, changeset FROM history WHERE changeset IS NOT NULL;
                ALTER TABLE history DROP COLUMN changeset;
                ALTER TABLE contacts DROP COLUMN gender;
                ALTER TABLE contacts DROP COLUMN pronouns;
                ALTER TABLE contacts DROP COLUMN group_form;
                ALTER TABLE contacts DROP COLUMN kind;
                ALTER TABLE contacts DROP COLUMN book_id;
                DELETE FROM schema_migrations WHERE version = 9;
                PRAGMA user_version = 8;
                """)
            for table in ContactChildTable.described { try db.execute(sql: "DROP TABLE \(table.name)") }
        }
        try storage.close()
        let before = try DatabaseQueue(path: dir.database).read { db in
            try Row.fetchAll(db, sql: "SELECT action_id, part, changeset FROM history_changesets ORDER BY action_id, part")
        }
        #expect(before.count == 5)

        storage = try StorageController(path: dir.database)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        let moved = try storage.writer.read { db in
            (try Row.fetchAll(db, sql: "SELECT id, changeset FROM history WHERE changeset IS NOT NULL ORDER BY id"),
             try Row.fetchAll(db, sql: "SELECT action_id, part, changeset FROM history_changesets ORDER BY action_id, part"))
        }
        #expect(moved.0.map { $0[0] as Int64 } == [2, 3, 4])
        #expect(moved.0.map { $0[1] as Data } == before.filter { $0[0] as Int64 > 1 }.map { $0[2] as Data })
        #expect(moved.1 == Array(before.prefix(2)))
        let summaries = try storage.history().map(\.summary)
        #expect(summaries.count == 4 && summaries.last == "imported 2 contacts", "\(summaries)")

        try storage.undo()
        try storage.undo()
        #expect(try storage.favorites().isEmpty)
        #expect(try storage.contact(id: ada.id).title == "Analyst")
        try storage.redo()
        #expect(try storage.contact(id: ada.id).title == edited.title)
        #expect(try storage.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(changeset) FROM history") } == 3)
    }

    /// A migration that adds a column to contacts (a new field) leaves the history's older changes
    /// naming fewer columns than the table: they still undo and redo, an undone insert deletes
    /// the row and an undone delete brings it back with the new column's default.
    @Test func changesRecordedBeforeAColumnWasAddedStillUndo() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace", title: "Analyst"))
        _ = try storage.updateContact(ada, with: ContactDraft(name: "Ada Lovelace", title: "Countess"))
        let grace = try storage.insertContact(ContactDraft(name: "Grace Hopper"))
        try storage.deleteContact(id: grace.id)
        try storage.writer.writeWithoutTransaction { db in
            // As a migration adds one: written into every row, so the session never sees NULL.
            try db.execute(sql: "ALTER TABLE contacts ADD COLUMN added_later TEXT NOT NULL DEFAULT ''; UPDATE contacts SET added_later = ''")
        }
        try storage.undo()
        #expect(try storage.contact(id: grace.id).name == "Grace Hopper")
        try storage.undo()
        #expect(throws: CarnetError.self) { try storage.contact(id: grace.id) }
        try storage.undo()
        #expect(try storage.contact(id: ada.id).title == "Analyst")
        try storage.redo()
        #expect(try storage.contact(id: ada.id).title == "Countess")
        try storage.undo()
        try storage.undo()
        #expect(try storage.allContacts().isEmpty)
    }

    @Test func aNewActionClearsTheRedoList() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada"))
        try storage.addFavorite(contactID: ada.id)
        try storage.undo()
        #expect(try storage.historyStatus().nextRedo?.title == "Favorite Ada")
        try storage.insertContact(ContactDraft(name: "Grace"))
        #expect(try storage.historyStatus().nextRedo == nil)
        #expect(carnetError { try storage.redo() } == .history(.nothingToRedo))
        #expect(try storage.history().map(\.summary) == ["added Grace", "added Ada"])
    }

    @Test func undoToAnActionUndoesItAndEverythingAfterAllOrNothing() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada"))
        let empty = try drafts(storage)
        let target = try storage.history().first!.id + 1
        try storage.addFavorite(contactID: ada.id)
        let grace = try storage.insertContact(ContactDraft(name: "Grace"))
        var draft = grace.draft
        draft.title = "Rear Admiral"
        try storage.updateContact(grace, with: draft)

        let step = try storage.undo(to: target)
        #expect(step.entries.map(\.summary) == ["edited Grace: title", "added Grace", "favorited Ada at 1"])
        #expect(try drafts(storage) == empty)
        #expect(try storage.favorites().isEmpty)
        #expect(carnetError { try storage.undo(to: target) } == .history(.alreadyUndone(target)))
        #expect(carnetError { try storage.undo(to: 999) } == .history(.unknownAction(999)))

        // Redo goes forward one action at a time, oldest first.
        try storage.redo()
        #expect(try storage.favorites().map(\.contact.id) == [ada.id])
    }

    @Test func undoToStopsAtAConflictAndWritesNothing() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada"))
        let first = try storage.history().first!.id
        try storage.insertContact(ContactDraft(name: "Grace"))
        try storage.writer.write { db in try db.execute(sql: "UPDATE contacts SET name = 'Ada L' WHERE id = ?", arguments: [ada.id]) }
        let before = try bytesOfTables(storage)
        #expect(throws: CarnetError.self) { try storage.undo(to: first) }
        #expect(try bytesOfTables(storage) == before)
        #expect(try storage.contactCount() == 2)
    }

    @Test func theHistoryIsTrimmedToWhatTheFileKeeps() throws {
        let storage = try StorageController(path: dir.database)
        #expect(try storage.historyKeep() == 1000)
        try storage.setHistoryKeep(3)
        for i in 1...5 { try storage.insertContact(ContactDraft(name: "C\(i)")) }
        #expect(try storage.history(limit: 10).map(\.summary) == ["added C5", "added C4", "added C3"])
        try storage.setHistoryKeep(1)
        #expect(try storage.history(limit: 10).map(\.summary) == ["added C5"])
        // The one action kept is of one part: its changeset is in its row, and no part is left.
        #expect(try storage.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(changeset) FROM history") } == 1)
        #expect(try storage.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM history_changesets") } == 0)
        try storage.undo()
        #expect(carnetError { try storage.undo() } == .history(.nothingToUndo))
        try storage.setHistoryKeep(0)
        try storage.insertContact(ContactDraft(name: "Unrecorded"))
        #expect(try storage.history().isEmpty)
        #expect(carnetError { try storage.setHistoryKeep(-1) } != nil)
        // The setting is in the file.
        try storage.close()
        #expect(try StorageController(path: dir.database).historyKeep() == 0)
    }

    /// From 64 actions kept up, the oldest go 1/64 of `keep` at a time (one page written in that
    /// many actions, not one per action); setting `keep` trims to it at once.
    @Test func aLargeHistoryIsTrimmedInBatches() throws {
        let storage = try StorageController(path: dir.database)
        try storage.setHistoryKeep(128)
        func count() throws -> Int { try storage.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM history") ?? 0 } }
        for i in 1...130 { _ = try storage.addQuote(QuoteDraft(text: "Q\(i)"), makeCurrent: false) }
        #expect(try count() == 130)  // 128 + 2 (128 / 64)
        _ = try storage.addQuote(QuoteDraft(text: "Q131"), makeCurrent: false)
        #expect(try count() == 128)
        #expect(try storage.history(limit: 1000).last?.summary.contains("Q4") == true)
        for i in 132...133 { _ = try storage.addQuote(QuoteDraft(text: "Q\(i)"), makeCurrent: false) }
        #expect(try count() == 130)
        try storage.setHistoryKeep(128)
        #expect(try count() == 128)
        #expect(try storage.history(limit: 1000).first?.summary.contains("Q133") == true)
    }

    @Test func quotesAndTheCurrentQuoteComeBack() throws {
        let storage = try StorageController(path: dir.database)
        let original = try #require(try storage.currentQuote())
        let added = try storage.addQuote(QuoteDraft(text: "Premature optimization", author: "Knuth"), makeCurrent: true)
        try storage.updateQuote(added, with: QuoteDraft(text: "Premature optimization is the root of all evil", author: "Knuth"))
        try storage.deleteQuote(id: original.id)
        try storage.undo()
        try storage.undo()
        #expect(try storage.currentQuote()?.text == "Premature optimization")
        try storage.undo()
        #expect(try storage.currentQuote()?.id == original.id)
        #expect(try storage.quotes().map(\.text) == [original.text])
        try storage.redo()
        #expect(try storage.currentQuote()?.id == added.id)
    }

    /// An import larger than a part is recorded in many parts, and its undo and redo, a part at a
    /// time, give back exactly the rows and the search index it wrote (but the bookkeeping an undo
    /// moves on: versions and times).
    @Test(.exhaustive) func aLargeImportIsRecordedInPartsAndUndoneAndRedoneExactly() throws {
        let storage = try StorageController(path: dir.database)
        let records = (1...9000).lazy.map { i in
            var draft = ContactDraft(name: "Person \(i)", note: String(repeating: "n", count: 4000))
            draft.emails = [LabeledValue("p\(i)@example.com", label: "work")]
            draft.phones = [LabeledValue("+1 555 \(1_000_000 + i)", label: "cell")]
            return InterchangeRecord(uid: "u\(i)", draft: draft, updatedAt: nil, line: i)
        }
        var iterator = records.makeIterator()
        _ = try storage.importContacts(source: "big.csv") { () throws(InterchangeError) in iterator.next() }
        // Several parts, in their table; the action's row holds none of them.
        let parts = try storage.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM history_changesets") ?? 0 }
        #expect(parts >= 5)
        #expect(try storage.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(changeset) FROM history") } == 0)
        // Each part compressed: the rows repeat, and their changesets shrink to a fraction.
        let stored = try storage.writer.read { db in try Data.fetchAll(db, sql: "SELECT changeset FROM history_changesets") }
        #expect(stored.allSatisfy { $0.first == 0 })
        let unpacked = try stored.map { try StoredChanges.changes($0) }
        #expect(unpacked.allSatisfy { $0.first == UInt8(ascii: "T") })
        let storedBytes = stored.reduce(0) { $0 + $1.count }
        let changesBytes = unpacked.reduce(0) { $0 + $1.count }
        #expect(storedBytes * 3 < changesBytes)
        let imported = try MergeStorageTests.rows(storage)
        let found = try storage.contacts(limit: 10, matching: "p4321@example.com").contacts.map(\.id)
        try storage.undo()
        #expect(try storage.contactCount() == 0)
        #expect(try storage.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM contact_emails") } == 0)
        try storage.redo()
        #expect(try storage.contactCount() == 9000)
        #expect(try MergeStorageTests.rows(storage) == imported)
        // The search index finds what it found (its own pages are laid out anew: not compared).
        #expect(try storage.contacts(limit: 10, matching: "p4321@example.com").contacts.map(\.id) == found && found.count == 1)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// An action written in parts keeps the rows it inserts by their keys alone: the import's
    /// history holds a few bytes a contact. Its undo deletes them by key and records them whole,
    /// which is what the redo inserts again; the redo keeps them by key once more. Undo then
    /// redo give back exactly the rows the import wrote.
    @Test func aLongActionKeepsTheRowsItInsertsByTheirKeys() throws {
        let storage = try StorageController(path: dir.database)
        let count = 1_500
        let records = (1...count).lazy.map { i in
            var draft = ContactDraft(name: "Person \(i)", organization: "Company \(i % 97)", note: String(repeating: "n\(i % 10)", count: 1500))
            draft.emails = [LabeledValue("p\(i)@example.com", label: "work")]
            draft.phones = [LabeledValue("+1 555 \(1_000_000 + i)", label: "cell")]
            return InterchangeRecord(uid: "u\(i)", draft: draft, updatedAt: nil, line: i)
        }
        var iterator = records.makeIterator()
        _ = try storage.importContacts(source: "long.csv") { () throws(InterchangeError) in iterator.next() }
        func parts() throws -> [Data] {
            try storage.writer.read { db in try Data.fetchAll(db, sql: "SELECT changeset FROM history_changesets ORDER BY part") }
        }
        /// Every change of every part: (operation, whether each column holds a value, which are the key).
        func changes() throws -> [(Changeset.Change.Operation, values: [Bool], key: [Bool])] {
            var found: [(Changeset.Change.Operation, values: [Bool], key: [Bool])] = []
            for part in try parts() {
                try Changeset.forEach(try StoredChanges.changes(part)) { change in
                    let values = change.operation == .insert ? change.new : change.old
                    found.append((change.operation, values.map { $0 != nil }, change.key))
                }
            }
            return found
        }
        #expect(try parts().count >= 2)
        let imported = try MergeStorageTests.rows(storage)
        let inserted = try changes()
        #expect(inserted.count == count * 3)
        #expect(inserted.allSatisfy { $0.0 == .insert && $0.values == $0.key })
        let bytes = try parts().reduce(0) { $0 + $1.count }
        #expect(bytes < count * 12, "\(bytes) bytes of history for \(count) contacts")

        try storage.undo()
        #expect(try storage.contactCount() == 0)
        let deleted = try changes()
        #expect(deleted.count == count * 3 && deleted.allSatisfy { $0.0 == .delete && !$0.values.contains(false) })

        try storage.redo()
        #expect(try MergeStorageTests.rows(storage) == imported)
        #expect(try changes().allSatisfy { $0.0 == .insert && $0.values == $0.key })
        #expect(try storage.contacts(limit: 10, matching: "p1234@example.com").contacts.map(\.name) == ["Person 1234"])
        try storage.undo()
        try storage.redo()
        #expect(try MergeStorageTests.rows(storage) == imported)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// A short changeset is stored as it is; a long one compressed and read back whole; a damaged
    /// one is refused with an error, never read as another changeset.
    @Test func longChangesetsAreStoredCompressed() throws {
        let short = Data("T".utf8) + Data(repeating: 7, count: 100)
        #expect(StoredChanges.stored(short) == short)
        #expect(try StoredChanges.changes(short) == short)
        var generator = SystemRandomNumberGenerator()
        let long = Data("T".utf8) + Data((0..<100_000).map { _ in UInt8.random(in: 0...3, using: &generator) })
        let stored = StoredChanges.stored(long)
        #expect(stored.first == 0 && stored.count < long.count)
        #expect(try StoredChanges.changes(stored) == long)
        var damaged = stored
        damaged[damaged.count / 2] ^= 0xFF
        damaged.removeLast(100)
        #expect(throws: (any Error).self) { try StoredChanges.changes(damaged) }
    }

    @Test func handEditsKeepTheSortColumnsRight() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace"))
        // A hand edit: another program's connection (Carnet's own run without triggers, and write
        // the sort columns themselves).
        let other = try DatabaseQueue(path: dir.database)
        try other.write { db in try db.execute(sql: "UPDATE contacts SET family_name = 'Byron' WHERE id = ?", arguments: [ada.id]) }
        try other.close()
        let sort = try storage.writer.read { db in try Row.fetchOne(db, sql: "SELECT sort_given, sort_family FROM contacts") }
        #expect(sort?[0] == "Ada Byron")
        #expect(sort?[1] == "Byron Ada")
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// An undo or redo is applied with triggers off, as Carnet always writes: it keeps the search
    /// index in step and leaves sync tombstones itself, as the schema's triggers do for sqlite3.
    @Test func undoAndRedoKeepTheSearchIndexAndLeaveSyncTombstones() throws {
        let storage = try StorageController(path: dir.database)
        let search = SearchTests()
        let ada = try storage.insertContact(ContactStorageTests.rich)
        let grace = try storage.insertContact(ContactDraft(name: "Grace Hopper", email: "grace@example.com"))
        // Both are on a server, as a sync leaves them (outside the history).
        try storage.writer.write { db in
            try db.execute(sql: "INSERT INTO sync_accounts (id, collection_url, created_at) VALUES (1, 'https://dav.example/book/', '2026-01-02T03:04:05.678Z')")
            for (id, name) in [(ada.id, "ada"), (grace.id, "grace")] {
                try db.execute(
                    sql: "INSERT INTO sync_contacts (account_id, contact_id, href, etag, card, synced_version) VALUES (1, ?, ?, 'e1', 'BEGIN:VCARD', 1)",
                    arguments: [id, "/book/\(name).vcf"])
            }
        }
        func tombstones() throws -> [String] {
            try storage.writer.read { db in try String.fetchAll(db, sql: "SELECT href || ' ' || uid FROM sync_tombstones ORDER BY href") }
        }
        var renamed = grace.draft
        renamed.rename(to: "Grace Brewster Hopper")
        renamed.phones = [LabeledValue("+1 555 123 4567")]
        try storage.updateContact(grace, with: renamed)
        #expect(try search.names(storage, "brewster") == ["Grace Brewster Hopper"])
        try storage.undo()  // the edit
        #expect(try search.names(storage, "brewster").isEmpty && search.names(storage, "5551234567").isEmpty)
        #expect(try search.names(storage, "hopper") == ["Grace Hopper"])
        try search.indexIsSound(storage)
        #expect(try tombstones().isEmpty)

        try storage.undo()  // Grace's add: she is deleted, and her card is to be deleted on the server
        #expect(try search.names(storage, "grace").isEmpty)
        #expect(try tombstones() == ["/book/grace.vcf \(grace.uid)"])
        try search.indexIsSound(storage)
        try storage.redo()  // she is back (her tombstone stays, as after any other insert; the next sync sees her uid)
        #expect(try search.names(storage, "grace") == ["Grace Hopper"])
        #expect(try tombstones() == ["/book/grace.vcf \(grace.uid)"])
        try search.indexIsSound(storage)

        try storage.deleteContact(id: ada.id)
        #expect(try tombstones() == ["/book/ada.vcf \(ada.uid)", "/book/grace.vcf \(grace.uid)"])
        try storage.undo()
        #expect(try search.names(storage, "lovelace") == ["Ada Lovelace"])
        try search.indexIsSound(storage)
        try storage.redo()
        #expect(try search.names(storage, "lovelace").isEmpty)
        try search.indexIsSound(storage)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    // MARK: The recorder against SQLite's session extension

    /// The recorder is told each table's primary key rather than asking SQLite in every
    /// transaction: it must be what the schema says.
    @Test func theRecordedKeysAreTheSchemas() throws {
        let storage = try StorageController.inMemory()
        try storage.writer.read { db in
            for table in History.recorded {
                let key = try Row.fetchAll(db, sql: "SELECT cid, pk FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk", arguments: [table.name])
                #expect(key.map { $0[0] as Int32 } == table.key, "\(table.name)")
            }
        }
    }

    /// Every kind of action records what SQLite's sqlite3session_diff finds between the file
    /// before and after it: the changeset a session object would have recorded, change for change.
    @Test func eachActionRecordsWhatTheSessionExtensionWould() throws {
        let storage = try StorageController(path: dir.database)
        var step = 0
        func check(_ what: String, _ action: () throws -> Void) throws {
            step += 1
            let before = dir.path("before-\(step).sqlite")
            try storage.writer.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [before]) }
            func changesets() throws -> [String: Data] {
                try storage.writer.read { db in
                    Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                        SELECT action_id, part, changeset FROM history_changesets
                        UNION ALL SELECT id, 0, changeset FROM history WHERE changeset IS NOT NULL
                        """).map { ("\($0[0] as Int64).\($0[1] as Int)", $0[2] as Data) })
                }
            }
            let old = try changesets()
            try action()
            // What the action recorded: a new action's changeset, or for an undo or redo the
            // toggled action's (which now holds what the undo or redo wrote).
            let changed = try changesets().filter { old[$0.key] != $0.value }.sorted { $0.key < $1.key }.map(\.value)
            #expect(changed.count == 1, "\(what): \(changed.count) parts")
            let recorded = try changed.flatMap { try Changeset.text($0) }
            let other = try DatabaseQueue(path: dir.database)
            defer { try? other.close() }
            let expected = try other.writeWithoutTransaction { db in
                try db.execute(sql: "ATTACH DATABASE ? AS before", arguments: [before])
                defer { try? db.execute(sql: "DETACH DATABASE before") }
                return try Changeset.text(Changeset.difference(db, from: "before"))
            }
            #expect(!recorded.isEmpty, "\(what)")
            #expect(recorded.sorted() == expected.sorted(), "\(what)")
        }
        var ada = ContactStorageTests.rich
        ada.photo = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        try check("add") { ada = try storage.insertContact(ada).draft }
        let adaID = try #require(try storage.allContacts().first?.id)
        let grace = try storage.insertContact(ContactDraft(name: "Grace Hopper", email: "grace@example.com"))
        try check("edit of the row and a list") {
            let current = try storage.contact(id: adaID)
            var draft = current.draft
            draft.title = "Countess"
            draft.emails.insert(LabeledValue("first@example.com"), at: 0)
            draft.phones.removeLast()
            draft.photo = nil
            try storage.updateContact(current, with: draft)
        }
        try check("reordered list") {
            let current = try storage.contact(id: adaID)
            var draft = current.draft
            draft.emails.reverse()
            try storage.updateContact(current, with: draft)
        }
        // The preferred email moves: undone, the two rows pass through a moment where both would
        // be preferred, which the schema refuses (the change is made again after the other).
        #expect(try storage.contact(id: adaID).draft.emails.first?.preferred == false)
        try check("undo of the reorder") { try storage.undo() }
        try check("redo of the reorder") { try storage.redo() }
        try check("favorite") { try storage.addFavorite(contactID: adaID) }
        try check("favorite first") { try storage.addFavorite(contactID: grace.id, at: 1) }
        try check("move favorite") { try storage.moveFavorite(contactID: adaID, to: 1) }
        try check("unfavorite") { try storage.removeFavorite(contactID: grace.id) }
        var quote: Quote?
        try check("add quote") { quote = try storage.addQuote(QuoteDraft(text: "Simplicity.", author: "Dijkstra")) }
        try check("use quote") { _ = try storage.useQuote(id: quote!.id) }
        try check("edit quote") { _ = try storage.updateQuote(quote!, with: QuoteDraft(text: "Simplicity first.", author: "Dijkstra")) }
        try check("import") {
            var records = (1...5).map { InterchangeRecord(uid: "new-\($0)", draft: ContactDraft(name: "New \($0)", phone: "555 01\($0)"), updatedAt: nil, line: $0) }
            records.append(InterchangeRecord(uid: grace.uid, draft: ContactDraft(name: "Grace B. Hopper", email: "grace@navy.example"), updatedAt: nil, line: 6))
            records[1].favorite = true
            var iterator = records.makeIterator()
            _ = try storage.importContacts(source: "people.vcf") { () throws(InterchangeError) in iterator.next() }
        }
        try check("undo of the import") { try storage.undo() }
        try check("redo of the import") { try storage.redo() }
        try check("delete quote") { try storage.deleteQuote(id: quote!.id) }
        let edited = try storage.contact(id: adaID).draft
        try check("delete") { try storage.deleteContact(id: adaID) }
        try check("undo of the delete") { try storage.undo() }
        try check("redo of the delete") { try storage.redo() }
        try check("undo of the delete again") { try storage.undo() }
        #expect(try storage.contact(id: adaID).draft == edited)
        try check("mark different") { try storage.markDifferentPeople(grace.id, adaID) }
        try check("merge") {
            let both = [try storage.contact(id: adaID), try storage.contact(id: grace.id)]
            try storage.mergeContacts(both, into: ContactMerge.merge(both.map(\.draft), phones: PhoneNormalForm(region: nil)).draft)
        }
        try check("undo of the merge") { try storage.undo() }
        try check("redo of the merge") { try storage.redo() }
        try check("undo of the merge again") { try storage.undo() }
        // One row changed again and again in one transaction, its values growing past the bytes
        // the recorder kept for them and shrinking back into them; a row inserted and changed;
        // a row deleted, inserted again and changed.
        try check("one row changed many times") {
            try storage.recordedWrite { db, _ in
                for note in ["a", Array(repeating: "long note", count: 40).joined(separator: " "), "b", "", String(repeating: "x", count: 900), "done"] {
                    try db.execute(sql: "UPDATE contacts SET note = ? WHERE id = ?", arguments: [note, adaID])
                }
                try db.execute(sql: "INSERT INTO quotes (text, author, created_at, updated_at) VALUES ('Short.', 'Anon', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')")
                let quoteID = db.lastInsertedRowID
                for text in [Array(repeating: "Longer.", count: 30).joined(separator: " "), "Short again."] {
                    try db.execute(sql: "UPDATE quotes SET text = ? WHERE id = ?", arguments: [text, quoteID])
                }
                try db.execute(sql: "DELETE FROM favorites WHERE contact_id = ?", arguments: [grace.id])
                try db.execute(sql: "INSERT INTO favorites (contact_id, position, created_at) VALUES (?, 1, '2026-01-01T00:00:00.000Z')", arguments: [grace.id])
            }
        }
    }

    /// Every user table's rows, as text, for "nothing was written".
    func bytesOfTables(_ storage: StorageController) throws -> [String] {
        try storage.writer.read { db in
            try (History.tables + ["history", "history_changesets"]).flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\(table): \($0.description)" }
            }
        }
    }
}
