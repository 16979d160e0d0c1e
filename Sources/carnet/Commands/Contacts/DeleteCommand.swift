import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct DeleteCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a contact (and its favorite), or a group by its id.",
        discussion: """
            Asks first on a terminal; elsewhere --yes is required. A group's id (see carnet \
            group list) deletes the group, as carnet group delete does: its members stay. \
            carnet undo brings either back.

            EXAMPLES:
              carnet delete 3
              carnet delete 3 --yes
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var contact: ContactID
    @Flag(name: [.short, .long], help: "Do not ask.") var yes = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let contactID = try contact.cardID(in: state, terminal: terminal)
        let detail: ContactDetailViewModel
        switch try ContactsViewModel(state: state).card(forID: contactID) {
        case let .contact(screen): detail = screen
        case let .group(screen): return try delete(screen, terminal: terminal)
        }
        try confirm(deleting: "contact \(contactID)", named: detail.contact.name.shown, "Delete contact \(contactID), \(detail.contact.name.shown)?", terminal: terminal)
        try detail.delete()
        terminal.print("deleted contact \(contactID)")
    }

    /// A group's id deletes the group, as `carnet group delete` does (its members stay; undo
    /// brings it back): the id names one card, and the command asks first, saying it is a group.
    @MainActor private func delete(_ screen: GroupDetailViewModel, terminal: Terminal) throws {
        let group = screen.group
        let stay = GroupRendering.membersStay(group.draft.members.count)
        try confirm(
            deleting: "group \(group.id)", named: group.name.shown,
            "Delete group \(group.id), \(group.name.shown)? \(stay.prefix(1).uppercased() + stay.dropFirst()).", terminal: terminal)
        try screen.delete()
        terminal.print("deleted group \(group.id) (\(group.name.shown)); \(stay)")
    }

    /// Goes on with deleting `what` (its `name` shown too where a script is refused) when told
    /// with `--yes` or when the person at the terminal says yes to `question`; otherwise throws:
    /// refused from a script, cancelled at a terminal.
    @MainActor private func confirm(deleting what: String, named name: String? = nil, _ question: String, terminal: Terminal) throws {
        guard !yes else { return }
        guard terminal.stdinIsTerminal else {
            throw CLIError.usage("not deleting \(what)\(name.map { " (\($0))" } ?? "") without --yes (standard input is not a terminal)")
        }
        guard terminal.confirm(question) else { throw CLIError.cancelled("cancelled; \(what) kept") }
    }
}
