import CarnetModels
import Foundation
import GRDB

extension StorageController {
    private static let booksSQL = """
        SELECT b.id, b.name, b.is_default,
               (SELECT count(*) FROM contacts c WHERE c.book_id = b.id AND c.kind = 'individual') AS contacts,
               (SELECT count(*) FROM contacts c WHERE c.book_id = b.id AND c.kind = 'group') AS groups
        FROM address_books b
        """

    private static func book(_ row: Row) -> AddressBook {
        AddressBook(id: row["id"], name: row["name"], isDefault: row["is_default"], contactCount: row["contacts"], groupCount: row["groups"])
    }

    static func fetchBooks(_ db: Database) throws -> [AddressBook] {
        try Row.fetchAll(db, sql: booksSQL + " ORDER BY b.is_default DESC, b.name, b.id").map(book)
    }

    /// The book named `name` (ignoring A-Z case), or `CarnetModels/CarnetError/unknownBook(_:)`.
    static func fetchBook(_ db: Database, named name: String) throws -> AddressBook {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id = try bookID(db, named: trimmed), let book = try fetchBook(db, id: id) else {
            throw CarnetError.unknownBook(trimmed)
        }
        return book
    }

    /// The id of the book named `name` (ignoring A-Z case and how its accents are encoded):
    /// names are stored composed (NFC), but a file from before that may hold a decomposed one,
    /// which only a comparison of characters, not of bytes, finds.
    static func bookID(_ db: Database, named name: String) throws -> Int64? {
        let statement = try db.cachedStatement(sql: "SELECT id FROM address_books WHERE name = ?")
        for spelling in [name, name.precomposedStringWithCanonicalMapping] {
            if let id = try Int64.fetchOne(statement, arguments: [spelling]) { return id }
        }
        let wanted = name.lowercased()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, name FROM address_books ORDER BY id")
        while let row = try rows.next() {
            if (row["name"] as String).lowercased() == wanted { return row["id"] }
        }
        return nil
    }

    /// Books whose names differ only in how their accents are encoded (`Café` composed and
    /// decomposed), which an earlier Carnet let a file hold: they print alike.
    static func bookNameProblems(_ db: Database) throws -> [String] {
        let books = try Row.fetchAll(db, sql: "SELECT id, name FROM address_books ORDER BY id")
            .map { (id: $0["id"] as Int64, name: $0["name"] as String) }
        var problems: [String] = []
        var reported: Set<Int64> = []
        for book in books where !reported.contains(book.id) {
            let same = books.filter { $0.id != book.id && $0.name.lowercased() == book.name.lowercased() }
            guard !same.isEmpty else { continue }
            reported.formUnion(same.map(\.id))
            let ids = ([book.id] + same.map(\.id)).map(String.init).joined(separator: " and ")
            problems.append(
                "the address books \(ids) are both named \(book.name.debugDescription) and differ only in how their accents "
                    + "are encoded (Unicode NFC and NFD): rename one of them (carnet book rename)")
        }
        return problems
    }

    static func fetchBook(_ db: Database, id: Int64) throws -> AddressBook? {
        try Row.fetchOne(db, sql: booksSQL + " WHERE b.id = ?", arguments: [id]).map(book)
    }

    /// Every address book of the file with how many contacts it holds: the default one first,
    /// then by name. Without `counting`, every count is 0 and nothing but the books is read
    /// (a listing that only names each row's book).
    public func addressBooks(counting: Bool = true) throws(CarnetError) -> [AddressBook] {
        guard counting else {
            // Read through a cursor: `Row.fetchAll` goes through a generic request whose first use
            // has the runtime search every protocol conformance of the binary, and `carnet query`
            // (started at every completion in a mail client) asks this once per run.
            return try read { db in
                let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT id, name, is_default, 0 AS contacts, 0 AS groups FROM address_books ORDER BY is_default DESC, name, id"))
                var books: [AddressBook] = []
                while let row = try rows.next() { books.append(Self.book(row)) }
                return books
            }
        }
        return try read { db in try Self.fetchBooks(db) }
    }

    /// The book named `name` (ignoring A-Z case); `CarnetModels/CarnetError/unknownBook(_:)` when none is.
    public func addressBook(named name: String) throws(CarnetError) -> AddressBook {
        try read { db in try Self.fetchBook(db, named: name) }
    }

