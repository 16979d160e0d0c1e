import CarnetModels
import CarnetState
import Observation

/// Builds the screens, injects the one shared `StateController` into each, and
/// moves between them, so no view model knows which screen came before it.
///
/// Tabs: contacts, favorites, quote. Each tab has a stack: list → detail → edit contact, and
/// quote → edit quote. A screen that appears again (after `back()` or a tab switch) re-reads
/// the state, so changes made meanwhile, here or by another process, show.
@MainActor
@Observable
public final class AppCoordinator {
    public enum Tab: String, Sendable, CaseIterable {
        case contacts, favorites, quote
    }

    /// A screen on a tab's stack.
    public enum Screen {
        case contacts(ContactsViewModel)
        case favorites(ContactsViewModel)
        case contactDetail(ContactDetailViewModel)
        case editContact(EditContactViewModel)
        case quote(QuoteViewModel)
        case editQuote(EditQuoteViewModel)
        /// The address books; opening one pushes its own `.contacts` list.
        case books(BooksViewModel)
        /// The groups; opening one pushes its `.groupDetail`.
        case groups(GroupsViewModel)
        /// One group: its members; opening a member pushes its `.contactDetail`.
        case groupDetail(GroupDetailViewModel)
    }

    public let contacts: ContactsViewModel
    public let favorites: ContactsViewModel
    public let quote: QuoteViewModel
    /// The address books screen (`showBooks()`).
    public let books: BooksViewModel
    /// The groups screen (`showGroups()`).
    public let groups: GroupsViewModel
    /// Undo and redo, from any screen.
    public let history: HistoryViewModel
    public private(set) var tab: Tab = .contacts
    /// The screens pushed on the current tab's root, top last.
    public private(set) var stack: [Screen] = []

    @ObservationIgnored private let state: StateController
    @ObservationIgnored private let pageSize: Int

    public init(state: StateController, pageSize: Int = 50) {
        self.state = state
        self.pageSize = pageSize
        books = BooksViewModel(state: state)
        groups = GroupsViewModel(state: state)
        contacts = ContactsViewModel(state: state, pageSize: pageSize)
        favorites = ContactsViewModel(state: state, favoritesOnly: true, pageSize: pageSize)
        quote = QuoteViewModel(state: state)
        history = HistoryViewModel(state: state)
    }

    /// Undoes the newest action; the screen on top appears again with the result (a detail
    /// whose contact the undo removed says so; see `ContactDetailViewModel/isDeleted`).
    @discardableResult
    public func undo() throws(CarnetError) -> HistoryStep {
        let step = try history.undo()
        try reappear()
        return step
    }

    /// Redoes the oldest undone action; the screen on top appears again.
    @discardableResult
    public func redo() throws(CarnetError) -> HistoryStep {
        let step = try history.redo()
        try reappear()
        return step
    }

    /// The screen on top.
    public var current: Screen { stack.last ?? root(tab) }

    /// Keeps every screen in step with the file from now on, whoever changes it (another
    /// process, a sync, a connection of this one): the shared state's live updates
    /// (`StateController.startLiveUpdates()`).
    public func startLiveUpdates() { state.startLiveUpdates() }

    /// How many changes to the file, made here or elsewhere, the live state has applied
    /// (`StateController.startLiveUpdates()`): a screen observes it to read again what no view
    /// model of the state holds.
    public var appliedChanges: Int { state.appliedChangeCount }

    /// The edit screen whose draft holds changes not saved yet (or a conflict not settled), if
    /// any. `back()` and `select(_:)` drop it, so a screen asks the user first.
    public var unsavedEdit: Screen? {
        stack.first { screen in
            switch screen {
            case let .editContact(edit): edit.isDirty || edit.conflict != nil
            case let .editQuote(edit): edit.isDirty || edit.conflict != nil
            default: false
            }
        }
    }

    private func root(_ tab: Tab) -> Screen {
        switch tab {
        case .contacts: .contacts(contacts)
        case .favorites: .favorites(favorites)
        case .quote: .quote(quote)
        }
    }

    /// Starts the session on a tab (its root screen appears).
    public func start(on tab: Tab = .contacts) throws(CarnetError) {
        try select(tab)
    }

    /// Switches tab; the tab's root screen appears. An edit screen open on the tab left is
    /// dropped with its draft (see `unsavedEdit`).
    public func select(_ tab: Tab) throws(CarnetError) {
        self.tab = tab
        stack = []
        try appear(current)
    }

