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
        throw .sync(.password("give --password-command to carnet sync setup, or set \(environmentVariable)"))
    }

    private static func run(_ command: String, environment: [String: String]) throws(CarnetError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .sync(.password("the password command could not be started (\(error.localizedDescription))"))
        }
        // Read before waiting, so a command that prints much cannot block on a full pipe.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .sync(.password("the password command exited with status \(process.terminationStatus)"))
        }
        let first = String(decoding: data, as: UTF8.self).split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let password = first.hasSuffix("\r") ? String(first.dropLast()) : String(first)
        guard !password.isEmpty else { throw .sync(.password("the password command printed nothing")) }
        return password
    }
}
