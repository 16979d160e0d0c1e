import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension QuoteCommand {
    struct Delete: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a quote (not the last one; the quote screen is never empty).")

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @OptionGroup var quote: QuoteID

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            try QuoteViewModel(state: state).delete(quote.id)
            terminal.print("deleted quote \(quote.id)")
        }
    }
}
