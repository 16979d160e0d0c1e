import ArgumentParser
import CarnetModels
import CarnetState
import CarnetStorage  // the composition root is the one place that names the storage layer
import Foundation

// The composition root. Parse the command line; if the command shows or changes the address
// book, open the storage controller once, make the one state controller, inject it, run, close.
@MainActor
func runCarnet() -> Int32 {
    var arguments = Array(CommandLine.arguments.dropFirst())
    let terminal = Terminal()
    do {
        // `--db PATH` may stand anywhere (`carnet --db x list` as well as `carnet list --db x`).
        let dbFlag = try DatabaseLocation.extractFlag(from: &arguments)
        let command = try Carnet.parseAsRoot(arguments)
        guard let stateful = command as? StateCommand else {
            var plain = command
            if let located = plain as? DatabasePathCommand {
                try located.run(path: DatabaseLocation.resolve(flag: dbFlag))
            } else {
                try plain.run()
            }
            return 0
        }
        let storage = try StorageController(path: DatabaseLocation.resolve(flag: dbFlag))
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
        // Help, version, usage errors: swift-argument-parser's own text and exit codes.
        let code = Carnet.exitCode(for: error)
        if code == .success {
            print(Carnet.fullMessage(for: error))
        } else {
            FileHandle.standardError.write(Data((Carnet.fullMessage(for: error) + "\n").utf8))
        }
        return code == .validationFailure ? ExitCode.usage.rawValue : code.rawValue
    }
}

exit(MainActor.assumeIsolated { runCarnet() })
