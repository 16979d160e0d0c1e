import CarnetModels
import Foundation
import GRDBSQLite

// The raw side of a rich contact: its `contacts` row and its rows in the eight child tables,
// read and written with the C API as hand-written code would, doing the same SQL work as Carnet:
// one INSERT per row; a page's lists read by one statement per table over the page's ids; every
// contact's lists read by one pass over each table; an edit rewrites the lists it changed.

/// The text columns the raw side names by hand, as hand-written code would.
private let rawFastColumns: Set<String> = [
    "name", "name_prefix", "given_name", "additional_names", "family_name", "name_suffix", "nickname", "organization",
    "department", "title", "role", "note",
]

/// Every other text field the description stores in `contacts` (``ContactFields/columns``): the
/// raw side reads, inserts and updates them too, after its own columns, so both sides do the
/// same work whatever fields the model has.
let rawDescribed: [(column: String, spec: ContactFieldSpec, keyPath: WritableKeyPath<ContactDraft, String> & Sendable)] =
    ContactFields.columns.compactMap { spec in
        guard let column = spec.column, !rawFastColumns.contains(column), let keyPath = spec.text ?? spec.multilineText else { return nil }
        return (column, spec, keyPath)
    }

/// `contacts`' columns, in the order every raw read selects them (indexes in ``rawReadRow(_:)``):
/// the described fields come after `version`, from index 18.
let rawContactColumns = """
    id, uid, name, name_prefix, given_name, additional_names, family_name, name_suffix, nickname, \
    organization, department, title, role, note, photo, created_at, updated_at, version
    """ + rawDescribed.map { ", " + $0.column }.joined()

/// A `contacts` row read raw, before its lists are attached.
struct RawRow {
    var id: Int64
    var uid: String
    var draft: ContactDraft
    var createdAt: Date
    var updatedAt: Date
    var version: Int

    var contact: Contact {
        Contact(id: id, uid: uid, draft: draft, createdAt: createdAt, updatedAt: updatedAt, version: version)
    }
}

/// The current row of a statement selecting ``rawContactColumns``. Timestamps are parsed with
/// Carnet's own public parser (`CarnetModels.Timestamp`), so both sides pay the same.
@inline(__always)
func rawReadRow(_ s: OpaquePointer) -> RawRow {
    var photo: Data?
    if sqlite3_column_type(s, 14) != SQLITE_NULL, let blob = sqlite3_column_blob(s, 14) {
        photo = Data(bytes: blob, count: Int(sqlite3_column_bytes(s, 14)))
    }
    let parts = PersonName(
        prefix: rawColumnText(s, 3), given: rawColumnText(s, 4), additional: rawColumnText(s, 5),
        family: rawColumnText(s, 6), suffix: rawColumnText(s, 7))
    var draft = ContactDraft(
        name: rawColumnText(s, 2), nameParts: parts, nickname: rawColumnText(s, 8), organization: rawColumnText(s, 9),
        department: rawColumnText(s, 10), title: rawColumnText(s, 11), role: rawColumnText(s, 12),
        note: rawColumnText(s, 13), photo: photo)
    for (i, field) in rawDescribed.enumerated() { draft[keyPath: field.keyPath] = rawColumnText(s, Int32(18 + i)) }
    return RawRow(
        id: sqlite3_column_int64(s, 0), uid: rawColumnText(s, 1), draft: draft,
        createdAt: Timestamp.date(rawColumnText(s, 15)) ?? .distantPast,
        updatedAt: Timestamp.date(rawColumnText(s, 16)) ?? .distantPast,
        version: Int(sqlite3_column_int64(s, 17)))
}

/// Binds the draft's `contacts` columns from `name` to `photo` at parameters `first`…`first + 12`.
@inline(__always)
func rawBindRowFields(_ s: OpaquePointer, _ d: ContactDraft, from first: Int32) {
    rawBindText(s, first, d.name)
    rawBindText(s, first + 1, d.nameParts.prefix)
    rawBindText(s, first + 2, d.nameParts.given)
    rawBindText(s, first + 3, d.nameParts.additional)
    rawBindText(s, first + 4, d.nameParts.family)
    rawBindText(s, first + 5, d.nameParts.suffix)
    rawBindText(s, first + 6, d.nickname)
    rawBindText(s, first + 7, d.organization)
    rawBindText(s, first + 8, d.department)
    rawBindText(s, first + 9, d.title)
    rawBindText(s, first + 10, d.role)
    rawBindText(s, first + 11, d.note)
    rawBindBlob(s, first + 12, d.photo)
}

