import CarnetModels
import Foundation
import GRDB
import Testing
@testable import CarnetStorage

@Suite struct StorageControllerTests {
    let dir = TempDirectory()

    @Test func crudRoundTripAcrossTwoOpens() throws {
        let path = dir.path("book.sqlite")
        var ada: Contact
        do {
            let storage = try StorageController(path: path)
            ada = try storage.insertContact(ContactDraft(
                name: "  Ada Lovelace ", position: "Analyst, Engines Ltd", email: "ada@example.com",
                phone: "+44 20 7946 0000", photo: pngBytes))
            #expect(ada.name == "Ada Lovelace")  // trimmed
            #expect(ada.version == 1)
            _ = try storage.insertContact(ContactDraft(name: "Grace Hopper"))
        }
        do {
            let storage = try StorageController(path: path)
            #expect(try storage.contact(id: ada.id) == ada)
            var draft = ada.draft
            draft.name = "Augusta Ada King"
            draft.photo = nil
            let renamed = try storage.updateContact(ada, with: draft)
            #expect(renamed.id == ada.id && renamed.uid == ada.uid && renamed.version == 2)
            #expect(renamed.createdAt == ada.createdAt)
            ada = renamed
        }
        do {
            let storage = try StorageController(path: path)
            #expect(try storage.contact(id: ada.id) == ada)
            #expect(try storage.contactCount() == 2)
            try storage.deleteContact(id: ada.id)
            #expect(carnetError { try storage.contact(id: ada.id) } == .notFound(.contact, id: ada.id))
            #expect(carnetError { try storage.deleteContact(id: ada.id) } == .notFound(.contact, id: ada.id))
        }
        let storage = try StorageController(path: path)
        #expect(try storage.contactCount() == 1)
        #expect(try storage.contact(uid: ada.uid) == nil)
    }

    @Test func newFileIsPrivateInPrivateDirectory() throws {
        let path = dir.path("nested/deeper/book.sqlite")
        _ = try StorageController(path: path)
        let fm = FileManager.default
        let fileMode = try fm.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber
        let dirMode = try fm.attributesOfItem(atPath: dir.path("nested/deeper"))[.posixPermissions] as! NSNumber
        #expect(fileMode.intValue & 0o777 == 0o600)
        #expect(dirMode.intValue & 0o777 == 0o700)
    }

