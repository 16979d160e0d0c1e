import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

extension GroupCommand {
    struct List: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the groups by name: id, name, number of members.")

        @OptionGroup var database: DatabaseOption
        @Flag(help: "Print a JSON array.") var json = false

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let groups = try GroupsViewModel(state: state).groups()
            if json {
                terminal.print(try JSONOutput.string(groups.map(GroupJSON.init)))
                return
            }
            if groups.isEmpty {
                terminal.print("no groups (carnet group add NAME, or import a file with group cards)")
                return
            }
            for group in groups {
                terminal.print("\(group.id)\t\(group.name.shown)\t\(GroupRendering.members(group.draft.members.count))")
            }
        }
    }
}
