import CarnetModels
import CarnetViewModels

/// One command of interactive mode: the words that call it, the screens it works on, the help
/// line that describes it, and what it does. `InteractiveSession/verbs` is the one table
/// from which both dispatch and help are made (as khard's `actions.py` is), so a verb cannot
/// work without being listed, nor be listed without working.
struct InteractiveVerb {
    /// The screens, as help and dispatch tell them apart.
    enum Screen: CaseIterable {
        case contacts, favorites, contactDetail, editContact, quote, editQuote, books, groups, groupDetail

        static let lists: Set<Screen> = [.contacts, .favorites]
        static let drafts: Set<Screen> = [.editContact, .editQuote]
    }

    /// Which words call the verb: fixed names (aliases after the first), or a test on the word
    /// for the verbs a screen makes from its data (a contact's id, a field's key).
    enum Words {
        case names([String])
        case matching(@MainActor (InteractiveSession, String) -> Bool)
    }

    let words: Words
    /// Where it works; empty means on every screen (listed under "anywhere").
    let screens: Set<Screen>
    /// What help shows for it, on its screen's `line` (0 first). Made from the session for the
    /// verbs made from the field descriptions.
    let usage: @MainActor (InteractiveSession) -> String
    let line: Int
    /// Runs it with the verb as typed (lowercased) and the rest of the line.
    let run: @MainActor (InteractiveSession, String, String) throws -> Void

    init(
        _ names: [String], on screens: Set<Screen> = [], line: Int = 0, usage: String,
        run: @escaping @MainActor (InteractiveSession, String, String) throws -> Void
    ) {
        words = .names(names)
        self.screens = screens
        self.line = line
        self.usage = { _ in usage }
        self.run = run
    }

    init(
        matching: @escaping @MainActor (InteractiveSession, String) -> Bool, on screens: Set<Screen>, line: Int = 0,
        usage: @escaping @MainActor (InteractiveSession) -> String,
        run: @escaping @MainActor (InteractiveSession, String, String) throws -> Void
    ) {
        words = .matching(matching)
        self.screens = screens
        self.line = line
        self.usage = usage
        self.run = run
    }

    @MainActor func calls(_ word: String, in session: InteractiveSession) -> Bool {
        switch words {
        case let .names(names): names.contains(word)
        case let .matching(test): test(session, word)
        }
    }
}

extension InteractiveSession {
    /// Every verb of interactive mode. Verbs that work anywhere are tried first, so a field can
    /// never shadow `back` or `quit`; then the verbs of the screen on top, in this order.
    static let verbs: [InteractiveVerb] = anywhere + onLists + onDetail + onEditContact + onDrafts + onQuote + onBooks + onGroups
        + onGroupDetail

    static let anywhere: [InteractiveVerb] = [
        InteractiveVerb(["contacts", "c"], usage: "contacts (c)") { s, _, _ in try s.switchTab(to: .contacts) },
        InteractiveVerb(["favorites", "f"], usage: "favorites (f)") { s, _, _ in try s.switchTab(to: .favorites) },
        InteractiveVerb(["quote"], usage: "quote") { s, _, _ in try s.switchTab(to: .quote) },
        InteractiveVerb(["books"], usage: "books") { s, _, _ in
            guard try s.mayDropDraft() else { return try s.render() }
            try s.app.showBooks(); try s.render()
        },
        InteractiveVerb(["groups", "g"], usage: "groups (g)") { s, _, _ in
            guard try s.mayDropDraft() else { return try s.render() }
            try s.app.showGroups(); try s.render()
        },
        InteractiveVerb(["back", "b"], usage: "back (b)") { s, _, _ in
            guard try s.mayDropDraft() else { return try s.render() }
            try s.app.back(); try s.render()
        },
        InteractiveVerb(["refresh", "r", "show", ""], usage: "refresh (r)") { s, _, _ in try s.render() },
        InteractiveVerb(["undo", "u"], usage: "undo (u)") { s, _, _ in try s.step(redo: false) },
        InteractiveVerb(["redo"], usage: "redo") { s, _, _ in try s.step(redo: true) },
        InteractiveVerb(["help", "?"], usage: "help") { s, _, _ in s.printHelp() },
        InteractiveVerb(["quit", "exit", "q"], usage: "quit (q)") { s, _, _ in if s.mayQuit() { s.ended = true } },
    ]

