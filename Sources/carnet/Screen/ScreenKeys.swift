/// A key as the full-screen interface reads it.
enum Key: Hashable, Sendable {
    case character(Character)
    /// Ctrl and a letter (lowercase).
    case control(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab

    /// What a person reads for it in the help and the status line.
    var label: String {
        switch self {
        case let .character(c): c == " " ? "Space" : String(c)
        case let .control(c): "Ctrl-" + c.uppercased()
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Del"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        }
    }

    /// Applies the key to a line being typed (the search, a name asked for, a form's value): a
    /// character is added, Backspace takes the last one off, Ctrl-U clears the line. Returns
    /// whether the key was one of these.
    func edit(_ text: inout String) -> Bool {
        switch self {
        case let .character(character): text.append(character)
        case .backspace: if !text.isEmpty { text.removeLast() }
        case .control("u"): text = ""
        default: return false
        }
        return true
    }

    /// A character as the terminal sends it (raw mode: Ctrl-C is 3, Enter 13).
    init?(character value: Int) {
        switch value {
        case 13, 10: self = .enter
        case 27: self = .escape
        case 9: self = .tab
        case 8, 127: self = .backspace
        case 1...26: self = .control(Character(UnicodeScalar(UInt8(value + 96))))
        case 0, 28...31: return nil
        default:
            guard let scalar = UnicodeScalar(UInt32(value)) else { return nil }
            self = .character(Character(scalar))
        }
    }

    /// A function key's ncurses code (KEY_DOWN and the others, curses.h's stable values).
    init?(cursesKey code: Int) {
        switch code {
        case 0o402: self = .down
        case 0o403: self = .up
        case 0o404: self = .left
        case 0o405: self = .right
        case 0o406: self = .home
        case 0o407: self = .backspace
        case 0o512: self = .delete
        case 0o522: self = .pageDown
        case 0o523: self = .pageUp
        case 0o527: self = .enter
        case 0o541: self = .backTab
        case 0o550: self = .end
        default: return nil
        }
    }
}

/// What a key does.
enum ScreenAction: Hashable, Sendable {
    case up, down, pageUp, pageDown, first, last
    case open, back, search, nextTab, previousTab, tab(ScreenTab)
    case edit, add, delete, favorite, moveUp, moveDown, undo, redo
    case help, redraw, quit, interrupt, suspend
    case form, save, clear, takeTheirs, jump
    case moveToBook, copyToBook, addToGroup
    case nextChoice, previousChoice
    case mark, mergeMarked
}

/// The tabs of the full-screen interface, each a list.
enum ScreenTab: Int, CaseIterable, Hashable, Sendable {
    case contacts, favorites, groups, books, dates, duplicates, history

    var title: String {
        switch self {
        case .contacts: "Contacts"
        case .favorites: "Favorites"
        case .groups: "Groups"
        case .books: "Books"
        case .dates: "Birthdays"
        case .duplicates: "Duplicates"
        case .history: "History"
        }
    }
}

/// Where a key applies.
enum ScreenPlace: Hashable, Sendable {
    /// Any list (a tab, a group's members, a book's contacts).
    case list
    /// A list of cards (contacts, favorites, a group's members, a book's contacts).
    case cards
    /// The favorites tab.
    case favorites
    /// A contact's detail.
    case detail
    /// The edit form.
    case form
    /// The merge of likely duplicates.
    case merge
    /// Everywhere.
    case anywhere
}

/// One row of the key table: the keys, what they do and where. The help screen lists this table
/// and `ScreenKeys.action(for:in:)` dispatches from it, so the two cannot disagree.
struct KeyBinding: Sendable {
    let keys: [Key]
    let action: ScreenAction
    let places: Set<ScreenPlace>
    let help: String
}

enum ScreenKeys {
    static let table: [KeyBinding] = [
        KeyBinding(keys: [.down, .character("j")], action: .down, places: [.list, .form, .merge], help: "next row"),
        KeyBinding(keys: [.up, .character("k")], action: .up, places: [.list, .form, .merge], help: "previous row"),
        KeyBinding(keys: [.right, .character("l"), .tab], action: .nextChoice, places: [.merge], help: "merge: keep the next contact's value"),
        KeyBinding(keys: [.left, .character("h")], action: .previousChoice, places: [.merge], help: "merge: keep the previous contact's value"),
        KeyBinding(keys: [.character("s")], action: .save, places: [.merge], help: "merge: merge them (u undoes it)"),
        KeyBinding(keys: [.escape], action: .back, places: [.merge], help: "merge: leave, merging nothing"),
        KeyBinding(keys: [.pageDown, .character(" "), .control("f")], action: .pageDown, places: [.list, .detail, .form], help: "next page"),
        KeyBinding(keys: [.pageUp, .character("-"), .control("b")], action: .pageUp, places: [.list, .detail, .form], help: "previous page"),
        KeyBinding(keys: [.home, .character("g")], action: .first, places: [.list, .form], help: "first row"),
        KeyBinding(keys: [.end, .character("G")], action: .last, places: [.list], help: "last row"),
        KeyBinding(keys: [.end], action: .last, places: [.form], help: "form: last row"),
        KeyBinding(keys: [.enter], action: .open, places: [.form],
                   help: "form: type the value (an entry keeps its type)"),
        KeyBinding(keys: "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map { .character($0) }, action: .jump, places: [.form],
                   help: "form: go to the next field of that initial"),
        KeyBinding(keys: [.character("s")], action: .save, places: [.form], help: "form: save"),
        KeyBinding(keys: [.character("d"), .delete], action: .clear, places: [.form], help: "form: remove the entry, clear the field"),
        KeyBinding(keys: [.character("t")], action: .takeTheirs, places: [.form], help: "form: take the other writer's value"),
        KeyBinding(keys: [.escape], action: .back, places: [.form], help: "form: leave (asks if changed)"),
        KeyBinding(keys: [.enter, .right, .character("l")], action: .open, places: [.list], help: "open the highlighted row"),
        KeyBinding(keys: [.escape, .left, .character("h")], action: .back, places: [.list, .detail], help: "back (clears a search first)"),
        KeyBinding(keys: [.character("/")], action: .search, places: [.cards], help: "search as you type (Esc clears it)"),
        KeyBinding(keys: [.tab], action: .nextTab, places: [.anywhere], help: "next tab"),
        KeyBinding(keys: [.backTab], action: .previousTab, places: [.anywhere], help: "previous tab"),
        KeyBinding(keys: [.character("1")], action: .tab(.contacts), places: [.anywhere], help: "contacts"),
        KeyBinding(keys: [.character("2")], action: .tab(.favorites), places: [.anywhere], help: "favorites, in your order"),
        KeyBinding(keys: [.character("3")], action: .tab(.groups), places: [.anywhere], help: "groups"),
        KeyBinding(keys: [.character("4")], action: .tab(.books), places: [.anywhere], help: "address books"),
        KeyBinding(keys: [.character("5")], action: .tab(.dates), places: [.anywhere], help: "birthdays and anniversaries, a year ahead"),
        KeyBinding(keys: [.character("6")], action: .tab(.duplicates), places: [.anywhere], help: "likely duplicates (Enter merges them)"),
        KeyBinding(keys: [.character("7")], action: .tab(.history), places: [.anywhere], help: "history of changes"),
        KeyBinding(keys: [.character("c")], action: .form, places: [.cards, .detail], help: "change the card in the form"),
        KeyBinding(keys: [.character("e")], action: .edit, places: [.cards, .detail, .merge], help: "edit the card (or the merge) in $EDITOR (YAML)"),
        KeyBinding(keys: [.character("a")], action: .add, places: [.cards], help: "add a contact (in the form)"),
        KeyBinding(keys: [.character("d"), .delete], action: .delete, places: [.cards, .detail], help: "delete the card (asks first)"),
        KeyBinding(keys: [.character("f"), .character("*")], action: .favorite, places: [.cards, .detail], help: "favorite or unfavorite"),
        KeyBinding(keys: [.character("m")], action: .moveToBook, places: [.cards, .detail], help: "move the card to an address book (asks which)"),
        KeyBinding(keys: [.character("C")], action: .copyToBook, places: [.cards, .detail], help: "copy the card into an address book"),
        KeyBinding(keys: [.character("+")], action: .addToGroup, places: [.cards, .detail], help: "add the card to a group (asks which)"),
        KeyBinding(keys: [.character("x")], action: .mark, places: [.cards], help: "mark or unmark the card, to merge"),
        KeyBinding(keys: [.character("M")], action: .mergeMarked, places: [.cards], help: "merge the marked cards (the first marked is kept)"),
        KeyBinding(keys: [.character("K")], action: .moveUp, places: [.favorites], help: "move the favorite up"),
        KeyBinding(keys: [.character("J")], action: .moveDown, places: [.favorites], help: "move the favorite down"),
        KeyBinding(keys: [.character("u")], action: .undo, places: [.anywhere], help: "undo the last change (its title is shown)"),
        KeyBinding(keys: [.character("r"), .control("r")], action: .redo, places: [.anywhere], help: "redo"),
        KeyBinding(keys: [.character("?")], action: .help, places: [.anywhere], help: "these keys"),
        KeyBinding(keys: [.control("l")], action: .redraw, places: [.anywhere], help: "redraw the screen"),
        KeyBinding(keys: [.control("z")], action: .suspend, places: [.anywhere], help: "suspend (fg resumes)"),
        KeyBinding(keys: [.character("q")], action: .quit, places: [.anywhere], help: "quit"),
        KeyBinding(keys: [.control("c")], action: .interrupt, places: [.anywhere], help: "quit (asks first)"),
    ]

    /// What `key` does in `places` (the screen's places plus `.anywhere`), if anything.
    static func action(for key: Key, in places: Set<ScreenPlace>) -> ScreenAction? {
        let here = places.union([.anywhere])
        return table.first { $0.keys.contains(key) && !$0.places.isDisjoint(with: here) }?.action
    }

    /// The first key of `action`, for the status line.
    static func key(for action: ScreenAction) -> String {
        table.first { $0.action == action }?.keys.first?.label ?? ""
    }
}
