import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct UnfavoriteCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfavorite",
        abstract: "Remove a contact from the favorites (the contact stays).",
        discussion: "EXAMPLE:\n  carnet unfavorite 3")

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let contactID = try contact.id(in: state, terminal: terminal)
        try ContactsViewModel(state: state).unfavorite(contactID)
        terminal.print("saved unfavorite \(contactID)")
    }
}
