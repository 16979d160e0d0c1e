import Foundation

// The `carnet` processes the stress runs drive.

/// A running `carnet` with a pipe on stdin and a pipe on stdout.
final class Child: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()

    init(_ carnet: String, _ arguments: [String]) {
        process.executableURL = URL(fileURLWithPath: carnet)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        do { try process.run() } catch { fail("cannot start \(carnet): \(error)") }
    }

    func send(_ text: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    func finishInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits for the exit; returns stdout and stderr.
    func collect() -> (String, String) {
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

func run(_ carnet: String, _ arguments: [String]) -> (Int32, String, String) {
    let child = Child(carnet, arguments)
    child.finishInput()
    let (out, err) = child.collect()
    return (child.process.terminationStatus, out, err)
}
