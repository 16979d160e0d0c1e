import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels

extension BookCommand {
    struct Add: StateCommand {
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
}
