import Foundation
import TestNeeds
import Testing
@testable import carnet

/// One finished run of the `carnet` binary.
struct Run: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// A temp directory with a database path, and two ways to run `carnet` against it as a script
/// would (stdin/stdout not terminals, NO_COLOR set): a separate process (``carnet(_:stdin:environment:useDB:binary:cwd:)``),
/// or in this process with a captured console (``carnetInProcess(_:stdin:environment:useDB:)``),
/// which gives the same bytes and status (see InProcessTests) without starting one.
final class Sandbox {
    let dir: URL
    var db: String { path("book.sqlite") }

    init() {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-cli-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Writes `text` to `name` in the sandbox (making its folders) and returns the file's path.
    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let path = path(name)
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// The corpus of real exports from other programs (Tests/Fixtures/RealExports).
    static let realExports = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/RealExports")

    /// The path of one file of ``realExports``.
    static func realExport(_ name: String) -> String { realExports.appendingPathComponent(name).path }

    /// The binary SwiftPM built beside this test bundle.
    static let binary: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("carnet").path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/carnet").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }()

    /// Runs `carnet ARGS --db <this sandbox's db>` unless `useDB` is false.
    @discardableResult
    func carnet(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], useDB: Bool = true,
                binary: String = Sandbox.binary, cwd: String? = nil) -> Run {
        run(binary, arguments + (useDB ? ["--db", db] : []), stdin: stdin, environment: environment, cwd: cwd)
    }

    /// Runs `carnet ARGS --db <this sandbox's db>` like ``carnet(_:stdin:environment:useDB:binary:cwd:)``,
    /// in this process: `runCarnet` with a captured console holding the same environment and
    /// stdin, no stream a terminal (with `tty`, a controlling terminal where that is typed). Runs take turns on the main actor. No `cwd`: the working
    /// directory is the test process's, so arguments must be absolute paths; anything about
    /// terminals, signals, other processes or exit itself stays with ``carnet(_:stdin:environment:useDB:binary:cwd:)``.
    @discardableResult
    func carnetInProcess(_ arguments: [String], stdin: String? = nil, tty: String? = nil, environment: [String: String] = [:], useDB: Bool = true) -> Run {
        let console = Console.captured(stdin: stdin ?? "", tty: tty, environment: self.environment(with: environment))
        let arguments = arguments + (useDB ? ["--db", db] : [])
        let run: @Sendable () -> Int32 = {
            MainActor.assumeIsolated { runCarnet(arguments: arguments, terminal: Terminal(console: console)) }
        }
        let status = Thread.isMainThread ? run() : DispatchQueue.main.sync(execute: run)
        return Run(
            status: status,
            stdout: String(decoding: console.output, as: UTF8.self),
            stderr: String(decoding: console.errorOutput, as: UTF8.self))
    }

    /// The environment every run of `carnet` gets: this process's, without CARNET_DB, with
    /// HOME the sandbox and NO_COLOR set, then `overrides` ("" unsets).
    func environment(with overrides: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["CARNET_DB"] = nil
        env["NO_COLOR"] = "1"
        env["HOME"] = dir.path
        env["XDG_DATA_HOME"] = nil
        for (key, value) in overrides { env[key] = value.isEmpty ? nil : value }  // "" unsets
        return env
    }

    /// Runs `carnet ARGS --db <this sandbox's db>` on a pseudo-terminal, as a person's shell
    /// would: `script` gives it one, and stdout and stderr both arrive in the run's stdout, its
    /// line ends made "\n". With a `feeder` script, what it prints is typed into the terminal.
    func carnetOnTerminal(_ arguments: [String], environment: [String: String] = [:], feeder: String? = nil) -> Run {
        let command = ([Sandbox.binary] + arguments + ["--db", db]).map(Self.shellQuoted).joined(separator: " ")
        let run = if let feeder {
            self.run("/bin/sh", ["-c", "\(Self.shellQuoted(feeder)) | \(Self.shellQuoted(TestTool.path("script"))) -qec \(Self.shellQuoted(command)) /dev/null"],
                     environment: environment)
        } else {
            self.run(TestTool.path("script"), ["-qec", command, "/dev/null"], environment: environment)
        }
        return Run(status: run.status, stdout: run.stdout.replacingOccurrences(of: "\r\n", with: "\n"), stderr: run.stderr)
    }

