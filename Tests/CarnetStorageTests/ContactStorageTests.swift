import CarnetModels
import Foundation
import GRDB
import Synchronization
import Testing
@testable import CarnetStorage

/// A contact is its row in `contacts` and its rows in the child tables, written together
/// (one transaction, one new version), read back in the person's order with the preferred entry
/// kept, and deleted together.
@Suite struct ContactStorageTests {
    let dir = TempDirectory()

    /// A contact with something in every list; no list is in alphabetical order, and the
    /// preferred entry is not always the first.
    static let rich: ContactDraft = {
        var draft = ContactDraft(name: "Ada Lovelace", nameParts: PersonName(given: "Ada", family: "Lovelace"))
        draft.nickname = "Enchantress of Numbers"
        draft.organization = "Analytical Engines"
        draft.department = "Research"
        draft.title = "Analyst"
        draft.role = "Author"
        draft.emails = [
            LabeledValue("ada@work.example", label: "work"), LabeledValue("ada@home.example", label: "home", preferred: true),
            LabeledValue("a@x.example"),
        ]
        draft.phones = [LabeledValue("+44 20 7946 0000", label: "cell", preferred: true), LabeledValue("555 0100", label: "Mobile 2")]
        draft.addresses = [
            PostalAddress(label: "home", street: "12 St James's Square", locality: "London", postalCode: "SW1Y 4JH", country: "UK"),
            PostalAddress(label: "work", poBox: "PO Box 7", locality: "Ockham", preferred: true),
        ]
        draft.urls = [LabeledValue("https://example.com/ada", label: "work")]
        draft.handles = [LabeledValue("@ada@example.social", label: "mastodon"), LabeledValue("ada.l", label: "skype", preferred: true)]
        draft.dates = [ContactDate(label: "birthday", year: 1815, month: 12, day: 10), ContactDate(label: "anniversary", month: 7, day: 8)]
        draft.note = "First line\nSecond line"
        draft.categories = ["mathematicians", "friends"]
        draft.photo = pngBytes
        draft.extras = ["X-ABLabel:Work", "GEO:geo:51.5,-0.13"]
        draft.expertise = [LabeledValue("mathematics", label: "expert", preferred: true), LabeledValue("poetry")]
        draft.hobbies = [LabeledValue("horse riding", label: "high")]
        draft.interests = [LabeledValue("flying machines", label: "medium"), LabeledValue("music", label: "Bach")]
        // Any list of labelled values added since, by its entry alone.
        for spec in ContactFields.all {
            if let keyPath = spec.labeledValues, draft[keyPath: keyPath].isEmpty { draft[keyPath: keyPath] = [LabeledValue("one", label: "work")] }
        }
        return draft
    }()

    /// Every child table of a person's lists, by name: a new list must be added to
    /// ``ContactChildTable/all``. (`group_members` holds a group card's members: see GroupStorageTests.)
    static let childTables = ContactChildTable.all.filter { $0.field != .member }.map(\.name)

    /// The SQL statements the writer connection runs, as SQLite reports them (`sqlite3_trace_v2`).
    final class StatementLog: Sendable {
        private let statements = Mutex<[String]>([])
        func append(_ sql: String) { statements.withLock { $0.append(sql) } }
        /// The statements run since the last take: Carnet's own, not those FTS5 runs inside them
        /// (SQLite traces those with a leading `-- `).
        func take() -> [String] { statements.withLock { all in defer { all = [] }; return all.filter { !$0.hasPrefix("-- ") } } }

        /// Traces every statement of `storage`'s writer from now on.
        init(_ storage: StorageController) throws {
            storage.writer.writeWithoutTransaction { db in
                db.trace(options: .statement) { [self] event in
                    if case let .statement(statement) = event { self.append(statement.sql) }
                }
            }
        }
    }

    /// The tables the statements write, in the order first written.
    static let searchTables = ["contact_search"]

