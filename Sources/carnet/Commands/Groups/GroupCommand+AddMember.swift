import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

extension GroupCommand {
    struct AddMember: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-member", abstract: "Add contacts (by id, or words that find each) to a group, after its members.",
            discussion: """
                EXAMPLES:
                  carnet group add-member "Climbing club" 3 7
                  carnet group add-member "Climbing club" "Ada Lovelace" hopper
                """)

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @OptionGroup var name: GroupName
        @Argument(help: ArgumentHelp("The contacts: each an id (see carnet list), or words that find only it.", valueName: "contact"))
        var contacts: [String]

        func validate() throws {
            if contacts.isEmpty { throw ValidationError("give at least one contact to add") }
            for words in contacts { try ContactID.checkID(words) }
            if contacts.contains(where: { Rules.trimmed($0).isEmpty }) { throw ValidationError("a contact is named by its id or by words that find it, not blank") }
        }

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = GroupsViewModel(state: state)
            let target = try screen.group(name.group)
            var ids: [Int64] = []
            // A group may be a member (its name names it too); a contact's words are searched first.
            for words in contacts { ids.append(try ContactChoice.cardID(named: words, in: state, terminal: terminal)) }
            let group = try screen.addMembers(target, ids: ids)
            terminal.print("saved group \(group.id): \(GroupRendering.members(group.draft.members.count))")
        }
    }
}
