import Foundation
import Testing

/// A write that has to wait for another process's write lock: a person at a terminal is told
/// why nothing happens; a script's stderr stays clean. Either way the write goes through once
/// the lock is free.
@Suite struct LockWaitTests {
    let box = Sandbox()
    static let notice = "carnet: waiting for another carnet to finish…"

    init() {
        box.carnet(["add", "--name", "Madison Thompson"])
    }

    /// Starts `sqlite3` holding the file's write lock for `seconds`, and returns once it holds it.
    func holdWriteLock(seconds: Int) throws -> Process {
        let marker = box.path("locked-\(UUID().uuidString)")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = ["-c", """
            (echo '.timeout 5000'; echo 'BEGIN IMMEDIATE;'; echo '.system touch \(marker)'; sleep \(seconds); echo 'COMMIT;') \
            | sqlite3 "\(box.db)"
            """]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: marker) {
            try #require(Date() < deadline, "sqlite3 never took the write lock")
            Thread.sleep(forTimeInterval: 0.02)
        }
        return holder
    }

    @Test func onATerminalAWaitForTheLockIsShownOnceThenTheAddSucceeds() throws {
        let holder = try holdWriteLock(seconds: 3)
        defer { holder.waitUntilExit() }
        let started = Date()
        // On a terminal, stdout and stderr both arrive in the run's output.
        let run = box.carnetOnTerminal(["add", "--name", "Tyler Porter"])
        let waited = Date().timeIntervalSince(started)
        #expect(run.status == 0, "\(run)")
        #expect(run.lines == [Self.notice, "saved contact 2"], "\(run)")
        #expect(waited > 1.5, "the add did not wait for the lock (\(waited) s)")
        #expect(box.carnet(["list"]).stdout.contains("Tyler Porter"))
    }

    @Test func withoutATerminalTheWaitIsSilent() throws {
        let holder = try holdWriteLock(seconds: 2)
        defer { holder.waitUntilExit() }
        let run = box.carnet(["add", "--name", "Tyler Porter"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "saved contact 2\n")
        #expect(run.stderr.isEmpty, "\(run)")
    }

    @Test func aWaitShorterThanASecondIsNotMentioned() throws {
        let holder = try holdWriteLock(seconds: 0)
        defer { holder.waitUntilExit() }
        let run = box.carnetOnTerminal(["add", "--name", "Tyler Porter"])
        #expect(run.status == 0, "\(run)")
        #expect(!run.stdout.contains("waiting"), "\(run)")
    }
}
