import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension QuoteCommand {
    struct Show: StateCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the current quote.")

        @OptionGroup var database: DatabaseOption
        @Flag(help: "Print a JSON object.") var json = false

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = QuoteViewModel(state: state)
            guard let quote = screen.quote else {
                throw CLIError(message: "no quote: add one with carnet quote add --text TEXT", code: .notFound)
            }
            terminal.print(json ? try JSONOutput.string(quote) : QuoteRendering.text(quote, terminal: terminal), terminator: json ? "\n" : "")
        }
    }
}
