import CarnetModels
import CarnetStorage
import Foundation
import Observation

/// The app state of one process: the current quote, the favorites in order, the counts, and the
/// contact lists screens are showing, page by page.
///
/// Make one at the composition root and hand it to every view model through its initializer;
/// there is no shared instance. Every change goes through it: it is written to storage first,
/// and only after the transaction commits does the in-memory state change, so every screen
/// sharing this controller sees the change at once (through Observation) and never sees a
/// change that did not happen.
///
/// ```swift
/// let storage = try StorageController(path: path)
/// let state = try StateController(storage: storage)
/// let contacts = ContactsViewModel(state: state)
/// ```
@MainActor
@Observable
public final class StateController {
    /// The quote the quote screen shows.
    public private(set) var currentQuote: Quote?
    /// The favorite contacts, in the user's order.
    public private(set) var favorites: [Favorite] = [] {
        didSet { favoriteIDs = Set(favorites.map(\.contact.id)) }
    }
    /// The ids of `favorites`, for cheap `isFavorite` checks on every row.
    public private(set) var favoriteIDs: Set<Int64> = []
    /// How many contacts there are. Counted on first use (a scan of the name index, long in a
    /// large book, so a command that never shows it never pays it), then kept up to
    /// date by this controller's own changes and recounted after `refresh()` sees others'.
    public var contactCount: Int {
        _ = contactCountRevision  // what observers of the count track
        if let known = knownContactCount { return known }
        let counted = (try? storage.contactCount()) ?? 0
        knownContactCount = counted
        return counted
    }
    @ObservationIgnored private var knownContactCount: Int?
    private var contactCountRevision = 0
    public private(set) var quoteCount = 0
    /// What undo and redo would do next, whichever process made the actions. Read on first use
    /// after a change (two indexed lookups), so a command that never shows it never pays it.
    public var historyStatus: HistoryStatus {
        _ = historyRevision  // what observers of the history track
        if let known = knownHistoryStatus { return known }
        let status = (try? storage.historyStatus()) ?? HistoryStatus(nextUndo: nil, nextRedo: nil)
        knownHistoryStatus = status
        return status
    }
    @ObservationIgnored private var knownHistoryStatus: HistoryStatus?
    private var historyRevision = 0
    /// Whether there is an action to undo.
    public var canUndo: Bool { historyStatus.nextUndo != nil }
    /// Whether there is an undone action to redo.
    public var canRedo: Bool { historyStatus.nextRedo != nil }
    /// "Undo Edit Ada Lovelace", or nil when there is nothing to undo.
    public var undoTitle: String? { historyStatus.nextUndo.map { "Undo \($0.title)" } }
    /// "Redo Edit Ada Lovelace", or nil when there is nothing to redo.
    public var redoTitle: String? { historyStatus.nextRedo.map { "Redo \($0.title)" } }
    /// The latest version of each contact this process saved or deleted (nil) since it started
    /// or last refreshed: a screen holding an older copy shows this one instead.
    public private(set) var savedContacts: [Int64: Contact?] = [:]

    @ObservationIgnored let storage: StorageController
    @ObservationIgnored private var lists: [WeakContactList] = []
    @ObservationIgnored private var lastChangeToken: Int
    /// The quote and favorites are not read yet (see `init(storage:readsHomeState:live:)`).
    @ObservationIgnored private var homeStateUnread = false
    /// The task that applies the storage's changes, while the controller is live.
    @ObservationIgnored private let liveUpdates = LiveUpdates()

    /// The last change to the file this controller applied (see `live`), whoever made it; nil
    /// until one comes. A screen can say "changed elsewhere" with it, or whether the contact it
    /// shows is among `StorageChange/contactIDs`.
    public private(set) var lastChange: StorageChange?
    /// How many changes to the file the live updates have applied: what a screen keeps that the
    /// state does not (a list it read once) is read again when this moves.
    public private(set) var appliedChangeCount = 0