/// Binds the draft's ``rawDescribed`` fields at parameters `first`….
@inline(__always)
func rawBindDescribed(_ s: OpaquePointer, _ d: ContactDraft, from first: Int32) {
    for (i, field) in rawDescribed.enumerated() { rawBindText(s, first + Int32(i), field.spec.string(of: d)) }
}

/// One child table: its value columns (after `contact_id` and `position`), how a selected row
/// (`contact_id` first, then the value columns) becomes an entry, and how entry `i` of a draft's
/// list is bound (value parameters from 3; 1 and 2 are `contact_id` and `position`).
struct RawChildTable: Sendable {
    let name: String
    let columns: String
    let count: @Sendable (ContactDraft) -> Int
    let read: @Sendable (OpaquePointer, inout ContactDraft) -> Void
    let bind: @Sendable (OpaquePointer, ContactDraft, Int) -> Void

    static let emails = labeled("contact_emails", { $0.emails }, { $0.emails.append($1) })
    static let phones = labeled("contact_phones", { $0.phones }, { $0.phones.append($1) })
    static let addresses = RawChildTable(
        name: "contact_addresses", columns: "label, po_box, extended, street, locality, region, postal_code, country, preferred",
        count: { $0.addresses.count },
        read: { s, d in
            d.addresses.append(PostalAddress(
                label: rawColumnText(s, 1), poBox: rawColumnText(s, 2), extended: rawColumnText(s, 3), street: rawColumnText(s, 4),
                locality: rawColumnText(s, 5), region: rawColumnText(s, 6), postalCode: rawColumnText(s, 7),
                country: rawColumnText(s, 8), preferred: sqlite3_column_int(s, 9) != 0))
        },
        bind: { s, d, i in
            let a = d.addresses[i]
            rawBindText(s, 3, a.label)
            rawBindText(s, 4, a.poBox)
            rawBindText(s, 5, a.extended)
            rawBindText(s, 6, a.street)
            rawBindText(s, 7, a.locality)
            rawBindText(s, 8, a.region)
            rawBindText(s, 9, a.postalCode)
            rawBindText(s, 10, a.country)
            sqlite3_bind_int(s, 11, a.preferred ? 1 : 0)
        })
    static let urls = labeled("contact_urls", { $0.urls }, { $0.urls.append($1) })
    static let handles = labeled("contact_handles", { $0.handles }, { $0.handles.append($1) })
    static let dates = RawChildTable(
        name: "contact_dates", columns: "label, date", count: { $0.dates.count },
        read: { s, d in
            // Carnet's public parser, as Carnet reads it.
            guard let date = ContactDate.parseDate(rawColumnText(s, 2)) else { return }
            d.dates.append(ContactDate(label: rawColumnText(s, 1), year: date.year, month: date.month, day: date.day))
        },
        bind: { s, d, i in
            rawBindText(s, 3, d.dates[i].label)
            rawBindText(s, 4, d.dates[i].dateText)
        })
    static let categories = RawChildTable(
        name: "contact_categories", columns: "name", count: { $0.categories.count },
        read: { s, d in d.categories.append(rawColumnText(s, 1)) },
        bind: { s, d, i in rawBindText(s, 3, d.categories[i]) })
    static let extras = RawChildTable(
        name: "contact_extras", columns: "line", count: { $0.extras.count },
        read: { s, d in d.extras.append(rawColumnText(s, 1)) },
        bind: { s, d, i in rawBindText(s, 3, d.extras[i]) })

    /// A table of labelled values (`label, value, preferred`), its list reached through closures
    /// as Carnet's `ContactChildTable.labeled` reaches it, so both sides pay the same calls.
    private static func labeled(
        _ name: String, _ list: @escaping @Sendable (ContactDraft) -> [LabeledValue],
        _ append: @escaping @Sendable (inout ContactDraft, LabeledValue) -> Void
    ) -> RawChildTable {
        RawChildTable(
            name: name, columns: "label, value, preferred", count: { list($0).count },
            read: { s, d in append(&d, LabeledValue(rawColumnText(s, 2), label: rawColumnText(s, 1), preferred: sqlite3_column_int(s, 3) != 0)) },
            bind: { s, d, i in
                let entry = list(d)[i]
                rawBindText(s, 3, entry.label)
                rawBindText(s, 4, entry.value)
                sqlite3_bind_int(s, 5, entry.preferred ? 1 : 0)
            })
    }

