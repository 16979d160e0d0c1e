import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension QuoteCommand {
    struct Add: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a quote; with --use it becomes the current one.",
            discussion: "EXAMPLE:\n  carnet quote add --text \"Less is more.\" --author \"Mies van der Rohe\" --use")

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @OptionGroup var fields: QuoteFieldOptions
        @Flag(help: "Make it the current quote.") var use = false

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let edit = QuoteViewModel(state: state).add()
            edit.makesCurrent = use
            if fields.isEmpty {
                try terminal.requirePrompts(
                    forced: fields.forcePrompt, else: "nothing to add: give --text TEXT (see carnet quote add --help)")
                try FieldPrompts<Quote>(terminal: terminal).fill(edit)
            } else {
                fields.apply(to: &edit.draft)
            }
            let saved = try edit.save()
            terminal.print("saved quote \(saved.id)")
        }
    }
}
