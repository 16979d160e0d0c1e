import CarnetModels
import CarnetState
import Observation

/// One row of a contacts list.
public struct ContactRow: Sendable, Equatable, Identifiable {
    public let contact: Contact
    public let isFavorite: Bool
    /// The place in the favorites order (1 is first) when favorite.
    public let favoritePosition: Int?

    public var id: Int64 { contact.id }
}

/// One line of a listing: a contact's summary and its place among the favorites.
public struct ContactSummaryRow: Sendable, Equatable, Identifiable {
    public let summary: ContactSummary
    public let isFavorite: Bool
    /// The place in the favorites order (1 is first) when favorite.
    public let favoritePosition: Int?

    public init(summary: ContactSummary, isFavorite: Bool, favoritePosition: Int?) {
        self.summary = summary
        self.isFavorite = isFavorite
        self.favoritePosition = favoritePosition
    }

    public var id: Int64 { summary.id }
}

/// The contacts tab, or with `favoritesOnly` the favorites tab. Two of them sharing one
/// `StateController` stay in step: favorite a row in one, the other shows it at once.
@MainActor
@Observable
public final class ContactsViewModel {
    public let favoritesOnly: Bool
    /// Which rows, in which order: search text, category and sort. Setting any of them (with
    /// `setSearch(_:)`, `setCategory(_:)`, `setOrder(_:)`) starts the list over.
    public private(set) var query = ContactQuery()
    /// Filters rows as the search index finds them (see `SearchQuery`): every
    /// word, in any order, starts a word of the contact's texts, ignoring case and accents.
    public var search: String { query.search }
    /// The contact last changed through a detail screen opened from this list, to scroll to
    /// and highlight when the list appears again (set through `ContactDetailViewModelDelegate`).
    public private(set) var highlightedID: Int64?

    @ObservationIgnored private let state: StateController
    private var list: ContactList

    /// The address book this list shows, passed forward by the screen that opened it; nil for
    /// every book.
    public let book: AddressBook?

    /// - Parameters:
    ///   - state: the state shared by every screen.
    ///   - favoritesOnly: the favorites tab's list rather than every contact.
    ///   - book: only this address book's contacts (nil: every book's).
    ///   - pageSize: rows read per page.
    ///   - maxRows: at most this many rows are held.
    public init(state: StateController, favoritesOnly: Bool = false, book: AddressBook? = nil, pageSize: Int = 50, maxRows: Int = 500) {
        self.state = state
        self.favoritesOnly = favoritesOnly
        self.book = book
        let query = ContactQuery(bookID: book?.id)
        self.query = query
        list = state.makeContactList(query: query, pageSize: pageSize, maxRows: maxRows)
    }

    /// The add-contact screen for this list: a new contact goes to its book.
    public func add() -> EditContactViewModel {
        EditContactViewModel(state: state, addingTo: book)
    }

    /// The rows to show, in order: favorites in the user's order, or all contacts by name.
    public var rows: [ContactRow] {
        if favoritesOnly {
            return state.favorites
                .filter { query.matches($0.contact) }
                .map { ContactRow(contact: $0.contact, isFavorite: true, favoritePosition: $0.position) }
        }
        let positions = Dictionary(uniqueKeysWithValues: state.favorites.map { ($0.contact.id, $0.position) })
        return list.rows.map { ContactRow(contact: $0, isFavorite: positions[$0.id] != nil, favoritePosition: positions[$0.id]) }
    }

    /// Whether more rows follow (call `loadNextPage()`).
    public var hasMore: Bool { favoritesOnly ? false : list.hasMore }
    /// Whether rows were dropped from the top to bound memory (call `loadPreviousPage()`).
    public var hasEarlier: Bool { favoritesOnly ? false : list.hasEarlier }
    /// How many contacts the tab holds in all (not just the rows loaded).
    public var totalCount: Int { favoritesOnly ? state.favorites.count : state.contactCount }
    /// How many contacts match `search` (all the rows, not just those loaded), as of the last
    /// `onAppear()` or `setSearch(_:)`; `totalCount` when there is no search.
    public var matchCount: Int {
        if !query.isFiltered { return totalCount }
        return favoritesOnly ? rows.count : searchCount
    }
    private var searchCount = 0

    /// The screen appears: pick up changes made elsewhere, and load the first page if needed.
    public func onAppear() throws(CarnetError) {
        try state.refresh()
        if !favoritesOnly && list.rows.isEmpty && list.hasMore { try list.loadNextPage() }
        try countMatches()
    }

