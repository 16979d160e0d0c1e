import CarnetModels
import Foundation
import GRDB
import SeededRandom
import Testing
@testable import CarnetStorage

/// A file made by the previous release (schema 3: one position, email and phone per
/// contact) opens with every value intact: the email and phone become the preferred entries, the
/// position becomes title and organization exactly as `ContactDraft.split(position:)` (the
/// interchange) splits it, and the structured name is read from the display name only where
/// that needs no guess.
@Suite struct PreviousReleaseTests {
    let dir = TempDirectory()
    static let stamp = "2026-01-02T03:04:05.678Z"

    /// A file as the previous release left it: migrations 0001–0003 applied by GRDB's migrator
    /// (and recorded in `schema_migrations` and `grdb_migrations`), then `body` run on it.
    func makeSchema3File(_ name: String = "release3.sqlite", _ body: (Database) throws -> Void) throws -> String {
        let path = dir.path(name)
        let old = try StorageController(path: path, options: StorageOptions(), migrations: Array(Migration.embedded.prefix(3)))
        #expect(try old.info().schemaVersion == 3)
        try old.writer.write(body)
        try old.close()
        return path
    }

    /// A schema-3 contact row, written as that release wrote it.
    static func insert(
        _ db: Database, id: Int64, name: String, position: String = "", email: String = "", phone: String = "",
        photo: Data? = nil, version: Int = 1
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO contacts (id, uid, name, position, email, phone, photo, created_at, updated_at, version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [id, "uid-\(id)", name, position, email, phone, photo, stamp, "2026-02-03T04:05:06.789Z", version])
    }