    /// Reads the home screen's state from `storage` (one read transaction). With
    /// `readsHomeState` false, for a one-shot command that shows neither the quote nor the
    /// favorites (`carnet query`, started at every completion), they are read by the first
    /// `refresh()` instead.
    ///
    /// With `live`, the controller observes the file (`StorageController/changes()`) and
    /// applies every commit to it, whoever made it, to its state and every list it made, on the
    /// main actor: a screen observing a view model through Observation is redrawn with no
    /// polling code. A one-shot command leaves it off and pays nothing; `refresh()` still works.
    public init(storage: StorageController, readsHomeState: Bool = true, live: Bool = false) throws(CarnetError) {
        self.storage = storage
        lastChangeToken = try storage.externalChangeToken()
        if readsHomeState { apply(try storage.snapshot()) } else { homeStateUnread = true }
        if live { startLiveUpdates() }
    }

    /// Whether the controller applies every change to the file as it happens (see `live`).
    public var isLive: Bool { liveUpdates.isRunning }

    /// Starts applying every change to the file as it happens (see `init`'s `live`).
    public func startLiveUpdates() {
        guard !liveUpdates.isRunning else { return }
        // The stream is made now, so a commit made right after this returns is delivered.
        let changes = storage.changes()
        liveUpdates.run(Task { @MainActor [weak self] in
            for await change in changes {
                guard let self else { return }
                self.storageDidChange(change)
            }
        })
    }

    /// Stops applying changes as they happen; `refresh()` picks them up again.
    public func stopLiveUpdates() { liveUpdates.stop() }

    /// Applies a change to the file: the contacts it names are read again (and dropped where
    /// deleted) in every list, the home state is read again; an unknown change, or one of many
    /// contacts, reads everything again.
    private func storageDidChange(_ change: StorageChange) {
        do {
            lastChangeToken = try storage.externalChangeToken()
            if let ids = change.contactIDs, ids.count <= 200 {
                apply(try storage.snapshot())
                for id in ids.sorted() {
                    do {
                        didSave(try storage.contact(id: id))
                    } catch .notFound {
                        savedContacts[id] = .some(nil)
                        for list in liveLists() { list.remove(id: id) }
                    }
                }
            } else {
                try reloadEverything()
            }
        } catch {
            // The file could not be read now: the next change, or `refresh()`, reads it again.
            return
        }
        lastChange = change
        appliedChangeCount += 1
    }

    /// Where the state lives: the database file path.
    public var databasePath: String { storage.path }

    private func apply(_ snapshot: StorageSnapshot) {
        homeStateUnread = false
        historyDidChange()
        currentQuote = snapshot.currentQuote
        favorites = snapshot.favorites
        knownContactCount = nil
        contactCountRevision += 1
        quoteCount = snapshot.quoteCount
    }

    // MARK: - Appearing screens

    /// The "screen will appear" hook: picks up what other processes (or other connections)
    /// wrote to the file since this controller last looked. Costs one `PRAGMA data_version`
    /// when nothing changed. Returns whether anything did.
    @discardableResult
    public func refresh() throws(CarnetError) -> Bool {
        let token = try storage.externalChangeToken()
        guard token != lastChangeToken || homeStateUnread else { return false }
        lastChangeToken = token
        try reloadEverything()
        return true
    }

    /// Re-reads the home state and every list's rows from the file.
    func reloadEverything() throws(CarnetError) {
        apply(try storage.snapshot())
        savedContacts = [:]
        for list in liveLists() { try list.reload() }
    }

    // MARK: - Contacts

    /// Reads one contact from the file.
    public func contact(id: Int64) throws(CarnetError) -> Contact {
        try storage.contact(id: id)
    }

    /// The newest copy of `contact` this process knows: `contact` itself unless it was saved
    /// since; nil if it was deleted.
    public func latest(_ contact: Contact) -> Contact? {
        guard let saved = savedContacts[contact.id] else { return contact }
        guard let saved else { return nil }
        return saved.version >= contact.version ? saved : contact
    }

