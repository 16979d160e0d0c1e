import CarnetModels
import Foundation
import GRDB

extension StorageController {
    static let contactColumns = ContactRecord.selection()
    /// `contactColumns` but `kind` and `group_form`: for a read that only ever finds people.
    static let personColumns = ContactRecord.selection(kind: false)

    /// Contacts decoded straight from SQLite's row buffer through a cached prepared statement:
    /// `Row.fetchAll` would first copy every value of every row, and re-preparing the same page
    /// query for every page is wasted work on a long walk. The columns are found by name once
    /// per call, not once per row.
    static func fetchContacts(_ db: Database, sql: String, arguments: StatementArguments = [], capacity: Int = 0) throws -> [Contact] {
        let statement = try db.cachedStatement(sql: sql)
        let columns = try ContactRecord.ColumnIndexes(statement)
        var records: [ContactRecord] = []
        records.reserveCapacity(capacity)
        let cursor = try Row.fetchCursor(statement, arguments: arguments)
        while let row = try cursor.next() { records.append(try ContactRecord(row: row, at: columns)) }
        try ContactChildTable.attach(db, to: &records)
        // A closure, not the key path `\.contact`, which copied every record to read it.
        return records.map { $0.contact }
    }

    /// One contact by id. Every edit reads the stored row first, so the statement is cached
    /// (and its text made once).
    static func fetchContact(_ db: Database, id: Int64) throws -> Contact? {
        try fetchContacts(db, sql: contactByIDSQL, arguments: [id], capacity: 1).first
    }
    private static let contactByIDSQL = "SELECT \(contactColumns) FROM contacts WHERE id = ?"

    /// One contact by vCard UID. An import looks up every record: most are new, so it first asks
    /// only for the id (reading a whole row set up a row reader with every column's name per record).
    static func fetchContact(_ db: Database, uid: String) throws -> Contact? {
        guard let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM contacts WHERE uid = ?"), arguments: [uid]) else { return nil }
        return try fetchContact(db, id: id)
    }

    // MARK: Writes

    /// Adds a contact to address book `bookID` (the default book when nil). The draft is
    /// validated and normalized first; `uid` defaults to a new UUID.
    @discardableResult
    public func insertContact(_ draft: ContactDraft, uid: String? = nil, bookID: Int64? = nil) throws(CarnetError) -> Contact {
        let draft = try draft.validated()
        let uid = uid ?? UUID().uuidString.lowercased()
        return try recordedWrite { db, history in
            history.note = HistoryNote(.add, subject: draft.name, "added \(draft.name)")
            return try Self.insert(db, draft, uid: uid, now: Timestamp.now(), bookID: bookID ?? AddressBook.defaultID)
        }
    }

    /// Adds many contacts in one transaction: all of them, or none. Returns how many.
    @discardableResult
    public func insertContacts(_ drafts: some Sequence<ContactDraft>) throws(CarnetError) -> Int {
        var valid: [ContactDraft] = []
        for draft in drafts { valid.append(try draft.validated()) }
        let checked = valid
        return try recordedWrite { db, history in
            let count = HistoryNote.count(checked.count, "contact")
            history.note = HistoryNote(.add, subject: count, "added \(count)")
            let stamp = Timestamp.string(Timestamp.now())
            for draft in checked {
                try ContactRecord(id: nil, uid: UUID().uuidString.lowercased(), draft: draft, createdAt: stamp, updatedAt: stamp, version: 1)
                    .insertRow(db)
                try history.checkpoint()
            }
            return checked.count
        }
    }

    static func insert(_ db: Database, _ draft: ContactDraft, uid: String, now: Date, bookID: Int64 = AddressBook.defaultID) throws -> Contact {
        let stamp = Timestamp.string(now)
        let id = try ContactRecord(id: nil, uid: uid, draft: draft, createdAt: stamp, updatedAt: stamp, version: 1, bookID: bookID).insertRow(db)
        return Contact(id: id, uid: uid, draft: draft, createdAt: now, updatedAt: now, version: 1, bookID: bookID)
    }

