import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension DatabaseCommand {
    struct Backup: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "backup",
            abstract: "Copy the database, while in use, into a new file that is itself a Carnet database.")

        @OptionGroup var database: DatabaseOption
        @Argument(help: ArgumentHelp("The new file (must not exist).", valueName: "file")) var file: String

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let path = (file as NSString).expandingTildeInPath
            try DatabaseViewModel(state: state).backup(to: path)
            terminal.print("saved backup \(path)")
        }
    }
}