    private func countMatches() throws(CarnetError) {
        searchCount = favoritesOnly || !query.isFiltered ? 0 : try state.contactCount(query: query)
    }

    /// Hands `body` every row of the tab from the first, in order, at most `limit`, keeping none:
    /// for a screen that shows each row once and moves on, as `carnet list` does. Contacts are
    /// read `pageSize` at a time (favorites are already in the state); only those matching
    /// `search` (see `setSearch(_:)`) are shown. First picks up changes made elsewhere, as
    /// `onAppear()` does; `rows` is left as it is.
    public func forEachRow(
        matching search: String = "", limit: Int = .max, pageSize: Int = 500, _ body: (ContactRow) throws(CarnetError) -> Void
    ) throws(CarnetError) {
        try forEachRow(query: ContactQuery(search: search), limit: limit, pageSize: pageSize, body)
    }

    /// `forEachRow(matching:limit:pageSize:_:)` for a whole query: search, category and order
    /// (favorites keep the user's order).
    public func forEachRow(
        query: ContactQuery, limit: Int = .max, pageSize: Int = 500, _ body: (ContactRow) throws(CarnetError) -> Void
    ) throws(CarnetError) {
        _ = try SearchQuery(query.search)
        try state.refresh()
        if favoritesOnly {
            for favorite in state.favorites.lazy.filter({ query.matches($0.contact) }).prefix(limit) {
                try body(ContactRow(contact: favorite.contact, isFavorite: true, favoritePosition: favorite.position))
            }
            return
        }
        let positions = Dictionary(uniqueKeysWithValues: state.favorites.map { ($0.contact.id, $0.position) })
        try state.forEachContact(query: query, limit: limit, pageSize: pageSize) { contact throws(CarnetError) in
            let position = positions.isEmpty ? nil : positions[contact.id]
            try body(ContactRow(contact: contact, isFavorite: position != nil, favoritePosition: position))
        }
    }

    /// `forEachRow(query:limit:pageSize:_:)` for a listing that shows each contact on one line
    /// (name, position, preferred email and phone): only that is read, so a long listing costs
    /// a fraction of whole contacts.
    public func forEachSummaryRow(
        query: ContactQuery, limit: Int = .max, pageSize: Int = 500, _ body: (ContactSummaryRow) throws(CarnetError) -> Void
    ) throws(CarnetError) {
        try Limits.checkSearch(query.search)
        try state.refresh()
        if favoritesOnly {
            for favorite in state.favorites.lazy.filter({ query.matches($0.contact) }).prefix(limit) {
                try body(ContactSummaryRow(summary: ContactSummary(favorite.contact), isFavorite: true, favoritePosition: favorite.position))
            }
            return
        }
        let positions = Dictionary(uniqueKeysWithValues: state.favorites.map { ($0.contact.id, $0.position) })
        try state.forEachSummary(query: query, limit: limit, pageSize: pageSize) { summary throws(CarnetError) in
            let position = positions.isEmpty ? nil : positions[summary.id]
            try body(ContactSummaryRow(summary: summary, isFavorite: position != nil, favoritePosition: position))
        }
    }

    public func loadNextPage() throws(CarnetError) {
        if !favoritesOnly { try list.loadNextPage() }
    }

    public func loadPreviousPage() throws(CarnetError) {
        if !favoritesOnly { try list.loadPreviousPage() }
    }

    /// Shows only contacts matching `text`, from the first page; empty shows every contact. Text
    /// longer than `Limits.searchLength`, or with no letter or digit, throws
    /// `CarnetError.invalidSearch(_:)` and leaves the list as it was. With
    /// `setOrder(_:)` `.relevance`, the best matches come first.
    public func setSearch(_ text: String) throws(CarnetError) {
        _ = try SearchQuery(text)
        var query = query
        query.search = text
        try setQuery(query)
    }

    /// Shows only contacts in `category` (empty: every contact), from the first page.
    public func setCategory(_ category: String) throws(CarnetError) {
        var query = query
        query.category = category
        try setQuery(query)
    }

    /// Sorts by display name, given name or family name, or by relevance to the search, from the
    /// first page.
    public func setOrder(_ order: ContactOrder) throws(CarnetError) {
        var query = query
        query.order = order
        try setQuery(query)
    }

    private func setQuery(_ query: ContactQuery) throws(CarnetError) {
        self.query = query
        guard !favoritesOnly else { return }
        list = state.makeContactList(query: query, pageSize: list.pageSize, maxRows: list.maxRows)
        try list.loadNextPage()
        try countMatches()
    }

