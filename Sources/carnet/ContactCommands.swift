import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// A contact id on the command line: a positive whole number.
struct ContactID: ParsableArguments {
    @Argument(help: ArgumentHelp("The contact's id (see carnet list).", valueName: "id"))
    var id: Int64

    func validate() throws {
        guard id > 0 else { throw ValidationError("a contact id is a positive whole number (got \(id))") }
    }
}

extension ContactOrder: ExpressibleByArgument {}

struct ListCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List contacts by name (or favorites in your order).",
        discussion: """
            On a terminal: aligned columns, ★ marks favorites. Otherwise: tab-separated lines with a \
            header (id, name, position, email, phone, favorite; position is title and organization, \
            email and phone the preferred ones), for scripts. --json prints every field of each \
            contact. Long lists are read page by page, never all at once.

            EXAMPLES:
              carnet list
              carnet list --sort family
              carnet list --category friends --favorites
              carnet list --search "gale foods" --limit 10
              carnet list --json | jq '.[].emails[].value'
              carnet list --book Work

            With more than one address book, each row also says its book (a last column, book).
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var book: BookOption
    @Flag(help: "Only favorites, in your order.") var favorites = false
    @Option(help: ArgumentHelp(
        "Only contacts with every word of this text, in any order, starting a word of their \(ContactFields.all.filter(\.searchable).map { $0.label.lowercased() }.joined(separator: ", ")) (ignores case and accents; phones by their digits; at most \(Limits.searchLength) characters).",
        valueName: "text"))
    var search: String?
    @Option(help: ArgumentHelp("Only contacts in this category (ignores case).", valueName: "name")) var category: String?
    @Option(help: ArgumentHelp(
        "Sort by display name (name, the default), given name first (given), family name first (family), or best matches of --search first (relevance: every word in the name, then some, then the rest).",
        valueName: "order"))
    var sort: ContactOrder?
    // `.unconditional`: `--limit -3` reaches the range check instead of reading as a missing value.
    @Option(parsing: .unconditional, help: "At most this many contacts.") var limit: Int?
    @Flag(help: "Print a JSON array of whole contacts (docs/cli.md describes its keys).") var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be 1 or more (got \(limit))") }
        if let search {
            do { _ = try SearchQuery(search) } catch { throw ValidationError(error.description) }
        }
        if favorites, sort != nil { throw ValidationError("--sort does not apply to --favorites: favorites keep your order") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let book = try self.book.resolved(state)
        let viewModel = ContactsViewModel(state: state, favoritesOnly: favorites, book: book)
        let output = ContactListOutput(
            format: json ? .json : (terminal.stdoutIsTerminal ? .table : .tsv), terminal: terminal,
            bookNames: try BooksViewModel(state: state).namesIfSeveral())
        defer { output.flush() }  // what was listed before an error still reaches the reader
        output.begin()
        // Rows are written as they are read, a page at a time, and not kept: memory holds one
        // page, not the table. A person reads a screenful at a time; a pipe takes big pages.
        let query = ContactQuery(search: search ?? "", category: category ?? "", order: sort ?? .name, bookID: book?.id)
        let pageSize = terminal.stdoutIsTerminal ? 200 : 1000
        if json {
            try viewModel.forEachRow(query: query, limit: limit ?? .max, pageSize: pageSize) { row in output.write(row) }
        } else {
            // A line per contact needs only its summary, not every child table.
            try viewModel.forEachSummaryRow(query: query, limit: limit ?? .max, pageSize: pageSize) { row in output.write(row) }
        }
        output.end()
    }
}

struct ShowCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one contact.",
        discussion: """
            EXAMPLES:
              carnet show 3
              carnet show 3 --json
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var contact: ContactID
    @Flag(help: "Print a JSON object.") var json = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let detail = try ContactsViewModel(state: state).detail(forID: contact.id)
        if detail.contact.kind == .group {
            // A group's id shows the group, as carnet group show does.
            let group = try GroupsViewModel(state: state).detail(detail.contact)
            terminal.print(json ? try JSONOutput.string(GroupJSON(group)) : GroupRendering.detail(group, terminal: terminal), terminator: json ? "\n" : "")
            return
        }
        let groups = try detail.groups()
        if json {
            var object = ContactJSON(contact: detail.contact, favorite: detail.isFavorite)
            object.groups = groups.map(\.name)
            terminal.print(try JSONOutput.string(object))
        } else {
            let book = try BooksViewModel(state: state).namesIfSeveral()?[detail.contact.bookID]
            var text = ContactRendering.detail(detail.contact, favoritePosition: detail.favoritePosition, book: book, terminal: terminal)
            if !groups.isEmpty {
                text += terminal.bold("Groups") + "\n" + groups.map { "  \($0.name.shown)  [\($0.id)]\n" }.joined()
            }
            terminal.print(text, terminator: "")
        }
    }
}

