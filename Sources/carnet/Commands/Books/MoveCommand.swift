import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels

struct MoveCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move a contact (or a group, by its id) to another address book.",
        discussion: """
            The contact keeps its id and UID; a group keeps its members too. When both books are synced, the next carnet sync \
            deletes its card from the old collection and puts it in the new one.

            EXAMPLES:
              carnet move 3 --to Work
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @Option(help: ArgumentHelp("The address book to move it to.", valueName: "book")) var to: String

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let contactID = try contact.cardID(in: state, terminal: terminal)
        let moved = try BooksViewModel(state: state).move(contactID: contactID, to: to)
        let card = moved.contact
        // A group card lives in a book as a contact does (a book is one collection of the sync).
        let what = card.kind == .group ? "group \(card.id) (\(card.name.shown))" : "contact \(card.id)"
        terminal.print("moved \(what) to \(moved.book.name.shown)")
    }
}