    /// Adds a contact to address book `bookID` (the default book when nil); every list whose
    /// range covers it shows it at once.
    @discardableResult
    public func addContact(_ draft: ContactDraft, bookID: Int64? = nil) throws(CarnetError) -> Contact {
        let contact = try storage.insertContact(draft, bookID: bookID)
        historyDidChange()
        if contact.kind == .individual { adjustContactCount(by: 1) }
        didSave(contact)
        return contact
    }

    /// Saves `draft` over `base`. If someone else saved the contact since `base` was read, throws
    /// `CarnetError.conflict(_:)` with both versions, unless `force`; if it was
    /// deleted, `CarnetError.deleted(_:id:)` (and every screen stops showing it).
    @discardableResult
    public func updateContact(_ base: Contact, with draft: ContactDraft, force: Bool = false) throws(CarnetError) -> Contact {
        let contact = try forgettingIfDeleted { () throws(CarnetError) in try storage.updateContact(base, with: draft, force: force) }
        historyDidChange()
        didSave(contact)
        if favoriteIDs.contains(contact.id) {
            favorites = favorites.map { $0.contact.id == contact.id ? Favorite(contact: contact, position: $0.position) : $0 }
        }
        return contact
    }

    /// Deletes the contact with that id (and its favorite), whatever it holds now.
    public func deleteContact(id: Int64) throws(CarnetError) {
        try storage.deleteContact(id: id)
        didDelete(id)
    }

    /// Deletes `contact`, as a screen showed it: if it was deleted meanwhile, throws
    /// `CarnetError.deleted(_:id:)` and deletes nothing else.
    public func deleteContact(_ contact: Contact) throws(CarnetError) {
        try forgettingIfDeleted { () throws(CarnetError) in try storage.deleteContact(contact) }
        didDelete(contact.id, person: contact.kind == .individual)
    }

    private func didDelete(_ id: Int64, person: Bool = true) {
        historyDidChange()
        if person { adjustContactCount(by: -1) }
        savedContacts[id] = .some(nil)
        if favoriteIDs.contains(id) {
            favorites = favorites.filter { $0.contact.id != id }.enumerated()
                .map { Favorite(contact: $1.contact, position: $0 + 1) }
        }
        for list in liveLists() { list.remove(id: id) }
    }

    /// Runs a write on a contact a screen read; if that contact was deleted by someone else
    /// meanwhile, re-reads what they changed (so no screen keeps showing it) and rethrows.
    private func forgettingIfDeleted<T>(_ write: () throws(CarnetError) -> T) throws(CarnetError) -> T {
        do {
            return try write()
        } catch .deleted(.contact, let id) {
            lastChangeToken = try storage.externalChangeToken()
            try reloadEverything()
            savedContacts[id] = .some(nil)
            throw .deleted(.contact, id: id)
        }
    }

    func adjustContactCount(by delta: Int) {
        knownContactCount = knownContactCount.map { $0 + delta }
        contactCountRevision += 1
    }

    func didSave(_ contact: Contact) {
        savedContacts[contact.id] = contact
        // A group card is in no list of people.
        guard contact.kind == .individual else { return }
        for list in liveLists() { list.upsert(contact) }
    }

    /// A window onto the name-sorted contacts (optionally only those matching `search`) that
    /// loads `pageSize` rows at a time by keyset and holds at most about `maxRows`, so memory is
    /// bounded by what a screen shows, not by the table. This controller keeps it up to date
    /// with every change it makes.
    public func makeContactList(search: String = "", pageSize: Int = 50, maxRows: Int = 500) -> ContactList {
        makeContactList(query: ContactQuery(search: search), pageSize: pageSize, maxRows: maxRows)
    }

