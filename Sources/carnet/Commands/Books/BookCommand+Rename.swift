import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels

extension BookCommand {
    struct Rename: StateCommand {
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
}
