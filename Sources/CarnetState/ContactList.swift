import CarnetModels
import CarnetStorage
import Observation

/// A window onto the name-sorted contact list: the rows a screen shows, read by keyset pages.
///
/// It holds at most about `maxRows` contacts: scrolling down past that drops rows from the top
/// (``hasEarlier`` becomes true) and ``loadPreviousPage()`` reads them back. The
/// ``StateController`` that made it inserts, moves and removes rows as contacts are saved, so
/// its rows are always exactly the stored contacts between its first and last row.
@MainActor
@Observable
public final class ContactList {
    /// The contacts shown, in name order.
    public private(set) var rows: [Contact] = []
    /// Whether contacts follow the last row.
    public private(set) var hasMore = true
    /// Whether contacts precede the first row (dropped to bound memory, or not yet read).
    public private(set) var hasEarlier = false
    /// Which contacts, in which order.
    public let query: ContactQuery
    /// Only contacts matching this (see `SearchQuery`).
    public var search: String { query.search }
    public let pageSize: Int
    public let maxRows: Int

    @ObservationIgnored private let storage: StorageController

    init(storage: StorageController, query: ContactQuery, pageSize: Int, maxRows: Int) {
        self.storage = storage
        self.query = query
        self.pageSize = max(1, pageSize)
        self.maxRows = max(self.pageSize * 2, maxRows)
    }

    /// Reads the page after the last row.
    public func loadNextPage() throws(CarnetError) {
        guard hasMore else { return }
        let page = try storage.contacts(after: rows.last.map(query.sortKey(of:)), limit: pageSize, query: query)
        rows += page.contacts
        hasMore = page.hasMore
        if rows.count > maxRows {
            rows.removeFirst(rows.count - maxRows)
            hasEarlier = true
        }
    }

    /// Reads the page before the first row (after rows were dropped from the top).
    public func loadPreviousPage() throws(CarnetError) {
        guard hasEarlier, let first = rows.first else { return }
        let page = try storage.contacts(before: query.sortKey(of: first), limit: pageSize, query: query)
        rows = page.contacts + rows
        hasEarlier = page.hasMore
        trimEnd()
    }

    /// Reads the rows again from the same starting point, as many as are shown (at least a page).
    public func reload() throws(CarnetError) {
        let count = max(rows.count, pageSize)
        let start = hasEarlier ? rows.first.map { first in
            let key = query.sortKey(of: first)
            return ContactSortKey(rank: key.rank, name: key.name, id: key.id - 1)
        } : nil
        if hasEarlier, start == nil { hasEarlier = false }
        let page = try storage.contacts(after: start, limit: count, query: query)
        rows = page.contacts
        hasMore = page.hasMore
        if rows.isEmpty && hasEarlier {
            hasEarlier = false
            try loadNextPage()
        }
    }

    /// Puts a saved contact where it now belongs: moved if renamed, added if new and inside the
    /// window's range, dropped if it no longer matches the search.
    func upsert(_ contact: Contact) {
        let lower = hasEarlier ? rows.first.map(query.sortKey(of:)) : nil
        let upper = hasMore ? rows.last.map(query.sortKey(of:)) : nil
        rows.removeAll { $0.id == contact.id }
        guard query.matches(contact) else { return }
        let key = query.sortKey(of: contact)
        if hasEarlier, lower == nil || key < lower! { return }
        if hasMore, upper == nil || upper! < key { return }
        let index = rows.firstIndex { key < query.sortKey(of: $0) } ?? rows.endIndex
        rows.insert(contact, at: index)
        trimEnd()
    }

    func remove(id: Int64) {
        rows.removeAll { $0.id == id }
    }

    private func trimEnd() {
        if rows.count > maxRows {
            rows.removeLast(rows.count - maxRows)
            hasMore = true
        }
    }
}
