import CarnetModels
import Foundation
import GRDB
import Testing
@testable import CarnetStorage

/// No id ever names two different records over the life of a file, so an edit
/// or delete based on a deleted record can never land on a newcomer.
@Suite struct IdentityTests {
    let dir = TempDirectory()

    /// A file as the previous release made it: only the first migration applied, recorded in
    /// `schema_migrations` alone (that release had no GRDB migrator, so no `grdb_migrations`).
    func makeRelease1File(_ name: String = "old.sqlite", _ body: (Database) throws -> Void = { _ in }) throws -> String {
        let path = dir.path(name)
        let old = try StorageController(path: path, options: StorageOptions(), migrations: Array(Migration.embedded.prefix(1)))
        try old.writer.write { db in try db.drop(table: "grdb_migrations") }
        try old.writer.write(body)
        try old.close()
        return path
    }

    @Test func aDeletedContactsIdIsNeverGivenAgain() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        _ = try storage.insertContact(ContactDraft(name: "One"))
        let last = try storage.insertContact(ContactDraft(name: "Two"))
        try storage.deleteContact(id: last.id)
        let newcomer = try storage.insertContact(ContactDraft(name: "Three"))
        #expect(newcomer.id > last.id)
        // …not after a reopen either (the counter lives in the file).
        try storage.close()
        let reopened = try StorageController(path: dir.path("book.sqlite"))
        try reopened.deleteContact(id: newcomer.id)
        #expect(try reopened.insertContact(ContactDraft(name: "Four")).id > newcomer.id)
    }

    /// The issue's reproduction at the storage layer: while an edit of the last contact is open,
    /// someone deletes it and adds another; the save must say "deleted" and touch nobody.
    @Test func aStaleEditOrDeleteOfADeletedContactReportsDeletedAndTouchesNoOne() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        for name in ["Madison", "Tyler", "Katherine", "Gary"] { try storage.insertContact(ContactDraft(name: name)) }
        let rebecca = try storage.insertContact(ContactDraft(name: "Rebecca Rogers", email: "rebecca@example.com"))
        // Another process deletes 5 and adds a newcomer.
        let other = try StorageController(path: dir.path("book.sqlite"))
        try other.deleteContact(id: rebecca.id)
        let newcomer = try other.insertContact(ContactDraft(name: "Newcomer", email: "new@example.com"))
        let before = try other.allContacts()

        var draft = rebecca.draft
        draft.phone = "555 0105"
        #expect(carnetError { try storage.updateContact(rebecca, with: draft) } == .deleted(.contact, id: rebecca.id))
        #expect(carnetError { try storage.updateContact(rebecca, with: draft, force: true) } == .deleted(.contact, id: rebecca.id))
        #expect(carnetError { try storage.deleteContact(rebecca) } == .deleted(.contact, id: rebecca.id))
        #expect(try storage.allContacts() == before)
        #expect(try storage.contact(id: newcomer.id) == newcomer)
        #expect(CarnetError.deleted(.contact, id: 5).description.contains("contact 5 was deleted"))
    }

    /// Even if a row with the same id did exist (a file whose ids were reused before this
    /// release), the UPDATE and DELETE name the row by uid too.
    @Test func theWritesCheckTheUIDInTheStatementItself() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let ada = try storage.insertContact(ContactDraft(name: "Ada"))
        try storage.writer.write { db in try db.execute(sql: "UPDATE contacts SET uid = 'someone-else' WHERE id = ?", arguments: [ada.id]) }
        var draft = ada.draft
        draft.name = "Ada Lovelace"
        #expect(carnetError { try storage.updateContact(ada, with: draft) } == .deleted(.contact, id: ada.id))
        #expect(carnetError { try storage.deleteContact(ada) } == .deleted(.contact, id: ada.id))
        #expect(try storage.contact(id: ada.id).name == "Ada")
    }

    @Test func quoteIdsAreNeverReusedAndAStaleQuoteEditSaysDeleted() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let quote = try storage.addQuote(QuoteDraft(text: "To be", author: "W."))
        try storage.deleteQuote(id: quote.id)
        let newcomer = try storage.addQuote(QuoteDraft(text: "Newcomer"))
        #expect(newcomer.id > quote.id)
        #expect(carnetError { try storage.updateQuote(quote, with: QuoteDraft(text: "Or not")) } == .deleted(.quote, id: quote.id))
        #expect(try storage.quote(id: newcomer.id).text == "Newcomer")
        // A stale base that still exists is a conflict, as before.
        let saved = try storage.updateQuote(newcomer, with: QuoteDraft(text: "Newcomer, edited"))
        #expect(saved.version == 2)
        guard case .conflict(.quote) = carnetError({ try storage.updateQuote(newcomer, with: QuoteDraft(text: "Stale")) }) else {
            Issue.record("expected a quote conflict")
            return
        }
    }

    @Test func aRestoreKeepsExportedIdsOnlyWhenThisFileNeverIssuedThem() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let gone = try storage.insertContact(ContactDraft(name: "Gone"))
        try storage.deleteContact(id: gone.id)
        // A JSON export from elsewhere carries ids: the one this file issued (to "Gone") is not
        // given to a different contact; a higher one is kept.
        let records = [
            InterchangeRecord(uid: "u-1", draft: ContactDraft(name: "Imported One"), updatedAt: nil, line: 1, id: gone.id),
            InterchangeRecord(uid: "u-2", draft: ContactDraft(name: "Imported Two"), updatedAt: nil, line: 2, id: 40),
        ]
        var iterator = records.makeIterator()
        _ = try storage.importContacts(source: "x.json") { () throws(InterchangeError) in iterator.next() }
        #expect(try storage.contact(uid: "u-1")?.id != gone.id)
        #expect(try storage.contact(uid: "u-2")?.id == 40)
        // Into a new file, every exported id is kept, whatever the order.
        let fresh = try StorageController(path: dir.path("fresh.sqlite"))
        var again = [records[1], records[0]].makeIterator()
        _ = try fresh.importContacts(source: "x.json") { () throws(InterchangeError) in again.next() }
        #expect(try fresh.contact(uid: "u-1")?.id == gone.id)
        #expect(try fresh.contact(uid: "u-2")?.id == 40)
    }

    @Test func aPreviousReleaseFileMigratesWithItsIdsFavoritesAndQuotes() throws {
        let path = try makeRelease1File { db in
            let stamp = "2026-01-02T03:04:05.678Z"
            for (id, name) in [(1, "Madison Thompson"), (2, "Tyler Porter"), (7, "Gary Edwards")] {
                try db.execute(
                    sql: "INSERT INTO contacts (id, uid, name, position, email, phone, photo, created_at, updated_at, version) VALUES (?, ?, ?, 'Sales, Gale Foods', ?, '+1 555 0101', ?, ?, ?, 3)",
                    arguments: [id, "uid-\(id)", name, "c\(id)@example.com", id == 7 ? pngBytes : nil, stamp, stamp])
            }
            try db.execute(sql: "INSERT INTO favorites (contact_id, position, created_at) VALUES (7, 1, '2026-01-02T03:04:05.678Z'), (1, 2, '2026-01-02T03:04:05.678Z')")
            try db.execute(sql: "INSERT INTO quotes (text, author, created_at, updated_at) VALUES ('Second\nquote', 'Someone', ?, ?)", arguments: [stamp, stamp])
        }
        let before = try rows(path)
        let storage = try StorageController(path: path)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        #expect(try rows(path) == before)  // every contact, favorite order and quote, value for value
        // What schema 4 moved out of the contact row is in its new place.
        for id: Int64 in [1, 2, 7] {
            let contact = try storage.contact(id: id)
            #expect([contact.title, contact.organization, contact.email, contact.phone] == ["Sales", "Gale Foods", "c\(id)@example.com", "+1 555 0101"])
        }
        #expect(try storage.favorites().map(\.contact.id) == [7, 1])
        // The ids already issued stay, and the next one is past them.
        #expect(try storage.insertContact(ContactDraft(name: "New")).id == 8)
        try storage.close()
        #expect(try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM repaired_values") } == 0)
    }

    /// Every row of the three tables, as text, for before/after comparisons: of `contacts`, the
    /// columns every schema has (schema 4 moved position, email and phone into other columns and tables).
    func rows(_ path: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let columns = ["contacts": "id, uid, name, photo, created_at, updated_at, version", "favorites": "*", "quotes": "*"]
        return try queue.read { db in
            try ["contacts", "favorites", "quotes"].flatMap { table in
                // Favorites in the user's order (schema 5 keys them by contact id, so rowid order changed).
                let order = table == "favorites" ? "position" : "rowid"
                return try Row.fetchAll(db, sql: "SELECT \(columns[table]!) FROM \(table) ORDER BY \(order)").map { "\(table): \($0)" }
            }
        }
    }
}
