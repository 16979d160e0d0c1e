import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

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