    /// A window onto the contacts `query` lists, in its order, kept in step like the others.
    public func makeContactList(query: ContactQuery, pageSize: Int = 50, maxRows: Int = 500) -> ContactList {
        let list = ContactList(storage: storage, query: query, pageSize: pageSize, maxRows: maxRows)
        lists.append(WeakContactList(list))
        return list
    }

    private func liveLists() -> [ContactList] {
        lists.removeAll { $0.list == nil }
        return lists.compactMap(\.list)
    }

    /// How many contacts match `search` (all of them when empty); a search longer than
    /// `Limits.searchLength` throws `CarnetError.invalidSearch(_:)`.
    public func contactCount(matching search: String) throws(CarnetError) -> Int {
        search.isEmpty ? contactCount : try storage.contactCount(matching: search)
    }

    /// How many contacts `query` lists.
    public func contactCount(query: ContactQuery) throws(CarnetError) -> Int {
        query.isFiltered ? try storage.contactCount(query: query) : contactCount
    }

    /// Every category in use, with how many contacts are in it.
    /// Every group card, by name.
    public func groups() throws(CarnetError) -> [Contact] { try storage.groups() }

    /// Up to `limit` contacts of `query`, with only what a mail client's query shows.
    public func mailEntries(query: ContactQuery, limit: Int) throws(CarnetError) -> [MailEntry] {
        try storage.mailEntries(query: query, limit: limit)
    }

    /// How many group cards the file holds.
    public func groupCount() throws(CarnetError) -> Int { try storage.groupCount() }

    /// The groups that list `uid` as a member, by name.
    public func groups(containing uid: String) throws(CarnetError) -> [Contact] { try storage.groups(containing: uid) }

    /// `group` with its members resolved by UID.
    public func resolved(group: Contact) throws(CarnetError) -> ContactGroup { try storage.resolved(group: group) }

    public func categories() throws(CarnetError) -> [(name: String, count: Int)] {
        try storage.categories()
    }

    /// The contacts that have a date with one of `labels` (birthday, anniversary).
    public func contactsWithDates(labeled labels: [String], bookID: Int64? = nil) throws(CarnetError) -> [Contact] {
        try storage.contactsWithDates(labeled: labels, bookID: bookID)
    }

    // MARK: - Favorites

    public func isFavorite(_ id: Int64) -> Bool { favoriteIDs.contains(id) }

    /// Makes a contact a favorite, at `position` (1 is first) or last; favoriting a favorite
    /// with a position moves it.
    public func favorite(_ id: Int64, at position: Int? = nil) throws(CarnetError) {
        favorites = try storage.addFavorite(contactID: id, at: position)
        historyDidChange()
    }

    public func unfavorite(_ id: Int64) throws(CarnetError) {
        favorites = try storage.removeFavorite(contactID: id)
        historyDidChange()
    }

    public func moveFavorite(_ id: Int64, to position: Int) throws(CarnetError) {
        favorites = try storage.moveFavorite(contactID: id, to: position)
        historyDidChange()
    }

    // MARK: - Quotes

    /// Every quote, oldest first (read from the file).
    public func quotes() throws(CarnetError) -> [Quote] {
        try storage.quotes()
    }

    public func quote(id: Int64) throws(CarnetError) -> Quote {
        try storage.quote(id: id)
    }

    @discardableResult
    public func addQuote(_ draft: QuoteDraft, makeCurrent: Bool = false) throws(CarnetError) -> Quote {
        let quote = try storage.addQuote(draft, makeCurrent: makeCurrent)
        historyDidChange()
        quoteCount += 1
        if makeCurrent { currentQuote = quote }
        return quote
    }

    /// Saves `draft` over `base`; a stale `base` is a `CarnetError.conflict(_:)`
    /// unless `force`.
    @discardableResult
    public func updateQuote(_ base: Quote, with draft: QuoteDraft, force: Bool = false) throws(CarnetError) -> Quote {
        let quote = try storage.updateQuote(base, with: draft, force: force)
        historyDidChange()
        if quote.isCurrent { currentQuote = quote }
        return quote
    }

