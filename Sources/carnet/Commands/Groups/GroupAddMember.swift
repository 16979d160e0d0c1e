import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

struct GroupAddMember: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-member", abstract: "Add contacts (by id) to a group, after its members.",
        discussion: """
            EXAMPLES:
              carnet group add-member "Climbing club" 3 7
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var name: GroupName
    @Argument(help: ArgumentHelp("The contacts' ids (see carnet list).", valueName: "id")) var ids: [Int64]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one contact id to add") }
        if let bad = ids.first(where: { $0 <= 0 }) { throw ValidationError("a contact id is a positive whole number (got \(bad))") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = GroupsViewModel(state: state)
        let group = try screen.addMembers(try screen.group(name.group), ids: ids)
        terminal.print("saved group \(group.id): \(GroupRendering.members(group.draft.members.count))")
    }
}