    static let onLists: [InteractiveVerb] = [
        InteractiveVerb(matching: { _, word in Int64(word) != nil }, on: InteractiveVerb.Screen.lists, usage: { _ in "ID or open ID" }) { s, verb, _ in
            try s.app.showContact(id: try s.number(verb)); try s.render()
        },
        InteractiveVerb(["open", "o"], on: InteractiveVerb.Screen.lists, usage: "open NAME") { s, _, rest in
            try s.app.showContact(id: try s.contactNamed(rest)); try s.render()
        },
        InteractiveVerb(["list", "l"], on: InteractiveVerb.Screen.lists, usage: "") { s, _, _ in try s.render() },
        InteractiveVerb(["next", "n"], on: InteractiveVerb.Screen.lists, usage: "next") { s, _, _ in try s.list?.loadNextPage(); try s.render() },
        InteractiveVerb(["prev", "p"], on: InteractiveVerb.Screen.lists, usage: "prev") { s, _, _ in try s.list?.loadPreviousPage(); try s.render() },
        InteractiveVerb(["search", "/"], on: InteractiveVerb.Screen.lists, usage: "search TEXT") { s, _, rest in
            try s.list?.setSearch(rest); try s.render()
        },
        InteractiveVerb(["fav", "favorite"], on: InteractiveVerb.Screen.lists, usage: "fav ID") { s, _, rest in
            let id = try s.number(rest)
            try s.list?.favorite(id)
            s.terminal.print("saved favorite \(id)")
            try s.render()
        },
        InteractiveVerb(["unfav", "unfavorite"], on: InteractiveVerb.Screen.lists, usage: "unfav ID") { s, _, rest in
            let id = try s.number(rest)
            try s.list?.unfavorite(id)
            s.terminal.print("saved unfavorite \(id)")
            try s.render()
        },
        InteractiveVerb(["add", "a"], on: InteractiveVerb.Screen.lists, usage: "add") { s, _, _ in try s.app.addContact(); try s.render() },
    ]

    static let onDetail: [InteractiveVerb] = [
        InteractiveVerb(["edit", "e"], on: [.contactDetail], usage: "edit") { s, _, _ in try s.app.editContact(); try s.render() },
        InteractiveVerb(["fav", "favorite"], on: [.contactDetail], usage: "fav") { s, verb, rest in try s.setFavorite(true, verb, rest) },
        InteractiveVerb(["unfav", "unfavorite"], on: [.contactDetail], usage: "unfav") { s, verb, rest in try s.setFavorite(false, verb, rest) },
        InteractiveVerb(["delete"], on: [.contactDetail], usage: "delete (asks; delete --yes from a script)") { s, _, rest in
            try s.deleteShownContact(rest)
        },
    ]

    /// The contact edit screen's own verbs; the fields and the draft verbs it shares with the
    /// quote's follow in `onDrafts`.
    static let onEditContact: [InteractiveVerb] = [
        // The display name and the structured name keep each other in step when one was made
        // from the other: renaming "Ada Lovelace" to "Ada King" moves her under K.
        InteractiveVerb(["name"], on: [.editContact], usage: "") { s, _, rest in
            s.contactEditor?.draft.rename(to: rest); try s.render()
        },
        InteractiveVerb(matching: { _, word in ContactFields.named(word)?.text.map(isNamePart) ?? false }, on: [.editContact], usage: { _ in "" }) { s, verb, rest in
            guard let edit = s.contactEditor, let keyPath = ContactFields.named(verb)?.text else { return }
            var changed = edit.draft
            changed[keyPath: keyPath] = rest
            edit.draft.setNameParts(changed.nameParts)
            try s.render()
        },
        InteractiveVerb(
            matching: { s, word in s.fieldKind(word) == .text },
            on: InteractiveVerb.Screen.drafts,
            usage: { s in s.draftFieldKeys(lists: false).joined(separator: "|") + " VALUE" + (s.contactEditor != nil ? ": set (no VALUE clears)" : "") }
        ) { s, verb, rest in try s.setField(verb, rest) },
        // Carnet's first schema's one line, split into title and organization as `--position` is.
        InteractiveVerb(["position"], on: [.editContact], usage: "position VALUE: title, organization") { s, _, rest in
            s.contactEditor?.draft.position = rest; try s.render()
        },
        InteractiveVerb(matching: { s, word in s.fieldKind(word) == .list }, on: [.editContact], line: 1, usage: { s in
            s.draftFieldKeys(lists: true).joined(separator: "|") + " ENTRY: add an entry, [label[,pref]:]value, e.g. email work,pref:ada@example.com"
        }) { s, verb, rest in try s.setField(verb, rest) },
        InteractiveVerb(["remove"], on: [.editContact], line: 2, usage: "LIST -N or remove LIST N|VALUE: remove") { s, verb, rest in try s.entryCommand(verb, rest) },
        InteractiveVerb(["move"], on: [.editContact], line: 2, usage: "move LIST N M") { s, verb, rest in try s.entryCommand(verb, rest) },
        InteractiveVerb(["set"], on: [.editContact], line: 2, usage: "set LIST N ENTRY") { s, verb, rest in try s.entryCommand(verb, rest) },
        InteractiveVerb(matching: { _, word in word == "pref" }, on: [.editContact], line: 2, usage: { _ in
            "pref LIST N (\(ContactFields.lists.filter { $0.list.makePreferred != nil }.map(\.spec.flag).joined(separator: "|")))"
        }) { s, verb, rest in try s.entryCommand(verb, rest) },
        InteractiveVerb(["photo"], on: [.editContact], line: 3, usage: "photo FILE") { s, _, rest in
            s.contactEditor?.draft.photo = try PhotoFile.read(rest); try s.render()
        },
        InteractiveVerb(["nophoto"], on: [.editContact], line: 3, usage: "nophoto") { s, _, _ in
            s.contactEditor?.draft.photo = nil; try s.render()
        },
    ]

