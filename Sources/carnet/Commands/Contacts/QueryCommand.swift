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
            A group whose name the search finds (carnet group) comes first as one entry: its \
            address is every member's (groups within it expanded once), so one pick in mutt or \
            neomutt addresses the whole group; a line per member follows (mutt's other column: \
            the group's name). aerc takes one address a line, so it gets the members' lines.

            Then one line per email of the people meant: those with every word starting a word of \
            their name, nickname or an email address (ignoring case and accents); if none, of \
            their organization too; only if none again, of anything a search finds (address, \
            note…). Best matches first, each contact's preferred email first.

            --format mutt (the default): a status line, then email<TAB>name<TAB>other, where other \
            is the email's type and the organization. --format aerc: email<TAB>name only.

            Exit status: 0 when something was found; 1 when nothing was (mutt then shows the \
            status line as an error, as it does for abook); 64 for a search with nothing to look \
            for or over \(Limits.searchLength) characters.

            EXAMPLES:
              carnet query ada
              carnet query "ada lov" --format aerc
            In ~/.muttrc (neomutt: ~/.neomuttrc):
              set query_command = "carnet query %s"
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
    @Option(help: ArgumentHelp("Only this address book (default: every book).", valueName: "name")) var book: String?

    var query: MailQuery { MailQuery(words: words, format: format, limit: limit, db: database.db, book: book) }

    func validate() throws { try query.validate() }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        try query.run(state: state, terminal: terminal)
    }
}

/// What `carnet query` was asked, and its answer; parsed by swift-argument-parser as
/// `QueryCommand`, or by `parsedQuickly(_:)`.
struct MailQuery: Equatable {
    var words: [String]
    var format: MailQueryFormat
    var limit: Int
    /// `--db` given after the command's name.
    var db: String?
    /// `--book`: only that address book.
    var book: String? = nil

    var text: String { words.joined(separator: " ") }

    func validate() throws {
        if db?.isEmpty == true { throw ValidationError("--db needs a file path") }
        if let book, book.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--book needs a name") }
        if limit < 1 { throw ValidationError("--limit must be 1 or more (got \(limit))") }
        let query: SearchQuery
        do { query = try SearchQuery(text) } catch { throw ValidationError(error.description) }
        if query.isEmpty { throw ValidationError("carnet query needs text to look for, e.g. carnet query ada") }
    }

