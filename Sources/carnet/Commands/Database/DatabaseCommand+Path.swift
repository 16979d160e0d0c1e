import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension DatabaseCommand {
    struct Path: DatabasePathCommand {
        static let configuration = CommandConfiguration(
            commandName: "path", abstract: "Print the database file's path (without opening it).")

        @OptionGroup var database: DatabaseOption

        func run(path: String, terminal: Terminal) throws {
            terminal.print(path)
        }
    }
}