    @discardableResult
    public func useQuote(id: Int64) throws(CarnetError) -> Quote {
        let quote = try storage.useQuote(id: id)
        historyDidChange()
        currentQuote = quote
        return quote
    }

    public func deleteQuote(id: Int64) throws(CarnetError) {
        try storage.deleteQuote(id: id)
        historyDidChange()
        quoteCount -= 1
        if currentQuote?.id == id { currentQuote = try storage.currentQuote() }
    }
}

// MARK: - Undo and redo

extension StateController {
    /// Undoes the newest action, whichever process made it, then re-reads every list and record
    /// as after any change. A row it would restore that was changed outside the history since is
    /// a `CarnetError.historyConflict(_:)`, and nothing is written.
    @discardableResult
    public func undo() throws(CarnetError) -> HistoryStep {
        try afterHistoryStep(try storage.undo())
    }

    /// Redoes the oldest undone action (a new action clears them).
    @discardableResult
    public func redo() throws(CarnetError) -> HistoryStep {
        try afterHistoryStep(try storage.redo())
    }

    /// Undoes action `id` and everything after it, all or nothing.
    @discardableResult
    public func undo(to id: Int64) throws(CarnetError) -> HistoryStep {
        try afterHistoryStep(try storage.undo(to: id))
    }

    /// The newest `limit` actions, newest first.
    public func history(limit: Int = 20) throws(CarnetError) -> [HistoryEntry] {
        try storage.history(limit: limit)
    }

    /// How many actions the file keeps.
    public func historyKeep() throws(CarnetError) -> Int {
        try storage.historyKeep()
    }

    /// Keeps the newest `keep` actions from now on (0: none), trimming the rest now.
    public func setHistoryKeep(_ keep: Int) throws(CarnetError) {
        try storage.setHistoryKeep(keep)
        historyDidChange()
    }

    /// Drops the actions recorded before `date` (see `StorageController.pruneHistory(before:)`):
    /// they can no longer be undone; what can be redone still can.
    public func pruneHistory(before date: Date) throws(CarnetError) -> HistoryPrune {
        let pruned = try storage.pruneHistory(before: date)
        historyDidChange()
        return pruned
    }

    /// After an undo or redo: every list and the home state are read again, and each contact it
    /// wrote (up to a screenful's worth; a larger step relies on the lists) is what a screen
    /// holding an older copy shows from now on.
    private func afterHistoryStep(_ step: HistoryStep) throws(CarnetError) -> HistoryStep {
        try reloadEverything()
        if step.contactIDs.count <= 1000 {
            for id in step.contactIDs {
                do {
                    savedContacts[id] = .some(try storage.contact(id: id))
                } catch .notFound {
                    savedContacts[id] = .some(nil)
                }
            }
        }
        return step
    }

    func historyDidChange() {
        knownHistoryStatus = nil
        historyRevision += 1
    }
}

extension StateController {
    /// Imports records in one transaction (see `StorageController.importContacts`), then
    /// re-reads the state so every screen shows the result.
    public func importContacts(
        source: String, options: ImportOptions = ImportOptions(), progress: ((Int) -> Void)? = nil,
        next: @escaping () throws(InterchangeError) -> InterchangeRecord?
    ) throws(CarnetError) -> ImportReport {
        let report = try storage.importContacts(source: source, options: options, progress: progress, next: next)
        if !options.dryRun { try reloadEverything() }
        return report
    }

    /// Every contact in name order (or the favorites in theirs), a page at a time, with whether
    /// it is a favorite: for exports that never hold the whole table.
    public func forEachContact(favoritesOnly: Bool = false, bookID: Int64? = nil, _ body: (Contact, Bool) throws -> Void) throws(CarnetError) {
        try storage.forEachContact(favoritesOnly: favoritesOnly, bookID: bookID, body)
    }

