import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension QuoteCommand {
    struct List: StateCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List every quote; * marks the current one.")

        @OptionGroup var database: DatabaseOption
        @Flag(help: "Print a JSON array.") var json = false

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = QuoteViewModel(state: state)
            try screen.onAppear()
            if json {
                terminal.print(try JSONOutput.string(screen.quotes))
                return
            }
            for quote in screen.quotes {
                let author = quote.author.isEmpty ? "" : " — \(quote.author.shown)"
                let text = quote.text.replacingOccurrences(of: "\n", with: " ").shown
                terminal.print("\(quote.isCurrent ? "*" : " ") \(quote.id)\t\(text)\(author)")
            }
        }
    }
}
