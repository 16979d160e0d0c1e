import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

extension GroupCommand {
    struct Show: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show a group and its members (and the member UIDs not in this file).")

        @OptionGroup var database: DatabaseOption
        @OptionGroup var name: GroupName
        @Flag(help: "Print a JSON object.") var json = false

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = GroupsViewModel(state: state)
            let detail = try screen.detail(try screen.group(name.group))
            if json {
                terminal.print(try JSONOutput.string(GroupJSON(detail)))
                return
            }
            terminal.print(GroupRendering.detail(detail, terminal: terminal), terminator: "")
        }
    }
}
