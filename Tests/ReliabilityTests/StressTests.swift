import Foundation
import Testing

/// The short versions of `make stress`: SIGKILLed writers and concurrent processes, run with the
/// real `carnet` binary against a temporary file. Each asserts on the harness's own checks.
@Suite(.serialized) struct StressTests {
    static let buildDirectory: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: beside.appendingPathComponent("carnet").path) { return beside }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug")
    }()

    func stress(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = Self.buildDirectory.appendingPathComponent("carnet-stress")
        process.arguments = arguments + ["--carnet", Self.buildDirectory.appendingPathComponent("carnet").path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func fiftyKillsLoseNothing() throws {
        let (status, output) = try stress(["crash", "--kills", "50"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("lost writes: 0"), "\(output)")
        #expect(output.contains("integrity failures: 0"), "\(output)")
        #expect(output.contains("db check: ok"), "\(output)")
    }

    @Test func concurrentProcessesNeverSeeBusyAndLoseNoUpdate() throws {
        let (status, output) = try stress(["concurrent", "--processes", "4", "--edits", "40"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("busy/locked errors: 0"), "\(output)")
        #expect(output.contains("lost updates: 0"), "\(output)")
    }
}