    /// Saves `draft` over the contact the caller read as `base`.
    ///
    /// If the stored contact's version is no longer `base.version`, someone else saved it
    /// meanwhile: this throws `CarnetError.conflict(_:)` with both versions and
    /// writes nothing, unless `force` is true (overwrite: last writer wins, knowingly). If it was
    /// deleted, this throws `CarnetError.deleted(_:id:)`, even with `force`: the
    /// `UPDATE` names the row by id *and* uid, and ids are never reused, so an edit can only ever
    /// land on the contact it was read from. Saving a draft equal to the stored fields writes
    /// nothing and returns the stored contact.
    @discardableResult
    public func updateContact(_ base: Contact, with draft: ContactDraft, force: Bool = false) throws(CarnetError) -> Contact {
        let draft = try draft.validated()
        return try recordedWrite { db, history in
            let now = Timestamp.now()
            // The usual case: nobody saved since `base` was read, so one conditional UPDATE both
            // checks the version and saves, without reading the row first.
            if !force && base.draft != draft {
                history.note = .edit(base, to: draft)
                if try Self.update(db, base, with: draft, at: now, expecting: base.version) {
                    return Self.saved(base, draft, at: now)
                }
            }
            // Unchanged, stale, gone, or forced: look at what is stored now, under the write lock.
            guard let current = try Self.fetchContact(db, id: base.id), current.uid == base.uid else {
                throw CarnetError.deleted(.contact, id: base.id)
            }
            if !force && current.version != base.version {
                throw CarnetError.conflict(.contact(ContactConflict(base: base, current: current, mine: draft)))
            }
            if current.draft == draft { return current }
            history.note = .edit(current, to: draft)
            guard try Self.update(db, current, with: draft, at: now, expecting: current.version) else {
                throw CarnetError.deleted(.contact, id: base.id)  // unreachable: the write lock is held
            }
            return Self.saved(current, draft, at: now)
        }
    }

    /// Writes `draft` over `contact` (found by id and uid) if its stored version is `version`.
    private static func update(_ db: Database, _ contact: Contact, with draft: ContactDraft, at now: Date, expecting version: Int) throws -> Bool {
        try ContactRecord.update(
            db, id: contact.id, uid: contact.uid, expecting: version, with: draft, replacing: contact.draft,
            updatedAt: Timestamp.string(now))
    }

    /// `stored` as it is after `update(_:_:with:at:expecting:)` wrote `draft` over it.
    private static func saved(_ stored: Contact, _ draft: ContactDraft, at now: Date) -> Contact {
        Contact(id: stored.id, uid: stored.uid, draft: draft, createdAt: stored.createdAt, updatedAt: now, version: stored.version + 1, bookID: stored.bookID)
    }

    /// Deletes the contact with that id; its favorite goes with it (ON DELETE CASCADE).
    public func deleteContact(id: Int64) throws(CarnetError) {
        try recordedWrite { db, history in
            guard let name = try String.fetchOne(db.cachedStatement(sql: "SELECT name FROM contacts WHERE id = ?"), arguments: [id]) else {
                throw CarnetError.notFound(.contact, id: id)
            }
            history.note = HistoryNote(.delete, subject: name, "deleted \(name)")
            try Self.beforeDeleting(db, contactID: id)
            try db.cachedStatement(sql: "DELETE FROM contacts WHERE id = ?").execute(arguments: [id])
        }
    }

    /// Deletes `contact`, the one a screen showed: the `DELETE` names it by id and uid, so if it
    /// was deleted meanwhile this throws `CarnetError.deleted(_:id:)` and deletes
    /// nothing else. Its favorite goes with it (ON DELETE CASCADE).
    public func deleteContact(_ contact: Contact) throws(CarnetError) {
        try recordedWrite { db, history in
            history.note = HistoryNote(.delete, subject: contact.name, "deleted \(contact.name)")
            try Self.beforeDeleting(db, contactID: contact.id)
            try db.cachedStatement(sql: "DELETE FROM contacts WHERE id = ? AND uid = ?").execute(arguments: [contact.id, contact.uid])
            if db.changesCount == 0 { throw CarnetError.deleted(.contact, id: contact.id) }
        }
    }

    /// What deleting a contact must do first on Carnet's own connections, which run without
    /// triggers (see `SearchIndex`): take it out of the search index, and leave the tombstone
    /// that `contacts_leave_sync_tombstones` leaves for any other writer, so the next sync
    /// deletes its card on the server too.
    static func beforeDeleting(_ db: Database, contactID: Int64) throws {
        try SearchIndex.remove(db, id: contactID)
        try leaveTombstones(db, syncLinks(db, contactID: contactID))
    }

