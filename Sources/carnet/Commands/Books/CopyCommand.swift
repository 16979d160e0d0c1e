import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels

struct CopyCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a contact (or a group, by its id) into another address book, and print the copy's id.",
        discussion: """
            The copy is a new contact with every field and a UID of its own: the two are edited \
            and synced apart. A group's copy is a group with the same members.

            EXAMPLES:
              carnet copy 3 --to Work
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @Option(help: ArgumentHelp("The address book to copy it into.", valueName: "book")) var to: String

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let contactID = try contact.cardID(in: state, terminal: terminal)
        let copy = try BooksViewModel(state: state).copy(contactID: contactID, to: to)
        if copy.contact.kind == .group {
            return terminal.print("copied group \(contactID) (\(copy.contact.name.shown)) to \(copy.book.name.shown) as group \(copy.contact.id)")
        }
        terminal.print("copied contact \(contactID) to \(copy.book.name.shown) as contact \(copy.contact.id)")
    }
}
