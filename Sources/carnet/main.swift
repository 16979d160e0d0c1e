import ArgumentParser
import CarnetModels
import CarnetState
import CarnetStorage  // the composition root is the one place that names the storage layer
import Foundation

// The composition root. Parse the command line; if the command shows or changes the address
// book, open the storage controller once, make the one state controller, inject it, run, close.
@MainActor
func runCarnet() -> Int32 {
    let terminal = Terminal()
    do {
        var arguments = try validatedArguments()
        // `--db PATH` may stand before the command's name (`carnet --db x list`) or after it
        // (`carnet list --db x`), where the command's own option reads it.
        let leadingFlag = try DatabaseLocation.extractFlag(from: &arguments)
        let command = try Carnet.parseAsRoot(arguments)
        let location = DatabaseLocation(flag: (command as? DatabaseLocated)?.database.db ?? leadingFlag)
        guard let stateful = command as? StateCommand else {
            var plain = command
            if let located = plain as? DatabasePathCommand {
                try located.run(path: location.path)
            } else {
                try plain.run()
            }
            return 0
        }
        // One connection: a command is one short process, and the last one to close folds the
        // write-ahead log into the file, so the next launch has nothing to recover. A file named
        // with --db or CARNET_DB that is missing is created only by a command that writes; a
        // reading command reports it (exit 66) instead of showing an empty book made from a typo.
        let options = StorageOptions(connections: .single, createIfMissing: !location.isExplicit || stateful.writes)
        let storage = try StorageController(path: location.path, options: options, onLockWait: terminal.lockWaitNotice)
        defer { try? storage.close() }
        let state = try StateController(storage: storage)
        try stateful.run(state: state, terminal: terminal)
        return 0
    } catch let error as CarnetError {
        terminal.error(error.description)
        return ExitCode(for: error).rawValue
    } catch let error as CLIError {
        terminal.error(error.message)
        return error.code.rawValue
    } catch {
        // Help and version go to stdout in full; a usage error is one line, like every error.
        let code = Carnet.exitCode(for: error)
        if code == .success {
            // Help is wrapped here, continuations under their own column (see HelpText).
            let message = Carnet.fullMessage(for: error, columns: 100_000)
            print(HelpText.isHelp(message) ? HelpText.wrapped(message, width: HelpText.width) : message)
        } else {
            let message = Carnet.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            terminal.error("\(message) (see carnet --help)")
        }
        return code == .validationFailure ? ExitCode.usage.rawValue : code.rawValue
    }
}

/// The arguments, refusing any that is not valid UTF-8 (Swift would silently repair it into
/// U+FFFD and store the damage).
func validatedArguments() throws -> [String] {
    var arguments: [String] = []
    for index in 1..<Int(CommandLine.argc) {
        guard let raw = CommandLine.unsafeArgv[index] else { continue }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
        guard let argument = String(validating: bytes, as: UTF8.self) else {
            throw CLIError.usage("argument \(index) is not valid UTF-8; nothing was changed")
        }
        arguments.append(argument)
    }
    return arguments
}

exit(MainActor.assumeIsolated { runCarnet() })
