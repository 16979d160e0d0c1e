import CarnetModels
import Foundation
import GRDB
import SeededRandom
import Testing
@testable import CarnetStorage

/// Search the way people type, through the FTS5 index of schema 6.
@Suite struct SearchTests {
    let dir = TempDirectory()

    func names(_ storage: StorageController, _ search: String, order: ContactOrder = .name) throws -> [String] {
        try storage.contacts(after: nil, limit: 100, query: ContactQuery(search: search, order: order)).contacts.map(\.name)
    }

    /// Every search must also be decided the same way without the database (a favorite, a
    /// contact a screen just saved): the Swift matcher agrees with the index on each contact.
    func expectSwiftAgrees(_ storage: StorageController, _ searches: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let all = try storage.allContacts()
        for search in searches {
            let found = Set(try names(storage, search))
            let swift = Set(all.filter { $0.matches(search: search) }.map(\.name))
            #expect(found == swift, "\(search)", sourceLocation: sourceLocation)
        }
    }

    @Test func accentsAndCaseFoldForAllOfUnicode() throws {
        let storage = try StorageController.inMemory()
        try storage.insertContact(ContactDraft(name: "Élodie Martin"))
        try storage.insertContact(ContactDraft(name: "Zoë Ångström"))
        try storage.insertContact(ContactDraft(name: "Grace Hopper"))
        let searches = ["elodie", "Elodie", "ÉLODIE", "E\u{301}lodie", "élodie", "angstrom", "ÅNGSTRÖM", "zoe", "ZOË"]
        for search in searches.prefix(5) { #expect(try names(storage, search) == ["Élodie Martin"], "\(search)") }
        for search in searches.suffix(4) { #expect(try names(storage, search) == ["Zoë Ångström"], "\(search)") }
        // Stored decomposed (NFD), found all the same.
        try storage.insertContact(ContactDraft(name: "Andre\u{301} Gide"))
        #expect(try names(storage, "andré") == ["André Gide"] || names(storage, "andré") == ["Andre\u{301} Gide"])
        #expect(try names(storage, "ANDRE").count == 1)
        try expectSwiftAgrees(storage, searches + ["andré", "gide andre"])
    }

    @Test func sharpSIsSS() throws {
        let storage = try StorageController.inMemory()
        var draft = ContactDraft(name: "Hans Weiß")
        draft.addresses = [PostalAddress(street: "Straße des 17. Juni 5", locality: "Berlin", postalCode: "10115", country: "Germany")]
        draft.organization = "Hauptstraße GmbH"
        try storage.insertContact(draft)
        for search in ["strasse", "hauptstrasse", "STRASSE", "straße", "weiss", "Weiß", "hauptstraße"] {
            #expect(try names(storage, search) == ["Hans Weiß"], "\(search)")
        }
        try expectSwiftAgrees(storage, ["strasse", "weiß", "weis", "hauptstraße 5"])
    }

    @Test func everyWordMatchesSomewhereInAnyOrderAsAPrefix() throws {
        let storage = try StorageController.inMemory()
        try storage.insertContact(ContactDraft(name: "Élodie Martin", email: "elodie@example.fr"))
        var ada = ContactDraft(name: "Ada Lovelace", email: "ada@analytical.example")
        ada.organization = "Analytical Engines"
        ada.note = "Wrote the first program."
        try storage.insertContact(ada)
        try storage.insertContact(ContactDraft(name: "Martin Luther King"))
        #expect(try names(storage, "Martin Élodie") == ["Élodie Martin"])
        #expect(try names(storage, "martin") == ["Martin Luther King", "Élodie Martin"])
        #expect(try names(storage, "ada lov") == ["Ada Lovelace"])
        #expect(try names(storage, "lov ada") == ["Ada Lovelace"])
        #expect(try names(storage, "ada engines program") == ["Ada Lovelace"])
        #expect(try names(storage, "ada martin").isEmpty)
        // A word is matched from its start, not inside it.
        #expect(try names(storage, "velace").isEmpty)
        // An email as typed, in part or whole.
        #expect(try names(storage, "ada@analyt") == ["Ada Lovelace"])
        #expect(try names(storage, "ada@analytical.example") == ["Ada Lovelace"])
        try expectSwiftAgrees(storage, ["Martin Élodie", "martin", "ada lov", "ada martin", "velace", "ada@analyt", "analytical ada@"])
    }

    @Test func everyTextAContactHoldsIsSearched() throws {
        let storage = try StorageController.inMemory()
        try storage.insertContact(ContactDraft(
            name: "Augusta King", nickname: "Enchantress", organization: "Royal Society", department: "Mathematics",
            title: "Countess", role: "Patron", emails: [LabeledValue("augusta@kings.example", label: "home")],
            phones: [LabeledValue("+44 20 7946 0000", label: "cell")],
            addresses: [PostalAddress(label: "home", street: "12 St James Square", locality: "London", country: "England")],
            urls: [LabeledValue("https://numbers.example/ada", label: "work")],
            handles: [LabeledValue("@countess@math.social", label: "mastodon")],
            dates: [ContactDate(label: "birthday", year: 1815, month: 12, day: 10)], note: "Notes on the\nAnalytical Engine",
            categories: ["pioneers"], extras: ["X-ABLabel:Secretive"]))
        try storage.insertContact(ContactDraft(name: "Somebody Else"))
        for search in ["augusta", "king", "enchant", "royal", "mathem", "countess", "patron", "kings.example", "7946",
                       "james square", "london", "england", "numbers.example", "math.social", "analytical engine", "pioneers"] {
            #expect(try names(storage, search) == ["Augusta King"], "\(search)")
        }
        // Dates and the vCard lines kept verbatim are not searched (as before).
        #expect(try names(storage, "1815").isEmpty)
        #expect(try names(storage, "secretive").isEmpty)
    }

    @Test func phoneNumbersAreComparedByTheirDigits() throws {
        let storage = try StorageController.inMemory()
        for (name, phone) in [("Plus", "+1 555 123 4567"), ("Dashes", "555-123-4567"), ("Digits", "5551234567"),
                              ("Brackets", "(555) 123.4567"), ("Other", "+1 555 765 4321")] {
            try storage.insertContact(ContactDraft(name: name, phone: phone))
        }
        let same = ["Brackets", "Dashes", "Digits", "Plus"]
        // With its country code and without the +, too: ten digits or more are read as a number
        // with a country code (the index holds a phone's national number, not its digits with the code).
        for search in ["5551234567", "555-123-4567", "+1 555 123 4567", "(555) 123-4567", "+15551234567", "555 123 4567",
                       "15551234567", "1 555 123 4567", "1-555-1234567"] {
            #expect(try names(storage, search) == same, "\(search)")
        }
        #expect(try names(storage, "555 765") == ["Other"])
        #expect(try names(storage, "+1 555").count == 5)
        try expectSwiftAgrees(storage, ["5551234567", "555-123-4567", "+1 555 123 4567", "555 765", "+1 555", "4567", "15551234567", "1555", "155512"])
    }

    @Test func aNationalNumberMatchesItsInternationalForm() throws {
        let storage = try StorageController.inMemory()
        try storage.insertContact(ContactDraft(name: "London National", phone: "020 7946 0000"))
        try storage.insertContact(ContactDraft(name: "London International", phone: "+44 20 7946 0000"))
        try storage.insertContact(ContactDraft(name: "Paris", phone: "+33 1 23 45 67 89"))
        try storage.insertContact(ContactDraft(name: "Paris National", phone: "01 23 45 67 89"))
        let london = ["London International", "London National"]
        #expect(try names(storage, "+44 20 7946 0000") == london)
        #expect(try names(storage, "+442079460000") == london)
        #expect(try names(storage, "442079460000") == london)
        #expect(try names(storage, "44 20 7946 0000") == london)
        #expect(try names(storage, "020 7946 0000") == london)
        #expect(try names(storage, "02079460000") == london)
        #expect(try names(storage, "+33 1 23 45 67 89") == ["Paris", "Paris National"])
        #expect(try names(storage, "0123456789") == ["Paris", "Paris National"])
        // A number typed without its leading 0 finds it (schema 10: the index holds the national
        // number once, with its 0, and the query looks for a number with and without one).
        #expect(try names(storage, "2079460000") == london)
        #expect(try names(storage, "20 7946") == london)
        #expect(try names(storage, "123456789") == ["Paris", "Paris National"])
        try expectSwiftAgrees(storage, ["+44 20 7946 0000", "020 7946 0000", "+33 1 23 45 67 89", "0123456789", "2079460000", "20 7946", "123456789", "7946", "0"])
    }

    @Test func ftsSyntaxInAQueryIsText() throws {
        let storage = try StorageController.inMemory()
        var ada = ContactDraft(name: "Ada Lovelace")
        ada.note = "Born in London, or so they say: not Paris."
        try storage.insertContact(ada)
        try storage.insertContact(ContactDraft(name: "Oregon Trail"))
        #expect(try names(storage, "\"ada\"") == ["Ada Lovelace"])
        #expect(try names(storage, "ada*") == ["Ada Lovelace"])
        #expect(try names(storage, "-ada") == ["Ada Lovelace"])
        #expect(try names(storage, "names:ada").isEmpty)  // two words, "names" nowhere
        #expect(try names(storage, "london, or so") == ["Ada Lovelace"])
        #expect(try names(storage, "OR") == ["Ada Lovelace", "Oregon Trail"])  // a word, not an operator
        #expect(try names(storage, "ada OR oregon").isEmpty)
        #expect(try names(storage, "NOT paris") == ["Ada Lovelace"])
        #expect(try names(storage, "ada AND").isEmpty)  // "and" is a word too, and starts none of Ada's
        for hostile in ["\"", "\"\"\"", "*", ":", "-", "(", ")", "ada\" OR \"x", "NEAR(ada lovelace)", "{names}: ada", "^ada", "ada +", "'"] {
            do {
                _ = try names(storage, hostile)
            } catch CarnetError.invalidSearch {
                // Nothing to look for: a usage error, not a database error.
            } catch {
                Issue.record("\(hostile): \(error)")
            }
        }
        try expectSwiftAgrees(storage, ["\"ada\"", "ada*", "-ada", "names:ada", "OR", "ada OR oregon", "NOT paris", "ada\" OR \"x", "NEAR(ada lovelace)"])
    }

    @Test func anOverlongOrEmptyQueryIsAnInvalidSearch() throws {
        let storage = try StorageController.inMemory()
        try storage.insertContact(ContactDraft(name: "Ada Lovelace"))
        for text in [String(repeating: "a", count: Limits.searchLength + 1), String(repeating: "ada ", count: 12_500)] {
            guard case .invalidSearch = carnetError({ try names(storage, text) }) else {
                Issue.record("expected invalidSearch")
                continue
            }
        }
        for text in ["*", "\"\"", "-", "  :  "] {
            guard case let .invalidSearch(message) = carnetError({ try storage.contactCount(matching: text) }) else {
                Issue.record("expected invalidSearch for \(text)")
                continue
            }
            #expect(message.contains("letter or digit"))
        }
        // Empty (or blank) is no search at all: every contact.
        #expect(try names(storage, "") == ["Ada Lovelace"] && names(storage, "   ") == ["Ada Lovelace"])
        #expect(try names(storage, String(repeating: "a", count: Limits.searchLength)).isEmpty)
    }

    @Test func nameHitsComeBeforeOtherHitsByRelevance() throws {
        let storage = try StorageController.inMemory()
        var noted = ContactDraft(name: "Aaron Note")
        noted.note = "Ada's friend"
        try storage.insertContact(noted)
        var worked = ContactDraft(name: "Zed Worker")
        worked.organization = "Ada Systems"
        try storage.insertContact(worked)
        try storage.insertContact(ContactDraft(name: "Ada Lovelace"))
        try storage.insertContact(ContactDraft(name: "Adam Smith"))
        #expect(try names(storage, "ada") == ["Aaron Note", "Ada Lovelace", "Adam Smith", "Zed Worker"])
        #expect(try names(storage, "ada", order: .relevance) == ["Ada Lovelace", "Adam Smith", "Aaron Note", "Zed Worker"])
        // Every word in the name first; some word in the name next; the rest last.
        #expect(try names(storage, "ada friend", order: .relevance) == ["Aaron Note"])
        #expect(try names(storage, "ada lovelace", order: .relevance) == ["Ada Lovelace"])
        var both = ContactDraft(name: "Ada Byron")
        both.note = "systems"
        try storage.insertContact(both)
        #expect(try names(storage, "ada systems", order: .relevance) == ["Ada Byron", "Zed Worker"])
        let query = try SearchQuery("ada systems")
        #expect(query.rank(both) == 1 && query.rank(worked) == 2)
        // Without a search, relevance is the name order.
        #expect(try names(storage, "", order: .relevance) == names(storage, ""))
    }

    /// Keyset pages stay exact when the order is by rank: pages of every size, forward and back,
    /// give the whole list once, in order.
    @Test func relevancePagesWalkTheWholeListOnce() throws {
        let storage = try StorageController.inMemory()
        var drafts: [ContactDraft] = []
        for i in 0..<60 {
            var draft = ContactDraft(name: i % 3 == 0 ? "Ada \(i)" : "Person \(i % 7)")
            if i % 3 == 1 { draft.note = "knows ada" }
            if i % 3 == 2 { draft.organization = "Ada Co \(i)" }
            drafts.append(draft)
        }
        try storage.insertContacts(drafts)
        let query = ContactQuery(search: "ada", order: .relevance)
        let all = try storage.contacts(after: nil, limit: 1000, query: query).contacts
        #expect(all.count == 60)
        let ranks = all.map { query.sortKey(of: $0).rank }
        #expect(ranks == ranks.sorted() && Set(ranks) == [0, 2])
        #expect(all.map { query.sortKey(of: $0) } == all.map { query.sortKey(of: $0) }.sorted())
        for size in [1, 7, 20] {
            var walked: [Contact] = []
            var key: ContactSortKey?
            while true {
                let page = try storage.contacts(after: key, limit: size, query: query)
                walked += page.contacts
                guard page.hasMore, let last = page.contacts.last else { break }
                key = query.sortKey(of: last)
            }
            #expect(walked == all, "page size \(size)")
            var back: [Contact] = []
            var before = query.sortKey(of: all.last!)
            back = [all.last!]
            while true {
                let page = try storage.contacts(before: before, limit: size, query: query)
                back = page.contacts + back
                guard page.hasMore, let first = page.contacts.first else { break }
                before = query.sortKey(of: first)
            }
            #expect(back == all, "back, page size \(size)")
        }
        var seen: [Contact] = []
        try storage.forEachContact(query: query, pageSize: 8) { seen.append($0) }
        #expect(seen == all)
        #expect(try storage.contactCount(query: query) == 60)
    }

    // MARK: The index stays in step

    /// The index holds exactly what a rebuild from the view makes: every token of every contact at
    /// the same place (FTS5's own integrity-check does not compare an external-content index with
    /// its content in SQLite 3.40), one document per person (a group card has none).
    func indexIsSound(_ storage: StorageController, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let instances = "SELECT term, doc, col, \"offset\" FROM temp.search_vocabulary ORDER BY term, doc, col, \"offset\""
        let (held, rebuilt) = try storage.writer.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocabulary USING fts5vocab(main, contact_search, instance)")
            let held = try Row.fetchAll(db, sql: instances)
            try db.execute(sql: "SAVEPOINT look")
            try SearchIndex.rebuild(db)
            let rebuilt = try Row.fetchAll(db, sql: instances)
            try db.execute(sql: "ROLLBACK TO look; RELEASE look")
            return (held, rebuilt)
        }
        #expect(held == rebuilt, "the index differs from a rebuild", sourceLocation: sourceLocation)
        let count = try storage.contactCount()
        #expect(!held.isEmpty || count == 0, sourceLocation: sourceLocation)
        let (indexed, contacts) = try storage.writer.read { db in
            (try SearchIndex.documentCount(db), try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts WHERE kind = 'individual'") ?? -2)
        }
        #expect(indexed == contacts, sourceLocation: sourceLocation)
    }

    @Test func carnetsWritesKeepTheIndexInStep() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace", email: "ada@example.com"))
        try storage.insertContacts((0..<50).map { ContactDraft(name: "Person \($0)", phone: "555 01\($0 % 10)\($0 / 10)") })
        #expect(try names(storage, "ada") == ["Ada Lovelace"])
        let saved = try storage.updateContact(ada, with: ContactDraft(name: "Augusta King", email: "augusta@example.com"))
        #expect(try names(storage, "ada").isEmpty && names(storage, "augusta") == ["Augusta King"])
        try indexIsSound(storage)
        try storage.deleteContact(saved)
        #expect(try names(storage, "augusta").isEmpty)
        #expect(try storage.contactCount(matching: "person") == 50)
        try indexIsSound(storage)
        // An import adds and updates through the same path.
        var records = [InterchangeRecord(uid: "grace", draft: ContactDraft(name: "Grace Hopper"))]
        let report = try storage.importContacts(source: "test") { records.popLast() }
        #expect(try report.added == 1 && names(storage, "grace") == ["Grace Hopper"])
        records = [InterchangeRecord(uid: "grace", draft: ContactDraft(name: "Grace Brewster Hopper"))]
        _ = try storage.importContacts(source: "test") { records.popLast() }
        #expect(try names(storage, "brewster") == ["Grace Brewster Hopper"])
        try indexIsSound(storage)
    }

    /// Someone else's writes (sqlite3, another program): rows inserted, changed and deleted one by
    /// one, foreign keys cascading. Each marks the index out of date, and the next search finds
    /// what they wrote.
    @Test func writesOutsideCarnetAreIndexedBeforeTheNextSearch() throws {
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace", phone: "+44 20 7946 0000"))
        try storage.insertContact(ContactDraft(name: "Grace Hopper"))
        // A connection of its own, as sqlite3 opens one: triggers on, foreign keys on.
        var config = Configuration()
        config.foreignKeysEnabled = true
        let other = try DatabaseQueue(path: dir.database, configuration: config)
        defer { try? other.close() }
        try other.write { db in
            try db.execute(sql: "INSERT INTO contact_emails (contact_id, position, label, value) VALUES (?, 2, '', 'countess@example.org')", arguments: [ada.id])
            try db.execute(sql: "UPDATE contact_phones SET value = '+1 555 123 4567' WHERE contact_id = ?", arguments: [ada.id])
            try db.execute(sql: "UPDATE contacts SET nickname = 'Enchantress' WHERE id = ?", arguments: [ada.id])
            try db.execute(sql: "INSERT INTO contact_categories (contact_id, position, name) VALUES (?, 1, 'pioneers')", arguments: [ada.id])
        }
        #expect(try names(storage, "countess") == ["Ada Lovelace"])
        #expect(try names(storage, "5551234567") == ["Ada Lovelace"] && names(storage, "02079460000").isEmpty)
        #expect(try names(storage, "enchantress pioneers") == ["Ada Lovelace"])
        try indexIsSound(storage)
        try other.write { db in
            try db.execute(sql: "DELETE FROM contact_categories WHERE contact_id = ?", arguments: [ada.id])
            try db.execute(sql: "INSERT INTO contacts (uid, name, created_at, updated_at) VALUES ('x', 'Zoë Ångström', '2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.678Z')")
        }
        #expect(try names(storage, "pioneers").isEmpty && names(storage, "angstrom") == ["Zoë Ångström"])
        try indexIsSound(storage)
        // A delete cascades to the child rows; their triggers find no contact left to index.
        try other.write { db in try db.execute(sql: "DELETE FROM contacts WHERE id = ?", arguments: [ada.id]) }
        #expect(try names(storage, "countess").isEmpty && names(storage, "ada").isEmpty)
        try indexIsSound(storage)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// `db check` says when the index is out of step (here: a row written by a connection with
    /// triggers off, as Carnet's own are), and how to rebuild it.
    @Test func dbCheckFindsAnIndexOutOfStep() throws {
        let storage = try StorageController(path: dir.database)
        try storage.insertContact(ContactDraft(name: "Ada Lovelace"))
        try storage.writer.write { db in
            try db.execute(sql: "INSERT INTO contacts (uid, name, created_at, updated_at) VALUES ('x', 'Grace Hopper', '2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.678Z')")
        }
        let problems = try storage.integrityCheck()
        #expect(problems.contains("the search index holds 1 contacts of 2; rebuild it with: carnet db reindex"), "\(problems)")
        #expect(try names(storage, "grace").isEmpty)
        #expect(try storage.reindexSearch() == 2)
        #expect(try storage.integrityCheck() == ["ok"])
        #expect(try names(storage, "grace") == ["Grace Hopper"])
    }

    /// A file from before schema 6 (here at 4; 5 is the history, and 6 must not depend on it)
    /// gets its index built by the migration, and finds what it held.
    @Test func aSchema4FileIsIndexedByTheMigration() throws {
        let path = dir.path("four.sqlite")
        let four = Migration.embedded.filter { $0.version <= 4 }
        let old = try StorageController(path: path, options: StorageOptions(), migrations: four)
        try old.writer.write { db in
            let stamp = "2026-01-02T03:04:05.678Z"
            for (i, name) in (["Élodie Martin"] + (0..<100).map { "Person \($0)" }).enumerated() {
                try db.execute(sql: "INSERT INTO contacts (id, uid, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                               arguments: [i + 1, "uid-\(i)", name, stamp, stamp])
            }
            try db.execute(sql: "INSERT INTO contact_phones (contact_id, position, value) VALUES (1, 1, '+1 555 123 4567')")
        }
        try old.close()
        let storage = try StorageController(path: path)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        #expect(try names(storage, "elodie") == ["Élodie Martin"] && names(storage, "5551234567") == ["Élodie Martin"])
        #expect(try storage.contactCount(matching: "person") == 100)
        try indexIsSound(storage)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// A file at `schema`, as the release that made it left it, opened as sqlite3 opens it
    /// (triggers on, foreign keys on).
    func previousRelease(schema: Int, at path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> DatabaseQueue {
        let migrations = Migration.embedded.filter { $0.version <= schema }
        #expect(migrations.last?.version == schema, sourceLocation: sourceLocation)
        try StorageController(path: path, options: StorageOptions(), migrations: migrations).close()
        var config = Configuration()
        config.foreignKeysEnabled = true
        return try DatabaseQueue(path: path, configuration: config)
    }

    /// The names of the contacts `search` finds in whatever index the file has, by name.
    func matching(_ db: Database, _ search: String) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT name FROM contacts WHERE id IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ?) ORDER BY name
            """, arguments: [SearchIndex.matchExpression(try SearchQuery(search))])
    }

    /// A file made by the previous release (schema 7: 0006's index in eight columns, kept by its
    /// triggers here, as sqlite3 would write) gets the two-column index of migration 8, rebuilt
    /// from its contacts: every search finds what it found, ranked as before, and the index
    /// keeps no per-document sizes and a 4 MiB pending buffer.
    @Test func aSchema7FileIsReindexedInTwoColumnsByMigration8() throws {
        let path = dir.path("seven.sqlite")
        let previous = try previousRelease(schema: 7, at: path)
        let searches = ["elodie", "martin élodie", "5551234567", "+1 555 123 4567", "gale", "strasse", "ada@analyt", "program ada", "ada"]
        var before: [String: [String]] = [:]
        try previous.write { db in
            let stamp = "2026-01-02T03:04:05.678Z"
            let rows: [(String, String, String)] = [("Élodie Martin", "Gale Foods", ""), ("Ada Lovelace", "", "Wrote the first program"),
                                                    ("Zed Adams", "Ada Systems", ""), ("Hans Weiß", "Hauptstraße GmbH", "")]
            for (i, (name, organization, note)) in rows.enumerated() {
                try db.execute(sql: "INSERT INTO contacts (id, uid, name, organization, note, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               arguments: [i + 1, "uid-\(i)", name, organization, note, stamp, stamp])
            }
            try db.execute(sql: "INSERT INTO contact_phones (contact_id, position, value) VALUES (1, 1, '+1 555 123 4567')")
            try db.execute(sql: "INSERT INTO contact_emails (contact_id, position, value) VALUES (2, 1, 'ada@analytical.example')")
            #expect(try db.columns(in: "contact_search").count == 8)
            for search in searches { before[search] = try matching(db, search) }
        }
        try previous.close()
        #expect(before["elodie"] == ["Élodie Martin"] && before["ada"] == ["Ada Lovelace", "Zed Adams"])

        let storage = try StorageController(path: path)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        for search in searches {
            #expect(try names(storage, search) == before[search], "\(search)")
        }
        #expect(try names(storage, "ada", order: .relevance) == ["Ada Lovelace", "Zed Adams"])
        try indexIsSound(storage)
        #expect(try storage.integrityCheck() == ["ok"])
        let (columns, docsize, hashsize) = try storage.writer.read { db in
            (try db.columns(in: "contact_search").map(\.name), try db.tableExists("contact_search_docsize"),
             try Int.fetchOne(db, sql: "SELECT v FROM contact_search_config WHERE k = 'hashsize'"))
        }
        #expect(columns == ["other", "names"] && !docsize && hashsize == 4 * 1024 * 1024)
        // Carnet's own writes index in the new columns too.
        try storage.insertContact(ContactDraft(name: "Grace Hopper", email: "grace@navy.example"))
        #expect(try names(storage, "navy grace") == ["Grace Hopper"])
        try indexIsSound(storage)
    }

    /// A file made by the previous release (schema 9: 0008's view, which gives a phone with a
    /// country code by its digits and its national number twice, with and without its 0, its
    /// index kept by the triggers as sqlite3 would) gets migration 10's view and an index rebuilt
    /// from it: the national number once, with its 0, and every search finds what it found.
    @Test func aSchema9FileIsReindexedWithTheNationalNumberOnceByMigration10() throws {
        let path = dir.path("nine.sqlite")
        let previous = try previousRelease(schema: 9, at: path)
        let searches = ["+44 20 7946 0000", "020 7946 0000", "02079460000", "+442079460000", "442079460000", "5551234567",
                        "555-123-4567", "+1 555 123 4567", "+15551234567", "15551234567", "1 555 123 4567", "555 123", "4567",
                        "+1 555", "7946", "elodie", "ada lov", "0"]
        var before: [String: [String]] = [:]
        func terms(_ db: Database) throws -> Set<String> {
            try db.execute(sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_terms USING fts5vocab(main, contact_search, row)")
            return Set(try String.fetchAll(db, sql: "SELECT term FROM temp.search_terms"))
        }
        try previous.write { db in
            let stamp = "2026-01-02T03:04:05.678Z"
            let rows: [(String, String?)] = [("Élodie Martin", "+44 20 7946 0000"), ("Ada Lovelace", "020 7946 0000"),
                                             ("Grace Hopper", "+1 555 123 4567"), ("Alan Turing", "555-123-4567"), ("Nobody", nil)]
            for (i, (name, phone)) in rows.enumerated() {
                try db.execute(sql: "INSERT INTO contacts (id, uid, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                               arguments: [i + 1, "uid-\(i)", name, stamp, stamp])
                if let phone {
                    try db.execute(sql: "INSERT INTO contact_phones (contact_id, position, value) VALUES (?, 1, ?)", arguments: [i + 1, phone])
                }
            }
            #expect(try terms(db).isSuperset(of: ["2079460000", "02079460000", "5551234567", "05551234567"]))
            for search in searches { before[search] = try matching(db, search) }
        }
        try previous.close()
        #expect(before["+44 20 7946 0000"] == ["Ada Lovelace", "Élodie Martin"] && before["5551234567"] == ["Alan Turing", "Grace Hopper"])

        let storage = try StorageController(path: path)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        for search in searches {
            #expect(try names(storage, search).sorted() == before[search], "\(search)")
        }
        let after = try storage.writer.writeWithoutTransaction { db in try terms(db) }
        // Élodie's and Grace's national numbers once, with their 0 (Ada's "020 7946 0000" gives
        // the same digits); Alan's "555-123-4567" its digits. No digits with the country code.
        #expect(after.isSuperset(of: ["02079460000", "05551234567", "5551234567"]))
        #expect(after.isDisjoint(with: ["2079460000", "442079460000", "15551234567"]))
        try indexIsSound(storage)
        #expect(try storage.integrityCheck() == ["ok"])
        for contact in try storage.allContacts() {
            let row = try storage.writer.read { db in try SearchIndex.document(db, id: contact.id) }
            #expect(row.texts == SearchDocument(contact.draft).texts, "\(contact.name)")
        }
        // Carnet's own writes index the same way, and the triggers too.
        try storage.insertContact(ContactDraft(name: "Hedy Lamarr", phone: "+43 1 234 5678"))
        #expect(try names(storage, "012345678") == ["Hedy Lamarr"] && names(storage, "12345678") == ["Hedy Lamarr"])
        try indexIsSound(storage)
    }

    /// An undo or redo is applied inside SQLite, row by row, past Carnet's own indexing: the
    /// documents of the contacts it touches are taken out before and put back after, so search
    /// finds what the undo restored, and not what it took back.
    @Test func searchFollowsUndoAndRedo() throws {
        let storage = try StorageController(path: dir.path("undo.sqlite"))
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace", emails: [LabeledValue("ada@engines.example")]))
        var renamed = ada.draft
        renamed.rename(to: "Ada Byron")
        renamed.phones = [LabeledValue("+44 20 7946 0000")]
        _ = try storage.updateContact(ada, with: renamed)
        #expect(try names(storage, "byron") == ["Ada Byron"] && names(storage, "02079460000") == ["Ada Byron"])
        try storage.undo()  // the edit
        #expect(try names(storage, "lovelace") == ["Ada Lovelace"])
        #expect(try names(storage, "byron").isEmpty && names(storage, "02079460000").isEmpty)
        try indexIsSound(storage)
        try storage.deleteContact(id: ada.id)
        #expect(try names(storage, "lovelace").isEmpty)
        try storage.undo()  // the delete
        #expect(try names(storage, "lovelace") == ["Ada Lovelace"] && names(storage, "engines") == ["Ada Lovelace"])
        try storage.redo()
        #expect(try names(storage, "lovelace").isEmpty)
        try indexIsSound(storage)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// A search lists people: a group card has no document in the index, whether Carnet wrote it,
    /// renamed it, deleted it and undid that, turned it into a person and back, or another
    /// program inserted it; so a search needs no filter of its own to leave groups out.
    @Test func groupCardsAreNotInTheIndex() throws {
        let storage = try StorageController(path: dir.path("groups.sqlite"))
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace"))
        let fans = try storage.insertContact(GroupStorageTests.group("Ada fans", [ada.uid]))
        #expect(try names(storage, "ada") == ["Ada Lovelace"] && names(storage, "fans").isEmpty)
        #expect(try storage.contactCount(matching: "ada") == 1)
        try indexIsSound(storage)
        var renamed = fans.draft
        renamed.name = "Lovelace club"
        let club = try storage.updateContact(fans, with: renamed)
        #expect(try names(storage, "lovelace") == ["Ada Lovelace"] && names(storage, "club").isEmpty)
        try indexIsSound(storage)
        try storage.deleteContact(club)
        try storage.undo()
        #expect(try storage.groupCount() == 1 && names(storage, "club").isEmpty)
        try indexIsSound(storage)
        try storage.redo()
        try storage.undo()
        // A card that stops being a group gains its document; undone, loses it again.
        var person = try storage.contact(id: club.id).draft
        person.kind = .individual
        person.groupForm = nil
        person.members = []
        _ = try storage.updateContact(try storage.contact(id: club.id), with: person)
        #expect(try names(storage, "club") == ["Lovelace club"])
        try indexIsSound(storage)
        try storage.undo()
        #expect(try storage.contact(id: club.id).kind == .group && names(storage, "club").isEmpty)
        try indexIsSound(storage)
        // A group card another program inserts is left out when the index catches up.
        var config = Configuration()
        config.foreignKeysEnabled = true
        let other = try DatabaseQueue(path: dir.path("groups.sqlite"), configuration: config)
        try other.write { db in
            try db.execute(sql: """
                INSERT INTO contacts (uid, name, kind, created_at, updated_at)
                VALUES ('g', 'Ada readers', 'group', '2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.678Z')
                """)
        }
        try other.close()
        #expect(try names(storage, "readers").isEmpty && storage.groupCount() == 2)
        try indexIsSound(storage)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// A file of schema 18 holds its group cards in the index (every card was indexed): opening it
    /// takes them out (migration 19) before anything can search it.
    @Test func aSchema18FileLosesItsGroupsFromTheIndexByMigration19() throws {
        let path = dir.path("eighteen.sqlite")
        let old = try StorageController(path: path, options: StorageOptions(), migrations: Migration.embedded.filter { $0.version <= 18 })
        let ada = try old.insertContact(ContactDraft(name: "Ada Lovelace"))
        let fans = try old.insertContact(GroupStorageTests.group("Ada fans", [ada.uid]))
        // Indexed as schema 18's Carnet indexed every card.
        try old.writer.write { db in
            try db.execute(sql: "INSERT INTO contact_search (rowid, names, other) VALUES (?, ?, ?)",
                           arguments: StatementArguments([fans.id] + SearchDocument(fans.draft).texts.map { $0 as any DatabaseValueConvertible }))
        }
        let before = try old.writer.read { db in (try SearchIndex.documentCount(db), try matching(db, "fans")) }
        #expect(before.0 == 2 && before.1 == ["Ada fans"])
        try old.close()
        let storage = try StorageController(path: path)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        let (documents, outdated, fansFound, adaFound) = try storage.writer.read { db in
            (try SearchIndex.documentCount(db), try SearchIndex.isOutdated(db), try matching(db, "fans"), try matching(db, "ada"))
        }
        #expect(documents == 1 && !outdated && fansFound.isEmpty && adaFound == ["Ada Lovelace"])
        try indexIsSound(storage)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// A file of schema 25 (`names` first) is indexed again with `other` first: the same
    /// contacts found for every search, ranked alike, in an index of fewer bytes.
    @Test func aSchema25FileIsReindexedWithOtherFirstByMigration26() throws {
        let path = dir.path("twenty-five.sqlite")
        let old = try StorageController(path: path, options: StorageOptions(), migrations: Migration.embedded.filter { $0.version <= 25 })
        let people = (0..<400).map { i in
            ContactDraft(name: "Person\(i) Family\(i % 37)", email: "person\(i).family@example\(i % 7).com", phone: "+1 555 01\(1000 + i)")
        }
        _ = try old.insertContacts(people)
        try old.insertContact(ContactDraft(name: "Ada Lovelace", organization: "Analytical Engines"))
        try old.insertContact(ContactDraft(name: "Zed Adams", organization: "Ada Systems"))
        let searches = ["ada", "person12", "family3 example4", "555 011012", "person5.family", "engines"]
        func bytes(_ db: Database) throws -> Int { try Int.fetchOne(db, sql: "SELECT sum(length(block)) FROM contact_search_data") ?? 0 }
        var before: [String: [String]] = [:]
        try old.writer.read { db in
            #expect(try db.columns(in: "contact_search").map(\.name) == ["names", "other"])
            for search in searches { before[search] = try matching(db, search) }
        }
        let bytesBefore = try old.writer.read { db in try bytes(db) }
        let ranked = try names(old, "ada", order: .relevance)
        try old.close()

        let storage = try StorageController(path: path)
        #expect(try storage.info().schemaVersion == StorageController.supportedSchemaVersion)
        let (columns, outdated, bytesAfter) = try storage.writer.read { db in
            (try db.columns(in: "contact_search").map(\.name), try SearchIndex.isOutdated(db), try bytes(db))
        }
        #expect(columns == ["other", "names"] && !outdated)
        let after = try storage.writer.read { db in try searches.map { try matching(db, $0) } }
        for (search, found) in zip(searches, after) { #expect(found == before[search], "\(search)") }
        #expect(before["person12"]?.isEmpty == false && before["engines"] == ["Ada Lovelace"])
        #expect(try names(storage, "ada", order: .relevance) == ranked && ranked == ["Ada Lovelace", "Zed Adams"])
        #expect(bytesAfter < bytesBefore * 9 / 10, "\(bytesAfter) bytes of index, \(bytesBefore) before")
        try indexIsSound(storage)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// An undo reads a document from the searched columns and lists alone: it is the document
    /// of the whole contact, for a contact with every field and list filled in.
    @Test func aDocumentReadFromTheSearchedRowsIsTheWholeContacts() throws {
        let storage = try StorageController(path: dir.path("document.sqlite"))
        var draft = ContactStorageTests.rich
        draft.pronouns = "she/her"
        draft.gender = "F;woman"
        let rich = try storage.insertContact(draft)
        let plain = try storage.insertContact(ContactDraft(name: "Grace Hopper"))
        for contact in [rich, plain] {
            let read = try storage.writer.read { db in try SearchIndex.document(db, id: contact.id) }
            #expect(read.exists && read.texts == SearchDocument(contact.draft).texts, "\(contact.name)")
        }
        let missing = try storage.writer.read { db in try SearchIndex.document(db, id: 999) }
        #expect(!missing.exists && missing.texts == nil)
        let group = try storage.insertContact(GroupStorageTests.group("Engines club", [rich.uid]))
        let read = try storage.writer.read { db in try SearchIndex.document(db, id: group.id) }
        #expect(read.exists && read.texts == nil)
    }

    /// An undo or redo reindexes only the contacts whose searched text it changes: an edit of
    /// each field alone, undone and redone, leaves the index term for term what a rebuild
    /// makes, and a search finds the field's new word exactly when the field is searched and
    /// the edit is in place.
    @Test func undoAndRedoOfAnEditOfEachFieldKeepTheIndexExact() throws {
        let storage = try StorageController(path: dir.path("fields.sqlite"))
        var draft = ContactStorageTests.rich
        draft.pronouns = "she/her"
        draft.gender = "F"
        var contact = try storage.insertContact(draft)
        try storage.insertContact(ContactDraft(name: "Grace Hopper", email: "grace@navy.example"))
        var edited = 0
        for (index, spec) in ContactFields.all.enumerated() {
            // A word of its own for each field, found nowhere else.
            let word = "zeb" + String(UnicodeScalar(UInt8(97 + index / 26))) + String(UnicodeScalar(UInt8(97 + index % 26)))
            var changed = contact.draft
            if let keyPath = spec.text ?? spec.multilineText {
                changed[keyPath: keyPath] = spec.field == .gender ? "O;" + word : word
            } else {
                switch spec.field {
                case .email: changed.emails.insert(LabeledValue("\(word)@example.com"), at: 1)
                case .phone: changed.phones[0] = LabeledValue("+33 1 99 99 99 99", label: "cell", preferred: true)
                case .address: changed.addresses[1].locality = word
                case .url: changed.urls.append(LabeledValue("https://\(word).example"))
                case .handle: changed.handles[0] = LabeledValue("@\(word)@example.social", label: "mastodon")
                case .date: changed.dates.append(ContactDate(label: word, month: 2, day: 3))
                case .category: changed.categories.append(word)
                case .photo: changed.photo = nil
                case .extra: changed.extras.append("X-\(word.uppercased()):\(word)")
                default:
                    // A list of labelled values described by its entry alone.
                    guard let keyPath = spec.labeledValues else { continue }
                    changed[keyPath: keyPath].append(LabeledValue(word, label: "high"))
                }
            }
            let search = spec.field == .phone ? "0199999999" : word
            #expect(try names(storage, search).isEmpty, "\(spec.field)")
            contact = try storage.updateContact(contact, with: changed)
            try indexIsSound(storage)
            #expect(try !names(storage, search).isEmpty == spec.searchable, "\(spec.field) edited")
            try storage.undo()
            try indexIsSound(storage)
            #expect(try names(storage, search).isEmpty, "\(spec.field) undone")
            #expect(try names(storage, "grace") == ["Grace Hopper"])
            try storage.redo()
            try indexIsSound(storage)
            #expect(try !names(storage, search).isEmpty == spec.searchable, "\(spec.field) redone")
            contact = try storage.contact(id: contact.id)
            edited += 1
        }
        // Every field was edited: a new list field is added above.
        #expect(edited == ContactFields.all.count)
    }

    /// Generated contacts (accents composed and not, ß and ẞ with and without a combining mark,
    /// phones of every shape a phone may have, any script), written, edited and some deleted:
    /// the index Carnet keeps as it writes is term for term what a rebuild from the contacts
    /// makes, so what it takes out is always what it put in.
    @Test func theIndexOfGeneratedContactsIsWhatARebuildMakes() throws {
        let storage = try StorageController.inMemory()
        var rng = SplitMix64(seed: 0x5EA4C4)
        let pieces = ["a", "Z", "é", "e\u{301}", "ß", "ẞ", "ß\u{301}", "Ø", "ł", "İ", "ǅ", "東京", "😀", "ﬁ", "ǆ", "-", "'", ".", "7", "½", "Ω"]
        func text(_ count: Int) -> String {
            (0..<count).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] + (rng.next() % 3 == 0 ? " " : "") }.joined()
        }
        func phone() -> String {
            let shape = Array("0123456789 +().-")
            var value = (rng.next() % 2 == 0 ? "+" : "") + String((0..<(4 + Int(rng.next() % 12))).map { _ in shape[Int(rng.next() % UInt64(shape.count))] })
            value += String(rng.next() % 10)
            return value.trimmingCharacters(in: .whitespaces)
        }
        var checked = 0
        for i in 0..<400 {
            var draft = ContactDraft(name: text(1 + Int(rng.next() % 6)))
            draft.nickname = text(Int(rng.next() % 3))
            draft.organization = text(Int(rng.next() % 4))
            draft.note = text(Int(rng.next() % 8))
            draft.phones = (0..<Int(rng.next() % 3)).map { _ in LabeledValue(phone()) }
            draft.emails = rng.next() % 2 == 0 ? [LabeledValue("p\(i)@stra\u{DF}e.example")] : []
            draft.addresses = rng.next() % 3 == 0 ? [PostalAddress(street: text(3), locality: text(1), country: text(1))] : []
            draft.categories = rng.next() % 3 == 0 ? [text(1) + "\(i)"] : []
            guard let contact = try? storage.insertContact(draft) else { continue }
            checked += 1
            if i % 3 == 0 {
                var edited = contact.draft
                edited.note = text(Int(rng.next() % 5))
                edited.phones.reverse()
                _ = try? storage.updateContact(contact, with: edited)
            } else if i % 7 == 0 {
                try storage.deleteContact(contact)
            }
        }
        #expect(checked > 300)
        try indexIsSound(storage)
    }

    @Test func theQueryUsesTheIndex() throws {
        let storage = try StorageController.inMemory()
        let filter = try StorageController.filter(ContactQuery(search: "ada lov"), phones: nil)
        let plan = try storage.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM contacts WHERE " + filter.conditions.joined(separator: " AND "),
                             arguments: filter.arguments).map { $0["detail"] as String }
        }
        #expect(plan.contains { $0.contains("VIRTUAL TABLE INDEX") }, "\(plan)")
        #expect(SearchIndex.matchExpression(try SearchQuery("ada lov")) == "\"ada\"* AND \"lov\"*")
        #expect(SearchIndex.matchExpression(try SearchQuery("a\"b")) == "\"a b\"*")
        // A number also after a 0: the index holds a phone's national number once, with its 0.
        #expect(SearchIndex.matchExpression(try SearchQuery("+1 555-0101"))
            == "((\"15550101\"* OR \"015550101\"*) OR (\"5550101\"* OR \"05550101\"*) OR ((\"1\"* OR \"01\"*) AND \"555 0101\"*))")
        #expect(SearchIndex.matchExpression(try SearchQuery("ada 4567")) == "\"ada\"* AND (\"4567\"* OR \"04567\"*)")
        // Ten digits or more, not starting with 0: also as a number with a country code.
        #expect(SearchIndex.matchExpression(try SearchQuery("15551234567"))
            == "((\"15551234567\"* OR \"015551234567\"*) OR (\"5551234567\"* OR \"05551234567\"*))")
        #expect(SearchIndex.matchExpression(try SearchQuery("0123456789")) == "(\"0123456789\"* OR \"00123456789\"*)")
        // Digits in a word that is not written as a phone is (`100%`, `ada2`) are text.
        #expect(SearchIndex.matchExpression(try SearchQuery("100% ada2")) == "\"100\"* AND \"ada2\"*")
    }
}
