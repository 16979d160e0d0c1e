import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

struct GroupRemoveMember: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-member", abstract: "Take members out of a group: by contact id, or by UID for one not in this file.")

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var name: GroupName
    @Argument(help: ArgumentHelp("Contact ids, or member UIDs (see carnet group show).", valueName: "member"))
    var members: [String]

    func validate() throws {
        if members.isEmpty { throw ValidationError("give at least one member to remove") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = GroupsViewModel(state: state)
        let group = try screen.removeMembers(try screen.group(name.group), members)
        terminal.print("saved group \(group.id): \(GroupRendering.members(group.draft.members.count))")
    }
}
