import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels

/// The formats mail clients read an address book's answer in.
enum MailQueryFormat: String, ExpressibleByArgument, CaseIterable {
    /// mutt's and neomutt's `query_command`: a status line, then `email<TAB>name<TAB>other`.
    case mutt
    /// aerc's `address-book-cmd`: `email<TAB>name`, nothing else.
    case aerc
}

struct QueryCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Find email addresses for a mail client (mutt, neomutt, aerc).",
        discussion: """
            One line per email of every contact the search finds (as list --search finds them: \
            every word, in any order, starting a word of a name, organization, email, phone, \
            address, note or category, ignoring case and accents), best matches first (every \
            word in the name, then some), each contact's preferred email first.

            --format mutt (the default): a status line, then email<TAB>name<TAB>other, where other \
            is the email's type and the organization. --format aerc: email<TAB>name only.

            Exit status: 0 when something was found; 1 when nothing was (mutt then shows the \
            status line as an error, as it does for abook); 64 for a search with nothing to look \
            for or over \(Limits.searchLength) characters.

            EXAMPLES:
              carnet query ada
              carnet query "ada lov" --format aerc
            In ~/.muttrc (neomutt: ~/.neomuttrc):
              set query_command = "carnet query '%s'"
            In aerc.conf, [compose]:
              address-book-cmd = carnet query --format aerc "%s"
            """)

    @OptionGroup var database: DatabaseOption
    // Unrecognized: a word that starts with "-" (as mutt may pass what was typed) is a word.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("What to look for (several words: all of them).", valueName: "text"))
    var words: [String] = []
    @Option(help: ArgumentHelp("mutt (status line, then email, name, other) or aerc (email, name).", valueName: "format"))
    var format: MailQueryFormat = .mutt
    @Option(parsing: .unconditional, help: "At most this many contacts (their emails all listed).") var limit = 100

    var text: String { words.joined(separator: " ") }

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be 1 or more (got \(limit))") }
        let query: SearchQuery
        do { query = try SearchQuery(text) } catch { throw ValidationError(error.description) }
        if query.isEmpty { throw ValidationError("carnet query needs text to look for, e.g. carnet query ada") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let list = ContactsViewModel(state: state)
        var lines: [String] = []
        var contacts = 0
        try list.forEachRow(query: ContactQuery(search: text, order: .relevance), limit: limit, pageSize: min(limit, 200)) { row in
            contacts += 1
            lines += Self.lines(for: row.contact, format: format)
        }
        if format == .mutt {
            let found = lines.isEmpty
                ? (contacts == 0 ? "no contact matches \(text)" : "\(contacts == 1 ? "1 contact matches" : "\(contacts) contacts match") \(text), without an email")
                : "\(lines.count) email\(lines.count == 1 ? "" : "s") of \(contacts) contact\(contacts == 1 ? "" : "s") matching \(text)"
            terminal.print("carnet: " + Self.field(found))
        }
        if !lines.isEmpty { terminal.print(lines.joined(separator: "\n")) }
        if lines.isEmpty { throw ExitCode(1) }
    }

    /// The contact's emails, the preferred one first, in the format's columns.
    static func lines(for contact: Contact, format: MailQueryFormat) -> [String] {
        let emails = contact.draft.emails.enumerated().sorted { a, b in
            a.element.preferred != b.element.preferred ? a.element.preferred : a.offset < b.offset
        }.map(\.element)
        return emails.map { email in
            var columns = [field(email.value), field(contact.name)]
            if format == .mutt {
                columns.append(field([email.label, contact.draft.organization].filter { !$0.isEmpty }.joined(separator: ", ")))
            }
            return columns.joined(separator: "\t")
        }
    }

    /// A value as one column: no tab or line break can split it (and nothing reaches a terminal
    /// that could move its cursor).
    static func field(_ text: String) -> String {
        text.shown.replacingOccurrences(of: "\t", with: " ")
    }
}
