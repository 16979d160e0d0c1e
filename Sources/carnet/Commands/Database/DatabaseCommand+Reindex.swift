import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension DatabaseCommand {
    struct Reindex: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "reindex",
            abstract: "Rebuild the search index from the contacts.",
            discussion: """
                Carnet indexes what it writes. When another program (sqlite3) changes a contact, the \
                file notes that the index is out of date, and the next carnet that searches or writes \
                (and may write the file) rebuilds it first. This command does the same on demand, and \
                repairs an index that carnet db check finds out of step with the contacts.
                """)

        @OptionGroup var database: DatabaseOption

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let count = try DatabaseViewModel(state: state).reindex()
            terminal.print("saved search index: \(count) contact\(count == 1 ? "" : "s")")
        }
    }
}
