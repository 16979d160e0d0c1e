import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// What the full-screen interface needs of the terminal it is drawn on, beyond drawing: giving
/// the terminal to another program (an editor) and back, stopping for Ctrl-Z, a full redraw.
@MainActor
protocol ScreenHost: AnyObject {
    func withTerminalReleased<T>(_ body: () throws -> T) throws -> T
    func stop()
    func redrawAll()
}

/// The full-screen address book: tabs of lists, a detail beside or over them, the keys of
/// `ScreenKeys` acting on the highlighted card. Every list and detail is a view model's (the
/// coordinator's, or one it makes); this type holds only where the person is: the tab, the
/// screens opened on it, the highlighted row of each list, what is being typed.
/// `render(rows:columns:)` draws it, a pure function of that and the view models.
@MainActor
final class FullScreen {
    /// A screen opened over a tab's list.
    enum Pane {
        case detail(ContactDetailViewModel)
        case group(GroupDetailViewModel)
        case book(ContactsViewModel, AddressBook)
        case form(EditForm)
        /// Merging likely duplicates: one row per field they disagree on (`mergeRow` is the one
        /// highlighted), each value the contacts hold a choice.
        case merge(MergeContactsViewModel)
    }

    /// What a row opens.
    enum Opening {
        case contact(Contact)
        case group(Contact)
        case book(AddressBook)
        case duplicate(DuplicatesViewModel.Row)
        case history(HistoryEntry)
    }

    struct Row {
        let id: String
        let spans: [Span]
        let opening: Opening
    }

    /// One list as a screen shows it.
    struct ListView {
        let key: String
        let title: String
        let rows: [Row]
        let count: String
        let empty: String
        var contacts: ContactsViewModel?
        var hasMore = false
        var hasEarlier = false
    }

    struct Message: Equatable {
        let text: String
        let isError: Bool
    }

    /// A line typed at the bottom (a book's or a group's name), and what Enter does with it
    /// (its result is the message).
    struct Asking {
        let label: String
        var text = ""
        let enter: @MainActor (String) throws -> String
    }

    /// A yes/no question over the screen, and what yes does (its result is the message).
    struct Question {
        let text: String
        let yes: @MainActor () throws -> String?
    }

    let app: AppCoordinator
    let terminal: Terminal
    weak var host: (any ScreenHost)?

    private(set) var tab: ScreenTab = .contacts
    private(set) var panes: [Pane] = []
    private(set) var isTyping = false
    private(set) var message: Message?
    private(set) var question: Question?
    private(set) var asking: Asking?
    private(set) var showsHelp = false
    private(set) var isDone = false
    /// Whether list titles show how many cards there are. Counting a million contacts takes
    /// longer than the rest of the first frame, so the terminal draws that frame first and the
    /// counts come with the next (`showCounts()`).
    private(set) var showsCounts = false
    private var helpTop = 0
    private var detailTop = 0
    /// The highlighted row of each list: its id, and its index to fall back on when the id goes.
    private var selection: [String: (id: String?, index: Int)] = [:]
    private var tops: [String: Int] = [:]
    /// The window's size at the last render: paging moves by what was shown.
    private var bodyRows = 20
    private let dates: UpcomingDatesViewModel
    private let duplicates: DuplicatesViewModel

    /// `state` only makes the view models the coordinator has no property for; the screen reads
    /// nothing from it itself.
    init(app: AppCoordinator, state: StateController, terminal: Terminal) {
        self.app = app
        self.terminal = terminal
        dates = UpcomingDatesViewModel(state: state)
        duplicates = DuplicatesViewModel(state: state)
    }

    /// Loads the first tab.
    func start() throws(CarnetError) {
        try app.start(on: .contacts)
        try app.favorites.onAppear()
    }

    // MARK: - Where the person is

    private var places: Set<ScreenPlace> {
        if case .form = panes.last { return [.form] }
        if case .merge = panes.last { return [.merge] }
        if case .detail = panes.last { return [.detail] }
        var result: Set<ScreenPlace> = [.list]
        if list?.contacts != nil { result.insert(.cards) }
        if panes.isEmpty && tab == .favorites { result.insert(.favorites) }
        return result
    }

    /// The list shown now (nil on a detail).
    var list: ListView? {
        switch panes.last {
        case .detail, .form, .merge: return nil
        case let .group(group): return groupList(group)
        case let .book(contacts, book): return contactList(contacts, key: "book\(book.id)", title: book.name)
        case nil: return tabList(tab)
        }
    }