struct AddCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a contact and print its id.",
        discussion: """
            A list flag (--email, --phone, --address, --url, --handle, --date, --category) takes one \
            entry and can be repeated. An entry is [TYPE[,pref]:]VALUE: a type such as work, home or \
            cell, or your own label, and pref for the preferred one (the first counts when none is). \
            The name is required unless --given or --family is given (it is then made from the parts; \
            given a name, the parts are read from it when that is unambiguous).

            With no field flags on a terminal, asks for each field, then each list entry by entry. \
            Prints "saved contact ID" once the contact is committed. An entry that cannot be read is \
            a usage error (exit 64); a value that breaks a rule (an email without @, 30 February) is \
            invalid data (exit 65). Nothing is written either way.

            EXAMPLES:
              carnet add --name "Ada Lovelace" --email work:ada@example.com --email home,pref:ada@home.example
              carnet add --given Ada --family Lovelace --phone "cell:+44 20 7946 0000"
              carnet add --name "Ada Lovelace" --date birthday:1815-12-10 --date anniversary:--07-08
              carnet add --name "Ada Lovelace" --address "home:12 Main St; Springfield; IL; 62701; USA"
              carnet add --name "Madison Thompson" --title Sales --organization "Gale Foods" --category work
              carnet add --name "Tyler Porter" --photo tyler.jpg
              carnet add          # asks field by field
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var book: BookOption
    @OptionGroup var fields: ContactFieldOptions
    @Flag(name: .customLong("prompt"), help: "Ask for each field even when standard input is not a terminal.")
    var forcePrompt = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let edit = EditContactViewModel(state: state, addingTo: try book.resolved(state))
        if fields.isEmpty {
            try terminal.requirePrompts(
                forced: forcePrompt, else: "nothing to add: give at least --name NAME, or --given and --family (see carnet add --help)")
            try FieldPrompts(contactsOn: terminal).fillContact(edit)
        } else {
            try fields.apply(to: &edit.draft)
        }
        let saved = try edit.save()
        terminal.print("saved contact \(saved.id)")
    }
}

struct EditCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit a contact.",
        discussion: """
            With field flags, changes those fields: a one-line flag sets its field (an empty value \
            clears it), a list flag adds its entry unless the contact has that value already (then a \
            type or pref given with it is set on it; a birthday or anniversary replaces the one \
            there), and --remove-email and the like remove one (naming one the contact does not \
            have is an error). Removals happen before additions. --name renames and brings the name \
            parts read from the new name when they were read from the old one; --given and the other \
            parts bring the display name along the same way.

            With no flags on a terminal, asks for each field showing the current value (Enter keeps \
            it, - clears it), and each list entry by entry (Enter keeps, - removes, text replaces; \
            then new entries until an empty answer), then asks to save.

            With --editor, opens $VISUAL or $EDITOR on a YAML template of every field: lists as \
            "  - ENTRY" lines, the note as a block. It is checked when you close it and reopened with \
            the errors marked until it is right; an empty value or a deleted line clears that field, \
            and closing the file unchanged or emptied cancels (exit 1).

            Prints "saved contact ID" once the change is committed, or "contact ID unchanged \
            (nothing to save)" when no value changed (nothing is written then). If someone else \
            saved the contact after this edit read it, nothing is written and the command stops \
            with a conflict naming their changes (exit 67); --force overwrites. What you typed in \
            the editor is then kept in a file in the temporary directory, named in the message.

            EXAMPLES:
              carnet edit 3 --email work:gary@bluewares.example.com
              carnet edit 3 --remove-email old@example.com --email pref:new@example.com
              carnet edit 3 --phone cell,pref:555-0199 --category friends
              carnet edit 3 --date birthday:1990-04-01 --note "Met at the conference"
              carnet edit 3 --family King       # the display name follows when it was made from the parts
              carnet edit 3 --no-photo
              carnet edit 3 --editor
              carnet edit 3        # asks field by field
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @OptionGroup var fields: ContactFieldOptions
    @OptionGroup var removals: ContactRemovalOptions
    @Flag(help: "Remove the photo.") var noPhoto = false
    @Flag(help: "Edit in $VISUAL or $EDITOR.") var editor = false
    @Flag(help: "Save even if someone else changed the contact meanwhile (their changes are lost).")
    var force = false
    @Flag(name: .customLong("prompt"), help: "Ask for each field even when standard input is not a terminal.")
    var forcePrompt = false

    /// Whether a flag names a change (else the edit is by prompts or the editor).
    private var hasChanges: Bool { !fields.isEmpty || !removals.isEmpty || noPhoto }

    func validate() throws {
        if noPhoto && fields.photo != nil { throw ValidationError("--photo and --no-photo cannot be used together") }
        if editor && hasChanges { throw ValidationError("--editor cannot be combined with field flags") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let detail = try ContactsViewModel(state: state).detail(forID: contact.id)
        let edit = detail.edit()
        var editedText: String?
        if editor {
            editedText = try EditorSession(terminal: terminal).edit(edit)
            guard editedText != nil else { throw CLIError.cancelled("cancelled; contact \(contact.id) unchanged") }
        } else if !hasChanges {
            try terminal.requirePrompts(
                forced: forcePrompt, else: "nothing to change: give a field flag such as --name, or --editor (see carnet edit --help)")
            guard try FieldPrompts(contactsOn: terminal)
                .fillContactAndConfirm(edit, subject: "contact \(contact.id)") else { return }
        } else {
            try removals.apply(to: &edit.draft)
            try fields.apply(to: &edit.draft)
            if noPhoto { edit.draft.photo = nil }
        }
        let line: String
        do {
            line = try save(edit, terminal: terminal)
        } catch {
            // What someone typed in their editor is not lost to a conflict: it is kept to redo.
            guard let editedText, case let .conflict(conflict) = error else { throw error }
            throw CLIError(message: "\(conflict); \(Self.keep(editedText, contactID: contact.id))", code: .conflict)
        }
        terminal.print(line)
    }

    /// Saves (over a conflict with --force) and returns the line to print.
    @MainActor private func save(_ edit: EditContactViewModel, terminal: Terminal) throws(CarnetError) -> String {
        let (saved, baseVersion) = try carnet.save(edit, force: force, terminal: terminal)
        return SaveReport.line(.contact, id: saved.id, version: saved.version, baseVersion: baseVersion)
    }

    /// Where the edited text now is, said for the error line.
    private static func keep(_ text: String, contactID: Int64) -> String {
        do {
            return "your edit is kept in " + (try EditorSession.keep(text, contactID: contactID))
        } catch {
            return "your edit could not be kept (\((error as? CLIError)?.message ?? "\(error)"))"
        }
    }
}

