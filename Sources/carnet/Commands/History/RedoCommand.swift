import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

struct RedoCommand: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Redo the change undone last (a new change clears what there is to redo).",
        discussion: "EXAMPLES:\n  carnet undo && carnet redo")

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let step = try HistoryViewModel(state: state).redo()
        for entry in step.entries { terminal.print("redone \(entry.id): \(entry.summary.shown)") }
    }
}
