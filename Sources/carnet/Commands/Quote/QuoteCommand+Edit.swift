import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

extension QuoteCommand {
    struct Edit: StateCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Edit the current quote (or the one given by --id).",
            discussion: """
                With no flags on a terminal, asks for the text and author (Enter keeps each). Prints \
                "saved quote ID", or "quote ID unchanged (nothing to save)" when no value changed.

                EXAMPLES:
                  carnet quote edit --text "Imagination is more important than knowledge."
                  carnet quote edit --id 2 --author "Anonymous"
                """)

        @OptionGroup var database: DatabaseOption
        var writes: Bool { true }
        @OptionGroup var fields: QuoteFieldOptions
        @Option(help: "Edit this quote instead of the current one.") var id: Int64?
        @Flag(help: "Save even if someone else changed the quote meanwhile.") var force = false

        @MainActor func run(state: StateController, terminal: Terminal) throws {
            let screen = QuoteViewModel(state: state)
            let quote = try id.map { id throws(CarnetError) in try screen.quote(id: id) } ?? screen.quote
            let edit = screen.edit(quote)
            if fields.isEmpty {
                try terminal.requirePrompts(
                    forced: fields.forcePrompt, else: "nothing to change: give --text or --author (see carnet quote edit --help)")
                guard try FieldPrompts<Quote>(terminal: terminal)
                    .fillAndConfirm(edit, subject: "quote \(edit.original?.id ?? 0)") else { return }
            } else {
                fields.apply(to: &edit.draft)
            }
            let (saved, baseVersion) = try carnet.save(edit, force: force, terminal: terminal)
            terminal.print(SaveReport.line(.quote, id: saved.id, version: saved.version, baseVersion: baseVersion))
        }
    }
}