    static func written(_ statements: [String]) -> [String] {
        var tables: [String] = []
        for sql in statements {
            let words = sql.split(whereSeparator: \.isWhitespace)
            guard let verb = words.first?.uppercased() else { continue }
            let table: Substring?
            switch verb {
            case "INSERT", "DELETE": table = words.count > 2 ? words[2] : nil  // INSERT INTO t, DELETE FROM t
            case "UPDATE": table = words.count > 1 ? words[1] : nil
            default: table = nil
            }
            // The history's own rows go with every write (HistoryTests checks them).
            if let table, !table.hasPrefix("history"), !tables.contains(String(table)) { tables.append(String(table)) }
        }
        return tables
    }

    @Test func theRichDraftIsAsASaveStoresIt() {
        #expect(Self.rich.normalized() == Self.rich)
        #expect(Self.rich.issues().isEmpty)
        // Every list of the model has a table, and every table is filled by the rich draft.
        #expect(Set(ContactFields.lists.map(\.spec.field) + [.member]) == Set(ContactChildTable.all.map(\.field)))
        #expect(ContactChildTable.all.filter { $0.field != .member }.allSatisfy { !$0.isEmpty(Self.rich) })
    }

    @Test func aSaveWritesTheContactAndEveryListInOneTransactionWithOneNewVersion() throws {
        let storage = try StorageController(path: dir.database)
        let log = try StatementLog(storage)

        let ada = try storage.insertContact(Self.rich)
        var statements = log.take()
        #expect(statements.filter { $0.hasPrefix("BEGIN") }.count == 1)
        #expect(statements.filter { $0 == "COMMIT" }.count == 1)
        #expect(statements.first?.hasPrefix("BEGIN") == true && statements.last == "COMMIT", "\(statements)")
        #expect(Set(Self.written(statements)) == Set(["contacts"] + Self.childTables + Self.searchTables))
        #expect(ada.version == 1 && ada.draft == Self.rich)

        // An edit of the row and of every list: one transaction again, and the version grows by one.
        var draft = Self.rich
        draft.setNameParts(PersonName(given: "Augusta Ada", family: "King"))
        draft.emails.moveEntry(from: 2, to: 0)
        draft.emails.makePreferred(at: 0)
        draft.phones.remove(at: 0)
        draft.addresses.append(PostalAddress(label: "other", country: "Italy"))
        draft.urls = []
        draft.handles.reverse()
        draft.dates[1].year = 1835
        draft.categories = ["friends"]
        draft.extras.append("X-SPOUSE:William King")
        draft.expertise.reverse()
        draft.hobbies = []
        draft.interests.append(LabeledValue("looms"))
        let saved = try storage.updateContact(ada, with: draft)
        statements = log.take()
        #expect(statements.filter { $0.hasPrefix("BEGIN") }.count == 1 && statements.filter { $0 == "COMMIT" }.count == 1, "\(statements)")
        #expect(Set(Self.written(statements)) == Set(["contacts"] + Self.childTables + Self.searchTables))
        #expect(saved.version == 2 && saved.name == "Augusta Ada King")
        #expect(try storage.contact(id: ada.id) == saved)
        #expect(try storage.read { db in try Int.fetchOne(db, sql: "SELECT version FROM contacts WHERE id = ?", arguments: [ada.id]) } == 2)

        // Only the lists that changed are rewritten; the others are not touched.
        var onlyEmails = saved.draft
        onlyEmails.emails.append(LabeledValue("king@example.com"))
        let third = try storage.updateContact(saved, with: onlyEmails)
        statements = log.take()
        // The search index is written once, after the rows (Carnet's connection runs without triggers).
        #expect(Self.written(statements) == ["contacts", "contact_emails", "contact_search"], "\(statements)")
        #expect(third.version == 3)
        var onlyName = third.draft
        onlyName.nickname = "Ada"
        let fourth = try storage.updateContact(third, with: onlyName)
        #expect(Self.written(log.take()) == ["contacts", "contact_search"])
        // A change no search looks at (a date) leaves the index alone.
        var onlyDate = fourth.draft
        onlyDate.dates[0].day = 11
        _ = try storage.updateContact(fourth, with: onlyDate)
        #expect(Self.written(log.take()) == ["contacts", "contact_dates"])
        // Saving what is stored writes nothing at all.
        let current = try storage.contact(id: ada.id)
        #expect(try storage.updateContact(current, with: current.draft) == current)
        #expect(Self.written(log.take()).isEmpty)
    }

