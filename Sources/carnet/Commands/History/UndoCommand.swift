import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct UndoCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Undo the latest change (whichever carnet made it), or every change back to one.",
        discussion: """
            Every change is kept in the address book file itself, so an undo works in the next \
            session too, and undoes another process's change as well as this one's. If something \
            outside carnet (sqlite3, another program) changed what the action touched since, \
            nothing is undone (exit 67) and the message says what changed.

            EXAMPLES:
              carnet undo
              carnet undo --to 12     # undo action 12 and everything after it (see carnet history)
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @Option(name: .customLong("to"), help: ArgumentHelp("Undo this action (an id from carnet history) and every later one.", valueName: "id"))
    var to: Int64?

    func validate() throws {
        if let to, to <= 0 { throw ValidationError("an action id is a positive whole number (got \(to))") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let history = HistoryViewModel(state: state)
        let step = if let to { try history.undo(to: to) } else { try history.undo() }
        for entry in step.entries { terminal.print("undone \(entry.id): \(entry.summary.shown)") }
        for book in step.relinked { terminal.print("\(book.book.shown) syncs again with \(book.collectionURL.shown) (carnet sync)") }
    }
}