    @Test func aSchema3FileOpensWithEveryValueInItsNewPlace() throws {
        let path = try makeSchema3File { db in
            try Self.insert(db, id: 3, name: "Ada Lovelace", position: "Engineer, Apple Inc.", email: "ada@example.com",
                            phone: "+44 20 7946 0000", photo: pngBytes, version: 4)
            try Self.insert(db, id: 5, name: "Maria José García López", position: "Sales", phone: "555 0100")
            try Self.insert(db, id: 8, name: "Dr. John Q. Appleseed Jr.", email: "john@example.com")
            try Self.insert(db, id: 9, name: "Tyler Porter", position: "Software developer, Prophecy, Inc.", email: "tyler@example.com", phone: "555 0102")
            try Self.insert(db, id: 12, name: "Ludwig van Beethoven", position: "Composer,Vienna")
            try Self.insert(db, id: 13, name: "李小龍", position: "Actor ,  Golden Harvest")
            try Self.insert(db, id: 20, name: "Zoë, the cat", position: ", Chief Mouser")
            for (position, id) in [(1, 9), (2, 3), (3, 20)] {
                try db.execute(sql: "INSERT INTO favorites (contact_id, position, created_at) VALUES (?, ?, ?)", arguments: [id, position, Self.stamp])
            }
            try db.execute(sql: "UPDATE quotes SET is_current = 0")
            try db.execute(
                sql: "INSERT INTO quotes (text, author, is_current, created_at, updated_at, version) VALUES (?, ?, 1, ?, ?, 3)",
                arguments: ["Two lines,\n\"quoted\" and 'quoted'.", "Someone O'Neil", Self.stamp, Self.stamp])
        }
        let quotesBefore = try rows(path, "SELECT * FROM quotes ORDER BY id")
        let favoritesBefore = try rows(path, "SELECT * FROM favorites ORDER BY position")
        let keptBefore = try rows(path, "SELECT id, uid, name, photo, created_at, updated_at, version FROM contacts ORDER BY id")
        #expect(keptBefore.count == 7)

        let storage = try StorageController(path: path)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        let contacts = Dictionary(uniqueKeysWithValues: try storage.allContacts().map { ($0.id, $0) })
        #expect(contacts.keys.sorted() == [3, 5, 8, 9, 12, 13, 20])

        let ada = try #require(contacts[3])
        #expect(ada.title == "Engineer" && ada.organization == "Apple Inc.")
        #expect(ada.emails == [LabeledValue("ada@example.com", preferred: true)])
        #expect(ada.phones == [LabeledValue("+44 20 7946 0000", preferred: true)])
        #expect(ada.nameParts == PersonName(given: "Ada", family: "Lovelace"))
        #expect(ada.photo == pngBytes && ada.version == 4 && ada.uid == "uid-3")
        #expect(Timestamp.string(ada.createdAt) == Self.stamp && Timestamp.string(ada.updatedAt) == "2026-02-03T04:05:06.789Z")

        let maria = try #require(contacts[5])
        #expect(maria.title == "Sales" && maria.organization == "")
        #expect(maria.emails.isEmpty && maria.phones == [LabeledValue("555 0100", preferred: true)])
        #expect(maria.nameParts == PersonName())  // García: a middle name or the first family name? Not guessed.

        let john = try #require(contacts[8])
        #expect(john.title == "" && john.organization == "" && john.phones.isEmpty && john.email == "john@example.com")
        #expect(john.nameParts == PersonName(prefix: "Dr.", given: "John", additional: "Q.", family: "Appleseed", suffix: "Jr."))

        let tyler = try #require(contacts[9])
        #expect(tyler.title == "Software developer" && tyler.organization == "Prophecy, Inc.")
        #expect(contacts[12]?.title == "Composer,Vienna" && contacts[12]?.organization == "")
        #expect(contacts[12]?.nameParts == PersonName(given: "Ludwig", family: "van Beethoven"))
        #expect(contacts[13]?.title == "Actor ,  Golden Harvest" && contacts[13]?.nameParts == PersonName())
        #expect(contacts[20]?.title == ", Chief Mouser" && contacts[20]?.nameParts == PersonName())

        // The old one-line position reads as it was, and each split is the interchange's.
        for contact in contacts.values {
            let (title, organization) = ContactDraft.split(position: contact.draft.position)
            #expect(contact.title == title && contact.organization == organization, "\(contact.name)")
            #expect(contact.draft.issues().isEmpty, "\(contact.name): \(contact.draft.issues())")
        }
        // No other list has anything; nothing was repaired.
        #expect(contacts.values.allSatisfy { $0.addresses.isEmpty && $0.urls.isEmpty && $0.handles.isEmpty && $0.dates.isEmpty && $0.categories.isEmpty && $0.extras.isEmpty && $0.note.isEmpty })

        #expect(try storage.favorites().map(\.contact.id) == [9, 3, 20])
        #expect(try storage.currentQuote()?.text == "Two lines,\n\"quoted\" and 'quoted'.")
        #expect(try storage.currentQuote()?.author == "Someone O'Neil")
        #expect(try storage.integrityCheck() == ["ok"])
        #expect(try storage.info().migrations == Migration.embedded.map(\.name))
        // The next id is past every id the old file gave.
        #expect(try storage.insertContact(ContactDraft(name: "New")).id == 21)
        try storage.close()

        #expect(try rows(path, "SELECT * FROM quotes ORDER BY id") == quotesBefore)
        #expect(try rows(path, "SELECT * FROM favorites ORDER BY position") == favoritesBefore)
        #expect(Array(try rows(path, "SELECT id, uid, name, photo, created_at, updated_at, version FROM contacts ORDER BY id").prefix(7)) == keptBefore)
        #expect(try rows(path, "SELECT count(*) FROM repaired_values") == [["0"]])
        #expect(try rows(path, "SELECT contact_id, position, label, value, preferred FROM contact_emails ORDER BY contact_id") == [
            ["3", "1", "", "ada@example.com", "1"], ["8", "1", "", "john@example.com", "1"], ["9", "1", "", "tyler@example.com", "1"],
        ])
    }

    /// Schema 3 allowed a name of 200 characters; a name part holds 100. A long name whose parts
    /// could be read ("Ada" and a 150-letter family name, or one 150-letter word) keeps its
    /// display name and gets no parts, rather than failing the upgrade and locking the file.
    @Test func aLongNameWhosePartsWouldBreakTheRulesIsLeftWhole() throws {
        let long = String(repeating: "L", count: 150)
        let path = try makeSchema3File { db in
            try Self.insert(db, id: 1, name: "Ada " + long)
            try Self.insert(db, id: 2, name: "X" + long.lowercased())
            try Self.insert(db, id: 3, name: "Ada Lovelace")
        }
        let storage = try StorageController(path: path)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        #expect(try storage.contact(id: 1).name == "Ada " + long)
        #expect(try storage.contact(id: 1).nameParts == PersonName())
        #expect(try storage.contact(id: 2).nameParts == PersonName())
        #expect(try storage.contact(id: 3).nameParts == PersonName(given: "Ada", family: "Lovelace"))
        // db check judges what is stored (empty parts break no rule), and the contact can be
        // edited and saved as it is.
        #expect(try storage.integrityCheck() == ["ok"])
        var draft = try storage.contact(id: 1).draft
        draft.note = "Edited"
        #expect(draft.issues().isEmpty, "\(draft.issues())")
        #expect(try storage.updateContact(storage.contact(id: 1), with: draft).nameParts == PersonName())
    }

    /// Schema 4's SQL splits every position the previous release could hold as the interchange
    /// does, value by value: generated positions with ", " in odd places, padding on either side,
    /// several commas and non-ASCII text.
    @Test func theUpgradeSplitsEveryPositionAsTheInterchangeDoes() throws {
        let pieces = ["Engineer", "Apple Inc.", "", " ", ",", ", ", " ,", "Sales", "é", "e\u{301}", "\u{301}", "\u{A0}", "\u{200B}",
                      "\u{3000}", "漢字", "🙂", "\u{1F3FB}", "Ltd", "\u{2060}", "-", "a"]
        var generator = SplitMix64(seed: 0x5EED_0013)
        var positions: Set<String> = ["Engineer, Apple Inc.", "Sales", "a, b, c", "a,b", "a , b", "a ,b", ", b", "a,  b"]
        while positions.count < 1500 {
            let count = 1 + generator.below(5)
            positions.insert((0..<count).map { _ in pieces[generator.below(pieces.count)] }.joined())
        }
        var stored: [Int64: String] = [:]
        let path = try makeSchema3File { db in
            var id: Int64 = 0
            for position in positions.sorted() {
                // Only what schema 3 accepts (it trims and refuses what the rules refuse).
                do {
                    try db.inSavepoint {
                        try Self.insert(db, id: id + 1, name: "P \(id + 1)", position: position)
                        return .commit
                    }
                    id += 1
                    stored[id] = position
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    continue
                }
            }
        }
        #expect(stored.count > 500, "only \(stored.count) positions were stored")
        #expect(stored.values.contains { !ContactDraft.split(position: $0).organization.isEmpty })
        let storage = try StorageController(path: path)
        var disagreements: [String] = []
        for contact in try storage.allContacts() {
            let position = try #require(stored[contact.id])
            let expected = ContactDraft.split(position: position)
            if (contact.title, contact.organization) != expected {
                disagreements.append("\(position.debugDescription) → \((contact.title, contact.organization)), interchange \(expected)")
            }
            if contact.draft.position != position {
                disagreements.append("\(position.debugDescription) reads back as \(contact.draft.position.debugDescription)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(10))")
        #expect(try storage.integrityCheck() == ["ok"])
    }

    func rows(_ path: String, _ sql: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { value in
                    if case let .string(text) = value.storage { return text }
                    return "\(value)"
                }
            }
        }
    }
}