    /// The contact list nearest the top: a book's list opened from the books screen, else the tab's.
    private var currentList: ContactsViewModel {
        for screen in stack.reversed() {
            if case let .contacts(list) = screen { return list }
        }
        return tab == .favorites ? favorites : contacts
    }

    /// Opens a contact's detail from the current list (forward passing); a group's card opens
    /// the group's screen instead, since contacts and groups share one space of ids.
    public func showContact(_ contact: Contact) throws(CarnetError) {
        guard contact.kind == .individual else { return try showGroup(contact) }
        let detail = currentList.detail(for: contact)
        try push(.contactDetail(detail))
    }

    /// Opens the address books screen on the contacts tab.
    public func showBooks() throws(CarnetError) {
        if tab != .contacts { try select(.contacts) }
        try push(.books(books))
    }

    /// Opens the groups screen on the contacts tab.
    public func showGroups() throws(CarnetError) {
        if tab != .contacts { try select(.contacts) }
        try push(.groups(groups))
    }

    /// Opens one group's screen (the group passed forward).
    public func showGroup(_ group: Contact) throws(CarnetError) {
        try push(.groupDetail(groups.detailScreen(for: group)))
    }

    /// Opens one book's contact list (the book passed forward); a contact added from it goes to it.
    public func showBook(_ book: AddressBook) throws(CarnetError) {
        try push(.contacts(books.contacts(of: book, pageSize: pageSize)))
    }

    public func showContact(id: Int64) throws(CarnetError) {
        try showContact(try state.contact(id: id))
    }

    /// Opens the edit screen for the contact on top; back on save or cancel.
    public func editContact() throws(CarnetError) {
        guard case let .contactDetail(detail) = current else { return }
        try pushEditor(detail.edit(), as: Screen.editContact)
    }

    /// Opens an empty edit screen; on save, the new contact's detail replaces it.
    public func addContact() throws(CarnetError) {
        let edit = currentList.add()
        edit.onSave = { [weak self] saved in
            guard let self else { return }
            self.stack.removeLast()
            try? self.showContact(saved)
        }
        edit.onCancel = { [weak self] in try? self?.back() }
        try push(.editContact(edit))
    }

    /// Opens the edit screen for the current quote (from the quote tab).
    public func editQuote() throws(CarnetError) {
        if tab != .quote { try select(.quote) }
        try pushEditor(quote.edit(), as: Screen.editQuote)
    }

    /// Opens an empty quote editor; the saved quote becomes current.
    public func addQuote() throws(CarnetError) {
        if tab != .quote { try select(.quote) }
        try pushEditor(quote.add(), as: Screen.editQuote)
    }

    /// Pushes an edit screen that goes back on cancel, and on save once the editor's own
    /// `DraftEditor/onSave` (set by the screen that opened it) has run.
    private func pushEditor<Record>(_ edit: DraftEditor<Record>, as screen: (DraftEditor<Record>) -> Screen) throws(CarnetError) {
        let openerSaved = edit.onSave
        edit.onSave = { [weak self] saved in
            openerSaved?(saved)
            try? self?.back()
        }
        edit.onCancel = { [weak self] in try? self?.back() }
        try push(screen(edit))
    }

    /// Leaves the screen on top; the one below appears again. An edit screen left this way is
    /// cancelled (its draft dropped: see `unsavedEdit`).
    public func back() throws(CarnetError) {
        guard let top = stack.popLast() else { return }
        if case let .editContact(edit) = top, edit.isDirty { edit.onCancel = nil; edit.cancel() }
        if case let .editQuote(edit) = top, edit.isDirty { edit.onCancel = nil; edit.cancel() }
        if case let .contactDetail(detail) = current, detail.isDeleted {
            stack.removeLast()
        }
        if case let .groupDetail(detail) = current, detail.isDeleted {
            stack.removeLast()
        }
        try appear(current)
    }

    /// The screen on top appears again (e.g. redrawn): it re-reads what may have changed.
    public func reappear() throws(CarnetError) {
        try appear(current)
    }

    private func push(_ screen: Screen) throws(CarnetError) {
        stack.append(screen)
        try appear(screen)
    }

    private func appear(_ screen: Screen) throws(CarnetError) {
        switch screen {
        case let .contacts(list), let .favorites(list): try list.onAppear()
        case let .contactDetail(detail): try detail.onAppear()
        case let .quote(quote): try quote.onAppear()
        case let .books(books): try books.onAppear()
        case let .groups(groups): try groups.onAppear()
        case let .groupDetail(detail): try detail.onAppear()
        case .editContact, .editQuote: break
        }
    }
}
