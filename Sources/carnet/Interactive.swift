import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct InteractiveCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "interactive",
        abstract: "A keyboard-driven session: contacts and favorites tabs, detail, edit, quote.",
        discussion: """
            Reads one command per line from standard input, so it can be scripted too:
              printf 'open 3\\nfav\\nfavorites\\nquit\\n' | carnet interactive

            Every screen re-reads the address book when it appears, so changes made meanwhile by \
            another carnet show up. Type help for the commands of the current screen.

            The edit screen shows every field, list entries numbered from 1. A list takes an \
            entry to add, written as for the flags ([label[,pref]:]value), and -N to remove \
            entry N; move LIST N M, set LIST N ENTRY and pref LIST N do the rest:
              printf 'open 2\\nedit\\nemail home:ty@x.org\\nsave\\nq\\n' | carnet interactive

            An edit screen with unsaved changes is never left silently: on a terminal, back, \
            another tab, quit and Ctrl-D ask first; from a script, back and tab switches are \
            refused until you save or cancel, and quit or the end of input says the draft was \
            discarded. delete asks on a terminal; from a script it needs delete --yes.
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        try InteractiveSession(app: AppCoordinator(state: state, pageSize: 20), terminal: terminal).run()
    }
}

/// The CLI's screens over the coordinator: each command is a user action on the screen on top.
@MainActor
final class InteractiveSession {
    let app: AppCoordinator
    let terminal: Terminal
    let input: LineInput

    init(app: AppCoordinator, terminal: Terminal) {
        self.app = app
        self.terminal = terminal
        input = LineInput(terminal: terminal)
    }

    func run() throws {
        try app.start(on: .contacts)
        try render()
        terminal.print("type help for the commands of this screen, quit to leave")
        if terminal.stdinIsTerminal { input.catchInterrupts() }
        while true {
            guard let line = input.line(prompt: terminal.stdinIsTerminal ? "\(screenName)> " : nil) else {
                // End of input (Ctrl-D on a terminal, which leaves the cursor on the prompt's line),
                // or Ctrl-C: both ask before an unsaved draft is dropped. Ctrl-C then ends carnet
                // alone, with the status of an interrupted command.
                let interrupted = input.wasInterrupted
                if terminal.stdinIsTerminal { terminal.print("") }
                if mayQuit() {
                    if interrupted { throw ExitCode(130) }
                    break
                }
                continue
            }
            let input = line.trimmingCharacters(in: .whitespaces)
            if ["quit", "exit", "q"].contains(input) {
                if mayQuit() { break }
                continue
            }
            do {
                try handle(input)
            } catch let error as CarnetError {
                switch error {
                case let .conflict(conflict): terminal.print("conflict: \(conflict.summary.shown); \(Self.conflictWaysOut)")
                default: terminal.print("error: \(error.description.shown)")
                }
            } catch let error as CLIError {
                terminal.print("error: \(error.message.shown)")
            }
            // A "saved" line leaves the process as soon as its commit is done.
            terminal.console.flush()
        }
    }

    static let conflictWaysOut = "type reload (merge their changes into yours), overwrite (save yours over theirs) or cancel"

    // MARK: Unsaved drafts

    /// What the unsaved draft on the stack is of ("contact 3", "a new contact"), if any.
    private var unsavedDraft: String? {
        switch app.unsavedEdit {
        case let .editContact(edit): edit.original.map { "contact \($0.id)" } ?? "a new contact"
        case let .editQuote(edit): edit.original.map { "quote \($0.id)" } ?? "a new quote"
        default: nil
        }
    }

    /// Whether a command may leave the edit screen (back, another tab) and drop its draft: yes
    /// if nothing is unsaved; on a terminal, if the user says so; from a script, never (it must
    /// save or cancel, so a script's typo cannot lose its edits).
    private func mayDropDraft() throws -> Bool {
        guard let draft = unsavedDraft else { return true }
        guard terminal.stdinIsTerminal else {
            throw CLIError.usage("unsaved changes to \(draft): save them, or cancel to drop them, first")
        }
        return confirm("discard unsaved changes to \(draft)?")
    }

    /// Whether the session may end now (quit, end of input). An unsaved draft is discarded only
    /// when the user says so on a terminal (a second Ctrl-D says so too); a script is told.
    private func mayQuit() -> Bool {
        guard let draft = unsavedDraft else { return true }
        if terminal.stdinIsTerminal {
            guard confirm("discard unsaved changes to \(draft)?", endOfInputMeans: true) else { return false }
        }
        terminal.print("discarded the unsaved changes to \(draft)")
        return true
    }

    /// A yes/no question on the terminal; only an explicit yes counts.
    private func confirm(_ question: String, endOfInputMeans atEnd: Bool = false) -> Bool {
        guard let answer = input.line(prompt: "\(question) [y/N] ") else {
            terminal.print("")
            return atEnd
        }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    private var screenName: String {
        switch app.current {
        case .contacts: "contacts"
        case .favorites: "favorites"
        case .contactDetail: "contact"
        case .editContact: "edit contact"
        case .quote: "quote"
        case .editQuote: "edit quote"
        case .books: "books"
        }
    }

    // MARK: Commands

    private func handle(_ input: String) throws {
        let (verb, rest) = split(input)
        switch verb {
        case "": try render()
        case "help", "?": printHelp()
        case "contacts", "c", "favorites", "f", "quote":
            let tab: AppCoordinator.Tab = verb.hasPrefix("c") ? .contacts : verb.hasPrefix("f") ? .favorites : .quote
            guard try mayDropDraft() else { return try render() }
            try app.select(tab); try render()
        case "books":
            guard try mayDropDraft() else { return try render() }
            try app.showBooks(); try render()
        case "back", "b":
            guard try mayDropDraft() else { return try render() }
            try app.back(); try render()
        case "refresh", "r", "show": try render()
        case "undo", "u", "redo":
            if case .editContact = app.current { return refuseHistoryWhileEditing() }
            if case .editQuote = app.current { return refuseHistoryWhileEditing() }
            let step = verb == "redo" ? try app.redo() : try app.undo()
            for entry in step.entries { terminal.print("\(verb == "redo" ? "redone" : "undone") \(entry.id): \(entry.summary.shown)") }
            try render()
        default: try handleOnScreen(verb, rest)
        }
    }

    private func handleOnScreen(_ verb: String, _ rest: String) throws {
        switch app.current {
        case let .contacts(list), let .favorites(list):
            try handleList(list, verb, rest)
        case let .contactDetail(detail):
            switch verb {
            case "edit", "e": try app.editContact(); try render()
            case "fav", "favorite", "unfav", "unfavorite":
                let id = detail.contact.id
                if !rest.isEmpty, try number(rest) != id {
                    throw CLIError.usage("this screen shows contact \(id); for contact \(rest), type back, then \(verb) \(rest)")
                }
                let makesFavorite = verb.hasPrefix("fav")
                if detail.isFavorite == makesFavorite {
                    terminal.print("contact \(id) is \(makesFavorite ? "already" : "not") a favorite")
                } else {
                    try detail.toggleFavorite()
                    terminal.print("saved \(makesFavorite ? "favorite" : "unfavorite") \(id)")
                }
                try render()
            case "delete":
                let id = detail.contact.id
                if !["--yes", "-y"].contains(rest) {
                    guard terminal.stdinIsTerminal else {
                        throw CLIError.usage("not deleting contact \(id) without --yes (standard input is not a terminal): type delete --yes")
                    }
                    guard confirm("delete contact \(id), \(detail.contact.name.shown)?") else {
                        terminal.print("cancelled; contact \(id) kept")
                        return
                    }
                }
                try detail.delete()
                terminal.print("deleted contact \(id), \(detail.contact.name.shown) (undo: u)")
                try app.back()
                try render()
            default: unknown(verb)
            }
        case let .editContact(edit):
            try handleEdit(edit, verb, rest)
        case let .quote(quote):
            switch verb {
            case "edit", "e": try app.editQuote(); try render()
            case "add": try app.addQuote(); try render()
            case "list", "l":
                try quote.onAppear()
                for q in quote.quotes {
                    terminal.print("\(q.isCurrent ? "*" : " ") \(q.id)  \(q.text.replacingOccurrences(of: "\n", with: " ").shown)\(q.author.isEmpty ? "" : " — \(q.author.shown)")")
                }
            case "use": try quote.use(try number(rest)); try render()
            case "delete": try quote.delete(try number(rest)); try render()
            default: unknown(verb)
            }
        case let .editQuote(edit):
            if try !handleDraft(edit, verb, rest) { unknown(verb) }
        case let .books(books):
            switch verb {
            case "open", "o":
                guard let book = books.books.first(where: { $0.isNamed(rest) }) else { throw CarnetError.unknownBook(rest) }
                try app.showBook(book); try render()
            case "add": try books.add(named: rest); try render()
            case "list", "l": try render()
            default: unknown(verb)
            }
        }
    }

    private func handleList(_ list: ContactsViewModel, _ verb: String, _ rest: String) throws {
        switch verb {
        case "list", "l": try render()
        case "open", "o": try app.showContact(id: try number(rest)); try render()
        case _ where Int64(verb) != nil: try app.showContact(id: Int64(verb)!); try render()
        case "next", "n": try list.loadNextPage(); try render()
        case "prev", "p": try list.loadPreviousPage(); try render()
        case "search", "/": try list.setSearch(rest); try render()
        case "fav", "favorite":
            let id = try number(rest)
            try list.favorite(id)
            terminal.print("saved favorite \(id)")
            try render()
        case "unfav", "unfavorite":
            let id = try number(rest)
            try list.unfavorite(id)
            terminal.print("saved unfavorite \(id)")
            try render()
        case "add", "a": try app.addContact(); try render()
        default: unknown(verb)
        }
    }

    private func handleEdit(_ edit: EditContactViewModel, _ verb: String, _ rest: String) throws {
        switch verb {
        case "photo": edit.draft.photo = try PhotoFile.read(rest); try render()
        case "nophoto": edit.draft.photo = nil; try render()
        // Carnet's first schema's one line, split into title and organization as `--position` is.
        case "position": edit.draft.position = rest; try render()
        // The display name and the structured name keep each other in step when one was made
        // from the other: renaming "Ada Lovelace" to "Ada King" moves her under K.
        case "name": edit.draft.rename(to: rest); try render()
        default:
            if let keyPath = ContactFields.named(verb)?.text, Self.isNamePart(keyPath) {
                var changed = edit.draft
                changed[keyPath: keyPath] = rest
                edit.draft.setNameParts(changed.nameParts)
                return try render()
            }
            if try !handleDraft(edit, verb, rest) { unknown(verb) }
        }
    }

    /// Whether a text field is one of the structured name's parts (prefix, given, …).
    private static func isNamePart(_ keyPath: WritableKeyPath<ContactDraft, String>) -> Bool {
        var probe = ContactDraft()
        probe[keyPath: keyPath] = "x"
        return !probe.nameParts.isEmpty
    }

    /// The commands of an edit screen, contact or quote alike, for each field the draft's
    /// description lists: `KEY VALUE` sets a text field; for a list, `FLAG ENTRY` adds an entry,
    /// `FLAG -N` removes entry N, and `remove`, `move`, `pref`, `set` work on entries by number
    /// (1 is the first). Then save, reload, theirs/mine, overwrite and cancel. Returns false for a
    /// verb it does not know.
    private func handleDraft<Record: DraftSaving>(_ edit: DraftEditor<Record>, _ verb: String, _ rest: String) throws -> Bool {
        if let spec = Record.Draft.fields.first(where: { $0.key == verb || $0.flag == verb }) {
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
                return false
            }
            try render()
            return true
        }
        switch verb {
        case "remove", "move", "pref", "set":
            try handleEntryCommand(edit, verb, rest)
            try render()
        case "save", "s":
            try requireNoClashes(edit.clashes)
            let baseVersion = edit.original?.version
            if let saved = try save(edit) {
                terminal.print(SaveReport.line(Record.kind, id: saved.id, version: saved.version, baseVersion: baseVersion, showingVersion: true))
                try render()
            }
        case "reload":
            let theirs = edit.conflict?.changedFields ?? []
            try edit.resolve(.reload)
            reportMerge(theirs: theirs, clashes: edit.clashes)
            try render()
        case "theirs", "mine":
            for field in try clashFields(rest, edit.clashes, Record.Draft.self) {
                if verb == "theirs" { edit.takeTheirs(field) } else { edit.keepMine(field) }
            }
            try render()
        case "overwrite":
            let baseVersion = edit.conflict?.current.version
            if let saved = try edit.resolve(.overwrite) {
                terminal.print(SaveReport.line(Record.kind, id: saved.id, version: saved.version, baseVersion: baseVersion, showingVersion: true))
            }
            try render()
        case "cancel": edit.cancel(); terminal.print("cancelled"); try render()
        default: return false
        }
        return true
    }

    /// `remove FIELD N|VALUE`, `move FIELD N M`, `pref FIELD N`, `set FIELD N ENTRY`.
    private func handleEntryCommand<Record: DraftSaving>(_ edit: DraftEditor<Record>, _ verb: String, _ rest: String) throws {
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
    private func entryNumber(_ text: String, _ usage: String) throws -> Int {
        if text.isEmpty { throw CLIError.usage("type \(usage)") }
        guard let number = Int(text), number > 0 else {
            throw CLIError.usage("expected an entry number (1 is the first), got \"\(text.shown)\"; type \(usage)")
        }
        return number - 1
    }

    /// Saves; a conflict is shown with both versions and the three ways out, not thrown.
    private func save<Record: DraftSaving>(_ edit: DraftEditor<Record>) throws(CarnetError) -> Record? {
        do {
            return try edit.save()
        } catch {
            guard let conflict = Record.conflict(in: error) else { throw error }
            terminal.print("conflict: \(conflict.summary.shown)\n  theirs: \(describe(conflict.current.draft).shown)\n  yours:  \(describe(conflict.mine).shown)\n  \(Self.conflictWaysOut)")
            return nil
        }
    }

    /// After a reload: what was merged, and which fields still need a choice.
    private func reportMerge(theirs: [Field], clashes: [Field]) {
        let taken = theirs.filter { !clashes.contains($0) }
        terminal.print("reloaded: " + (taken.isEmpty ? "" : "their \(taken.map(\.rawValue).joined(separator: ", ")) taken, ") + "your changes kept")
        if !clashes.isEmpty {
            let names = clashes.map(\.rawValue).joined(separator: ", ")
            terminal.print("both changed \(names): type theirs FIELD or mine FIELD for each (or theirs / mine for all), then save")
        }
    }

    private func clashFields<Draft: EditableDraft>(_ text: String, _ clashes: [Field], _ draft: Draft.Type) throws -> [Field] {
        guard !clashes.isEmpty else { throw CLIError.usage("nothing to choose: no field was changed both here and elsewhere") }
        if text.isEmpty { return clashes }
        let wanted = text.lowercased()
        let field = Draft.fields.first { $0.key == wanted || $0.flag == wanted }?.field ?? Field(rawValue: wanted)
        guard let field, clashes.contains(field) else {
            throw CLIError.usage("choose one of \(clashes.map(\.rawValue).joined(separator: ", ")), got \"\(text)\"")
        }
        return [field]
    }

    private func requireNoClashes(_ clashes: [Field]) throws {
        guard !clashes.isEmpty else { return }
        let names = clashes.map(\.rawValue).joined(separator: ", ")
        throw CLIError.usage("both edits changed \(names): type theirs FIELD or mine FIELD for each before saving")
    }

    // MARK: Screens

    private func render() throws {
        try app.reappear()
        switch app.current {
        case let .contacts(list):
            terminal.print(terminal.bold("── Contacts (\(countLabel(list))) ──") + (list.search.isEmpty ? "" : "  search: \(list.search.shown)"))
            if list.hasEarlier { terminal.print("  … (prev)") }
            for row in list.rows { terminal.print(listLine(row)) }
            if list.rows.isEmpty { terminal.print("  no contacts (add)") }
            if list.hasMore { terminal.print("  … (next)") }
        case let .favorites(list):
            terminal.print(terminal.bold("── Favorites (\(countLabel(list))) ──") + (list.search.isEmpty ? "" : "  search: \(list.search.shown)"))
            for row in list.rows { terminal.print("  \(row.favoritePosition ?? 0). \(row.contact.name.shown)  [\(row.id)]") }
            if list.rows.isEmpty { terminal.print("  no favorites (fav ID)") }
        case let .contactDetail(detail):
            terminal.print(terminal.bold("── Contact ──"))
            terminal.print(ContactRendering.detail(detail.contact, favoritePosition: detail.favoritePosition, terminal: terminal), terminator: "")
        case let .editContact(edit):
            terminal.print(terminal.bold(edit.isNew ? "── New contact ──" : "── Edit contact ──") + (edit.isDirty ? "  (unsaved)" : ""))
            for line in fieldLines(edit) { terminal.print(line) }
            printIssuesAndClashes(edit)
        case let .quote(quote):
            terminal.print(terminal.bold("── Quote ──"))
            if let q = quote.quote { terminal.print(QuoteRendering.text(q, terminal: terminal), terminator: "") }
        case let .editQuote(edit):
            terminal.print(terminal.bold(edit.isNew ? "── New quote ──" : "── Edit quote ──") + (edit.isDirty ? "  (unsaved)" : ""))
            terminal.print("  text:   \(edit.draft.text.multiline)\n  author: \(edit.draft.author.shown)")
            printIssuesAndClashes(edit)
        case let .books(books):
            terminal.print(terminal.bold("── Address books ──"))
            for book in books.books {
                terminal.print("  \(book.name.shown)\(book.isDefault ? " (default)" : "")  \(book.contactCount) contact\(book.contactCount == 1 ? "" : "s")")
            }
        }
    }

    /// Under an edit screen: each broken rule, and each field both edits changed, with both values.
    private func printIssuesAndClashes<Record: DraftSaving>(_ edit: DraftEditor<Record>) {
        for issue in edit.issues { terminal.print("  ! \(issue)") }
        guard let theirs = edit.original?.draft else { return }
        for field in edit.clashes {
            terminal.print("  ? \(field): theirs \(describe(field, of: theirs).shown), yours \(describe(field, of: edit.draft).shown)")
        }
    }

    /// Every field of the draft, one per line under its key, empty ones too, so the screen shows
    /// what can be set; a list's entries numbered as the commands number them, a note's lines
    /// one under the other.
    private func fieldLines(_ edit: EditContactViewModel) -> [String] {
        let width = (ContactFields.all.map(\.key.count).max() ?? 0) + 2
        var lines: [String] = []
        for spec in ContactFields.all {
            let values: [String]
            switch spec.value {
            case let .text(keyPath): values = [edit.draft[keyPath: keyPath].shown]
            case let .multiline(keyPath):
                let text = edit.draft[keyPath: keyPath]
                values = text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).shown }
            case let .photo(keyPath):
                values = edit.draft[keyPath: keyPath].map { ["\(ImageKind(of: $0)?.rawValue.uppercased() ?? "image"), \($0.count) bytes"] } ?? []
            case .list:
                values = edit.entryRows(in: spec.field).enumerated().map { number, row in
                    "\(number + 1). \(row.value.shown)" + (row.entryLabel.isEmpty ? "" : " (\(row.entryLabel.shown))")
                }
            }
            let head = "  " + (spec.key + ":").padding(toLength: width, withPad: " ", startingAt: 0)
            let indent = String(repeating: " ", count: head.count)
            for (index, value) in (values.isEmpty ? [""] : values).enumerated() {
                let line = (index == 0 ? head : indent) + value
                lines.append(String(line.reversed().drop { $0 == " " }.reversed()))
            }
        }
        return lines
    }

    private func listLine(_ row: ContactRow) -> String {
        let position = row.contact.position.isEmpty ? "" : " — \(row.contact.position.shown)"
        return "\(String(row.id).leftPad(5))  \(row.contact.name.shown)\(position)\(row.isFavorite ? "  ★" : "")"
    }

    private func describe<Draft: EditableDraft>(_ field: Field, of draft: Draft) -> String {
        guard let spec = Draft.fields.first(where: { $0.field == field }) else { return "" }
        switch spec.value {
        case let .text(keyPath), let .multiline(keyPath): return "\"\(draft[keyPath: keyPath])\""
        case let .photo(keyPath): return draft[keyPath: keyPath].map { "a photo of \($0.count) bytes" } ?? "no photo"
        case let .list(list): return "[" + list.entries(draft).map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }

    /// The header's count: the matches of a search out of the whole tab, else the whole tab.
    private func countLabel(_ list: ContactsViewModel) -> String {
        list.search.isEmpty ? "\(list.totalCount)" : "\(list.matchCount) of \(list.totalCount)"
    }

    /// A draft on one line: `Ada Lovelace | Analyst | ada@example.com | +44 20 7946 0000`: the
    /// values of the fields a search looks in (who it is and how to reach them; every entry of a
    /// list; the name once, without its parts), or, for a draft whose description marks none
    /// searchable (a quote), its text fields.
    private func describe<Draft: EditableDraft>(_ draft: Draft) -> String {
        let nameParts: Set<Field> = [.prefix, .given, .additional, .family, .suffix]
        let searchable = Draft.fields.filter { $0.searchable && !nameParts.contains($0.field) }
        let fields = searchable.isEmpty ? Draft.fields.filter { $0.text != nil || $0.multilineText != nil } : searchable
        return fields.flatMap { $0.texts(of: draft) }.joined(separator: " | ").replacingOccurrences(of: "\n", with: " ")
    }

    private func printHelp() {
        let help: String
        switch app.current {
        case .contacts, .favorites:
            help = "ID or open ID · next · prev · search TEXT · fav ID · unfav ID · add"
        case .contactDetail:
            help = "edit · fav · unfav · delete (asks; delete --yes from a script) · back"
        case .editContact:
            let texts = ContactFields.all.filter { $0.text != nil || $0.multilineText != nil }.map(\.key)
            let lists = ContactFields.lists.map(\.spec.flag)
            let preferred = ContactFields.lists.filter { $0.list.makePreferred != nil }.map(\.spec.flag)
            help = """
                \(texts.joined(separator: "|")) VALUE: set (no VALUE clears) · position VALUE: title, organization
                \(lists.joined(separator: "|")) ENTRY: add an entry, [label[,pref]:]value, e.g. email work,pref:ada@example.com
                LIST -N or remove LIST N|VALUE: remove · move LIST N M · set LIST N ENTRY · pref LIST N (\(preferred.joined(separator: "|")))
                photo FILE · nophoto · save · cancel (on conflict: reload · overwrite · cancel; after reload: theirs FIELD · mine FIELD)
                """
        case .quote:
            help = "edit · add · list · use ID · delete ID"
        case .editQuote:
            help = QuoteFields.all.map(\.key).joined(separator: "|") + " VALUE · save · cancel (on conflict: reload · overwrite · cancel; after reload: theirs FIELD · mine FIELD)"
        case .books:
            help = "open NAME · add NAME · list"
        }
        let text = "\(help)\nanywhere: contacts (c) · favorites (f) · quote · books · back (b) · refresh (r) · undo (u) · redo · help · quit (q)"
        // On a terminal, wrapped between words to its width, each line's rest indented under
        // it; a script gets one line per group of commands, as before.
        guard terminal.stdoutIsTerminal else { return terminal.print(text) }
        terminal.print(HelpText.wrapped(text, width: HelpText.width(terminal.console), paragraphIndent: 2))
    }

    /// Undo and redo take back saved changes; an open edit is settled first.
    private func refuseHistoryWhileEditing() {
        terminal.print("error: undo and redo take back saved changes; save or cancel this edit first")
    }

    private func unknown(_ verb: String) {
        terminal.print("unknown command \"\(verb.shown)\" here; type help")
    }

    private func split(_ input: String) -> (String, String) {
        guard let space = input.firstIndex(of: " ") else { return (input.lowercased(), "") }
        return (input[..<space].lowercased(), input[input.index(after: space)...].trimmingCharacters(in: .whitespaces))
    }

    private func number(_ text: String) throws -> Int64 {
        guard let value = Int64(text), value > 0 else { throw CLIError.usage("expected an id (a positive number), got \"\(text)\"") }
        return value
    }
}

extension String {
    func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