    @Test func listsKeepTheirOrderAndPreferredFlagOnEveryRead() throws {
        let storage = try StorageController(path: dir.database)
        _ = try storage.insertContact(ContactDraft(name: "Before Her"))
        let ada = try storage.insertContact(Self.rich)
        _ = try storage.insertContact(ContactDraft(name: "Zed After", email: "zed@example.com"))
        try storage.addFavorite(contactID: ada.id)

        // By id, by uid, on a page, on a search page, all at once, and as a favorite: the same contact.
        #expect(try storage.contact(id: ada.id) == ada)
        #expect(try storage.contact(uid: ada.uid) == ada)
        #expect(try storage.contacts(limit: 10).contacts.first { $0.id == ada.id } == ada)
        #expect(try storage.contacts(limit: 10, matching: "Ockham").contacts == [ada])
        #expect(try storage.allContacts().first { $0.id == ada.id } == ada)
        #expect(try storage.favorites().map(\.contact) == [ada])

        // The table holds the person's order as positions 1, 2, 3 and one preferred row.
        let emails = try storage.read { db in
            try Row.fetchAll(db, sql: "SELECT position, label, value, preferred FROM contact_emails WHERE contact_id = ? ORDER BY position", arguments: [ada.id])
                .map { "\($0["position"] as Int) \($0["label"] as String) \($0["value"] as String) \($0["preferred"] as Int)" }
        }
        #expect(emails == ["1 work ada@work.example 0", "2 home ada@home.example 1", "3  a@x.example 0"])
        let dates = try storage.read { db in
            try String.fetchAll(db, sql: "SELECT label || ' ' || date FROM contact_dates WHERE contact_id = ? ORDER BY position", arguments: [ada.id])
        }
        #expect(dates == ["birthday 1815-12-10", "anniversary --07-08"])

        // Reordered and re-preferred, then read back (positions stay 1…n, one preferred).
        var draft = ada.draft
        draft.emails.moveEntry(from: 0, to: 2)
        draft.emails.makePreferred(at: 2)
        draft.phones.makePreferred(at: 1)
        draft.addresses.moveEntry(from: 1, to: 0)
        draft.categories.reverse()
        let saved = try storage.updateContact(ada, with: draft)
        let read = try storage.contact(id: ada.id)
        #expect(read == saved)
        #expect(read.emails.map(\.value) == ["ada@home.example", "a@x.example", "ada@work.example"])
        #expect(read.emails.map(\.preferred) == [false, false, true] && read.email == "ada@work.example")
        #expect(read.phones.map(\.preferred) == [false, true] && read.phone == "555 0100")
        #expect(read.addresses.first?.locality == "Ockham" && read.addresses.first?.preferred == true)
        #expect(read.categories == ["friends", "mathematicians"])
        let positions = try storage.read { db in
            try Int.fetchAll(db, sql: "SELECT position FROM contact_emails WHERE contact_id = ? ORDER BY position", arguments: [ada.id])
        }
        #expect(positions == [1, 2, 3])
    }

