import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

extension GroupCommand {
    struct Delete: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a group card; its members stay (carnet undo brings it back).")

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @OptionGroup var name: GroupName

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = GroupsViewModel(state: state)
            let group = try screen.group(name.group)
            try screen.delete(group)
            terminal.print("deleted group \(group.id) (\(group.name.shown))")
        }
    }
}
