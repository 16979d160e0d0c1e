import CarnetModels
import CarnetState
import CarnetViewModels

/// What the verbs of `InteractiveSession/verbs` do, on the screen on top.
extension InteractiveSession {
    // MARK: The screen on top

    var screen: InteractiveVerb.Screen {
        switch app.current {
        case .contacts: .contacts
        case .favorites: .favorites
        case .contactDetail: .contactDetail
        case .editContact: .editContact
        case .quote: .quote
        case .editQuote: .editQuote
        case .books: .books
        case .groups: .groups
        case .groupDetail: .groupDetail
        }
    }

    var list: ContactsViewModel? {
        switch app.current {
        case let .contacts(list), let .favorites(list): list
        default: nil
        }
    }

    var contactEditor: EditContactViewModel? {
        if case let .editContact(edit) = app.current { return edit }
        return nil
    }

    var quoteScreen: QuoteViewModel? {
        if case let .quote(quote) = app.current { return quote }
        return nil
    }

    var groupScreen: GroupDetailViewModel? {
        if case let .groupDetail(group) = app.current { return group }
        return nil
    }

    // MARK: Anywhere

    func switchTab(to tab: AppCoordinator.Tab) throws {
        guard try mayDropDraft() else { return try render() }
        try app.select(tab); try render()
    }

    /// Undo and redo take back saved changes; an open edit is settled first.
    func step(redo: Bool) throws {
        if InteractiveVerb.Screen.drafts.contains(screen) {
            return terminal.print("error: undo and redo take back saved changes; save or cancel this edit first")
        }
        let step = redo ? try app.redo() : try app.undo()
        for entry in step.entries { terminal.print("\(redo ? "redone" : "undone") \(entry.id): \(entry.summary.shown)") }
        try render()
    }

    // MARK: Contact detail

    func setFavorite(_ makesFavorite: Bool, _ verb: String, _ rest: String) throws {
        guard case let .contactDetail(detail) = app.current else { return }
        let id = detail.contact.id
        if !rest.isEmpty, try number(rest) != id {
            throw CLIError.usage("this screen shows contact \(id); for contact \(rest), type back, then \(verb) \(rest)")
        }
        if detail.isFavorite == makesFavorite {
            terminal.print("contact \(id) is \(makesFavorite ? "already" : "not") a favorite")
        } else {
            try detail.toggleFavorite()
            terminal.print("saved \(makesFavorite ? "favorite" : "unfavorite") \(id)")
        }
        try render()
    }

    func deleteShownContact(_ rest: String) throws {
        guard case let .contactDetail(detail) = app.current else { return }
        let id = detail.contact.id
        guard try confirmsDeletion(of: "contact \(id)", rest, "delete contact \(id), \(detail.contact.name.shown)?") else { return }
        try detail.delete()
        terminal.print("deleted contact \(id), \(detail.contact.name.shown) (undo: u)")
        try app.back()
        try render()
    }

    /// Whether to go on deleting `what`: `delete --yes` (the `rest` of the line) says so; else the
    /// person at the terminal is asked `question` (a no prints that it was kept), and a script is
    /// refused.
    func confirmsDeletion(of what: String, _ rest: String, _ question: String) throws -> Bool {
        if ["--yes", "-y"].contains(rest) { return true }
        guard terminal.stdinIsTerminal else {
            throw CLIError.usage("not deleting \(what) without --yes (standard input is not a terminal): type delete --yes")
        }
        guard confirm(question) else {
            terminal.print("cancelled; \(what) kept")
            return false
        }
        return true
    }

    // MARK: Groups

    /// Opens the group named by `text`, its id or its name.
    func openGroup(_ text: String) throws {
        let name = try required(text, "open GROUP (its id or name)")
        try app.showGroup(try app.groups.group(name)); try render()
    }

    func deleteShownGroup(_ rest: String) throws {
        guard let screen = groupScreen else { return }
        let group = screen.group
        let question = "delete group \(group.id), \(group.name.shown)? \(GroupRendering.membersStay(group.draft.members.count))"
        guard try confirmsDeletion(of: "group \(group.id)", rest, question) else { return }
        try screen.delete()
        terminal.print("deleted group \(group.id), \(group.name.shown); \(GroupRendering.membersStay(group.draft.members.count)) (undo: u)")
        try app.back()
        try render()
    }

    // MARK: Quote