    private func tabList(_ tab: ScreenTab) -> ListView {
        switch tab {
        case .contacts: return contactList(app.contacts, key: "contacts", title: "Contacts")
        case .favorites: return contactList(app.favorites, key: "favorites", title: "Favorites")
        case .groups:
            let rows = app.groups.rows.map { group in
                Row(id: "\(group.id)", spans: [Span(group.name), Span("  \(group.draft.members.count) members", .dim)], opening: .group(group))
            }
            return ListView(key: "groups", title: "Groups", rows: rows, count: "\(rows.count)", empty: "No groups yet.")
        case .books:
            let rows = app.books.books.map { Row(id: "\($0.id)", spans: [Span($0.name)], opening: .book($0)) }
            return ListView(key: "books", title: "Address books", rows: rows, count: "\(rows.count)", empty: "No address books.")
        case .dates:
            let rows = dates.rows.map { date in
                let day = String(format: "%02d-%02d", date.next.month ?? 0, date.next.day ?? 0)
                return Row(
                    id: "\(date.contact.id)-\(date.date.label)",
                    spans: [Span(day + "  ", .dim), Span(date.contact.name),
                            Span("  \(BirthdaysCommand.what(date)) \(BirthdaysCommand.when(date.daysAway))", .dim)],
                    opening: .contact(date.contact))
            }
            return ListView(key: "dates", title: "Birthdays and anniversaries, the coming year", rows: rows, count: "\(rows.count)",
                            empty: "No birthday or anniversary in the coming year.")
        case .duplicates:
            let rows = duplicates.rows.map { row in
                Row(id: row.id.map(String.init).joined(separator: ","),
                    spans: [Span(row.members.map(\.name).joined(separator: " · ")), Span("  " + row.reasons.joined(separator: ", "), .dim)],
                    opening: .duplicate(row))
            }
            return ListView(key: "duplicates", title: "Likely duplicates (Enter merges them)", rows: rows,
                            count: "\(rows.count)", empty: "No likely duplicates.")
        case .history:
            let rows = app.history.entries.map { entry in
                Row(id: "\(entry.id)",
                    spans: [Span(entry.isUndone ? "undone  " : "        ", .dim), Span(entry.title),
                            Span("  " + entry.time.formatted(date: .abbreviated, time: .shortened), .dim)],
                    opening: .history(entry))
            }
            return ListView(key: "history", title: "History (Enter undoes back to the row)", rows: rows, count: "\(rows.count)",
                            empty: "Nothing done yet.")
        }
    }

    private func contactList(_ contacts: ContactsViewModel, key: String, title: String) -> ListView {
        let rows = contacts.rows.map { row in
            var spans = [Span(contacts.favoritesOnly ? "\(row.favoritePosition ?? 0). " : row.isFavorite ? "★ " : "  ",
                              row.isFavorite ? .heading : .plain),
                         Span(row.contact.name)]
            let detail = [row.contact.draft.organization, row.contact.draft.emails.first?.value ?? ""].first { !$0.isEmpty }
            if let detail { spans.append(Span("  " + detail, .dim)) }
            return Row(id: "\(row.id)", spans: spans, opening: .contact(row.contact))
        }
        let count = !showsCounts ? "" : contacts.search.isEmpty ? "\(contacts.totalCount)" : "\(contacts.matchCount) of \(contacts.totalCount)"
        let empty = contacts.search.isEmpty
            ? (contacts.favoritesOnly ? "No favorites yet: f on a contact makes it one." : "No contacts yet: a adds one.")
            : "No contact matches “\(contacts.search)”."
        return ListView(key: key, title: title, rows: rows, count: count, empty: empty, contacts: contacts,
                        hasMore: contacts.hasMore, hasEarlier: contacts.hasEarlier)
    }

    private func groupList(_ group: GroupDetailViewModel) -> ListView {
        let members = (try? group.members().members) ?? []
        let rows = members.map { Row(id: "\($0.id)", spans: [Span($0.name)], opening: .contact($0)) }
        return ListView(key: "group\(group.group.id)", title: group.group.name, rows: rows, count: "\(rows.count) members",
                        empty: "No members.")
    }

