import ArgumentParser
import CarnetModels
import CarnetState
import CarnetStorage  // the composition root is the one place that names the storage layer
import CarnetSync
import CarnetViewModels
import Foundation

// The composition root. Parse the command line; if the command shows or changes the address
// book, open the storage controller once, make the one state controller, inject it, run, close.
//
// Everything the process gives it comes in here: the arguments, and the terminal with its
// console (streams, environment). It returns the exit status and never exits, so tests can run
// it in-process with a captured console (see main.swift for the process's own).
@MainActor
func runCarnet(arguments: [String], terminal: Terminal) -> Int32 {
    do {
        var arguments = arguments
        // `--db PATH` may stand before the command's name (`carnet --db x list`) or after it
        // (`carnet list --db x`), where the command's own option reads it.
        let leadingFlag = try DatabaseLocation.extractFlag(from: &arguments)
        // A mail client's query, read without the parser's reflection (see MailQuery).
        if let query = MailQuery.parsedQuickly(arguments) {
            let location = DatabaseLocation(flag: query.db ?? leadingFlag, environment: terminal.environment)
            try withState(at: location, writes: false, readsHomeState: false, mapsFile: true, terminal: terminal) { _, state in
                try query.run(state: state, terminal: terminal)
            }
            return 0
        }
        let command = try Carnet.parseAsRoot(arguments)
        let location = DatabaseLocation(flag: (command as? DatabaseLocated)?.database.db ?? leadingFlag, environment: terminal.environment)
        guard let stateful = command as? StateCommand else {
            var plain = command
            if let located = plain as? DatabasePathCommand {
                try located.run(path: location.path, terminal: terminal)
            } else {
                try plain.run()
            }
            return 0
        }
        try stateful.checkInputs(terminal: terminal)
        try withState(at: location, writes: stateful.writes, terminal: terminal) { storage, state in
            if let syncing = stateful as? SyncingCommand {
                let transport = CurlTransport(answerTimeout: syncing.answerTimeout)
                let engine = CardDAVSync(storage: storage, transport: transport, environment: terminal.environment)
                if terminal.stdinIsTerminal {
                    // No password command and no CARNET_SYNC_PASSWORD: a person at the terminal types it.
                    let console = terminal.console
                    engine.askPassword = { user, server in
                        console.writeError("Password for \(user.shown) at \(server.shown) (not stored; --password-command saves typing it): ")
                        return console.readSecretLine()
                    }
                }
                try syncing.run(sync: SyncViewModel(state: state, engine: engine), terminal: terminal)
            } else {
                try stateful.run(state: state, terminal: terminal)
            }
        }
        return 0
    } catch {
        return exitStatus(for: error, terminal: terminal, arguments: arguments)
    }
}

/// Opens the address book at `location` for one command, makes the one state controller, runs
/// `body` with both, and closes the file.
@MainActor
private func withState(
    at location: DatabaseLocation, writes: Bool, readsHomeState: Bool = true, mapsFile: Bool = false, terminal: Terminal,
    _ body: (StorageController, StateController) throws -> Void
) throws {
    // One connection: a command is one short process, and the last one to close folds the
    // write-ahead log into the file, so the next launch has nothing to recover. A file named
    // with --db or CARNET_DB that is missing is created only by a command that writes; a
    // reading command reports it (exit 66) instead of showing an empty book made from a typo.
    // A mail client's query reads a few hundred scattered pages once: mapped, not copied (see
    // StorageOptions.mappedBytes).
    let options = StorageOptions(
        connections: .single, createIfMissing: !location.isExplicit || writes, environment: terminal.console.environment,
        mappedBytes: mapsFile ? 256 << 20 : 0)
    let storage = try StorageController(path: location.path, options: options, onLockWait: terminal.lockWaitNotice)
    defer {
        try? storage.close()
        terminal.console.keepUntilExit(storage)
    }
    try body(storage, try StateController(storage: storage, readsHomeState: readsHomeState))
}

/// The error's one line on stderr (help and version in full on stdout), and its exit status.
@MainActor
func exitStatus(for error: any Error, terminal: Terminal, arguments: [String] = []) -> Int32 {
    switch error {
    case let code as ExitCode:
        // A command that said all it had to say (`carnet query` finding nothing) and only sets the status.
        return code.rawValue
    case let error as CarnetError:
        terminal.error(error)
        return ExitCode(for: error).rawValue
    case let error as CLIError:
        terminal.error(error.message)
        return error.code.rawValue
    default:
        // Help and version go to stdout in full; a usage error is one line, like every error.
        let code = Carnet.exitCode(for: error)
        if code == .success {
            // Help is wrapped here, continuations under their own column (see HelpText).
            let message = Carnet.fullMessage(for: error, columns: 100_000)
            terminal.print(HelpText.isHelp(message) ? HelpText.wrapped(message, width: HelpText.width(terminal.console)) : message)
        } else {
            let message = Carnet.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            terminal.error(UsageHelp.line(message, arguments: arguments))
        }
        return code == .validationFailure ? ExitCode.usage.rawValue : code.rawValue
    }
}