    @Test func newDatabaseHasSchemaVersionAndEinsteinQuote() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let info = try storage.info()
        #expect(info.schemaVersion == StorageController.supportedSchemaVersion)
        #expect(info.migrations.first == "0001_initial")
        #expect(info.journalMode == "wal")
        #expect(info.synchronous == "FULL")
        let quote = try #require(try storage.currentQuote())
        #expect(quote.author == "Albert Einstein")
        #expect(quote.text.hasPrefix("Two things are infinite"))
        #expect(try storage.quotes().count == 1)
    }

    @Test(arguments: [StorageOptions.Connections.pool, .single])
    func theWriterCommitsWithTheChosenDurability(connections: StorageOptions.Connections) throws {
        for (durability, level) in [(StorageOptions.Durability.full, 2), (.normal, 1)] {
            let storage = try StorageController(
                path: dir.path("\(durability)-\(connections).sqlite"),
                options: StorageOptions(durability: durability, connections: connections))
            let writerLevel = try storage.writer.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
            #expect(writerLevel == level)
            #expect(try storage.info().synchronous == (level == 2 ? "FULL" : "NORMAL"))
            #expect(try storage.info().journalMode == "wal")
        }
    }

    @Test func aSingleConnectionSharesTheFileWithAPoolAndLeavesItWhole() throws {
        let path = dir.path("book.sqlite")
        let single = StorageOptions(connections: .single)
        // A new file made through one connection is in WAL mode, like one made by a pool.
        let first = try StorageController(path: path, options: single)
        let ada = try first.insertContact(ContactDraft(name: "Ada Lovelace"))
        try first.close()
        // The last connection to close folded the log into the file and emptied it (kept, so a
        // reader without write access to the directory can still open the file): the file
        // alone is whole.
        let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")
        #expect((wal[.size] as? NSNumber)?.intValue == 0)
        let copy = dir.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        #expect(try StorageController(path: copy, options: single).contact(id: ada.id) == ada)
        // A pool and a single connection on one file see each other's commits.
        let pool = try StorageController(path: path)
        let other = try StorageController(path: path, options: single)
        let grace = try other.insertContact(ContactDraft(name: "Grace Hopper"))
        #expect(try pool.contact(id: grace.id) == grace)
        var draft = grace.draft
        draft.position = "Rear Admiral"
        let saved = try pool.updateContact(grace, with: draft)
        #expect(try other.contact(id: grace.id) == saved)
        guard case .conflict = carnetError({ try other.updateContact(grace, with: grace.draft) }) else {
            Issue.record("expected a conflict across connection kinds")
            return
        }
        try other.close()
        try pool.close()
        #expect(try StorageController(path: path, options: single).integrityCheck() == ["ok"])
    }

    @Test func deletingAContactCascadesToItsFavorite() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let a = try storage.insertContact(ContactDraft(name: "A"))
        let b = try storage.insertContact(ContactDraft(name: "B"))
        try storage.addFavorite(contactID: a.id)
        try storage.addFavorite(contactID: b.id)
        try storage.deleteContact(id: a.id)
        #expect(try storage.favorites().map(\.contact.id) == [b.id])
        #expect(try storage.favorites().map(\.position) == [1])
        #expect(try storage.integrityCheck() == ["ok"])
    }

    @Test func favoritesKeepTheUsersOrder() throws {
        let storage = try StorageController.inMemory()
        let ids = try (1...4).map { try storage.insertContact(ContactDraft(name: "C\($0)")).id }
        for id in ids { try storage.addFavorite(contactID: id) }
        #expect(try storage.favorites().map(\.contact.id) == ids)
        try storage.moveFavorite(contactID: ids[3], to: 1)
        #expect(try storage.favorites().map(\.contact.id) == [ids[3], ids[0], ids[1], ids[2]])
        try storage.addFavorite(contactID: ids[1], at: 4)  // favoriting again with a position moves
        #expect(try storage.favorites().map(\.contact.id) == [ids[3], ids[0], ids[2], ids[1]])
        try storage.removeFavorite(contactID: ids[0])
        let favorites = try storage.favorites()
        #expect(favorites.map(\.contact.id) == [ids[3], ids[2], ids[1]])
        #expect(favorites.map(\.position) == [1, 2, 3])
        try storage.addFavorite(contactID: ids[0], at: 2)
        #expect(try storage.favorites().map(\.contact.id) == [ids[3], ids[0], ids[2], ids[1]])
        // Out-of-range positions and unknown contacts are refused, nothing changes.
        #expect(carnetError { try storage.moveFavorite(contactID: ids[0], to: 0) }.map { if case .invalid = $0 { true } else { false } } == true)
        #expect(carnetError { try storage.addFavorite(contactID: 999, at: 1) } == .notFound(.contact, id: 999))
        #expect(carnetError { try storage.moveFavorite(contactID: ids[0], to: 99) } != nil)
        #expect(carnetError { try storage.removeFavorite(contactID: 999) } == .notFound(.contact, id: 999))
        #expect(try storage.favorites().map(\.contact.id) == [ids[3], ids[0], ids[2], ids[1]])
    }

    @Test func keysetPagingReturnsEveryContactOnceInNameOrder() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let names = ["bob", "Alice", "alice", "Émile", "zed", "Zoë", "Bob", "carol", "_under", "10 Downing", "Ålesund", "ALICE"]
        var drafts: [ContactDraft] = []
        for round in 0..<25 { for name in names { drafts.append(ContactDraft(name: "\(name) \(round % 3)")) } }
        try storage.insertContacts(drafts)
        var seen: [Contact] = []
        var key: ContactSortKey?
        var pages = 0
        while true {
            let page = try storage.contacts(after: key, limit: 7)
            seen += page.contacts
            pages += 1
            guard page.hasMore, let last = page.contacts.last else { break }
            key = last.sortKey
        }
        #expect(seen.count == drafts.count)
        #expect(Set(seen.map(\.id)).count == drafts.count)
        #expect(seen.map(\.sortKey) == seen.map(\.sortKey).sorted())
        #expect(seen == (try storage.allContacts()))
        #expect(pages == (drafts.count + 6) / 7)
        // And backwards from the end gives the same order.
        var back: [Contact] = []
        var before = seen.last!.sortKey
        back.append(seen.last!)
        while true {
            let page = try storage.contacts(before: before, limit: 5)
            back.insert(contentsOf: page.contacts, at: 0)
            guard page.hasMore, let first = page.contacts.first else { break }
            before = first.sortKey
        }
        #expect(back == seen)
    }

    @Test func keysetPagesUseTheNameIndex() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let plan = try storage.writer.read { db in
            try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT \(StorageController.contactColumns) FROM contacts
                WHERE (name, id) > (?, ?) ORDER BY name, id LIMIT 51
                """, arguments: ["m", 1]).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("contacts_by_name") }, "plan: \(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "plan: \(plan)")
    }

    @Test func searchMatchesAnyTextFieldCaseInsensitively() throws {
        let storage = try StorageController.inMemory()
        try storage.insertContact(ContactDraft(name: "Madison Thompson", position: "Sales, Gale Foods", email: "madison@example.com"))
        try storage.insertContact(ContactDraft(name: "Tyler Porter", position: "Software developer, Prophecy", phone: "555 0100"))
        try storage.insertContact(ContactDraft(name: "Per 100% Cent", position: "x"))
        #expect(try storage.contacts(limit: 10, matching: "gale").contacts.map(\.name) == ["Madison Thompson"])
        #expect(try storage.contacts(limit: 10, matching: "0100").contacts.map(\.name) == ["Tyler Porter"])
        #expect(try storage.contacts(limit: 10, matching: "EXAMPLE.COM").contacts.map(\.name) == ["Madison Thompson"])
        // LIKE's wildcards are text, as FTS5's operators are: a word is its letters and digits.
        #expect(try storage.contacts(limit: 10, matching: "100%").contacts.map(\.name) == ["Per 100% Cent"])
        #expect(throws: CarnetError.self) { try storage.contacts(limit: 10, matching: "_") }
        // Words are matched from their start: "o" starts none of these words, "p" three.
        #expect(try storage.contactCount(matching: "o") == 0)
        #expect(try storage.contactCount(matching: "p") == 2)
        for contact in try storage.allContacts() {
            #expect(contact.matches(search: "gale") == (contact.name == "Madison Thompson"))
        }
    }

    @Test func overlongSearchIsAnInvalidSearchNotADatabaseError() throws {
        let storage = try StorageController.inMemory()
        try storage.insertContact(ContactDraft(name: "Madison Thompson"))
        // 50,000 characters used to reach SQLite, which calls such a LIKE pattern "too complex".
        let huge = String(repeating: "x", count: 50_000)
        let expected = CarnetError.invalidSearch("search text must be at most \(Limits.searchLength) characters (got 50000)")
        #expect(carnetError { try storage.contacts(limit: 10, matching: huge) } == expected)
        #expect(carnetError { try storage.contacts(before: ContactSortKey(name: "z", id: 1), limit: 10, matching: huge) } == expected)
        #expect(carnetError { try storage.contactCount(matching: huge) } == expected)
        // Up to the limit is a search like any other (counted in Unicode scalars, as fields are).
        let longest = String(repeating: "é", count: Limits.searchLength)
        #expect(try storage.contacts(limit: 10, matching: longest).contacts.isEmpty)
        #expect(try storage.contactCount(matching: "") == 1)
    }

    @Test func staleUpdateIsAConflictAndWritesNothing() throws {
        let path = dir.path("book.sqlite")
        let mine = try StorageController(path: path)
        let theirs = try StorageController(path: path)
        let original = try mine.insertContact(ContactDraft(name: "Gary Edwards", position: "Web Developer", email: "gary@example.com"))
        var theirDraft = original.draft
        theirDraft.email = "gary@bluewares.example.com"
        theirDraft.position = "Lead Web Developer"
        let saved = try theirs.updateContact(original, with: theirDraft)
        var myDraft = original.draft
        myDraft.name = "Gary R. Edwards"
        let error = carnetError { try mine.updateContact(original, with: myDraft) }
        guard case let .conflict(.contact(conflict)) = error else {
            Issue.record("expected a conflict, got \(String(describing: error))")
            return
        }
        // Position is title and organization since schema 4: "Web Developer" → "Lead Web Developer" is the title.
        #expect(conflict.changedFields == [.title, .email])
        #expect(conflict.current == saved)
        #expect(conflict.base == original)
        #expect(conflict.mine.name == "Gary R. Edwards")
        #expect(conflict.description.contains("title, email"))
        #expect(try mine.contact(id: original.id) == saved)
        // Overwriting knowingly works, and bumps the version past theirs.
        let forced = try mine.updateContact(original, with: myDraft, force: true)
        #expect(forced.version == 3 && forced.name == "Gary R. Edwards" && forced.email == "gary@example.com")
    }

    @Test func updateReturnsWhatIsStoredAndHandlesEveryCase() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let original = try storage.insertContact(ContactDraft(name: "Katherine Price", position: "Marketing, Golden Roads"))
        var draft = original.draft
        draft.email = "katherine@example.com"
        // A save on a current base is one conditional UPDATE; what it returns is what a read sees.
        let saved = try storage.updateContact(original, with: draft)
        #expect(saved.version == 2 && saved.uid == original.uid && saved.createdAt == original.createdAt)
        #expect(try storage.contact(id: original.id) == saved)
        // Saving the stored fields again writes nothing.
        #expect(try storage.updateContact(saved, with: draft) == saved)
        #expect(try storage.contact(id: original.id).version == 2)
        // Even an unchanged draft on a stale base is reported, not silently accepted.
        guard case .conflict = carnetError({ try storage.updateContact(original, with: original.draft) }) else {
            Issue.record("expected a conflict for a no-op save on a stale base")
            return
        }
        // Forcing an unchanged draft over the stored one writes nothing either.
        #expect(try storage.updateContact(original, with: draft, force: true) == saved)
        try storage.deleteContact(id: original.id)
        guard case .deleted(.contact, original.id) = carnetError({ try storage.updateContact(saved, with: original.draft) }) else {
            Issue.record("expected 'was deleted' for an update of a deleted contact")
            return
        }
    }

    @Test func invalidDraftsAreRefusedWithEveryFieldNamed() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let before = try storage.contactCount()
        let bad = ContactDraft(name: "   ", email: "not-an-email", phone: "call me", photo: Data("GIF? no".utf8))
        guard case let .invalid(issues) = carnetError({ try storage.insertContact(bad) }) else {
            Issue.record("expected invalid")
            return
        }
        #expect(Set(issues.map(\.field)) == [.name, .email, .phone, .photo])
        #expect(try storage.contactCount() == before)
        let long = ContactDraft(name: String(repeating: "n", count: Limits.nameLength + 1))
        #expect(carnetError { try storage.insertContact(long) }.map { "\($0)" }?.contains("at most 200") == true)
        let huge = ContactDraft(name: "Big", photo: pngBytes + Data(count: Limits.photoBytes))
        #expect(carnetError { try storage.insertContact(huge) }.map { "\($0)" }?.contains("photo: must be at most") == true)
    }

    @Test func sqlTextIsStoredVerbatim() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let name = "Robert'); DROP TABLE contacts;--"
        let contact = try storage.insertContact(ContactDraft(name: name, position: "\" OR 1=1 --"))
        #expect(try storage.contact(id: contact.id).name == name)
        #expect(try storage.contactCount() == 1)
        #expect(try storage.contacts(limit: 5, matching: "DROP TABLE").contacts.count == 1)
    }

    @Test func quotesAlwaysHaveExactlyOneCurrent() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let einstein = try #require(try storage.currentQuote())
        #expect(carnetError { try storage.deleteQuote(id: einstein.id) }.map { "\($0)" }?.contains("only quote") == true)
        let wilde = try storage.addQuote(QuoteDraft(text: "Be yourself; everyone else is already taken.", author: "Oscar Wilde"))
        #expect(try storage.currentQuote()?.id == einstein.id)
        try storage.useQuote(id: wilde.id)
        #expect(try storage.currentQuote()?.id == wilde.id)
        #expect(try storage.quotes().filter(\.isCurrent).map(\.id) == [wilde.id])
        let edited = try storage.updateQuote(wilde, with: QuoteDraft(text: "Be yourself.", author: "Oscar Wilde"))
        #expect(edited.version == 2 && edited.isCurrent)
        guard case .conflict(.quote) = carnetError({ try storage.updateQuote(wilde, with: QuoteDraft(text: "x")) }) else {
            Issue.record("expected a quote conflict")
            return
        }
        try storage.deleteQuote(id: wilde.id)
        #expect(try storage.currentQuote()?.id == einstein.id)
        #expect(carnetError { try storage.useQuote(id: 77) } == .notFound(.quote, id: 77))
        let third = try storage.addQuote(QuoteDraft(text: "Now.", author: ""), makeCurrent: true)
        #expect(try storage.currentQuote() == third)
        #expect(carnetError { try storage.addQuote(QuoteDraft(text: " \n ")) } == .invalid([FieldIssue(.text, "is required and must not be blank")]))
    }

    @Test func backupIsItselfACarnetDatabase() throws {
        let storage = try StorageController(path: dir.path("book.sqlite"))
        let a = try storage.insertContact(ContactDraft(name: "Katherine Price", position: "Marketing, Golden Roads"))
        try storage.addFavorite(contactID: a.id)
        try storage.backup(to: dir.path("copy.sqlite"))
        #expect(carnetError { try storage.backup(to: dir.path("copy.sqlite")) } != nil)
        let copy = try StorageController(path: dir.path("copy.sqlite"))
        #expect(try copy.favorites().map(\.contact) == [a])
        #expect(try copy.integrityCheck() == ["ok"])
        #expect(try copy.info().schemaVersion == StorageController.supportedSchemaVersion)
    }

    @Test func timestampsRoundTripAndReadSQLitesOwnFormat() throws {
        let now = Timestamp.now()
        #expect(Timestamp.date(Timestamp.string(now)) == now)
        let text = Timestamp.string(Date(timeIntervalSince1970: 0))
        #expect(text == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp.string(Date(timeIntervalSince1970: 951_782_400.5)) == "2000-02-29T00:00:00.500Z")
        #expect(Timestamp.date("2000-02-29 00:00:00") == Date(timeIntervalSince1970: 951_782_400))
        #expect(Timestamp.date("nonsense") == nil)
    }
}