    /// In Carnet's order (the order `ContactChildTable.all` reads and writes them).
    static let all: [RawChildTable] = [emails, phones, addresses, urls, handles, dates, categories, extras]

    var parameterCount: Int { columns.split(separator: ",").count }
}

/// The statements that write contacts: one INSERT for the row and, per child table, one INSERT
/// and one DELETE of a contact's rows. Prepared once, reset and rebound for every use.
final class RawContactWriter {
    private let db: RawConnection
    private let insertRow: OpaquePointer
    private let insertChild: [OpaquePointer]
    private let deleteChild: [OpaquePointer]
    private let updateRow: OpaquePointer
    /// The search index's statements (schemas 6 and 8), when the file has the index, kept as Carnet
    /// keeps it: the connection's triggers off (``RawConnection``), each contact's document written
    /// once after its rows, from ``SearchDocument``; an edit takes out the stored contact's document.
    private let search: [OpaquePointer]
    var indexes: Bool { !search.isEmpty }

    init(_ db: RawConnection) throws {
        self.db = db
        let columns = SearchDocument.columns.joined(separator: ", ")
        let probe = try db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'contact_search'")
        let hasIndex = sqlite3_step(probe) == SQLITE_ROW && sqlite3_column_int(probe, 0) == 1
        sqlite3_finalize(probe)
        search = hasIndex ? try [
            "INSERT INTO contact_search (rowid, \(columns)) VALUES (?, \(SearchDocument.columns.map { _ in "?" }.joined(separator: ", ")))",
            "INSERT INTO contact_search (contact_search, rowid, \(columns)) VALUES ('delete', ?, \(SearchDocument.columns.map { _ in "?" }.joined(separator: ", ")))",
        ].map { try db.prepare($0) } : []
        insertRow = try db.prepare("""
            INSERT INTO contacts (uid, name, name_prefix, given_name, additional_names, family_name, name_suffix, nickname,
                                  organization, department, title, role, note, photo, created_at, updated_at, version,
                                  sort_given, sort_family\(rawDescribed.map { ", " + $0.column }.joined()))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?\(rawDescribed.map { _ in ", ?" }.joined()))
            """)
        updateRow = try db.prepare("""
            UPDATE contacts SET name = ?, name_prefix = ?, given_name = ?, additional_names = ?, family_name = ?,
                                name_suffix = ?, nickname = ?, organization = ?, department = ?, title = ?, role = ?, note = ?,
                                photo = ?, sort_given = ?, sort_family = ?, updated_at = ?, version = version + 1\
                                \(rawDescribed.map { ", \($0.column) = ?" }.joined())
            WHERE id = ? AND version = ?
            """)
        insertChild = try RawChildTable.all.map { table in
            let marks = Array(repeating: "?", count: table.parameterCount + 2).joined(separator: ", ")
            return try db.prepare("INSERT INTO \(table.name) (contact_id, position, \(table.columns)) VALUES (\(marks))")
        }
        deleteChild = try RawChildTable.all.map { try db.prepare("DELETE FROM \($0.name) WHERE contact_id = ?") }
    }

    deinit {
        for statement in [insertRow, updateRow] + insertChild + deleteChild + search { sqlite3_finalize(statement) }
    }

    private func step(_ statement: OpaquePointer, _ what: String) throws {
        let rc = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard rc == SQLITE_DONE else { throw BenchError("raw \(what): \(db.lastError)") }
    }

    /// Replaces contact `id`'s document (`stored`'s) with `draft`'s when `body`'s writes changed it.
    func reindex(id: Int64, from stored: ContactDraft, to draft: ContactDraft, _ body: () throws -> Void) throws {
        try body()
        guard indexes else { return }
        let before = SearchDocument(stored).texts
        let after = SearchDocument(draft).texts
        guard after != before else { return }
        try bindDocument(search[1], id, before)
        try step(search[1], "take a document out of the index")
        try bindDocument(search[0], id, after)
        try step(search[0], "index")
    }

