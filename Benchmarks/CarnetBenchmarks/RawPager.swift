import CarnetModels
import GRDBSQLite

/// The raw side of keyset paging: two statements prepared once and reused for every page
/// (`sqlite3_reset` + rebind), which is what hand-written C would do.
///
/// Same SQL shape as Carnet's `StorageController.contacts(after:limit:)`: `limit + 1` rows tell
/// whether another page follows, and the extra row is dropped.
final class RawPager {
    let limit: Int
    private let first: OpaquePointer
    private let next: OpaquePointer
    private let db: RawConnection

    init(_ db: RawConnection, limit: Int) throws {
        self.db = db
        self.limit = limit
        first = try db.prepare("SELECT \(rawContactColumns) FROM contacts ORDER BY name, id LIMIT \(limit + 1)")
        next = try db.prepare(
            "SELECT \(rawContactColumns) FROM contacts WHERE (name, id) > (?, ?) ORDER BY name, id LIMIT \(limit + 1)")
    }

    deinit {
        sqlite3_finalize(first)
        sqlite3_finalize(next)
    }

    /// Up to `limit` contacts in name order after `key` (from the start when nil).
    func page(after key: ContactSortKey?) throws -> ContactPage {
        let statement: OpaquePointer
        if let key {
            statement = next
            rawBindText(next, 1, key.name)
            sqlite3_bind_int64(next, 2, key.id)
        } else {
            statement = first
        }
        defer { sqlite3_reset(statement) }
        var contacts: [Contact] = []
        contacts.reserveCapacity(limit + 1)
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_ROW {
                contacts.append(rawReadContact(statement))
            } else if rc == SQLITE_DONE {
                break
            } else {
                throw BenchError("page: \(db.lastError)")
            }
        }
        let hasMore = contacts.count > limit
        if hasMore { contacts.removeLast() }
        return ContactPage(contacts: contacts, hasMore: hasMore)
    }
}

/// Every contact in name order, read by one statement: the raw side of `allContacts()`.
func rawAllContacts(_ db: RawConnection) throws -> [Contact] {
    let statement = try db.prepare("SELECT \(rawContactColumns) FROM contacts ORDER BY name, id")
    defer { sqlite3_finalize(statement) }
    var contacts: [Contact] = []
    while true {
        let rc = sqlite3_step(statement)
        if rc == SQLITE_ROW {
            contacts.append(rawReadContact(statement))
        } else if rc == SQLITE_DONE {
            return contacts
        } else {
            throw BenchError("load all: \(db.lastError)")
        }
    }
}
