import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

extension GroupCommand {
    struct Add: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add an empty group and print its id.",
            discussion: """
                It goes out as a vCard 4.0 group (KIND:group) in a 4.0 export or to a server that takes \
                4.0, else in Apple's form (X-ADDRESSBOOKSERVER-KIND:group), which 3.0 servers and \
                Apple's programs keep.
                """)

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @Argument(help: ArgumentHelp("The group's name.", valueName: "name")) var groupName: String

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let group = try GroupsViewModel(state: state).add(name: groupName)
            terminal.print("saved group \(group.id)")
        }
    }
}
