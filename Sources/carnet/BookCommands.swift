import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels

/// `--book NAME` on the commands that read or write contacts.
struct BookOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The address book (see carnet book list; ignores A-Z case). Default: every book for a listing, the default book for a new contact.",
        valueName: "name"))
    var book: String?

    func validate() throws {
        if let book, book.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--book needs a name") }
    }

    /// The book named, read from the file (an unknown name stops the command with exit 79).
    @MainActor func resolved(_ state: StateController) throws -> AddressBook? {
        try book.map { name throws(CarnetError) in try BooksViewModel(state: state).book(named: name) }
    }
}

struct BookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book",
        abstract: "List, add, rename and delete address books.",
        discussion: """
            One file holds any number of named address books; every contact is in one. The default \
            book (first in the list) takes contacts added or imported without --book; it can be \
            renamed, not deleted. Each book can be synced with its own CardDAV collection.

            EXAMPLES:
              carnet book list
              carnet book add Work
              carnet book rename Work Office
              carnet book delete Office --force
            """,
        subcommands: [BookListCommand.self, BookAddCommand.self, BookRenameCommand.self, BookDeleteCommand.self],
        defaultSubcommand: BookListCommand.self)
}

struct BookListCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the address books with how many contacts each holds.",
        discussion: """
            Tab-separated lines with a header (name, contacts, default) when not on a terminal.
            """)

    @OptionGroup var database: DatabaseOption

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = BooksViewModel(state: state)
        try screen.onAppear()
        if terminal.stdoutIsTerminal {
            let width = screen.books.map(\.name.count).max() ?? 0
            for book in screen.books {
                let count = "\(book.contactCount) contact\(book.contactCount == 1 ? "" : "s")"
                terminal.print(book.name.shown.padding(toLength: max(width, book.name.shown.count), withPad: " ", startingAt: 0)
                    + "  " + count + (book.isDefault ? "  (default)" : ""))
            }
        } else {
            terminal.print("name\tcontacts\tdefault")
            for book in screen.books {
                terminal.print("\(book.name.shown)\t\(book.contactCount)\t\(book.isDefault ? "yes" : "")")
            }
        }
    }
}

struct BookAddCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Make an empty address book.",
        discussion: "EXAMPLES:\n  carnet book add Work")

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @Argument(help: ArgumentHelp("Its name: one line, at most 100 characters, unique ignoring A-Z case.", valueName: "name"))
    var name: String

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let book = try BooksViewModel(state: state).add(named: name)
        terminal.print("added address book \(book.name.shown)")
    }
}

struct BookRenameCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename", abstract: "Rename an address book (the default one too).",
        discussion: "EXAMPLES:\n  carnet book rename Contacts Personal")

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @Argument(help: ArgumentHelp("The book's name now.", valueName: "old")) var old: String
    @Argument(help: ArgumentHelp("Its new name.", valueName: "new")) var new: String

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = BooksViewModel(state: state)
        let book = try screen.book(named: old)
        let renamed = try screen.rename(book, to: new)
        terminal.print("renamed address book \(book.name.shown) to \(renamed.name.shown)")
    }
}

struct BookDeleteCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an address book (and its contacts).",
        discussion: """
            An empty book is deleted at once. One that holds contacts is deleted with them: on a \
            terminal after you say yes; elsewhere only with --force. carnet undo brings the book and \
            its contacts back. The default book cannot be deleted. A synced book's link goes with it; \
            its cards stay on the server.

            EXAMPLES:
              carnet book delete Old
              carnet book delete Work --force
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @Argument(help: ArgumentHelp("The book's name.", valueName: "name")) var name: String
    @Flag(name: [.customLong("force"), .customLong("yes"), .customShort("y")], help: "Delete its contacts with it without asking.")
    var force = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = BooksViewModel(state: state)
        let book = try screen.book(named: name)
        var outcome = try screen.delete(book, confirmed: force)
        if case let .needsConfirmation(full) = outcome {
            let count = "\(full.contactCount) contact\(full.contactCount == 1 ? "" : "s")"
            guard terminal.stdinIsTerminal else {
                throw CLIError.usage("not deleting the address book \(full.name.shown) and its \(count) without --force (standard input is not a terminal)")
            }
            guard terminal.confirm("Delete the address book \(full.name.shown) and its \(count)?") else {
                throw CLIError.cancelled("cancelled; address book \(full.name.shown) kept")
            }
            outcome = try screen.delete(full, confirmed: true)
        }
        guard case let .deleted(deleted) = outcome else { return }
        let with = deleted.contactCount > 0 ? " and its \(deleted.contactCount) contact\(deleted.contactCount == 1 ? "" : "s")" : ""
        terminal.print("deleted address book \(deleted.name.shown)\(with) (carnet undo brings it back)")
    }
}

struct MoveCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move a contact to another address book.",
        discussion: """
            The contact keeps its id and UID. When both books are synced, the next carnet sync \
            deletes its card from the old collection and puts it in the new one.

            EXAMPLES:
              carnet move 3 --to Work
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @Option(help: ArgumentHelp("The address book to move it to.", valueName: "book")) var to: String

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let moved = try BooksViewModel(state: state).move(contactID: contact.id, to: to)
        terminal.print("moved contact \(moved.contact.id) to \(moved.book.name.shown)")
    }
}

struct CopyCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a contact into another address book, and print the copy's id.",
        discussion: """
            The copy is a new contact with every field and a UID of its own: the two are edited \
            and synced apart.

            EXAMPLES:
              carnet copy 3 --to Work
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @Option(help: ArgumentHelp("The address book to copy it into.", valueName: "book")) var to: String

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let copy = try BooksViewModel(state: state).copy(contactID: contact.id, to: to)
        terminal.print("copied contact \(contact.id) to \(copy.book.name.shown) as contact \(copy.contact.id)")
    }
}
