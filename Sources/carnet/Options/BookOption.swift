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