    /// `text` as one word of a shell command line.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Expects `arguments` refused with exit `code` and one line on stderr containing `text`,
    /// the database file as it was.
    func expectRefused(_ arguments: [String], _ code: Int32, mentioning text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = snapshot()
        let run = carnetInProcess(arguments)
        let shown = arguments.map { String($0.prefix(40)) }
        #expect(run.status == code, "\(shown): \(run.stderr.prefix(300))", sourceLocation: sourceLocation)
        #expect(run.stderr.contains(text), "\(shown): \(run.stderr.prefix(300))", sourceLocation: sourceLocation)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr.prefix(300))", sourceLocation: sourceLocation)
        #expect(snapshot() == before, "\(shown) changed the file", sourceLocation: sourceLocation)
    }

    func run(_ executable: String, _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], cwd: String? = nil) -> Run {
        let id = UUID().uuidString
        let outPath = path("out-\(id)"), errPath = path("err-\(id)"), inPath = path("in-\(id)")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        _ = FileManager.default.createFile(atPath: inPath, contents: Data((stdin ?? "").utf8))
        defer { for p in [outPath, errPath, inPath] { try? FileManager.default.removeItem(atPath: p) } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = self.environment(with: environment)
        process.currentDirectoryURL = URL(fileURLWithPath: cwd ?? dir.path)
        process.standardInput = FileHandle(forReadingAtPath: inPath)
        process.standardOutput = FileHandle(forWritingAtPath: outPath)
        process.standardError = FileHandle(forWritingAtPath: errPath)
        // A binary a test just copied can be "busy" for a moment: a process another test forked
        // meanwhile may still hold the copy's write descriptor until it execs. Try again briefly.
        var attempts = 0
        while true {
            do {
                try process.run()
                break
            } catch let error as NSError where Self.isTextFileBusy(error) && attempts < 50 {
                attempts += 1
                usleep(20_000)
            } catch {
                return Run(status: -1, stdout: "", stderr: "could not start \(executable): \(error)")
            }
        }
        process.waitUntilExit()
        let read = { (p: String) in String(decoding: FileManager.default.contents(atPath: p) ?? Data(), as: UTF8.self) }
        return Run(status: process.terminationStatus, stdout: read(outPath), stderr: read(errPath))
    }

    /// ETXTBSY, as Foundation reports it (a Cocoa error whose underlying error is the errno).
    static func isTextFileBusy(_ error: NSError) -> Bool {
        if error.domain == NSPOSIXErrorDomain && error.code == Int(ETXTBSY) { return true }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return isTextFileBusy(underlying) }
        return false
    }

    /// The database's files, to check that a refused command changed nothing.
    func snapshot() -> [Data?] {
        [db, db + "-wal"].map { FileManager.default.contents(atPath: $0) }
    }

    /// `sqlite3 [OPTIONS] DB SQL`, as a person would run it.
    @discardableResult
    func sqlite(_ sql: String, _ options: [String] = []) -> Run {
        run(TestTool.path("sqlite3"), options + [db, sql])
    }

    /// Writes an executable shell script and returns its path.
    func script(_ name: String, _ body: String) -> String {
        let p = path(name)
        _ = FileManager.default.createFile(atPath: p, contents: Data(("#!/bin/sh\n" + body).utf8), attributes: [.posixPermissions: 0o755])
        return p
    }

    func json(_ text: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8))
    }
}

let tinyPNG = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])