    /// The highlighted row's index in `list`: the row with the remembered id, or the remembered
    /// index (kept in the list) when that row is gone.
    func cursor(in list: ListView) -> Int {
        guard !list.rows.isEmpty else { return 0 }
        let remembered = selection[list.key]
        if let id = remembered?.id, let index = list.rows.firstIndex(where: { $0.id == id }) {
            // Where it is now: if it goes (deleted elsewhere), the row that takes its place is highlighted.
            selection[list.key] = (id, index)
            return index
        }
        // The card at the remembered place is the one highlighted from now on (it moves with
        // its card, as when a favorite is moved).
        let index = min(max(remembered?.index ?? 0, 0), list.rows.count - 1)
        selection[list.key] = (list.rows[index].id, index)
        return index
    }

    private func select(_ index: Int, in list: ListView) {
        guard !list.rows.isEmpty else { return selection[list.key] = (nil, 0) }
        let clamped = min(max(index, 0), list.rows.count - 1)
        selection[list.key] = (list.rows[clamped].id, clamped)
    }

    /// The highlighted row of the list shown, if any.
    var highlighted: Row? {
        guard let list, !list.rows.isEmpty else { return nil }
        return list.rows[cursor(in: list)]
    }

    /// The contact the card keys act on: the detail's, or the highlighted row's.
    private var currentContact: (contact: Contact, contacts: ContactsViewModel)? {
        if case let .detail(detail) = panes.last { return (detail.contact, app.contacts) }
        guard let list, let contacts = list.contacts, let row = highlighted, case let .contact(contact) = row.opening else { return nil }
        return (contact, contacts)
    }

    // MARK: - Keys

    /// Acts on one key; errors become the status line's message.
    func handle(_ key: Key) {
        do {
            try act(on: key)
        } catch let error as CLIError {
            message = Message(text: error.message, isError: true)
        } catch {
            message = Message(text: "\(error)", isError: true)
        }
    }

    private func act(on key: Key) throws {
        lastKey = key
        if let question {
            self.question = nil
            if key == .character("y") || key == .character("Y") {
                message = try question.yes().map { Message(text: $0, isError: false) }
            } else {
                message = Message(text: "nothing done", isError: false)
            }
            return
        }
        message = nil
        if asking != nil { return try typeAnswer(key) }
        if showsHelp { return helpKey(key) }
        if isTyping { return try typeSearch(key) }
        if case let .form(form) = panes.last, form.typing != nil { return try form.type(key) }
        guard let action = ScreenKeys.action(for: key, in: places) else {
            message = Message(text: "\(key.label) does nothing here: ? lists the keys", isError: false)
            return
        }
        try perform(action)
    }

