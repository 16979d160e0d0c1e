/// A position in the name-sorted contact list: name (compared like SQLite's `NOCASE`), then id;
/// in a list sorted by relevance, the contact's rank for the search before them.
///
/// Keyset pages start after a key instead of at an offset, so reading page 20,000 costs what
/// reading page 1 does, and a contact added meanwhile never shifts a row onto the wrong page.
public struct ContactSortKey: Sendable, Codable, Hashable, Comparable, CustomStringConvertible {
    /// 0 except in a list sorted by `ContactOrder/relevance` (see `SearchQuery/rank(_:)`).
    public let rank: Int
    public let name: String
    public let id: Int64

    public init(rank: Int = 0, name: String, id: Int64) {
        self.rank = rank
        self.name = name
        self.id = id
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rank = try container.decodeIfPresent(Int.self, forKey: .rank) ?? 0
        name = try container.decode(String.self, forKey: .name)
        id = try container.decode(Int64.self, forKey: .id)
    }

    public static func < (lhs: ContactSortKey, rhs: ContactSortKey) -> Bool {
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        switch Self.compareNoCase(lhs.name, rhs.name) {
        case .some(true): return true
        case .some(false): return false
        case nil: return lhs.id < rhs.id
        }
    }

    /// `true` if `a` sorts first, `false` if `b` does, `nil` if equal: NOCASE folds A-Z only,
    /// then compares UTF-8 bytes, exactly as SQLite does.
    static func compareNoCase(_ a: String, _ b: String) -> Bool? {
        var ai = a.utf8.makeIterator()
        var bi = b.utf8.makeIterator()
        while true {
            switch (ai.next(), bi.next()) {
            case (nil, nil): return nil
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?):
                let fx = asciiLower(x)
                let fy = asciiLower(y)
                if fx != fy { return fx < fy }
            }
        }
    }

    public var description: String { rank == 0 ? "\(name)#\(id)" : "\(rank):\(name)#\(id)" }
}

/// One keyset page of the name-sorted contact list.
public struct ContactPage: Sendable, Equatable {
    public let contacts: [Contact]
    /// Whether more contacts follow in the direction the page was read.
    public let hasMore: Bool

    public init(contacts: [Contact], hasMore: Bool) {
        self.contacts = contacts
        self.hasMore = hasMore
    }
}

/// Which contacts a list shows, and in which order: every word of a screen's search box, the
/// category picker and the sort menu in one value, so storage, the paged list and the screen
/// agree on what belongs.
public struct ContactQuery: Sendable, Equatable, Hashable {
    /// Only contacts matching this search text (see `SearchQuery`).
    public var search: String
    /// Only contacts in this category (ignoring A-Z case); empty for all.
    public var category: String
    public var order: ContactOrder
    /// Only contacts of this address book (`AddressBook/id`); nil for every book.
    public var bookID: Int64?

    public init(search: String = "", category: String = "", order: ContactOrder = .name, bookID: Int64? = nil) {
        self.search = search
        self.category = category
        self.order = order
        self.bookID = bookID
    }

    /// Whether `contact` belongs in the list.
    public func matches(_ contact: Contact) -> Bool {
        (bookID == nil || contact.bookID == bookID) && contact.matches(search: search) && (category.isEmpty || contact.isIn(category: category))
    }

    /// Where `contact` stands in this query's order: with `ContactOrder/relevance`, its
    /// `SearchQuery/rank(_:)` first.
    public func sortKey(of contact: Contact) -> ContactSortKey {
        guard order == .relevance else { return contact.sortKey(order) }
        let rank = (try? SearchQuery(search))?.rank(contact.draft) ?? 0
        return ContactSortKey(rank: rank, name: contact.draft.name, id: contact.id)
    }

    /// Whether the query narrows the list (a search, a category or one book).
    public var isFiltered: Bool { !search.isEmpty || !category.isEmpty || bookID != nil }
}
