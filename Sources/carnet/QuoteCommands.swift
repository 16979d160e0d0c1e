import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct QuoteID: ParsableArguments {
    @Argument(help: ArgumentHelp("The quote's id (see carnet quote list).", valueName: "id"))
    var id: Int64

    func validate() throws {
        guard id > 0 else { throw ValidationError("a quote id is a positive whole number (got \(id))") }
    }
}

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
        subcommands: [QuoteShow.self, QuoteEdit.self, QuoteAdd.self, QuoteList.self, QuoteUse.self, QuoteDelete.self],
        defaultSubcommand: QuoteShow.self)
}

struct QuoteShow: StateCommand {
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

struct QuoteFieldOptions: ParsableArguments {
    @Option(help: "The quote's text.") var text: String?
    @Option(help: "Who said it.") var author: String?
    @Flag(name: .customLong("prompt"), help: "Ask for each field even when standard input is not a terminal.")
    var forcePrompt = false

    var isEmpty: Bool { text == nil && author == nil }

    func apply(to draft: inout QuoteDraft) {
        if let text { draft.text = text }
        if let author { draft.author = author }
    }
}

struct QuoteEdit: StateCommand {
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

struct QuoteAdd: StateCommand {
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

struct QuoteList: StateCommand {
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

struct QuoteUse: StateCommand {
    static let configuration = CommandConfiguration(commandName: "use", abstract: "Make a quote the current one.")

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var quote: QuoteID

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        try QuoteViewModel(state: state).use(quote.id)
        terminal.print("saved current quote \(quote.id)")
    }
}

struct QuoteDelete: StateCommand {
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