    private func perform(_ action: ScreenAction) throws {
        if case let .form(form) = panes.last, try perform(action, in: form) { return }
        if case let .merge(merge) = panes.last, try perform(action, in: merge) { return }
        switch action {
        case .down: try move(by: 1)
        case .up: try move(by: -1)
        case .pageDown: if case .detail = panes.last { detailTop += max(1, bodyRows - 1) } else { try move(by: max(1, bodyRows - 1)) }
        case .pageUp: if case .detail = panes.last { detailTop = max(0, detailTop - max(1, bodyRows - 1)) } else { try move(by: -max(1, bodyRows - 1)) }
        case .first: try moveToFirst()
        case .last: try moveToLast()
        case .open: try open()
        case .back: try back()
        case .search:
            isTyping = true
        case .nextTab: try show(ScreenTab(rawValue: (tab.rawValue + 1) % ScreenTab.allCases.count) ?? .contacts)
        case .previousTab: try show(ScreenTab(rawValue: (tab.rawValue + ScreenTab.allCases.count - 1) % ScreenTab.allCases.count) ?? .contacts)
        case let .tab(tab): try show(tab)
        case .edit: try edit()
        case .add: try add()
        case .delete: try delete()
        case .favorite: try favorite()
        case .moveUp: try moveFavorite(by: -1)
        case .moveDown: try moveFavorite(by: 1)
        case .undo:
            guard let title = app.history.undoTitle else { return message = Message(text: "nothing to undo", isError: false) }
            try app.undo()
            try reloadShown()
            message = Message(text: "undid: \(title) (r redoes it)", isError: false)
        case .redo:
            guard let title = app.history.redoTitle else { return message = Message(text: "nothing to redo", isError: false) }
            try app.redo()
            try reloadShown()
            message = Message(text: "redid: \(title)", isError: false)
        case .help:
            showsHelp = true
            helpTop = 0
        case .redraw: host?.redrawAll()
        case .quit: isDone = true
        case .interrupt: question = Question(text: "Quit carnet? (y/n)") { [weak self] in self?.isDone = true; return nil }
        case .suspend: host?.stop()
        case .form: try openForm()
        case .save, .clear, .takeTheirs, .jump: break
        case .nextChoice, .previousChoice: break
        case .mark:
            guard let (contact, _) = currentContact else { return }
            if let at = marked.firstIndex(of: contact.id) { marked.remove(at: at) } else { marked.append(contact.id) }
            message = Message(text: "\(marked.count) marked" + (marked.count > 1 ? ": M merges them" : ""), isError: false)
        case .mergeMarked:
            guard marked.count > 1 else {
                return message = Message(text: "mark two cards or more with x first", isError: false)
            }
            let screen = try duplicates.mergeScreen(contactIDs: marked)
            marked = []
            mergeRow = 0
            panes.append(.merge(screen))
        case .moveToBook, .copyToBook:
            guard let (contact, _) = currentContact else { return }
            let copying = action == .copyToBook
            let names = (try? app.books.onAppear()).map { app.books.books.map(\.name).joined(separator: ", ") } ?? ""
            asking = Asking(label: "\(copying ? "Copy" : "Move") \(contact.name) to the book (\(names)): ") { [weak self] name in
                guard let self else { return "" }
                let (moved, book) = copying ? try app.books.copy(contactID: contact.id, to: name) : try app.books.move(contactID: contact.id, to: name)
                try reloadShown()
                return "\(copying ? "copied" : "moved") \(moved.name) to \(book.name) (u undoes it)"
            }
        case .addToGroup:
            guard let (contact, _) = currentContact else { return }
            asking = Asking(label: "Add \(contact.name) to the group: ") { [weak self] name in
                guard let self else { return "" }
                let group = try app.groups.group(name)
                _ = try app.groups.addMembers(group, ids: [contact.id])
                try reloadShown()
                return "added \(contact.name) to \(group.name) (u undoes it)"
            }
        }
    }

    /// A key while a name is typed at the bottom: Enter acts (an error leaves the line open to
    /// fix it), Esc leaves it.
    private func typeAnswer(_ key: Key) throws {
        guard var asking else { return }
        switch key {
        case .enter:
            do {
                message = Message(text: try asking.enter(asking.text), isError: false)
                self.asking = nil
            } catch {
                self.asking = asking
                throw error
            }
            return
        case .escape, .control("c"):
            self.asking = nil
            message = Message(text: "nothing done", isError: false)
            return
        default: _ = key.edit(&asking.text)
        }
        self.asking = asking
    }

    /// The last key read, for the form's letter jumps.
    private var lastKey: Key?

    /// What a key does on the form; false for the keys that act as anywhere else (undo, help,
    /// Ctrl-Z). Leaving a changed draft (Esc, a tab, quit, Ctrl-C) asks first.
    private func perform(_ action: ScreenAction, in form: EditForm) throws -> Bool {
        switch action {
        case .down: form.move(by: 1)
        case .up: form.move(by: -1)
        case .pageDown: form.move(by: max(1, bodyRows - 1))
        case .pageUp: form.move(by: -max(1, bodyRows - 1))
        case .first: form.moveToFirst()
        case .last: form.moveToLast()
        case .jump: if case let .character(letter) = lastKey { form.jump(to: letter) }
        case .open: form.beginTyping()
        case .clear: try form.clear()
        case .takeTheirs: form.takeTheirs()
        case .save:
            guard form.editor.canSave else {
                message = Message(text: "not saved: " + form.editor.issues.map(\.description).joined(separator: "; "), isError: true)
                return true
            }
            guard let saved = try form.save() else {
                let clashes = form.clashes.map { ContactFields.spec($0)?.label ?? $0.rawValue }
                message = Message(
                    text: "changed elsewhere meanwhile: their changes are in the form"
                        + (clashes.isEmpty ? "; s saves" : "; both changed \(clashes.joined(separator: ", ")): s keeps yours, t takes theirs"),
                    isError: true)
                return true
            }
            panes.removeLast()
            try reloadShown()
            if let list { selection[list.key] = ("\(saved.id)", selection[list.key]?.index ?? 0) }
            message = Message(text: "saved \(saved.name)", isError: false)
        case .back:
            leaveForm(form) { }
        case .quit, .interrupt:
            guard form.editor.isDirty else { return false }
            leaveForm(form) { [weak self] in self?.isDone = true }
        case .tab, .nextTab, .previousTab:
            guard form.editor.isDirty else { return false }
            leaveForm(form) { [weak self] in try? self?.perform(action) }
        default:
            return false
        }
        return true
    }