    /// `carnet query …` read without swift-argument-parser, or nil for anything but the plain
    /// forms mail clients use: words, `--format F`, `--limit N`, `--db PATH` (each once, with its
    /// value after a space or `=`), and a query that `validate()` accepts. Anything else (help,
    /// `--`, an unknown flag, a bad value) is left to the parser, so its answers and messages stay
    /// the parser's. mutt and aerc start `carnet query` at every completion, and the parser's first
    /// parse was most of the process's own time (it reflects on the command types: `Mirror`,
    /// metadata by mangled name, and a scan of every protocol conformance in the binary per
    /// first check). CLI tests hold it to the parser's reading of the same arguments.
    static func parsedQuickly(_ arguments: [String]) -> MailQuery? {
        guard arguments.first == "query" else { return nil }
        var query = MailQuery(words: [], format: .mutt, limit: 100, db: nil)
        var seen: Set<String> = []
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-") else {
                query.words.append(argument)
                continue
            }
            let name: String
            let value: String
            if let equals = argument.firstIndex(of: "=") {
                (name, value) = (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
            } else {
                guard index < arguments.count else { return nil }
                (name, value) = (argument, arguments[index])
                index += 1
            }
            guard seen.insert(name).inserted else { return nil }
            switch name {
            case "--format":
                guard let format = MailQueryFormat(rawValue: value) else { return nil }
                query.format = format
            case "--limit":
                guard let limit = Int(value) else { return nil }
                query.limit = limit
            case "--db":
                // A value that looks like a flag is the parser's to judge.
                guard !value.hasPrefix("-") || argument.hasPrefix("--db=") else { return nil }
                query.db = value
            case "--book":
                guard !value.hasPrefix("-") || argument.hasPrefix("--book=") else { return nil }
                query.book = value
            default:
                return nil
            }
        }
        guard (try? query.validate()) != nil else { return nil }
        return query
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let books = BooksViewModel(state: state)
        let book = try self.book.map { name throws(CarnetError) in try books.book(named: name) }
        // With several books and none named, each line's other column also says its book.
        let names = book == nil && format == .mutt ? try books.namesIfSeveral() : nil
        let screen = MailQueryViewModel(state: state)
        var lines: [String] = []
        var contacts = 0
        var groups = 0
        // A group whose name matches is one entry whose address is every member's: one pick in
        // the mail client addresses the whole group. Its members follow, each on its own line.
        for entry in try screen.groups(matching: text) where book == nil || entry.group.bookID == book?.id {
            guard !entry.members.isEmpty else { continue }
            // aerc reads each line as one address and drops any other line (its completer
            // parses the first column with Go's mail.ParseAddress): there, the members alone.
            if format == .mutt {
                groups += 1
                let count = entry.members.count
                lines.append([Self.field(Self.addressList(entry.members)), Self.field(entry.group.name), "group of \(count) member\(count == 1 ? "" : "s")"]
                    .joined(separator: "\t"))
            }
            for member in entry.members {
                contacts += 1
                var columns = [Self.field(member.draft.email), Self.field(member.name)]
                if format == .mutt { columns.append(Self.field(entry.group.name)) }
                lines.append(columns.joined(separator: "\t"))
            }
        }
        for entry in try screen.entries(matching: text, limit: limit, bookID: book?.id) {
            contacts += 1
            lines += Self.lines(for: entry, format: format, book: names?[entry.bookID])
        }
        if format == .mutt {
            let found = lines.isEmpty
                ? (contacts == 0 ? "no contact matches \(text)" : "\(contacts == 1 ? "1 contact matches" : "\(contacts) contacts match") \(text), without an email")
                : (groups == 0 ? "" : "\(groups) group\(groups == 1 ? "" : "s") and ")
                    + "\(lines.count - groups) email\(lines.count - groups == 1 ? "" : "s") of \(contacts) contact\(contacts == 1 ? "" : "s") matching \(text)"
            terminal.print("carnet: " + Self.field(found))
        }
        if !lines.isEmpty { terminal.print(lines.joined(separator: "\n")) }
        if lines.isEmpty { throw ExitCode(1) }
    }

    /// The contact's emails, the preferred one first, in the format's columns (mutt's other
    /// column ends with `book` when given).
    static func lines(for contact: Contact, format: MailQueryFormat, book: String? = nil) -> [String] {
        lines(
            for: MailEntry(id: contact.id, name: contact.name, organization: contact.draft.organization, emails: contact.draft.emails, bookID: contact.bookID),
            format: format, book: book)
    }

    /// The entry's emails, the preferred one first, in the format's columns.
    static func lines(for entry: MailEntry, format: MailQueryFormat, book: String? = nil) -> [String] {
        let emails = entry.emails.enumerated().sorted { a, b in
            a.element.preferred != b.element.preferred ? a.element.preferred : a.offset < b.offset
        }.map(\.element)
        return emails.map { email in
            var columns = [field(email.value), field(entry.name)]
            if format == .mutt {
                columns.append(field([email.label, entry.organization, book ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")))
            }
            return columns.joined(separator: "\t")
        }
    }

    /// The members' preferred addresses as one address list (RFC 5322), each with its name:
    /// `Ada Lovelace <ada@example.com>, "Hopper, Grace" <grace@example.org>`.
    static func addressList(_ members: [Contact]) -> String {
        members.map { member in
            let name = member.name
            guard !name.isEmpty else { return member.draft.email }
            let special = name.contains { "()<>[]:;@\\,.\"".contains($0) }
            let shown = special ? "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" : name
            return "\(shown) <\(member.draft.email)>"
        }.joined(separator: ", ")
    }

    /// A value as one column: no tab or line break can split it (and nothing reaches a terminal
    /// that could move its cursor).
    static func field(_ text: String) -> String {
        let shown = text.shown
        // Scalar by scalar, as Foundation's literal `replacingOccurrences` replaces, without its
        // round trip through NSString for every column of every line.
        guard shown.utf8.contains(UInt8(ascii: "\t")) else { return shown }
        return String(String.UnicodeScalarView(shown.unicodeScalars.map { $0 == "\t" ? " " : $0 }))
    }
}
