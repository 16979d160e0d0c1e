import CarnetModels
import CarnetTestSupport
import Foundation
import GRDB
import Testing
@testable import CarnetStorage

/// Several named address books in one file: every contact in one, the default one first; books
/// are added, renamed, deleted (with their contacts only when asked), contacts moved and copied,
/// and every such change is one action of the history.
@Suite struct AddressBookTests {
    let dir = TempDirectory()

    @Test func aNewFileHasItsDefaultBookOnly() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace"))
        #expect(try storage.addressBooks() == [AddressBook(id: AddressBook.defaultID, name: "Contacts", isDefault: true, contactCount: 1)])
        #expect(ada.bookID == AddressBook.defaultID)
        #expect(try storage.contact(id: ada.id).bookID == AddressBook.defaultID)
    }

    @Test func booksAreAddedRenamedAndDeletedByName() throws {
        let storage = try StorageController(path: dir.database)
        let work = try storage.addAddressBook(named: "  Work ")
        #expect(work.name == "Work")
        guard case .refused? = carnetError({ try storage.addAddressBook(named: "work") }) else { Issue.record("a second Work"); return }
        guard case .refused? = carnetError({ try storage.addAddressBook(named: " ") }) else { Issue.record("an empty name"); return }
        guard case .refused? = carnetError({ try storage.addAddressBook(named: "a\u{7}b") }) else { Issue.record("a control character"); return }
        guard case .refused? = carnetError({ try storage.addAddressBook(named: String(repeating: "x", count: 101)) }) else {
            Issue.record("a name over 100"); return
        }
        let office = try storage.renameAddressBook("WORK", to: "Office")
        #expect(office.id == work.id && office.name == "Office")
        // The default book can be renamed and stays the default; it cannot be deleted.
        let personal = try storage.renameAddressBook("Contacts", to: "Personal")
        #expect(personal.isDefault)
        guard case .refused? = carnetError({ try storage.renameAddressBook("Office", to: "personal") }) else {
            Issue.record("renamed onto another book's name"); return
        }
        guard case .refused? = carnetError({ try storage.deleteAddressBook(named: "Personal", withContacts: true) }) else {
            Issue.record("deleted the default book"); return
        }
        guard case .unknownBook("Nowhere")? = carnetError({ try storage.deleteAddressBook(named: "Nowhere", withContacts: true) }) else {
            Issue.record("an unknown book"); return
        }
        try storage.deleteAddressBook(named: "office", withContacts: false)
        #expect(try storage.addressBooks().map(\.name) == ["Personal"])
    }

    @Test func aBookWithContactsGoesOnlyWithThemAndComesBackWithThemOnUndo() throws {
        let storage = try StorageController(path: dir.database)
        try storage.addAddressBook(named: "Work")
        let work = try storage.addressBook(named: "Work")
        let ada = try storage.insertContact(ContactStorageTests.rich, bookID: work.id)
        try storage.insertContact(ContactDraft(name: "Grace Hopper"), bookID: work.id)
        try storage.insertContact(ContactDraft(name: "Alan Turing"))
        try storage.addFavorite(contactID: ada.id)
        let before = try storage.allContacts()

        guard case .refused? = carnetError({ try storage.deleteAddressBook(named: "Work", withContacts: false) }) else {
            Issue.record("deleted a book that holds contacts"); return
        }
        #expect(try storage.allContacts() == before)

        let deleted = try storage.deleteAddressBook(named: "Work", withContacts: true)
        #expect(deleted.contactCount == 2)
        #expect(try storage.allContacts().map(\.name) == ["Alan Turing"])
        #expect(try storage.history(limit: 1).first?.summary == "deleted the address book Work and its 2 contacts")

        try storage.undo()
        #expect(try storage.addressBooks().map(\.name) == ["Contacts", "Work"])
        #expect(try storage.allContacts().map(\.draft) == before.map(\.draft))
        #expect(try storage.allContacts().map(\.bookID) == before.map(\.bookID))
        #expect(try storage.favorites().map(\.contact.id) == [ada.id])
        #expect(try storage.contactCount(matching: "lovelace") == 1)  // back in the search index

        try storage.redo()
        #expect(try storage.addressBooks().map(\.name) == ["Contacts"])
        #expect(try storage.allContacts().map(\.name) == ["Alan Turing"])
    }

    @Test func addingAndRenamingABookAreUndone() throws {
        let storage = try StorageController(path: dir.database)
        try storage.addAddressBook(named: "Work")
        try storage.renameAddressBook("Work", to: "Office")
        #expect(try storage.history(limit: 2).map(\.kind) == [.renameBook, .addBook])
        try storage.undo()
        #expect(try storage.addressBooks().map(\.name) == ["Contacts", "Work"])
        try storage.undo()
        #expect(try storage.addressBooks().map(\.name) == ["Contacts"])
        try storage.redo()
        try storage.redo()
        #expect(try storage.addressBooks().map(\.name) == ["Contacts", "Office"])
    }

    @Test func aMoveKeepsTheContactAndItsUIDACopyIsANewContact() throws {
        let storage = try StorageController(path: dir.database)
        let work = try storage.addAddressBook(named: "Work")
        let ada = try storage.insertContact(ContactStorageTests.rich)

        let moved = try storage.moveContact(id: ada.id, toBook: "work")
        #expect(moved.id == ada.id && moved.uid == ada.uid && moved.draft == ada.draft && moved.bookID == work.id)
        #expect(moved.version == ada.version + 1)
        #expect(try storage.contact(id: ada.id) == moved)
        guard case .unknownBook? = carnetError({ try storage.moveContact(id: ada.id, toBook: "Nowhere") }) else { Issue.record("unknown"); return }
        guard case .notFound? = carnetError({ try storage.moveContact(id: 999, toBook: "Work") }) else { Issue.record("no contact"); return }

        let copy = try storage.copyContact(id: ada.id, toBook: "Contacts")
        #expect(copy.id != ada.id && copy.uid != ada.uid && copy.draft == ada.draft && copy.bookID == AddressBook.defaultID)
        #expect(try storage.addressBooks().map(\.contactCount) == [1, 1])
        #expect(try storage.history(limit: 2).map(\.summary) == ["copied Ada Lovelace to Contacts", "moved Ada Lovelace to Work"])

        try storage.undo()  // the copy
        #expect(try storage.allContacts().map(\.id) == [ada.id])
        try storage.undo()  // the move
        #expect(try storage.contact(id: ada.id).bookID == AddressBook.defaultID)
        try storage.redo()
        #expect(try storage.contact(id: ada.id).bookID == work.id)
    }

    @Test func oneBooksListPagesThroughItsOwnIndex() throws {
        let storage = try StorageController(path: dir.database)
        let work = try storage.addAddressBook(named: "Work")
        for i in 0..<30 {
            try storage.insertContact(ContactDraft(name: "Person \(i)", emails: [LabeledValue("p\(i)@example.com", label: "work")]),
                                      bookID: i % 3 == 0 ? work.id : nil)
        }
        let query = ContactQuery(bookID: work.id)
        var seen: [Contact] = []
        var key: ContactSortKey?
        while true {
            let page = try storage.contacts(after: key, limit: 4, query: query)
            seen += page.contacts
            guard page.hasMore, let last = page.contacts.last else { break }
            key = last.sortKey
        }
        #expect(seen.count == 10 && seen.allSatisfy { $0.bookID == work.id })
        #expect(seen.map(\.name) == seen.map(\.name).sorted { $0.lowercased() < $1.lowercased() })
        #expect(try storage.contactCount(query: query) == 10)
        #expect(try storage.contactCount(query: ContactQuery()) == 30)
        var summaries: [ContactSummary] = []
        try storage.forEachSummary(query: query, pageSize: 3) { summaries.append($0) }
        #expect(summaries.map(\.id) == seen.map(\.id) && summaries.allSatisfy { $0.bookID == work.id })
        #expect(try storage.contactCount(query: ContactQuery(search: "person", bookID: work.id)) == 10)

        let plan = try storage.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM contacts WHERE book_id = ? AND (name, id) > (?, ?) ORDER BY name, id LIMIT 51",
                             arguments: [work.id, "", 0]).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("contacts_by_book") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test func anImportGoesToTheBookNamedAndUpdatesAUIDWhereItIs() throws {
        let storage = try StorageController(path: dir.database)
        let work = try storage.addAddressBook(named: "Work")
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace"), uid: "ada")
        var records = [
            InterchangeRecord(uid: "grace", draft: ContactDraft(name: "Grace Hopper")),
            InterchangeRecord(uid: "ada", draft: ContactDraft(name: "Ada King")),
        ]
        let report = try storage.importContacts(source: "cards.vcf", options: ImportOptions(bookID: work.id)) { records.isEmpty ? nil : records.removeFirst() }
        #expect(report.added == 1 && report.updated == 1)
        #expect(try storage.contact(uid: "grace")?.bookID == work.id)
        #expect(try storage.contact(id: ada.id).bookID == AddressBook.defaultID)
        #expect(try storage.contact(id: ada.id).name == "Ada King")
    }

    @Test func birthdaysOfOneBook() throws {
        let storage = try StorageController(path: dir.database)
        let work = try storage.addAddressBook(named: "Work")
        let date = ContactDate(label: ContactDate.birthday, year: 1815, month: 12, day: 10)
        try storage.insertContact(ContactDraft(name: "Ada Lovelace", dates: [date]))
        try storage.insertContact(ContactDraft(name: "Grace Hopper", dates: [date]), bookID: work.id)
        #expect(try storage.contactsWithDates(labeled: [ContactDate.birthday]).count == 2)
        #expect(try storage.contactsWithDates(labeled: [ContactDate.birthday], bookID: work.id).map(\.name) == ["Grace Hopper"])
    }

    @Test func theBooksTableIsRecordedByTheHistory() {
        #expect(History.tables.contains("address_books"))
        #expect(History.tables.last == "address_books")
    }

    /// "Café" typed on one keyboard is U+00E9, on another (or in a collection's display name from
    /// a Mac) e + U+0301: the same name to a person, two different byte strings to SQLite. A book
    /// is stored in one form (NFC), found by either, and the second spelling is the same book.
    @Test func bookNamesThatDifferOnlyInUnicodeNormalisationAreOneBook() throws {
        let storage = try StorageController(path: dir.database)
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        let cafe = try storage.addAddressBook(named: decomposed)
        #expect(Array(cafe.name.unicodeScalars) == Array(composed.unicodeScalars))
        guard case .refused? = carnetError({ try storage.addAddressBook(named: composed) }) else {
            Issue.record("a second Café"); return
        }
        #expect(try storage.addressBook(named: composed).id == cafe.id)
        #expect(try storage.addressBook(named: decomposed).id == cafe.id)
        let work = try storage.addAddressBook(named: "Work")
        guard case .refused? = carnetError({ try storage.renameAddressBook("Work", to: decomposed) }) else {
            Issue.record("renamed onto Café's other spelling"); return
        }
        #expect(try storage.addressBooks().count == 3 && work.name == "Work")
    }

    /// A file that an earlier Carnet let hold both spellings: `db check` names the pair, and a
    /// lookup by either spelling still finds a book rather than none.
    @Test func aFileWithBothSpellingsOfABookIsNamedByTheCheck() throws {
        let storage = try StorageController(path: dir.database)
        try storage.addAddressBook(named: "Caf\u{E9}")
        try storage.writer.write { db in
            try db.execute(
                sql: "INSERT INTO address_books (name, is_default, created_at) VALUES (?, 0, '2026-01-01T00:00:00.000Z')",
                arguments: ["Cafe\u{301}"])
        }
        let problems = try storage.integrityCheck()
        #expect(problems.contains { $0.contains("differ only in how their accents are encoded") }, "\(problems)")
        #expect(try storage.addressBook(named: "Cafe\u{301}").name.unicodeScalars.count == 5)
    }
}