    /// What every edit screen does with its draft, contact or quote alike.
    static let onDrafts: [InteractiveVerb] = [
        InteractiveVerb(["save", "s"], on: InteractiveVerb.Screen.drafts, line: 3, usage: "save") { s, _, _ in try s.onDraft(.save) },
        InteractiveVerb(["cancel"], on: InteractiveVerb.Screen.drafts, line: 3, usage: "cancel") { s, _, _ in try s.onDraft(.cancel) },
        InteractiveVerb(["reload"], on: InteractiveVerb.Screen.drafts, line: 3, usage: "on conflict: reload") { s, _, _ in try s.onDraft(.reload) },
        InteractiveVerb(["overwrite"], on: InteractiveVerb.Screen.drafts, line: 3, usage: "overwrite") { s, _, _ in try s.onDraft(.overwrite) },
        InteractiveVerb(["theirs"], on: InteractiveVerb.Screen.drafts, line: 3, usage: "after reload: theirs FIELD") { s, _, rest in
            try s.onDraft(.choose(theirs: true, rest))
        },
        InteractiveVerb(["mine"], on: InteractiveVerb.Screen.drafts, line: 3, usage: "mine FIELD") { s, _, rest in
            try s.onDraft(.choose(theirs: false, rest))
        },
    ]

    static let onQuote: [InteractiveVerb] = [
        InteractiveVerb(["edit", "e"], on: [.quote], usage: "edit") { s, _, _ in try s.app.editQuote(); try s.render() },
        InteractiveVerb(["add"], on: [.quote], usage: "add") { s, _, _ in try s.app.addQuote(); try s.render() },
        InteractiveVerb(["list", "l"], on: [.quote], usage: "list") { s, _, _ in try s.listQuotes() },
        InteractiveVerb(["use"], on: [.quote], usage: "use ID") { s, _, rest in
            try s.quoteScreen?.use(try s.number(rest)); try s.render()
        },
        InteractiveVerb(["delete"], on: [.quote], usage: "delete ID") { s, _, rest in
            try s.quoteScreen?.delete(try s.number(rest)); try s.render()
        },
    ]

    /// Runs the verb the line starts with: the first of the table that works here and answers
    /// to the word.
    func handle(_ line: String) throws {
        let (word, rest) = split(line)
        let screen = self.screen
        let verb = Self.verbs.first { ($0.screens.isEmpty || $0.screens.contains(screen)) && $0.calls(word, in: self) }
        guard let verb else { return unknown(word) }
        try verb.run(self, word, rest)
    }

