import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct QuoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quote",
        abstract: "Show, edit and choose the quote.",
        discussion: """
            EXAMPLES:
              carnet quote
              carnet quote edit --text "Stay hungry, stay foolish." --author "Stewart Brand"
              carnet quote add --text "Less is more." --author "Mies van der Rohe" --use
              carnet quote list
              carnet quote use 2
            """,
        subcommands: [Show.self, Edit.self, Add.self, List.self, Use.self, Delete.self],
        defaultSubcommand: Show.self)
}