    /// Makes contact `id` a favorite (last, or at `position`, 1 for first) and returns the
    /// place it has now.
    @discardableResult
    public func favorite(_ id: Int64, at position: Int? = nil) throws(CarnetError) -> Int {
        try state.favorite(id, at: position)
        return state.favorites.first { $0.contact.id == id }?.position ?? 0
    }

    public func unfavorite(_ id: Int64) throws(CarnetError) {
        try state.unfavorite(id)
    }

    public func toggleFavorite(_ id: Int64) throws(CarnetError) {
        if state.isFavorite(id) { try state.unfavorite(id) } else { try state.favorite(id) }
    }

    /// Moves a favorite to `position` (1 is first).
    public func moveFavorite(_ id: Int64, to position: Int) throws(CarnetError) {
        try state.moveFavorite(id, to: position)
    }

    /// The detail screen for a row: the contact is passed forward, the state injected, and this
    /// list hears back through the delegate protocol.
    public func detail(for contact: Contact) -> ContactDetailViewModel {
        let detail = ContactDetailViewModel(state: state, contact: contact)
        detail.delegate = self
        return detail
    }

    /// The detail screen for a contact id (reads the contact first). A group's id is refused
    /// (`CarnetError.groupIsNotAContact(id:name:_:)`, naming the group commands): a contact's
    /// screens would show and edit its name as a person's. `card(forID:)` opens either.
    public func detail(forID id: Int64) throws(CarnetError) -> ContactDetailViewModel {
        let contact = try state.contact(id: id)
        guard contact.kind == .individual else {
            throw .groupIsNotAContact(
                id: id, name: contact.name,
                "carnet group rename \(id) NAME renames it, carnet group add-member \(id) ID… and remove-member change its members, "
                    + "carnet group show \(id) shows them")
        }
        return detail(for: contact)
    }

    /// The contact `words` names, as a person names one on a command line: a whole number is an
    /// id (unless `searchOnly`, for a phone number's digits); other words are the search
    /// `carnet list --search` runs, which must find one contact. Several found, one whose whole
    /// name is the words (ignoring case and accents) is the one meant; otherwise
    /// `CarnetError.severalContactsMatch(_:candidates:total:)` names the first `candidates`, best
    /// first. None found throws `CarnetError.noContactMatches(_:)`. An id is returned unread: the
    /// screen it opens says if nothing has it.
    public func contactID(named words: String, searchOnly: Bool = false, candidates: Int = 10) throws(CarnetError) -> Int64 {
        let trimmed = Rules.trimmed(words)
        if !searchOnly, !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let id = Int64(trimmed) {
            return id
        }
        guard !SearchText.tokens(trimmed).isEmpty else { throw .noContactMatches(words) }
        _ = try SearchQuery(trimmed)
        try state.refresh()
        let query = ContactQuery(search: trimmed, order: .relevance, bookID: book?.id)
        var found: [ContactSummary] = []
        try state.forEachSummary(query: query, limit: max(candidates, 1) + 1, pageSize: max(candidates, 1) + 1) { summary throws(CarnetError) in
            found.append(summary)
        }
        if found.count == 1 { return found[0].id }
        guard !found.isEmpty else { throw .noContactMatches(words) }
        let total = found.count > candidates ? try state.contactCount(query: query) : found.count
        // A whole name beats a name it starts ("Ada King" over "Ada Kingsley"), if it is the
        // only contact of that name among all the matches (which may not all have been read).
        let wanted = SearchText.tokens(trimmed)
        let named = found.filter { SearchText.tokens($0.name) == wanted }
        if named.count == 1, total == found.count { return named[0].id }
        throw .severalContactsMatch(words, candidates: Array(found.prefix(candidates)), total: total)
    }

    /// What an id opens. Contacts and groups share one space of ids (a group is a card of its
    /// own), so an id is either.
    public enum Card {
        /// A contact's detail screen (delegate: this list).
        case contact(ContactDetailViewModel)
        /// A group's screen.
        case group(GroupDetailViewModel)
    }

    /// The screen of the card with that id: a contact's detail, or a group's screen.
    public func card(forID id: Int64) throws(CarnetError) -> Card {
        let contact = try state.contact(id: id)
        switch contact.kind {
        case .individual: return .contact(detail(for: contact))
        case .group: return .group(GroupDetailViewModel(state: state, group: contact))
        }
    }
}

extension ContactsViewModel: ContactDetailViewModelDelegate {
    public func contactDetail(didUpdate contact: Contact) {
        highlightedID = contact.id
    }

    public func contactDetail(didDelete contactID: Int64) {
        if highlightedID == contactID { highlightedID = nil }
    }
}