    /// A page reads its contacts' lists by their ids; loading everything reads each child table
    /// once; both give each contact its own lists, whatever the order of ids and names.
    @Test func manyContactsEachGetTheirOwnLists() throws {
        let storage = try StorageController(path: dir.database)
        let count = 2_300  // past the size where a read scans whole child tables
        var drafts: [ContactDraft] = []
        for i in 0..<count {
            var draft = ContactDraft(name: String(format: "Person %04d", (i * 7919) % count))
            for k in 0..<(i % 3) { draft.emails.append(LabeledValue("p\(i).\(k)@example.com", preferred: k == 1)) }
            if i % 2 == 0 { draft.phones = [LabeledValue("555 \(i)", label: "cell")] }
            if i % 5 == 0 { draft.dates = [ContactDate(label: "birthday", month: 1 + i % 12, day: 1 + i % 28)] }
            if i % 4 == 0 { draft.categories = ["group \(i % 3)"] }
            if i % 6 == 0 { draft.addresses = [PostalAddress(locality: "Town \(i)")] }
            drafts.append(draft.normalized())
        }
        try storage.insertContacts(drafts)
        let byName = Dictionary(uniqueKeysWithValues: drafts.map { ($0.name, $0) })
        let all = try storage.allContacts()
        #expect(all.count == count)
        #expect(all.filter { $0.draft != byName[$0.name] }.isEmpty)
        var walked: [Contact] = []
        var key: ContactSortKey?
        while true {
            let page = try storage.contacts(after: key, limit: 97)
            walked += page.contacts
            guard page.hasMore, let last = page.contacts.last else { break }
            key = last.sortKey
        }
        #expect(walked == all)
    }