    /// Binds a contact's id, then its document, to the index's insert or delete.
    private func bindDocument(_ statement: OpaquePointer, _ id: Int64, _ document: [String]) throws {
        sqlite3_bind_int64(statement, 1, id)
        for (i, text) in document.enumerated() { rawBindText(statement, Int32(i + 2), text) }
    }

    /// Inserts the contact row and every entry of every list, and indexes it; returns the new id.
    func insert(_ draft: ContactDraft, uid: String, stamp: String) throws -> Int64 {
        rawBindText(insertRow, 1, uid)
        rawBindRowFields(insertRow, draft, from: 2)
        rawBindText(insertRow, 15, stamp)
        rawBindText(insertRow, 16, stamp)
        // Schema 5 stores the sort columns (SQLite 3.40's session extension cannot record a table
        // with generated columns); Carnet writes them with the row, and so does the raw side.
        rawBindText(insertRow, 17, draft.sortText(.given))
        rawBindText(insertRow, 18, draft.sortText(.family))
        rawBindDescribed(insertRow, draft, from: 19)
        try step(insertRow, "insert")
        let id = sqlite3_last_insert_rowid(db.handle)
        for index in RawChildTable.all.indices { try insertList(index, of: draft, id: id) }
        if indexes {
            try bindDocument(search[0], id, SearchDocument(draft).texts)
            try step(search[0], "index")
        }
        return id
    }

    /// Inserts the entries of list `index` (of ``RawChildTable/all``) for contact `id`.
    func insertList(_ index: Int, of draft: ContactDraft, id: Int64) throws {
        let table = RawChildTable.all[index]
        let count = table.count(draft)
        guard count > 0 else { return }
        let statement = insertChild[index]
        for i in 0..<count {
            sqlite3_bind_int64(statement, 1, id)
            sqlite3_bind_int64(statement, 2, Int64(i + 1))
            table.bind(statement, draft, i)
            try step(statement, "insert into \(table.name)")
        }
    }

    /// Deletes contact `id`'s rows in list `index`.
    func deleteList(_ index: Int, id: Int64) throws {
        sqlite3_bind_int64(deleteChild[index], 1, id)
        try step(deleteChild[index], "delete from \(RawChildTable.all[index].name)")
    }

    /// The benchmark's raw edit, inside the caller's transaction: `draft`'s row over contact
    /// `base`, and list `list` (the one the edit changed) rewritten, with the search index kept as
    /// Carnet keeps it (the document replaced once, if its texts changed).
    func saveEdit(_ draft: ContactDraft, over base: Contact, list: Int) throws {
        try reindex(id: base.id, from: base.draft, to: draft) {
            guard try updateRow(draft, id: base.id, expecting: base.version, updatedAt: Timestamp.string(Timestamp.now()))
            else { throw BenchError("raw edit of \(base.id): not version \(base.version)") }
            try deleteList(list, id: base.id)
            try insertList(list, of: draft, id: base.id)
        }
    }

    /// Writes `draft`'s row over contact `id` if its version is `version`; false if it is not.
    func updateRow(_ draft: ContactDraft, id: Int64, expecting version: Int, updatedAt: String) throws -> Bool {
        rawBindRowFields(updateRow, draft, from: 1)
        rawBindText(updateRow, 14, draft.sortText(.given))
        rawBindText(updateRow, 15, draft.sortText(.family))
        rawBindText(updateRow, 16, updatedAt)
        rawBindDescribed(updateRow, draft, from: 17)
        let next = Int32(17 + rawDescribed.count)
        sqlite3_bind_int64(updateRow, next, id)
        sqlite3_bind_int64(updateRow, next + 1, Int64(version))
        try step(updateRow, "update")
        return sqlite3_changes(db.handle) == 1
    }
}

/// The benchmark's raw edit as one whole transaction, the same on every edit row: BEGIN
/// IMMEDIATE, ``RawContactWriter/saveEdit(_:over:list:)`` of a new title, organization and
/// preferred email's value (the row and the emails list written), COMMIT; ROLLBACK if it fails.
final class RawEditTransaction {
    private let db: RawConnection
    private let writer: RawContactWriter
    private let begin: OpaquePointer
    private let commit: OpaquePointer
    private let emails = RawChildTable.all.firstIndex { $0.name == "contact_emails" }!

