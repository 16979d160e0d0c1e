import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

extension GroupCommand {
    struct Rename: StateCommand {
        static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a group; its members stay.")

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @OptionGroup var name: GroupName
        @Argument(help: ArgumentHelp("The new name.", valueName: "new-name")) var newName: String

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = GroupsViewModel(state: state)
            let group = try screen.rename(try screen.group(name.group), to: newName)
            terminal.print("saved group \(group.id)")
        }
    }
}