/// Saves a contact's or a quote's edit; with `force`, a conflict overwrites the other writer's
/// version (saying so on stderr). Returns the saved record and the version it was saved over
/// (equal when nothing changed).
@MainActor
func save<Record: DraftSaving>(_ edit: DraftEditor<Record>, force: Bool, terminal: Terminal) throws(CarnetError) -> (Record, baseVersion: Int?) {
    let baseVersion = edit.original?.version  // save() moves `original` on to what it saved
    do {
        return (try edit.save(), baseVersion)
    } catch {
        guard force, case let .conflict(conflict) = error else { throw error }
        let fields = conflict.changedFields.map(\.rawValue).joined(separator: ", ")
        terminal.console.writeError("carnet: overwriting changes to \(fields) made meanwhile\n")
        guard let saved = try edit.resolve(.overwrite) else { throw error }
        return (saved, conflict.currentVersion)
    }
}

struct DeleteCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a contact (and its favorite).",
        discussion: """
            Asks first on a terminal; elsewhere --yes is required.

            EXAMPLES:
              carnet delete 3
              carnet delete 3 --yes
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @Flag(name: [.short, .long], help: "Do not ask.") var yes = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let detail = try ContactsViewModel(state: state).detail(forID: contact.id)
        if !yes {
            guard terminal.stdinIsTerminal else {
                throw CLIError.usage("not deleting contact \(contact.id) without --yes (standard input is not a terminal)")
            }
            guard terminal.confirm("Delete contact \(contact.id), \(detail.contact.name.shown)?") else {
                throw CLIError.cancelled("cancelled; contact \(contact.id) kept")
            }
        }
        try detail.delete()
        terminal.print("deleted contact \(contact.id)")
    }
}

struct FavoriteCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorite",
        abstract: "Make a contact a favorite, or move a favorite.",
        discussion: """
            EXAMPLES:
              carnet favorite 3           # last in the favorites
              carnet favorite 3 --at 1    # first (moves it if already a favorite)
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @Option(parsing: .unconditional, help: ArgumentHelp("Its place among the favorites, 1 for first.", valueName: "position"))
    var at: Int?

    func validate() throws {
        if let at, at < 1 { throw ValidationError("--at must be 1 or more (got \(at))") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let position = try ContactsViewModel(state: state).favorite(contact.id, at: at)
        terminal.print("saved favorite \(contact.id) at \(position)")
    }
}

struct UnfavoriteCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfavorite",
        abstract: "Remove a contact from the favorites (the contact stays).",
        discussion: "EXAMPLE:\n  carnet unfavorite 3")

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        try ContactsViewModel(state: state).unfavorite(contact.id)
        terminal.print("saved unfavorite \(contact.id)")
    }
}

struct FavoritesCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorites",
        abstract: "List the favorites in your order (same as list --favorites).",
        discussion: "EXAMPLES:\n  carnet favorites\n  carnet favorites --json")

    @OptionGroup var database: DatabaseOption
    @Flag(help: "Print a JSON array.") var json = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let list = try ListCommand.parse(["--favorites"] + (json ? ["--json"] : []))
        try list.run(state: state, terminal: terminal)
    }
}
