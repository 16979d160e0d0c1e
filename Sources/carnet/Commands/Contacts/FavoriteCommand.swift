import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct FavoriteCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorite",
        abstract: "Make a contact a favorite, or move a favorite.",
        discussion: """
            EXAMPLES:
              carnet favorite 3           # last in the favorites
              carnet favorite 3 --at 1    # first (moves it if already a favorite)
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @Option(parsing: .unconditional, help: ArgumentHelp("Its place among the favorites, 1 for first.", valueName: "position"))
    var at: Int?

    func validate() throws {
        if let at, at < 1 { throw ValidationError("--at must be 1 or more (got \(at))") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let contactID = try contact.id(in: state, terminal: terminal)
        let position = try ContactsViewModel(state: state).favorite(contactID, at: at)
        terminal.print("saved favorite \(contactID) at \(position)")
    }
}