    init(_ db: RawConnection) throws {
        self.db = db
        writer = try RawContactWriter(db)
        begin = try db.prepare("BEGIN IMMEDIATE")
        commit = try db.prepare("COMMIT")
    }

    deinit { for statement in [begin, commit] { sqlite3_finalize(statement) } }

    func edit(_ base: Contact, title: String, organization: String, email: String) throws {
        var draft = base.draft
        draft.title = title
        draft.organization = organization
        let preferred = draft.emails.firstIndex(where: \.preferred) ?? 0
        draft.emails[preferred].value = email
        guard sqlite3_step(begin) == SQLITE_DONE else { throw BenchError("BEGIN: \(db.lastError)") }
        sqlite3_reset(begin)
        do {
            try writer.saveEdit(draft, over: base, list: emails)
        } catch {
            try? db.exec("ROLLBACK")
            throw error
        }
        guard sqlite3_step(commit) == SQLITE_DONE else { throw BenchError("COMMIT: \(db.lastError)") }
        sqlite3_reset(commit)
    }
}

/// The statements that read contacts' lists: per child table, one over a set of ids
/// (`contact_id IN (?, …)`, `capacity` parameters, as many as a page has rows; unused ones NULL),
/// or, with a capacity of 0, one over the whole table in key order.
final class RawListReader {
    private let db: RawConnection
    let capacity: Int
    private let byIDs: [OpaquePointer]
    private let everything: [OpaquePointer]

    init(_ db: RawConnection, capacity: Int) throws {
        self.db = db
        self.capacity = capacity
        let marks = Array(repeating: "?", count: capacity).joined(separator: ", ")
        byIDs = capacity == 0 ? [] : try RawChildTable.all.map { table in
            try db.prepare("""
                SELECT contact_id, \(table.columns) FROM \(table.name) WHERE contact_id IN (\(marks)) ORDER BY contact_id, position
                """)
        }
        everything = capacity > 0 ? [] : try RawChildTable.all.map { table in
            try db.prepare("SELECT contact_id, \(table.columns) FROM \(table.name) ORDER BY contact_id, position")
        }
    }

    deinit {
        for statement in byIDs + everything { sqlite3_finalize(statement) }
    }

    /// Attaches the lists of up to ``capacity`` rows (a page, or one contact).
    func attach(_ rows: inout [RawRow]) throws {
        precondition(rows.count <= capacity)
        guard !rows.isEmpty else { return }
        for (index, table) in RawChildTable.all.enumerated() {
            let statement = byIDs[index]
            for i in 0..<capacity {
                if i < rows.count { sqlite3_bind_int64(statement, Int32(i + 1), rows[i].id) } else { sqlite3_bind_null(statement, Int32(i + 1)) }
            }
            defer { sqlite3_reset(statement) }
            // Rows come grouped by contact: find each contact once, among the page's few.
            var current: Int64 = -1
            var at = 0
            while true {
                let rc = sqlite3_step(statement)
                guard rc == SQLITE_ROW else {
                    if rc == SQLITE_DONE { break }
                    throw BenchError("raw lists of a page: \(db.lastError)")
                }
                let id = sqlite3_column_int64(statement, 0)
                if id != current {
                    current = id
                    at = rows.firstIndex { $0.id == id } ?? -1
                }
                if at >= 0 { table.read(statement, &rows[at].draft) }
            }
        }
    }

    /// Attaches every contact's lists: one pass over each child table (capacity 0 only).
    func attachAll(_ rows: inout [RawRow]) throws {
        var index: [Int64: Int] = [:]
        index.reserveCapacity(rows.count)
        for (i, row) in rows.enumerated() { index[row.id] = i }
        for (t, table) in RawChildTable.all.enumerated() {
            let statement = everything[t]
            defer { sqlite3_reset(statement) }
            while true {
                let rc = sqlite3_step(statement)
                guard rc == SQLITE_ROW else {
                    if rc == SQLITE_DONE { break }
                    throw BenchError("raw lists: \(db.lastError)")
                }
                guard let i = index[sqlite3_column_int64(statement, 0)] else { continue }
                table.read(statement, &rows[i].draft)
            }
        }
    }
}