    /// Where contact `id`'s card is on sync servers (account, href, etag, the contact's uid, and
    /// the card as last synced, the base of a merge if an undo brings the contact back):
    /// what its tombstones must say if it is deleted, read while it still exists (deleting it
    /// deletes its `sync_contacts` rows).
    static func syncLinks(_ db: Database, contactID: Int64) throws -> [Row] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT s.account_id, s.href, s.etag, c.uid, s.card FROM sync_contacts s JOIN contacts c ON c.id = s.contact_id
            WHERE s.contact_id = ?
            """), arguments: [contactID])
    }

    /// What `contacts_leave_sync_tombstones` does for a writer with triggers on: a deleted
    /// contact's card is deleted on the server by the next sync.
    static func leaveTombstones(_ db: Database, _ links: [Row]) throws {
        guard !links.isEmpty else { return }
        let insert = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO sync_tombstones (account_id, href, etag, uid, deleted_at, card) VALUES (?, ?, ?, ?, ?, ?)")
        let now = Timestamp.string(Timestamp.now())
        for link in links { try insert.execute(arguments: [link[0], link[1], link[2], link[3], now, link[4]]) }
    }

    // MARK: Reads

    /// The contact with that id, or `CarnetError.notFound(_:id:)`.
    public func contact(id: Int64) throws(CarnetError) -> Contact {
        try read { db in
            guard let contact = try Self.fetchContact(db, id: id) else { throw CarnetError.notFound(.contact, id: id) }
            return contact
        }
    }

    /// The contact with that vCard UID, if any.
    public func contact(uid: String) throws(CarnetError) -> Contact? {
        try read { db in try Self.fetchContact(db, uid: uid) }
    }

    /// Up to `limit` contacts in name order that come after `key` (from the start when nil),
    /// optionally only those matching `search` (see `SearchQuery`). A search
    /// longer than `Limits.searchLength`, or with no letter or digit, throws
    /// `CarnetError.invalidSearch(_:)`.
    ///
    /// Keyset pagination: the index `contacts_by_name` seeks straight to `key`, so every page
    /// costs the same whatever its depth and the table's size.
    public func contacts(after key: ContactSortKey? = nil, limit: Int, matching search: String = "") throws(CarnetError) -> ContactPage {
        try page(key: key, forward: true, limit: limit, query: ContactQuery(search: search))
    }

    /// Up to `limit` contacts in name order that come just before `key`, in ascending order.
    public func contacts(before key: ContactSortKey, limit: Int, matching search: String = "") throws(CarnetError) -> ContactPage {
        try page(key: key, forward: false, limit: limit, query: ContactQuery(search: search))
    }

    /// Up to `limit` contacts of `query`, in its order, after `key` (a `Contact.sortKey(_:)`
    /// in the same order), from the start when nil. Each order has its index
    /// (`contacts_by_name`, `contacts_by_given`, `contacts_by_family`), so pages cost the same at
    /// any depth.
    public func contacts(after key: ContactSortKey?, limit: Int, query: ContactQuery) throws(CarnetError) -> ContactPage {
        try page(key: key, forward: true, limit: limit, query: query)
    }

    /// Up to `limit` contacts of `query` just before `key`, in ascending order.
    public func contacts(before key: ContactSortKey, limit: Int, query: ContactQuery) throws(CarnetError) -> ContactPage {
        try page(key: key, forward: false, limit: limit, query: query)
    }

    /// The column each order sorts by (with `id` after it): `name`, or the sort columns of
    /// schema 4 and 5, which hold `CarnetModels/ContactDraft/sortText(_:)`. (Relevance sorts by
    /// the search rank first, then by name.)
    static func sortColumn(_ order: ContactOrder) -> String {
        switch order {
        case .name, .relevance: "name"
        case .given: "sort_given"
        case .family: "sort_family"
        }
    }

    /// The form a search's phone number is also looked for in: the file's, read only for a
    /// search that has a number in it (every completion a mail client asks for is a search).
    func phoneForm(for search: String) throws(CarnetError) -> PhoneNormalForm? {
        guard SearchQuery.hasNumber(search) else { return nil }
        return try phoneRegionSetting().normalForm
    }

    /// The WHERE conditions and their arguments for `query` (no key), with its search read.
    /// `phones`: the form a number in the search is also looked for in (see `phoneForm(for:)`).
    static func filter(_ query: ContactQuery, phones: PhoneNormalForm?) throws(CarnetError) -> (conditions: [String], arguments: StatementArguments, search: SearchQuery) {
        let search = try SearchQuery(query.search, phones: phones)
        // People only: a group card is listed by `carnet group`, never as a contact. The search
        // index holds people only, so a search needs no other condition (which every row it
        // matches would pay).
        var conditions: [String] = search.isEmpty ? [Self.individualsCondition] : []
        var arguments = StatementArguments()
        if !search.isEmpty {
            conditions.append(SearchIndex.matchCondition)
            _ = arguments.append(contentsOf: [SearchIndex.matchExpression(search)])
        }
        if !query.category.isEmpty {
            conditions.append("id IN (SELECT contact_id FROM contact_categories WHERE name = ?)")
            _ = arguments.append(contentsOf: [query.category])
        }
        if let book = query.bookID {
            // First, so one book's name-sorted pages seek through `contacts_by_book`.
            conditions.insert("book_id = ?", at: 0)
            var first = StatementArguments([book])
            _ = first.append(contentsOf: arguments)
            arguments = first
        }
        return (conditions, arguments, search)
    }

    private func page(key: ContactSortKey?, forward: Bool, limit: Int, query: ContactQuery) throws(CarnetError) -> ContactPage {
        let page = try Self.pageClause(key: key, forward: forward, limit: limit, query: query, phones: try phoneForm(for: query.search))
        guard limit > 0 else { return ContactPage(contacts: [], hasMore: false) }
        // A search finds people only: their rows need no kind or group form.
        let sql = "SELECT \(page.searched ? Self.personColumns : Self.contactColumns) FROM \(page.source) \(page.clause)"
        return try searchRead(query) { db in
            var contacts = try Self.fetchContacts(db, sql: sql, arguments: page.arguments, capacity: limit + 1)
            let hasMore = contacts.count > limit
            if hasMore { contacts.removeLast() }
            if !forward { contacts.reverse() }
            return ContactPage(contacts: contacts, hasMore: hasMore)
        }
    }

    /// What a keyset page of `query` reads from and its `WHERE … ORDER BY … LIMIT ?` (one row
    /// more than `limit`, to tell whether there are more), with the arguments. A search narrows
    /// the list through the index (the contacts it matches); sorted by relevance, the page is
    /// ordered by (rank, name, id), which a key of the same three continues exactly, as the name
    /// order's key does. `searched` says the index narrows it, so every row is a person. Throws
    /// for a search that cannot be read.
    static func pageClause(
        key: ContactSortKey?, forward: Bool, limit: Int, query: ContactQuery, phones: PhoneNormalForm?
    ) throws(CarnetError) -> (source: String, clause: String, arguments: StatementArguments, ranked: Bool, searched: Bool) {
        let filter = try filter(query, phones: phones)
        let ranked = query.order == .relevance && !filter.search.isEmpty
        let column = sortColumn(query.order)
        var arguments = StatementArguments()
        var source = "contacts"
        if ranked {
            source = "(SELECT *, \(SearchIndex.rankExpression) AS search_rank FROM contacts)"
            _ = arguments.append(contentsOf: [SearchIndex.namesAllExpression(filter.search), SearchIndex.namesAnyExpression(filter.search)])
        }
        var conditions = filter.conditions
        _ = arguments.append(contentsOf: filter.arguments)
        let sortColumns = ranked ? "(search_rank, \(column), id)" : "(\(column), id)"
        if let key {
            conditions.append(sortColumns + (forward ? " > " : " < ") + (ranked ? "(?, ?, ?)" : "(?, ?)"))
            if ranked { _ = arguments.append(contentsOf: [key.rank]) }
            _ = arguments.append(contentsOf: [key.name, key.id])
        }
        let direction = forward ? "" : " DESC"
        let order = (ranked ? "search_rank\(direction), " : "") + "\(column)\(direction), id\(direction)"
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        _ = arguments.append(contentsOf: [limit + 1])
        return (source, "\(whereClause) ORDER BY \(order) LIMIT ?", arguments, ranked, !filter.search.isEmpty)
    }

    /// Up to `limit` summaries of `query`'s contacts, in its order, after `key` (from the start
    /// when nil), each with its sort key for the next page; and whether there are more. Reads the
    /// contacts table and the preferred (or first) email and phone, no other child table.
    public func summaries(
        after key: ContactSortKey?, limit: Int, query: ContactQuery
    ) throws(CarnetError) -> (summaries: [(summary: ContactSummary, key: ContactSortKey)], hasMore: Bool) {
        let page = try Self.pageClause(key: key, forward: true, limit: limit, query: query, phones: try phoneForm(for: query.search))
        guard limit > 0 else { return ([], false) }
        let rank = page.ranked ? "search_rank" : "0"
        let sql = "SELECT \(Self.summaryColumns), \(Self.sortColumn(query.order)) AS sort_key, \(rank) AS sort_rank FROM \(page.source) \(page.clause)"
        return try searchRead(query) { db in
            let statement = try db.cachedStatement(sql: sql)
            func index(_ name: String) throws -> Int {
                guard let index = statement.index(ofColumn: name) else { throw CarnetError.database("a summary was read without its \(name) column") }
                return index
            }
            let (id, name, title, organization) = (try index("id"), try index("name"), try index("title"), try index("organization"))
            let (email, phone, sortKey, sortRank) = (try index("email"), try index("phone"), try index("sort_key"), try index("sort_rank"))
            let book = try index("book_id")
            var rows: [(summary: ContactSummary, key: ContactSortKey)] = []
            rows.reserveCapacity(limit + 1)
            let cursor = try Row.fetchCursor(statement, arguments: page.arguments)
            while let row = try cursor.next() {
                let contactID = try row.decode(Int64.self, atIndex: id)
                let summary = ContactSummary(
                    id: contactID, name: try row.decode(String.self, atIndex: name),
                    title: try row.decode(String.self, atIndex: title), organization: try row.decode(String.self, atIndex: organization),
                    email: try row.decode(String.self, atIndex: email), phone: try row.decode(String.self, atIndex: phone),
                    bookID: try row.decode(Int64.self, atIndex: book))
                let key = ContactSortKey(rank: try row.decode(Int.self, atIndex: sortRank), name: try row.decode(String.self, atIndex: sortKey), id: contactID)
                rows.append((summary, key))
            }
            let hasMore = rows.count > limit
            if hasMore { rows.removeLast() }
            return (rows, hasMore)
        }
    }

    /// The columns of a `CarnetModels/ContactSummary`: the preferred entry is the one marked
    /// preferred, else the first, as `CarnetModels/ContactDraft/email` reads it.
    static let summaryColumns = """
        id, name, title, organization, book_id,
        ifnull((SELECT e.value FROM contact_emails e WHERE e.contact_id = id ORDER BY e.preferred DESC, e.position LIMIT 1), '') AS email,
        ifnull((SELECT p.value FROM contact_phones p WHERE p.contact_id = id ORDER BY p.preferred DESC, p.position LIMIT 1), '') AS phone
        """

    /// Every contact in name order. Holds the whole table in memory: for exports and
    /// benchmarks; screens page with `contacts(after:limit:matching:)`.
    public func allContacts() throws(CarnetError) -> [Contact] {
        try read { db in
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts") ?? 0
            return try Self.fetchContacts(db, sql: "SELECT \(Self.contactColumns) FROM contacts ORDER BY name, id", capacity: count)
        }
    }

    /// How many contacts there are, or how many match `search`.
    public func contactCount(matching search: String = "") throws(CarnetError) -> Int {
        try contactCount(query: ContactQuery(search: search))
    }

    /// The condition that keeps a read to people (see `migrations/0014_groups.sql`).
    static let individualsCondition = "kind = 'individual'"

    /// How many contacts `query` lists.
    public func contactCount(query: ContactQuery) throws(CarnetError) -> Int {
        if query.search.isEmpty, query.category.isEmpty, query.bookID == nil {
            // Every row but the groups: the count of all reads the smallest index, the groups'
            // count their own partial index, where a count of `kind = 'individual'` reads every row.
            let hasGroups = self.hasGroups
            return try read { db in
                let all = try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts") ?? 0
                return all - (hasGroups ? try Self.groupCount(db) : 0)
            }
        }
        let filter = try Self.filter(query, phones: try phoneForm(for: query.search))
        let whereClause = filter.conditions.isEmpty ? "" : " WHERE " + filter.conditions.joined(separator: " AND ")
        return try searchRead(query) { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts" + whereClause, arguments: filter.arguments) ?? 0
        }
    }

    /// Every category in use, with how many contacts are in it, by name.
    public func categories() throws(CarnetError) -> [(name: String, count: Int)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT min(name) AS name, count(*) AS n FROM contact_categories GROUP BY name ORDER BY name")
                .map { (name: $0["name"], count: $0["n"]) }
        }
    }

    /// The contacts with a date labelled `labels` (birthday, anniversary), with those dates: for
    /// `carnet birthdays`. Read in one pass over `contact_dates`.
    public func contactsWithDates(labeled labels: [String], bookID: Int64? = nil) throws(CarnetError) -> [Contact] {
        try read { db in
            let sql = """
                SELECT \(Self.contactColumns) FROM contacts
                WHERE \(Self.individualsCondition) AND id IN (SELECT contact_id FROM contact_dates WHERE label IN (\(databaseQuestionMarks(count: labels.count))))
                \(bookID == nil ? "" : "AND book_id = ?")
                ORDER BY name, id
                """
            var arguments = StatementArguments.values(labels)
            if let bookID { _ = arguments.append(contentsOf: [bookID]) }
            return try Self.fetchContacts(db, sql: sql, arguments: arguments)
        }
    }
}
