import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct FavoritesCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "favorites",
        abstract: "List the favorites in your order (same as list --favorites).",
        discussion: "EXAMPLES:\n  carnet favorites\n  carnet favorites --json")

    @OptionGroup var database: DatabaseOption
    @Flag(help: "Print a JSON array.") var json = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let list = try ListCommand.parse(["--favorites"] + (json ? ["--json"] : []))
        try list.run(state: state, terminal: terminal)
    }
}
