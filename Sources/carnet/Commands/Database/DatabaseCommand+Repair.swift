import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension DatabaseCommand {
    struct Repair: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "repair",
            abstract: "Repair what carnet db check says carnet db repair repairs: an id counter an imported id ran to the end.",
            discussion: """
                A contact or quote id taken from a file by an earlier Carnet can leave the id counter \
                at the largest integer, after which no contact can be added ("disk full"). The repair \
                gives such a row the next free id (what refers to it follows) and sets the counter back. \
                It prints what it changed, or that there was nothing to repair.
                """)

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let changes = try DatabaseViewModel(state: state).repair()
            if changes.isEmpty {
                terminal.print("nothing to repair")
            } else {
                for change in changes { terminal.print("repaired: \(change)") }
            }
        }
    }
}