    /// Closes the form, asking first when its draft has changes (the draft is dropped then).
    private func leaveForm(_ form: EditForm, then next: @escaping @MainActor () -> Void) {
        let close = { [weak self] in
            form.editor.cancel()
            if case .form = self?.panes.last { self?.panes.removeLast() }
            next()
        }
        guard form.editor.isDirty else { return close() }
        question = Question(text: "Discard your changes to \(form.subject)? (y/n)") {
            close()
            return "changes discarded"
        }
    }

    private func openForm() throws {
        guard let (contact, contacts) = currentContact else { return }
        guard contact.draft.kind == .individual else {
            return message = Message(text: "a group is changed with carnet group (rename, add, remove)", isError: false)
        }
        panes.append(.form(EditForm(editor: contacts.detail(for: contact).edit(), subject: contact.name)))
    }

    private func helpKey(_ key: Key) {
        switch key {
        case .down, .character("j"): helpTop += 1
        case .up, .character("k"): helpTop = max(0, helpTop - 1)
        case .pageDown, .character(" "): helpTop += max(1, bodyRows - 1)
        case .pageUp: helpTop = max(0, helpTop - max(1, bodyRows - 1))
        default: showsHelp = false
        }
    }

    private func typeSearch(_ key: Key) throws {
        guard let contacts = list?.contacts else { isTyping = false; return }
        var text = contacts.search
        switch key {
        case .enter:
            isTyping = false
            return
        case .escape:
            isTyping = false
            text = ""
        default:
            guard key.edit(&text) else { return }
        }
        do {
            try contacts.setSearch(text)
        } catch {
            // A search with no letter yet ("-", "(") or too long: the list stays as it was.
            message = Message(text: "\(error)", isError: true)
            return
        }
        if let list { select(0, in: list) }
    }

    /// Moves the highlight, reading the next or previous page from storage at either end of
    /// what is loaded.
    private func move(by delta: Int) throws {
        guard var list else { return }
        var target = cursor(in: list) + delta
        let forward = target >= list.rows.count && list.hasMore
        if forward || (target < 0 && list.hasEarlier), let contacts = list.contacts {
            // The rows shift as a page comes and another goes: move from where the highlight is now.
            let id = list.rows.isEmpty ? nil : list.rows[cursor(in: list)].id
            if forward { try contacts.loadNextPage() } else { try contacts.loadPreviousPage() }
            let reloaded = self.list ?? list
            target = (id.flatMap { id in reloaded.rows.firstIndex { $0.id == id } } ?? 0) + delta
            list = reloaded
        }
        select(target, in: list)
    }

    private func moveToFirst() throws {
        guard let list else { return }
        if list.hasEarlier, let contacts = list.contacts {
            while contacts.hasEarlier { try contacts.loadPreviousPage() }
        }
        if let list = self.list { select(0, in: list) }
    }

    /// The last row: pages are read to the end, at most `lastPages` at a time, so End on a
    /// million contacts answers at once and End again goes on.
    private static let lastPages = 40

    private func moveToLast() throws {
        guard let list else { return }
        if let contacts = list.contacts {
            var pages = 0
            while contacts.hasMore, pages < Self.lastPages {
                try contacts.loadNextPage()
                pages += 1
            }
            if contacts.hasMore { message = Message(text: "more follow: End again goes further", isError: false) }
        }
        if let list = self.list { select(list.rows.count - 1, in: list) }
    }

    private func show(_ tab: ScreenTab) throws {
        self.tab = tab
        panes = []
        isTyping = false
        try reloadShown()
    }