    @Test func deletingAContactDeletesItsRowsInEveryChildTable() throws {
        let storage = try StorageController(path: dir.database)
        // The tables that belong to a contact: every child table, favorites, and its link to the
        // sync server (schema 7), the UIDs of contacts merged into it and who it is not (schema 15). A new table with a contact_id must be added here (and to
        // ContactChildTable.all) to be checked.
        let owned = try storage.read { db in
            try Row.fetchAll(db, sql: """
                SELECT m.name AS name, f."table" AS parent, f.on_delete AS onDelete FROM sqlite_master m, pragma_foreign_key_list(m.name) f
                WHERE m.type = 'table' AND m.name <> 'history_changesets' AND f."table" = 'contacts' ORDER BY m.name
                """)
        }
        #expect(Set(owned.map { $0["name"] as String }) == Set(Self.childTables + ["group_members", "favorites", "sync_contacts", "contact_uid_aliases", "different_people"]))
        #expect(owned.allSatisfy { $0["parent"] == "contacts" && $0["onDelete"] == "CASCADE" })

        var other = Self.rich
        other.rename(to: "Grace Hopper")
        let ada = try storage.insertContact(Self.rich)
        let grace = try storage.insertContact(other)
        try storage.addFavorite(contactID: ada.id)
        try storage.addFavorite(contactID: grace.id)
        func rows(_ id: Int64) throws -> [String: Int] {
            try storage.read { db in
                var counts: [String: Int] = [:]
                for table in Self.childTables + ["favorites"] {
                    counts[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE contact_id = ?", arguments: [id])
                }
                return counts
            }
        }
        let graceBefore = try rows(grace.id)
        #expect(try rows(ada.id).values.allSatisfy { $0 > 0 })

        try storage.deleteContact(ada)
        #expect(try rows(ada.id).values.allSatisfy { $0 == 0 })
        #expect(try rows(grace.id) == graceBefore)
        #expect(try storage.contact(id: grace.id) == grace)

        // The same from sqlite3 (foreign keys on, as every Carnet connection has them).
        let queue = try DatabaseQueue(path: dir.database)
        try queue.write { db in try db.execute(sql: "DELETE FROM contacts WHERE id = ?", arguments: [grace.id]) }
        try queue.close()
        #expect(try rows(grace.id).values.allSatisfy { $0 == 0 })
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// sqlite3 runs with foreign keys off unless told: a contact deleted that way leaves its child
    /// rows behind. `db check` names the missing contact once per table (child rows have no
    /// rowid to name) and how to remove them.
    @Test func rowsLeftByADeleteWithForeignKeysOffAreNamedByTheirContact() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(Self.rich)
        let grace = try storage.insertContact(ContactDraft(name: "Grace Hopper", email: "grace@navy.example"))
        try storage.addFavorite(contactID: ada.id)
        var config = Configuration()
        config.foreignKeysEnabled = false
        let queue = try DatabaseQueue(path: dir.database, configuration: config)
        try queue.write { db in try db.execute(sql: "DELETE FROM contacts WHERE id = ?", arguments: [ada.id]) }
        let problems = try storage.integrityCheck()
        let favoriteRow = try queue.read { db in try Int64.fetchOne(db, sql: "SELECT rowid FROM favorites WHERE contact_id = ?", arguments: [ada.id]) }
        #expect(problems.contains("foreign key broken in favorites row \(favoriteRow ?? -1)"), "\(problems)")
        for table in Self.childTables {
            let line = "\(table) has rows of contact \(ada.id), which does not exist (deleted with foreign keys off); "
                + "remove them with: DELETE FROM \(table) WHERE contact_id NOT IN (SELECT id FROM contacts)"
            #expect(problems.filter { $0 == line }.count == 1, "\(problems)")
        }
        #expect(problems.count == Self.childTables.count + 1, "\(problems)")
        // What the message says to run repairs it.
        try queue.write { db in
            for table in Self.childTables + ["favorites"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE contact_id NOT IN (SELECT id FROM contacts)")
            }
        }
        try queue.close()
        #expect(try storage.integrityCheck() == ["ok"])
        #expect(try storage.contact(id: grace.id) == grace)
    }

    /// A save that fails part-way (here a child table refuses a row) leaves the contact and all
    /// its lists as they were: nothing of it is written.
    @Test func aSaveThatFailsInAChildTableWritesNothing() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(Self.rich)
        let before = try storage.read { db in try Self.everyRow(db) }
        try storage.writer.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TEMP TRIGGER refuse_phones BEFORE INSERT ON contact_phones BEGIN SELECT RAISE(ABORT, 'phones refused'); END")
        }
        var draft = ada.draft
        draft.rename(to: "Ada King")
        draft.emails = [LabeledValue("king@example.com")]
        draft.phones = [LabeledValue("555 0199")]
        #expect(carnetError { try storage.updateContact(ada, with: draft) } == .database("phones refused"))
        #expect(carnetError { try storage.insertContact(Self.rich) } == .database("phones refused"))
        #expect(carnetError { try storage.insertContacts([ContactDraft(name: "One"), Self.rich]) } == .database("phones refused"))
        #expect(try storage.read { db in try Self.everyRow(db) } == before)
        #expect(try storage.contact(id: ada.id) == ada)