    /// The contacts matching `search` (all of them when empty) in name order, at most `limit`,
    /// read by keyset pages of `pageSize` and handed to `body` as they are read. Only one page is
    /// ever held, whatever the table's size: for a screen that shows each contact once and moves
    /// on (a listing written into a pipe), where a `ContactList` window would copy every row in
    /// and out again.
    public func forEachContact(
        matching search: String, limit: Int = .max, pageSize: Int = 500, _ body: (Contact) throws(CarnetError) -> Void
    ) throws(CarnetError) {
        try storage.forEachContact(matching: search, limit: limit, pageSize: pageSize, body)
    }

    /// The contacts `query` lists, in its order, at most `limit`, a page at a time.
    public func forEachContact(
        query: ContactQuery, limit: Int = .max, pageSize: Int = 500, _ body: (Contact) throws(CarnetError) -> Void
    ) throws(CarnetError) {
        try storage.forEachContact(query: query, limit: limit, pageSize: pageSize, body)
    }

    /// `forEachContact(query:limit:pageSize:_:)` for a listing that shows only summaries
    /// (name, position, preferred email and phone): reads no other child table.
    public func forEachSummary(
        query: ContactQuery, limit: Int = .max, pageSize: Int = 500, _ body: (ContactSummary) throws(CarnetError) -> Void
    ) throws(CarnetError) {
        try storage.forEachSummary(query: query, limit: limit, pageSize: pageSize, body)
    }

    /// Schema version, counts and settings of the file, for `carnet db info`.
    public func databaseInfo() throws(CarnetError) -> DatabaseInfo {
        try storage.info()
    }

    /// The region phone numbers without a country code belong to (the file's, else the locale's).
    public func phoneRegionSetting() throws(CarnetError) -> PhoneRegionSetting {
        try storage.phoneRegionSetting()
    }

    /// The form phone numbers are compared in: E.164, completed by the phone region.
    public func phoneNormalForm() throws(CarnetError) -> PhoneNormalForm {
        try storage.phoneRegionSetting().normalForm
    }

    /// Stores the file's phone region (nil: each process takes its locale's).
    public func setPhoneRegion(_ region: String?) throws(CarnetError) {
        try storage.setPhoneRegion(region)
    }

    /// `["ok"]` when SQLite's integrity and foreign key checks pass, else one line per problem.
    public func integrityCheck() throws(CarnetError) -> [String] {
        try storage.integrityCheck()
    }

    /// Repairs what `integrityCheck()` says `carnet db repair` repairs; one line per change.
    public func repair() throws(CarnetError) -> [String] {
        try storage.repair()
    }

    /// Makes the search index anew from the contacts; returns how many it indexed. Lists that
    /// search see the same contacts afterwards, so nothing is re-read.
    public func reindexSearch() throws(CarnetError) -> Int {
        try storage.reindexSearch()
    }

    /// An online copy of the database into a new file, itself a valid Carnet database.
    public func backup(to path: String) throws(CarnetError) {
        try storage.backup(to: path)
    }

    /// What compacting the file needs: its size, its free pages, the free disk space it takes.
    public func compactionPlan() throws(CarnetError) -> CompactionPlan {
        try storage.compactionPlan()
    }

    /// Packs the file so it is no bigger than what it holds (see `StorageController.compact`).
    /// What the file holds is the same after, so nothing is re-read.
    public func compact() throws(CarnetError) -> Compaction {
        try storage.compact()
    }
}

/// The task of a live controller, cancelled when the controller goes (a `let`, so the
/// controller's nonisolated deinit may reach it).
private final class LiveUpdates: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, Never>?

    var isRunning: Bool { lock.withLock { task != nil } }

    func run(_ task: Task<Void, Never>) {
        lock.withLock { self.task = task }
    }

    func stop() {
        lock.withLock { task?.cancel(); task = nil }
    }

    deinit { task?.cancel() }
}

private struct WeakContactList {
    weak var list: ContactList?
    init(_ list: ContactList) { self.list = list }
}
