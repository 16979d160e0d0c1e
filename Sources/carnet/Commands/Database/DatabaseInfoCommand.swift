import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct DatabaseInfoCommand: StateCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Schema version, counts and settings.")

    @OptionGroup var database: DatabaseOption
    @Flag(help: "Print a JSON object.") var json = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let info = try DatabaseViewModel(state: state).info()
        if json {
            terminal.print(try JSONOutput.string(info))
            return
        }
        terminal.print("""
            path:         \(info.path)
            schema:       \(info.schemaVersion) (this carnet knows up to \(info.supportedSchemaVersion))
            migrations:   \(info.migrations.joined(separator: ", "))
            contacts:     \(info.contacts)
            groups:       \(info.groups)
            favorites:    \(info.favorites)
            quotes:       \(info.quotes)
            size:         \(info.fileBytes) bytes
            journal:      \(info.journalMode), synchronous \(info.synchronous)
            """)
        if let phoneRegion = info.phoneRegion {
            terminal.print("phone region: \(phoneRegion.summary)")
        }
        if info.repairedValues > 0 {
            terminal.print("repaired:     \(info.repairedValues) values an upgrade brought within the rules; originals in the repaired_values table")
        }
    }
}
