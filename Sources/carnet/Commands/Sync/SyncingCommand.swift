import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// A command that talks to the sync server: the composition root hands it the engine too.
protocol SyncingCommand: StateCommand {
    /// How long the server may keep a request's answer silent (`carnet sync --timeout`).
    var answerTimeout: TimeInterval { get }
    @MainActor func run(sync: SyncViewModel, terminal: Terminal) throws
}

extension SyncingCommand {
    var answerTimeout: TimeInterval { SyncOptions.defaultAnswerTimeout }

    /// Never called: the composition root runs `run(sync:terminal:)` instead.
    @MainActor func run(state: StateController, terminal: Terminal) throws {
        throw CLIError(message: "\(Self.configuration.commandName ?? "sync") needs the sync engine", code: .other)
    }
}