/// Schema 13: a file of the release before address books (schema 12) opens with every contact
/// in the default book, untouched, and its sync link now the default book's.
@Suite struct PreviousReleaseBooksTests {
    let dir = TempDirectory()

    @Test func aSchema12FileOpensWithEveryContactInTheDefaultBook() throws {
        let path = dir.path("release12.sqlite")
        let old = try StorageController(path: path, options: StorageOptions(), migrations: Migration.embedded.filter { $0.version <= 12 })
        #expect(try old.info().schemaVersion == 12)
        let stamp = "2026-01-02T03:04:05.678Z"
        try old.writer.write { db in
            for (id, name) in [(3, "Ada Lovelace"), (5, "Grace Hopper"), (8, "Alan Turing")] {
                try db.execute(
                    sql: "INSERT INTO contacts (id, uid, name, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, 2)",
                    arguments: [id, "uid-\(id)", name, stamp, stamp])
            }
            try db.execute(sql: "INSERT INTO contact_emails (contact_id, position, label, value, preferred) VALUES (3, 1, 'work', 'ada@example.com', 1)")
            // What that release's storage wrote with each contact (its connections run without triggers).
            try SearchIndex.add(db, id: 3, ContactDraft(name: "Ada Lovelace", emails: [LabeledValue("ada@example.com", label: "work", preferred: true)]))
            try SearchIndex.add(db, id: 5, ContactDraft(name: "Grace Hopper"))
            try SearchIndex.add(db, id: 8, ContactDraft(name: "Alan Turing"))
            try db.execute(sql: "INSERT INTO favorites (contact_id, position, created_at) VALUES (5, 1, ?)", arguments: [stamp])
            try db.execute(
                sql: "INSERT INTO sync_accounts (collection_url, username, created_at) VALUES ('http://127.0.0.1:5232/ada/contacts/', 'ada', ?)",
                arguments: [stamp])
        }
        let namesBefore = try old.writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM contacts ORDER BY name") }
        try old.close()

        let storage = try StorageController(path: path)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        #expect(try storage.addressBooks() == [AddressBook(id: AddressBook.defaultID, name: "Contacts", isDefault: true, contactCount: 3)])
        let contacts = try storage.allContacts()
        #expect(contacts.map(\.bookID) == [AddressBook.defaultID, AddressBook.defaultID, AddressBook.defaultID])
        #expect(contacts.map(\.name) == namesBefore)
        #expect(contacts.map(\.uid) == ["uid-3", "uid-8", "uid-5"] && contacts.allSatisfy { $0.version == 2 })
        #expect(try storage.contact(id: 3).emails.map(\.value) == ["ada@example.com"])
        #expect(try storage.favorites().map(\.contact.id) == [5])
        let account = try #require(try storage.syncAccount())
        #expect(account.bookID == AddressBook.defaultID && account.bookName == "Contacts" && account.username == "ada")
        #expect(try storage.integrityCheck() == ["ok"])

        // A contact stored before books is edited, moved, and every step undone and redone.
        let ada = try storage.contact(id: 3)
        var draft = ada.draft
        draft.title = "Analyst"
        try storage.updateContact(ada, with: draft)
        try storage.addAddressBook(named: "Work")
        try storage.moveContact(id: 3, toBook: "Work")
        for _ in 0..<3 { try storage.undo() }
        #expect(try storage.contact(id: 3).draft == ada.draft && storage.contact(id: 3).bookID == AddressBook.defaultID)
        for _ in 0..<3 { try storage.redo() }
        #expect(try storage.contact(id: 3).title == "Analyst" && storage.contact(id: 3).bookID != AddressBook.defaultID)
    }
}