    /// Makes an empty book. A name already used (ignoring A-Z case) is refused.
    @discardableResult
    public func addAddressBook(named name: String) throws(CarnetError) -> AddressBook {
        let name = try AddressBook.validName(name)
        return try recordedWrite { db, history in
            if let existing = try Self.bookID(db, named: name).flatMap({ try Self.fetchBook(db, id: $0) }) {
                throw CarnetError.refused("there is already an address book named \(existing.name.debugDescription)")
            }
            history.note = HistoryNote(.addBook, subject: name, "added the address book \(name)")
            try db.execute(
                sql: "INSERT INTO address_books (name, is_default, created_at) VALUES (?, 0, ?)",
                arguments: [name, Timestamp.string(Timestamp.now())])
            return AddressBook(id: db.lastInsertedRowID, name: name)
        }
    }

    /// Renames the book named `old` (the default one too: it stays the default).
    @discardableResult
    public func renameAddressBook(_ old: String, to new: String) throws(CarnetError) -> AddressBook {
        let new = try AddressBook.validName(new)
        return try recordedWrite { db, history in
            var book = try Self.fetchBook(db, named: old)
            if let other = try Self.bookID(db, named: new), other != book.id {
                throw CarnetError.refused("there is already an address book named \(new.debugDescription)")
            }
            guard book.name != new else { return book }
            history.note = HistoryNote(.renameBook, subject: new, "renamed the address book \(book.name) to \(new)")
            try db.execute(sql: "UPDATE address_books SET name = ? WHERE id = ?", arguments: [new, book.id])
            book.name = new
            return book
        }
    }

    /// Deletes the book named `name`. One that holds contacts is deleted only with
    /// `withContacts` (they go with it, in the same action, so one undo brings all back);
    /// otherwise it is refused and nothing changes. The default book is never deleted. Its sync
    /// link is set aside (the cards on the server stay there): it syncs no more, and comes back
    /// with the book when an undo brings the book back.
    @discardableResult
    public func deleteAddressBook(named name: String, withContacts: Bool) throws(CarnetError) -> AddressBook {
        try recordedWrite { db, history in
            let book = try Self.fetchBook(db, named: name)
            if book.isDefault {
                throw CarnetError.refused("\(book.name) is the default address book, which cannot be deleted (it can be renamed)")
            }
            if book.cardCount > 0 && !withContacts {
                throw CarnetError.refused(
                    "the address book \(book.name) holds \(book.contents); delete it with them (--force), or move them first")
            }
            let what = book.cardCount > 0 ? " and its \(book.contents)" : ""
            history.note = HistoryNote(.deleteBook, subject: book.name, "deleted the address book \(book.name)\(what)")
            try Self.setSyncLinksAside(db, bookIDs: [book.id])
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM contacts WHERE book_id = ?", arguments: [book.id])
            for id in ids {
                try Self.beforeDeleting(db, contactID: id)
                try db.cachedStatement(sql: "DELETE FROM contacts WHERE id = ?").execute(arguments: [id])
                try history.checkpoint()
            }
            try db.execute(sql: "DELETE FROM address_books WHERE id = ?", arguments: [book.id])
            return book
        }
    }

    /// Moves contact `id` to the book named `bookName`, keeping its id and UID (a synced one
    /// leaves its old collection and goes up to the new one at the next sync).
    @discardableResult
    public func moveContact(id: Int64, toBook bookName: String) throws(CarnetError) -> Contact {
        try recordedWrite { db, history in
            let book = try Self.fetchBook(db, named: bookName)
            guard let contact = try Self.fetchContact(db, id: id) else { throw CarnetError.notFound(.contact, id: id) }
            guard contact.bookID != book.id else { return contact }
            history.note = HistoryNote(.moveContact, subject: contact.name, "moved \(contact.name) to \(book.name)")
            let now = Timestamp.now()
            try db.execute(
                sql: "UPDATE contacts SET book_id = ?, version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
                arguments: [book.id, Timestamp.string(now), contact.id, contact.version])
            return Contact(
                id: contact.id, uid: contact.uid, draft: contact.draft, createdAt: contact.createdAt, updatedAt: now,
                version: contact.version + 1, bookID: book.id)
        }
    }

    /// Adds a copy of contact `id` to the book named `bookName`: a new contact, with a UID of its
    /// own (a UID names one contact in the file), and the same fields.
    @discardableResult
    public func copyContact(id: Int64, toBook bookName: String) throws(CarnetError) -> Contact {
        try recordedWrite { db, history in
            let book = try Self.fetchBook(db, named: bookName)
            guard let contact = try Self.fetchContact(db, id: id) else { throw CarnetError.notFound(.contact, id: id) }
            history.note = HistoryNote(.copyContact, subject: contact.name, "copied \(contact.name) to \(book.name)")
            return try Self.insert(db, contact.draft, uid: UUID().uuidString.lowercased(), now: Timestamp.now(), bookID: book.id)
        }
    }
}
