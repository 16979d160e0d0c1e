import CarnetModels
import GRDBSQLite

/// The raw side of keyset paging: the page's rows by two statements prepared once and reused
/// for every page (`sqlite3_reset` + rebind), then the page's lists by one statement per child
/// table over the page's ids, which is what hand-written C would do.
///
/// Same SQL shape as Carnet's `StorageController.contacts(after:limit:)`: `limit + 1` rows tell
/// whether another page follows, and the extra row is dropped.
final class RawPager {
    private let first: OpaquePointer
    private let next: OpaquePointer
    private let pages: RawPageReader

    init(_ db: RawConnection, limit: Int) throws {
        first = try db.prepare("SELECT \(rawContactColumns) FROM contacts ORDER BY name, id LIMIT \(limit + 1)")
        next = try db.prepare(
            "SELECT \(rawContactColumns) FROM contacts WHERE (name, id) > (?, ?) ORDER BY name, id LIMIT \(limit + 1)")
        pages = try RawPageReader(db, limit: limit)
    }

    deinit {
        sqlite3_finalize(first)
        sqlite3_finalize(next)
    }

    /// Up to `limit` contacts in name order after `key` (from the start when nil), with their lists.
    func page(after key: ContactSortKey?) throws -> ContactPage {
        let statement: OpaquePointer
        if let key {
            statement = next
            rawBindText(next, 1, key.name)
            sqlite3_bind_int64(next, 2, key.id)
        } else {
            statement = first
        }
        return try pages.read(statement, what: "page")
    }

    /// One contact by id, with its lists (what a detail screen holds before an edit).
    func contact(id: Int64) throws -> Contact {
        let statement = try pages.db.prepare("SELECT \(rawContactColumns) FROM contacts WHERE id = ?")
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, id)
        guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchError("raw: no contact \(id)") }
        var rows = [rawReadRow(statement)]
        try pages.lists.attach(&rows)
        return rows[0].contact
    }
}

/// What the raw pager and the raw search share: a page's rows from a statement asking for
/// `limit + 1` (the extra row tells whether another page follows, and is dropped), then the
/// page's lists by one statement per child table.
struct RawPageReader {
    let db: RawConnection
    let limit: Int
    let lists: RawListReader

    init(_ db: RawConnection, limit: Int) throws {
        self.db = db
        self.limit = limit
        lists = try RawListReader(db, capacity: limit + 1)
    }

    func read(_ statement: OpaquePointer, what: String) throws -> ContactPage {
        var rows = try rawRows(statement, db, capacity: limit + 1, what: what)
        let hasMore = rows.count > limit
        if hasMore { rows.removeLast() }
        try lists.attach(&rows)
        return ContactPage(contacts: rows.map(\.contact), hasMore: hasMore)
    }
}

/// Every contact in name order with its lists: one statement for the rows, then one pass over
/// each child table. The raw side of `allContacts()`.
func rawAllContacts(_ db: RawConnection) throws -> [Contact] {
    let statement = try db.prepare("SELECT \(rawContactColumns) FROM contacts ORDER BY name, id")
    defer { sqlite3_finalize(statement) }
    var rows = try rawRows(statement, db, what: "load all")
    try RawListReader(db, capacity: 0).attachAll(&rows)
    return rows.map(\.contact)
}

/// Every row `statement` gives, read by ``rawReadRow(_:)``; the statement is reset after.
func rawRows(_ statement: OpaquePointer, _ db: RawConnection, capacity: Int = 0, what: String) throws -> [RawRow] {
    var rows: [RawRow] = []
    rows.reserveCapacity(capacity)
    defer { sqlite3_reset(statement) }
    while true {
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW {
            rows.append(rawReadRow(statement))
        } else if rc == SQLITE_DONE {
            return rows
        } else {
            throw BenchError("\(what): \(db.lastError)")
        }
    }
}