    /// Reads again what the tab or screen shown holds (after an undo, a change elsewhere).
    private func reloadShown() throws {
        switch panes.last {
        case let .detail(detail):
            if !detail.isDeleted { try detail.onAppear() }
        case let .group(group): try group.onAppear()
        case let .book(contacts, _): try contacts.onAppear()
        case .form, .merge: break
        case nil:
            switch tab {
            case .contacts: try app.contacts.onAppear()
            case .favorites: try app.favorites.onAppear()
            case .groups: try app.groups.onAppear()
            case .books: try app.books.onAppear()
            case .dates: try dates.load(within: 365)
            case .duplicates: try duplicates.refresh()
            case .history: try app.history.onAppear()
            }
        }
    }

    private func open() throws {
        guard let row = highlighted else { return }
        switch row.opening {
        case let .contact(contact):
            let detail = (list?.contacts ?? app.contacts).detail(for: contact)
            try detail.onAppear()
            detailTop = 0
            panes.append(.detail(detail))
        case let .group(group):
            let screen = app.groups.detailScreen(for: group)
            try screen.onAppear()
            panes.append(.group(screen))
        case let .book(book):
            let contacts = app.books.contacts(of: book, pageSize: 100)
            try contacts.onAppear()
            panes.append(.book(contacts, book))
        case let .duplicate(row):
            try merge(row)
        case let .history(entry):
            question = Question(text: "Undo “\(entry.title)” and everything after it? (y/n)") { [weak self] in
                guard let self else { return nil }
                let step = try app.history.undo(to: entry.id)
                try reloadShown()
                return "undid \(step.entries.count) change\(step.entries.count == 1 ? "" : "s") (r redoes them one by one)"
            }
        }
    }

    private func back() throws {
        if panes.isEmpty, let contacts = list?.contacts, !contacts.search.isEmpty {
            try contacts.setSearch("")
            return
        }
        guard !panes.isEmpty else { return }
        panes.removeLast()
        try reloadShown()
    }

    // MARK: - Acting on the card

    private func edit() throws {
        guard let (contact, contacts) = currentContact else { return }
        guard contact.draft.kind == .individual else {
            return message = Message(text: "a group is edited with carnet group (rename, add, remove)", isError: false)
        }
        let detail = contacts.detail(for: contact)
        try saveFromEditor(detail.edit(), subject: contact.name)
    }

    private func add() throws {
        let contacts = list?.contacts ?? app.contacts
        panes.append(.form(EditForm(editor: contacts.add(), subject: "the new contact")))
    }

    /// Opens the draft in $EDITOR with the screen put away, then saves it: the draft is the
    /// view model's, so a cancelled edit leaves nothing, and a save that meets another writer's
    /// change says so (the edit is kept in a file, as `carnet edit --editor` does).
    @discardableResult
    private func saveFromEditor(_ edit: EditContactViewModel, subject: String) throws -> Contact? {
        guard let text = try inEditor(edit) else {
            message = Message(text: "cancelled; \(subject) unchanged", isError: false)
            return nil
        }
        let saved: Contact
        do {
            saved = try edit.save()
        } catch {
            guard case let .conflict(conflict) = error else { throw error }
            let kept = (try? EditorSession.keep(text, contactID: edit.original?.id ?? 0)) ?? "nowhere"
            message = Message(text: "\(conflict.summary); your edit is kept in \(kept)", isError: true)
            return nil
        }
        try reloadShown()
        message = Message(text: "saved \(saved.name)", isError: false)
        return saved
    }

    /// `edit` in $EDITOR with the screen put away (see `EditorSession.edit`): the text the
    /// person left, or nil when they cancelled. (Not `host?.withTerminalReleased { … } ?? …`:
    /// a cancel is nil too, and would open the editor a second time.)
    private func inEditor(_ edit: EditContactViewModel, acceptingUnchanged: Bool = false) throws -> String? {
        let session = EditorSession(terminal: terminal)
        guard let host else { return try session.edit(edit, acceptingUnchanged: acceptingUnchanged) }
        return try host.withTerminalReleased { try session.edit(edit, acceptingUnchanged: acceptingUnchanged) }
    }

    private func delete() throws {
        guard let (contact, contacts) = currentContact else { return }
        question = Question(text: "Delete \(contact.name)? (y/n)") { [weak self] in
            guard let self else { return nil }
            if contact.draft.kind == .group {
                try app.groups.delete(contact)
            } else {
                try contacts.detail(for: contact).delete()
            }
            if case .detail = panes.last { panes.removeLast() }
            try reloadShown()
            return "deleted \(contact.name) (u undoes it)"
        }
    }

