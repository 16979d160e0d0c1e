import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels

extension BookCommand {
    struct Delete: StateCommand {
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
                let count = full.contents
                guard terminal.stdinIsTerminal else {
                    throw CLIError.usage("not deleting the address book \(full.name.shown) and its \(count) without --force (standard input is not a terminal)")
                }
                guard terminal.confirm("Delete the address book \(full.name.shown) and its \(count)?") else {
                    throw CLIError.cancelled("cancelled; address book \(full.name.shown) kept")
                }
                outcome = try screen.delete(full, confirmed: true)
            }
            guard case let .deleted(deleted) = outcome else { return }
            let with = deleted.cardCount > 0 ? " and its \(deleted.contents)" : ""
            terminal.print("deleted address book \(deleted.name.shown)\(with) (carnet undo brings it back)")
        }
    }
}