    func listQuotes() throws {
        guard let quote = quoteScreen else { return }
        try quote.onAppear()
        for q in quote.quotes {
            terminal.print("\(q.isCurrent ? "*" : " ") \(q.id)  \(q.text.replacingOccurrences(of: "\n", with: " ").shown)\(q.author.isEmpty ? "" : " — \(q.author.shown)")")
        }
    }

    // MARK: Edit screens

    /// What a field of the draft on screen is, by its key or flag, as the edit verbs treat it.
    enum FieldKind { case text, list, photo }

    func fieldKind(_ word: String) -> FieldKind? {
        switch app.current {
        case .editContact: Self.fieldKind(word, in: ContactDraft.self)
        case .editQuote: Self.fieldKind(word, in: QuoteDraft.self)
        default: nil
        }
    }

    private static func fieldKind<Draft: EditableDraft>(_ word: String, in draft: Draft.Type) -> FieldKind? {
        guard let spec = Draft.fields.first(where: { $0.key == word || $0.flag == word }) else { return nil }
        switch spec.value {
        case .text, .multiline: return .text
        case .list: return .list
        case .photo: return .photo
        }
    }

    /// The names help gives the draft's text fields (their keys) or its lists (their flags).
    func draftFieldKeys(lists: Bool) -> [String] {
        switch app.current {
        case .editContact: Self.draftFieldKeys(lists: lists, in: ContactDraft.self)
        case .editQuote: Self.draftFieldKeys(lists: lists, in: QuoteDraft.self)
        default: []
        }
    }

    private static func draftFieldKeys<Draft: EditableDraft>(lists: Bool, in draft: Draft.Type) -> [String] {
        lists ? Draft.fields.filter { $0.list != nil }.map(\.flag) : Draft.fields.filter { $0.text != nil || $0.multilineText != nil }.map(\.key)
    }

    /// The verbs every edit screen understands, whatever its record.
    enum DraftVerb {
        case save, cancel, reload, overwrite
        case choose(theirs: Bool, String)
        case field(String, String)
        case entry(String, String)
    }

    func setField(_ verb: String, _ rest: String) throws { try onDraft(.field(verb, rest)) }
    func entryCommand(_ verb: String, _ rest: String) throws { try onDraft(.entry(verb, rest)) }

    func onDraft(_ verb: DraftVerb) throws {
        switch app.current {
        case let .editContact(edit): try perform(verb, on: edit)
        case let .editQuote(edit): try perform(verb, on: edit)
        default: break
        }
    }

    private func perform<Record: DraftSaving>(_ verb: DraftVerb, on edit: DraftEditor<Record>) throws {
        switch verb {
        case let .field(key, rest):
            guard let spec = Record.Draft.fields.first(where: { $0.key == key || $0.flag == key }) else { return unknown(key) }
            switch spec.value {
            case let .text(keyPath), let .multiline(keyPath):
                edit.draft[keyPath: keyPath] = rest
            case .list:
                if rest.isEmpty {
                    throw CLIError.usage("type \(spec.flag) ENTRY to add one, or \(spec.flag) -N to remove entry N. \(spec.help)")
                }
                if rest.hasPrefix("-"), let index = Int(rest.dropFirst()), index > 0 {
                    try edit.removeEntry(at: index - 1, from: spec.field)
                } else {
                    try edit.addEntry(rest, to: spec.field)
                }
            case .photo:
                return unknown(key)
            }
        case let .entry(verb, rest):
            try handleEntryCommand(edit, verb, rest)
        case .save:
            try requireNoClashes(edit.clashes)
            let baseVersion = edit.original?.version
            guard let saved = try save(edit) else { return }
            terminal.print(SaveReport.line(Record.kind, id: saved.id, version: saved.version, baseVersion: baseVersion, showingVersion: true))
        case .reload:
            let theirs = edit.conflict?.changedFields ?? []
            try edit.resolve(.reload)
            reportMerge(theirs: theirs, clashes: edit.clashes)
        case let .choose(theirs, rest):
            for field in try clashFields(rest, edit.clashes, Record.Draft.self) {
                if theirs { edit.takeTheirs(field) } else { edit.keepMine(field) }
            }
        case .overwrite:
            let baseVersion = edit.conflict?.current.version
            if let saved = try edit.resolve(.overwrite) {
                terminal.print(SaveReport.line(Record.kind, id: saved.id, version: saved.version, baseVersion: baseVersion, showingVersion: true))
            }
        case .cancel:
            edit.cancel()
            terminal.print("cancelled")
        }
        try render()
    }

