import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// `carnet email` and `carnet phone`: every address or number of the contacts a search finds,
/// each with its type and owner, as khard's commands of those names print them.
struct EntriesListing {
    /// What the entries are called ("email addresses"), and their column's header.
    let kind: String
    let column: String
    let entries: (ContactDraft) -> [LabeledValue]

    @MainActor func run(_ options: EntriesOptions, state: StateController, terminal: Terminal) throws {
        let (search, parsable, json) = (options.search, options.parsable, options.json)
        let book = try options.book.resolved(state)
        let query = ContactQuery(search: search ?? "", order: .name, bookID: book?.id)
        var rows: [(contact: Contact, entry: LabeledValue)] = []
        try ContactsViewModel(state: state, book: book).forEachRow(query: query) { row in
            rows += entries(row.contact.draft).map { (row.contact, $0) }
        }
        if json {
            let objects = rows.map { EntryJSON(id: $0.contact.id, name: $0.contact.name, label: $0.entry.label, value: $0.entry.value, preferred: $0.entry.preferred) }
            return terminal.print(try JSONOutput.string(objects))
        }
        if parsable || !terminal.stdoutIsTerminal {
            // khard's --parsable: the value, the name, the type; a tab between, a line each.
            return terminal.print(rows.map { [$0.entry.value, $0.contact.name, $0.entry.label].map(\.tsvField).joined(separator: "\t") + "\n" }.joined(), terminator: "")
        }
        guard !rows.isEmpty else {
            let what = search.map { " for \($0.shown.debugDescription)" } ?? ""
            return terminal.print(terminal.dim("No \(kind)\(what)."))
        }
        let headers = ["NAME", "TYPE", column, "ID"]
        let cells = rows.map { [$0.contact.name.shown, $0.entry.label.shown, $0.entry.value.shown + ($0.entry.preferred ? " (preferred)" : ""), String($0.contact.id)] }
        terminal.print(TextTable.render(headers, cells, terminal: terminal))
    }

    /// One entry as `--json` prints it.
    struct EntryJSON: Encodable {
        let id: Int64
        let name: String
        let label: String
        let value: String
        let preferred: Bool
    }
}

struct EmailCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "email",
        abstract: "Every email address of the contacts a search finds, with its type and owner.",
        discussion: """
            Every address, not only the preferred one, sorted by name. On a terminal: columns; \
            otherwise (or with --parsable) a line per address: address, name and type separated \
            by tabs, as khard email --parsable prints them.

            EXAMPLES:
              carnet email
              carnet email lovelace
              carnet email --parsable | cut -f1
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var options: EntriesOptions

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        try EntriesListing(kind: "email addresses", column: "EMAIL", entries: \.emails).run(options, state: state, terminal: terminal)
    }
}

struct PhoneCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "phone",
        abstract: "Every phone number of the contacts a search finds, with its type and owner.",
        discussion: """
            Every number, not only the preferred one, sorted by name; a search of digits finds a \
            number however it was written. On a terminal: columns; otherwise (or with \
            --parsable) a line per number: number, name and type separated by tabs, as khard \
            phone --parsable prints them.

            EXAMPLES:
              carnet phone
              carnet phone hopper
              carnet phone 5550100
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var options: EntriesOptions

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        try EntriesListing(kind: "phone numbers", column: "PHONE", entries: \.phones).run(options, state: state, terminal: terminal)
    }
}

/// What `carnet email` and `carnet phone` both take.
struct EntriesOptions: ParsableArguments {
    @OptionGroup var book: BookOption
    @Argument(help: ArgumentHelp("Only contacts this search finds (as carnet list --search).", valueName: "search"))
    var words: [String] = []
    @Flag(help: "Tab-separated lines (the address or number, name, type) even on a terminal.") var parsable = false
    @Flag(help: "Print a JSON array (id, name, label, value, preferred).") var json = false

    var search: String? { words.isEmpty ? nil : words.joined(separator: " ") }

    func validate() throws {
        guard let search else { return }
        do { _ = try SearchQuery(search) } catch { throw ValidationError(error.description) }
    }
}
