import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct ShowCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one contact (or, given a group's id, the group and its members).",
        discussion: """
            EXAMPLES:
              carnet show 3
              carnet show 3 --json
            """)

    @OptionGroup var database: DatabaseOption
    @OptionGroup var contact: ContactID
    @Flag(help: "Print a JSON object.") var json = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let contactID = try contact.cardID(in: state, terminal: terminal)
        let detail: ContactDetailViewModel
        switch try ContactsViewModel(state: state).card(forID: contactID) {
        case let .contact(screen):
            detail = screen
        case let .group(screen):
            // A group's id shows the group, as carnet group show does.
            let group = try screen.members()
            terminal.print(json ? try JSONOutput.string(GroupJSON(group)) : GroupRendering.detail(group, terminal: terminal), terminator: json ? "\n" : "")
            return
        }
        let groups = try detail.groups()
        if json {
            var object = ContactJSON(contact: detail.contact, favorite: detail.isFavorite)
            object.groups = groups.map(\.name)
            terminal.print(try JSONOutput.string(object))
        } else {
            let book = try BooksViewModel(state: state).namesIfSeveral()?[detail.contact.bookID]
            var text = ContactRendering.detail(detail.contact, favoritePosition: detail.favoritePosition, book: book, terminal: terminal)
            if !groups.isEmpty {
                text += terminal.bold("Groups") + "\n" + groups.map { "  \($0.name.shown)  [\($0.id)]\n" }.joined()
            }
            terminal.print(text, terminator: "")
        }
    }
}
