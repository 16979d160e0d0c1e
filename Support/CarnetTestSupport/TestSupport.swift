import CarnetModels
import Foundation
import Observation
import TestTools

/// A fresh directory under the system temp dir, removed when the value is dropped: every test
/// that needs a real SQLite file makes one here.
public final class TempDirectory: @unchecked Sendable {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("carnet-tests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// `book.sqlite` in this directory.
    public var database: String { path("book.sqlite") }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body` and returns the CarnetError it throws (nil if it does not throw).
/// Anything other than a CarnetError comes back as `.database("unexpected …")`, failing the test.
public func carnetError<T>(_ body: () throws -> T) -> CarnetError? {
    do {
        _ = try body()
        return nil
    } catch let error as CarnetError {
        return error
    } catch {
        return .database("unexpected \(type(of: error)): \(error)")
    }
}

/// The five contacts of the classic contacts-and-quote demo app.
public let classicContacts = [
    ContactDraft(name: "Madison Thompson", position: "Sales, Gale Foods", email: "madison@example.com", phone: "555 0101"),
    ContactDraft(name: "Tyler Porter", position: "Software developer, Prophecy", email: "tyler@example.com", phone: "555 0102"),
    ContactDraft(name: "Katherine Price", position: "Marketing, Golden Roads", email: "katherine@example.com", phone: "555 0103"),
    ContactDraft(name: "Gary Edwards", position: "Web Developer, Bluewares", email: "gary@example.com", phone: "555 0104"),
    ContactDraft(name: "Rebecca Rogers", position: "HR, Globaviations", email: "rebecca@example.com", phone: "555 0105"),
]

/// Set from an observation callback, read by the test.
public final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    public init() {}
    public func set() { lock.withLock { value = true } }
    public var isSet: Bool { lock.withLock { value } }
}

/// What an observation callback saw, read by the test afterwards.
public final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []
    public init() {}
    public func record(_ value: Value) { lock.withLock { values.append(value) } }
    public var all: [Value] { lock.withLock { values } }
}

/// A flag that the next change of what `read` reads (observable properties) sets: one
/// `withObservationTracking`, as a screen observing those properties would be told.
@MainActor
public func observeChange(_ read: () -> Void) -> Flag {
    let changed = Flag()
    withObservationTracking(read) { changed.set() }
    return changed
}

/// Another process holding a file's write lock (`BEGIN IMMEDIATE`) for a while, as another
/// program would: Python's sqlite3 module, in a process of its own. `init` returns once the lock
/// is held; `wait()` waits for the process to commit and end.
public final class WriteLockHolder {
    private let process = Process()

    public init(path: String, seconds: Double) throws {
        process.executableURL = URL(fileURLWithPath: TestTool.path("python3"))
        process.arguments = ["-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN IMMEDIATE')
            print('locked', flush=True)
            time.sleep(float(sys.argv[2]))
            c.execute('COMMIT')
            """, path, String(seconds)]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let said = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        guard said.hasPrefix("locked") else {
            process.waitUntilExit()
            throw CocoaError(.fileLocking, userInfo: [NSLocalizedDescriptionKey: "python3 could not lock \(path): \(said)"])
        }
    }

    public func wait() { process.waitUntilExit() }
}

/// A program a test starts (python3 with a package, most often) and what it printed.
public enum ChildProcess {
    /// What a run printed, and how it ended.
    public struct Output: Sendable {
        public let status: Int32
        public let stdout: Data
        public let stderr: Data

        /// The last `lines` lines of stderr, joined by " / ", for a failure's message.
        public func errorTail(_ lines: Int) -> String {
            String(decoding: stderr, as: UTF8.self).split(separator: "\n").suffix(lines).joined(separator: " / ")
        }
    }

    /// Runs `executable` with `arguments` (and `environment`, `directory` when given) to its end.
    /// Both pipes are read before waiting, so a large output cannot fill one and stall the child.
    public static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errors = DispatchQueue(label: "child-process-stderr")
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        errors.async {
            errorData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: data, stderr: errorData)
    }
}