        // A category given twice (see SchemaRulesTests.rulesAcrossRowsAgree) is one category: the
        // save never reaches the UNIQUE constraint.
        var twice = ada.draft
        twice.note = "Changed"
        twice.categories = ["friends", "Friends"]
        #expect(try storage.updateContact(ada, with: twice).categories == ["friends"])
    }

    /// Every row of contacts and the child tables, as text.
    static func everyRow(_ db: Database) throws -> [String] {
        try (["contacts"] + childTables).flatMap { table in
            try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { "\(table): \($0)" }
        }
    }

    /// A listing's summaries (`carnet list` reads no other child table) are the
    /// summaries of the whole contacts, page by page, in every order, with search and category.
    @Test func summariesAreWhatWholeContactsSummarizeTo() throws {
        let storage = try StorageController(path: dir.database)
        var drafts: [ContactDraft] = []
        for i in 0..<700 {
            var draft = ContactDraft(name: "Person \((i * 389) % 700)", nameParts: PersonName(given: "G\(i % 37)", family: "F\(i % 53)"))
            draft.title = i % 3 == 0 ? "Title \(i)" : ""
            draft.organization = i % 4 == 0 ? "Org \(i % 5)" : ""
            // No email, one, or three with the preferred one last; phones preferred or not.
            for k in 0..<(i % 2 == 0 ? 0 : i % 4) { draft.emails.append(LabeledValue("p\(i).\(k)@example.com", preferred: k == 2)) }
            for k in 0..<(i % 3) { draft.phones.append(LabeledValue("555 \(i) \(k)", label: "cell")) }
            if i % 7 == 0 { draft.categories = ["Friends"] }
            drafts.append(draft)
        }
        try storage.insertContacts(drafts)
        for query in [
            ContactQuery(), ContactQuery(order: .given), ContactQuery(order: .family), ContactQuery(search: "example"),
            ContactQuery(search: "org 3", order: .family), ContactQuery(category: "friends", order: .given),
        ] {
            var whole: [ContactSummary] = []
            try storage.forEachContact(query: query, pageSize: 61) { whole.append(ContactSummary($0)) }
            var summaries: [ContactSummary] = []
            try storage.forEachSummary(query: query, pageSize: 61) { summaries.append($0) }
            #expect(!summaries.isEmpty, "\(query)")
            #expect(summaries == whole, "\(query)")
            var limited: [ContactSummary] = []
            try storage.forEachSummary(query: query, limit: 100, pageSize: 7) { limited.append($0) }
            #expect(limited == Array(whole.prefix(100)), "\(query)")
        }
        let threeEmails = try #require(storage.allContacts().first { $0.emails.count == 3 })
        var summary: ContactSummary?
        try storage.forEachSummary(query: ContactQuery(search: threeEmails.emails[0].value)) { summary = $0 }
        #expect(summary?.email == threeEmails.emails[2].value)  // the preferred one, not the first
    }

    @Test func searchLooksInTheListsToo() throws {
        let storage = try StorageController.inMemory()
        let ada = try storage.insertContact(Self.rich)
        try storage.insertContact(ContactDraft(name: "Grace Hopper", email: "grace@navy.example"))
        // A value that is not the preferred one, an address part, a handle, a category, the note.
        for text in ["a@x.example", "OCKHAM", "sw1y", "example.social", "Mathematicians", "second line", "Enchantress"] {
            #expect(try storage.contacts(limit: 10, matching: text).contacts.map(\.id) == [ada.id], "\(text)")
            #expect(ada.matches(search: text), "\(text)")
        }
        #expect(try storage.contactCount(matching: "example") == 2)
        // Dates and unmodelled properties are not searched.
        #expect(try storage.contacts(limit: 10, matching: "1815").contacts.isEmpty && !ada.matches(search: "1815"))
        #expect(try storage.contacts(limit: 10, matching: "X-ABLabel").contacts.isEmpty && !ada.matches(search: "X-ABLabel"))
    }

    @Test func anEditOfAListElsewhereIsAConflictNamingTheList() throws {
        let mine = try StorageController(path: dir.database)
        let theirs = try StorageController(path: dir.database)
        let ada = try mine.insertContact(Self.rich)
        var their = ada.draft
        their.phones.append(LabeledValue("555 0123", label: "work"))
        their.categories.append("engineers")
        let saved = try theirs.updateContact(ada, with: their)
        var my = ada.draft
        my.emails.removeAll()
        guard case let .conflict(.contact(conflict)) = carnetError({ try mine.updateContact(ada, with: my) }) else {
            Issue.record("expected a conflict")
            return
        }
        #expect(conflict.changedFields == [.phone, .category])
        #expect(try mine.contact(id: ada.id) == saved)
        let forced = try mine.updateContact(ada, with: my, force: true)
        #expect(forced.version == 3 && forced.emails.isEmpty && forced.phones == ada.phones)
        #expect(try theirs.contact(id: ada.id) == forced)
    }
}