    /// The help of the screen on top: its verbs' usages, a line per group, then the verbs that
    /// work anywhere.
    func printHelp() {
        let screen = self.screen
        var lines: [Int: [String]] = [:]
        for verb in Self.verbs where verb.screens.contains(screen) {
            let usage = verb.usage(self)
            if !usage.isEmpty { lines[verb.line, default: []].append(usage) }
        }
        let anywhere = Self.anywhere.map { $0.usage(self) }.filter { !$0.isEmpty }
        let text = (lines.keys.sorted().map { lines[$0]!.joined(separator: " · ") } + ["anywhere: " + anywhere.joined(separator: " · ")])
            .joined(separator: "\n")
        // On a terminal, wrapped between words to its width, each line's rest indented under
        // it; a script gets one line per group of commands.
        guard terminal.stdoutIsTerminal else { return terminal.print(text) }
        terminal.print(HelpText.wrapped(text, width: HelpText.width(terminal.console), paragraphIndent: 2))
    }

    /// Whether a text field is one of the structured name's parts (prefix, given, …).
    static func isNamePart(_ keyPath: WritableKeyPath<ContactDraft, String>) -> Bool {
        var probe = ContactDraft()
        probe[keyPath: keyPath] = "x"
        return !probe.nameParts.isEmpty
    }
}

extension InteractiveSession {
    /// The address books screen: a book opens as its own list (a contact added there goes to it).
    static let onBooks: [InteractiveVerb] = [
        InteractiveVerb(["open", "o"], on: [.books], usage: "open NAME") { s, _, rest in
            guard case let .books(books) = s.app.current else { return }
            try s.app.showBook(try books.book(named: rest)); try s.render()
        },
        InteractiveVerb(["add"], on: [.books], usage: "add NAME") { s, _, rest in
            guard case let .books(books) = s.app.current else { return }
            try books.add(named: rest); try s.render()
        },
        InteractiveVerb(["list", "l"], on: [.books], usage: "list") { s, _, _ in try s.render() },
    ]
}

extension InteractiveSession {
    /// The groups screen: a group opens by its id or its name.
    static let onGroups: [InteractiveVerb] = [
        InteractiveVerb(matching: { _, word in Int64(word) != nil }, on: [.groups], usage: { _ in "ID or open GROUP" }) { s, verb, _ in
            try s.openGroup(verb)
        },
        InteractiveVerb(["open", "o"], on: [.groups], usage: "") { s, _, rest in try s.openGroup(rest) },
        InteractiveVerb(["add", "a"], on: [.groups], usage: "add NAME") { s, _, rest in
            let group = try s.app.groups.add(name: try s.required(rest, "add NAME"))
            s.terminal.print("saved group \(group.id)")
            try s.render()
        },
        InteractiveVerb(["list", "l"], on: [.groups], usage: "list") { s, _, _ in try s.render() },
    ]

    /// One group's screen: its members and what changes them; a member's id opens the member.
    static let onGroupDetail: [InteractiveVerb] = [
        InteractiveVerb(["add-member", "add", "a"], on: [.groupDetail], usage: "add-member ID…") { s, _, rest in
            guard let group = s.groupScreen else { return }
            try group.addMembers(ids: try s.numbers(rest, "add-member ID…"))
            s.terminal.print("saved group \(group.group.id): \(GroupRendering.members(group.group.draft.members.count))")
            try s.render()
        },
        InteractiveVerb(["remove-member", "remove"], on: [.groupDetail], usage: "remove-member ID|UID…") { s, _, rest in
            guard let group = s.groupScreen else { return }
            try group.removeMembers(try s.words(rest, "remove-member ID|UID…"))
            s.terminal.print("saved group \(group.group.id): \(GroupRendering.members(group.group.draft.members.count))")
            try s.render()
        },
        InteractiveVerb(["rename"], on: [.groupDetail], usage: "rename NAME") { s, _, rest in
            guard let group = s.groupScreen else { return }
            try group.rename(to: try s.required(rest, "rename NAME"))
            s.terminal.print("saved group \(group.group.id)")
            try s.render()
        },
        InteractiveVerb(["delete"], on: [.groupDetail], usage: "delete (asks; delete --yes from a script)") { s, _, rest in
            try s.deleteShownGroup(rest)
        },
        InteractiveVerb(matching: { _, word in Int64(word) != nil }, on: [.groupDetail], usage: { _ in "ID or open ID: a member" }) { s, verb, _ in
            try s.app.showContact(id: try s.number(verb)); try s.render()
        },
        InteractiveVerb(["open", "o"], on: [.groupDetail], usage: "") { s, _, rest in
            try s.app.showContact(id: try s.number(rest)); try s.render()
        },
    ]
}