    private func favorite() throws {
        guard let (contact, contacts) = currentContact else { return }
        let was = app.favorites.rows.contains { $0.id == contact.id }
        try contacts.toggleFavorite(contact.id)
        message = Message(text: was ? "\(contact.name) is no longer a favorite" : "\(contact.name) is a favorite", isError: false)
    }

    private func moveFavorite(by delta: Int) throws {
        guard let row = highlighted, case let .contact(contact) = row.opening,
              let position = app.favorites.rows.first(where: { $0.id == contact.id })?.favoritePosition else { return }
        let target = position + delta
        guard target >= 1, target <= app.favorites.totalCount else { return }
        try app.favorites.moveFavorite(contact.id, to: target)
    }

    /// Opens the merge of a likely-duplicates row: what `carnet merge` asks, field by field.
    private func merge(_ row: DuplicatesViewModel.Row) throws {
        let screen = try duplicates.mergeScreen(for: row)
        mergeRow = 0
        panes.append(.merge(screen))
    }

    /// The cards marked to merge, in the order they were marked.
    private(set) var marked: [Int64] = []

    /// The highlighted question of the merge pane.
    private(set) var mergeRow = 0

    /// What a key does on the merge pane: ↑/↓ go from field to field, ←/→ (or h/l) choose
    /// which contact's value is kept, `s` merges, `e` finishes it in $EDITOR, Esc leaves.
    private func perform(_ action: ScreenAction, in merge: MergeContactsViewModel) throws -> Bool {
        let questions = merge.questions
        switch action {
        case .down: mergeRow = min(mergeRow + 1, max(0, questions.count - 1))
        case .up: mergeRow = max(mergeRow - 1, 0)
        case .nextChoice, .previousChoice:
            guard mergeRow < questions.count else { return true }
            let question = questions[mergeRow]
            guard let at = question.choices.firstIndex(where: { $0.contactIndex == question.chosen }) else { return true }
            let step = action == .nextChoice ? 1 : question.choices.count - 1
            merge.choose(question.subject, from: question.choices[(at + step) % question.choices.count].contactIndex)
        case .save:
            let merged: Contact
            do {
                merged = try merge.save()
            } catch {
                guard case let .conflict(conflict) = error else { throw error }
                panes.removeLast()
                message = Message(text: "\(conflict.summary); nothing was merged: Enter merges again", isError: true)
                return true
            }
            panes.removeLast()
            try duplicates.refresh()
            message = Message(text: "merged into \(merged.name) (u undoes it)", isError: false)
        case .edit:
            guard try inEditor(merge.editor, acceptingUnchanged: true) != nil else { message = Message(text: "the editor changed nothing; s merges", isError: false); return true }
            return try perform(.save, in: merge)
        case .back:
            merge.cancel()
            panes.removeLast()
            message = Message(text: "nothing merged", isError: false)
        case .quit, .interrupt:
            merge.cancel()
            panes.removeLast()
            return false
        default:
            return false
        }
        return true
    }

    func showCounts() { showsCounts = true }

    /// Ends the session (the terminal is going away).
    func quit() { isDone = true }

    // MARK: - For the rendering

    func setBodyRows(_ rows: Int) { bodyRows = rows }
    var currentDetailTop: Int { detailTop }
    var helpScroll: Int { helpTop }

    /// The first row shown of `list`: where it was, moved just enough to show the cursor.
    func scrolledTop(list: ListView, cursor: Int, height: Int) -> Int {
        var top = min(tops[list.key] ?? 0, max(0, list.rows.count - 1))
        if cursor < top { top = cursor }
        if cursor >= top + height { top = cursor - height + 1 }
        top = max(0, min(top, max(0, list.rows.count - height)))
        tops[list.key] = top
        return top
    }

    // MARK: - Changes made elsewhere

    /// Another process, a sync or another connection committed (the state has applied it): the
    /// lists the state does not hold are read again, and a detail whose card went says so and
    /// closes. The highlight stays on its card, found again by id.
    func stateDidChange() {
        if case let .detail(detail) = panes.last, detail.isDeleted {
            panes.removeLast()
            message = Message(text: "\(detail.contact.name) was deleted elsewhere", isError: false)
        }
        if case let .group(group) = panes.last, group.isDeleted {
            panes.removeLast()
            message = Message(text: "the group \(group.group.name) was deleted elsewhere", isError: false)
        }
        try? reloadShown()
    }
}