    /// `remove FIELD N|VALUE`, `move FIELD N M`, `pref FIELD N`, `set FIELD N ENTRY`.
    func handleEntryCommand<Record: DraftSaving>(_ edit: DraftEditor<Record>, _ verb: String, _ rest: String) throws {
        let usage: String
        switch verb {
        case "remove": usage = "remove FIELD N (or remove FIELD VALUE)"
        case "move": usage = "move FIELD N M (entry N to place M)"
        case "pref": usage = "pref FIELD N"
        default: usage = "set FIELD N ENTRY"
        }
        let (name, arguments) = split(rest)
        let lists = Record.Draft.fields.filter { $0.list != nil }
        guard !name.isEmpty else { throw CLIError.usage("type \(usage)") }
        guard let spec = lists.first(where: { $0.key == name || $0.flag == name }) else {
            throw CLIError.usage("\(verb) works on a list: \(lists.map(\.flag).joined(separator: ", ")); got \"\(name.shown)\"")
        }
        let field = spec.field
        let (first, more) = split(arguments)
        switch verb {
        case "remove":
            guard !arguments.isEmpty else { throw CLIError.usage("type \(usage)") }
            if let index = Int(arguments), index > 0 {
                try edit.removeEntry(at: index - 1, from: field)
            } else if try edit.removeEntries(matching: arguments, from: field) == 0 {
                throw CLIError.usage("no \(spec.flag) is \"\(arguments.shown)\"; type remove \(spec.flag) N to remove entry N")
            }
        case "move":
            let (second, extra) = split(more)
            guard extra.isEmpty else { throw CLIError.usage("type \(usage)") }
            try edit.moveEntry(from: try entryNumber(first, usage), to: try entryNumber(second, usage), in: field)
        case "pref":
            guard more.isEmpty else { throw CLIError.usage("type \(usage)") }
            try edit.makePreferred(at: try entryNumber(first, usage), in: field)
        default:
            guard !more.isEmpty else { throw CLIError.usage("type \(usage)") }
            try edit.setEntry(at: try entryNumber(first, usage), to: more, in: field)
        }
    }

    /// An entry's number as typed (1 is the first), as the view model's index (0 is the first).
    func entryNumber(_ text: String, _ usage: String) throws -> Int {
        if text.isEmpty { throw CLIError.usage("type \(usage)") }
        guard let number = Int(text), number > 0 else {
            throw CLIError.usage("expected an entry number (1 is the first), got \"\(text.shown)\"; type \(usage)")
        }
        return number - 1
    }

    /// Saves; a conflict is shown with both versions and the three ways out, not thrown.
    func save<Record: DraftSaving>(_ edit: DraftEditor<Record>) throws(CarnetError) -> Record? {
        do {
            return try edit.save()
        } catch {
            guard let conflict = Record.conflict(in: error) else { throw error }
            terminal.print("conflict: \(conflict.summary.shown)\n  theirs: \(describe(conflict.current.draft).shown)\n  yours:  \(describe(conflict.mine).shown)\n  \(Self.conflictWaysOut)")
            return nil
        }
    }

    /// After a reload: what was merged, and which fields still need a choice.
    func reportMerge(theirs: [Field], clashes: [Field]) {
        let taken = theirs.filter { !clashes.contains($0) }
        terminal.print("reloaded: " + (taken.isEmpty ? "" : "their \(taken.map(\.rawValue).joined(separator: ", ")) taken, ") + "your changes kept")
        if !clashes.isEmpty {
            let names = clashes.map(\.rawValue).joined(separator: ", ")
            terminal.print("both changed \(names): type theirs FIELD or mine FIELD for each (or theirs / mine for all), then save")
        }
    }

    func clashFields<Draft: EditableDraft>(_ text: String, _ clashes: [Field], _ draft: Draft.Type) throws -> [Field] {
        guard !clashes.isEmpty else { throw CLIError.usage("nothing to choose: no field was changed both here and elsewhere") }
        if text.isEmpty { return clashes }
        let wanted = text.lowercased()
        let field = Draft.fields.first { $0.key == wanted || $0.flag == wanted }?.field ?? Field(rawValue: wanted)
        guard let field, clashes.contains(field) else {
            throw CLIError.usage("choose one of \(clashes.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
        }
        return [field]
    }

    func requireNoClashes(_ clashes: [Field]) throws {
        guard !clashes.isEmpty else { return }
        let names = clashes.map(\.rawValue).joined(separator: ", ")
        throw CLIError.usage("both edits changed \(names): type theirs FIELD or mine FIELD for each before saving")
    }
}
