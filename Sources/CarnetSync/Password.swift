import CarnetModels
import Foundation

/// Where the password comes from: never the file. `--password-command` (run with `/bin/sh -c`,
/// the first line of what it prints, as `pass carnet` prints it), else `CARNET_SYNC_PASSWORD`.
enum Password {
    static let environmentVariable = "CARNET_SYNC_PASSWORD"

    /// The password for `username` (nil when there is no user name: the server asks for none).
    static func resolve(username: String, command: String, environment: [String: String]) throws(CarnetError) -> String? {
        guard !username.isEmpty else { return nil }
        if !command.isEmpty { return try run(command, environment: environment) }
        if let password = environment[environmentVariable], !password.isEmpty { return password }
        throw .sync(.password("give --password-command to carnet sync setup, set \(environmentVariable), or run carnet on a terminal to type it"))
    }

    /// Run in carnet's process group (see `ForegroundProcess`): `pass` asking through
    /// pinentry-curses gets the terminal rather than being stopped in the background.
    private static func run(_ command: String, environment: [String: String]) throws(CarnetError) -> String {
        let result: (ending: ForegroundProcess.Ending, output: Data)
        do {
            result = try ForegroundProcess.run(["/bin/sh", "-c", command], environment: environment, capturingOutput: true)
        } catch {
            throw .sync(.password("the password command could not be started (\(error.message))"))
        }
        switch result.ending {
        case .exited(0): break
        case let .exited(status): throw .sync(.password("the password command exited with status \(status)"))
        case let .signaled(signal): throw .sync(.password("the password command was ended by signal \(signal)"))
        }
        let first = String(decoding: result.output, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let password = first.hasSuffix("\r") ? String(first.dropLast()) : String(first)
        guard !password.isEmpty else { throw .sync(.password("the password command printed nothing")) }
        return password
    }
}
