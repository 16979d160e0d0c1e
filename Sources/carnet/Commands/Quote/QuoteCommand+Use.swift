import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension QuoteCommand {
    struct Use: StateCommand {
        static let configuration = CommandConfiguration(commandName: "use", abstract: "Make a quote the current one.")

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @OptionGroup var quote: QuoteID

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            try QuoteViewModel(state: state).use(quote.id)
            terminal.print("saved current quote \(quote.id)")
        }
    }
}
