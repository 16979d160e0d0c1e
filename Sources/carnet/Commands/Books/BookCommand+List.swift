import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels

extension BookCommand {
    struct List: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the address books with how many contacts and groups each holds.",
            discussion: """
                Tab-separated lines with a header (name, contacts, default, groups) when not on a terminal.
                """)

        @OptionGroup var database: DatabaseOption

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = BooksViewModel(state: state)
            try screen.onAppear()
            if terminal.stdoutIsTerminal {
                let width = screen.books.map(\.name.count).max() ?? 0
                for book in screen.books {
                    let count = book.contents
                    terminal.print(book.name.shown.padding(toLength: max(width, book.name.shown.count), withPad: " ", startingAt: 0)
                        + "  " + count + (book.isDefault ? "  (default)" : ""))
                }
            } else {
                terminal.print("name\tcontacts\tdefault\tgroups")
                for book in screen.books {
                    terminal.print("\(book.name.shown)\t\(book.contactCount)\t\(book.isDefault ? "yes" : "")\t\(book.groupCount)")
                }
            }
        }
    }
}
