import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct DeleteCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a contact (and its favorite).",
        discussion: """
            Asks first on a terminal; elsewhere --yes is required.

            EXAMPLES:
              carnet delete 3
              carnet delete 3 --yes
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @Flag(name: [.short, .long], help: "Do not ask.") var yes = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let detail = try ContactsViewModel(state: state).detail(forID: contact.id)
        if !yes {
            guard terminal.stdinIsTerminal else {
                throw CLIError.usage("not deleting contact \(contact.id) without --yes (standard input is not a terminal)")
            }
            guard terminal.confirm("Delete contact \(contact.id), \(detail.contact.name.shown)?") else {
                throw CLIError.cancelled("cancelled; contact \(contact.id) kept")
            }
        }
        try detail.delete()
        terminal.print("deleted contact \(contact.id)")
    }
}
