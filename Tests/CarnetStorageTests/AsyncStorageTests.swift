import CarnetModels
import CarnetTestSupport
import Foundation
import Testing

@testable import CarnetStorage

/// `storage.async`: SQLite's blocking work runs off the cooperative pool.
@Suite struct AsyncStorageTests {
    /// Another process holds the write lock; eight tasks write and read meanwhile. Their calls
    /// wait for the lock on threads of the controller's, so a task on the cooperative pool goes
    /// on running the whole time, and every write goes through once the lock is free.
    @Test func eightTasksWaitingForTheWriteLockDoNotStallThePool() async throws {
        let dir = TempDirectory()
        let storage = try StorageController(path: dir.database)
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = ["-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN IMMEDIATE')
            print('locked', flush=True)
            time.sleep(1.5)
            c.execute('COMMIT')
            """, dir.database]
        let out = Pipe()
        holder.standardOutput = out
        try holder.run()
        #expect(String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("locked"))

        let start = ContinuousClock.now
        let ticker = Task {
            var ticks: [Duration] = []
            while ContinuousClock.now - start < .seconds(1.2) {
                try? await Task.sleep(for: .milliseconds(10))
                ticks.append(ContinuousClock.now - start)
            }
            return ticks
        }
        let saved = try await withThrowingTaskGroup(of: Int64.self) { group in
            for index in 0..<8 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return try await storage.async.insertContact(ContactDraft(name: "Writer \(index)")).id
                    }
                    _ = try await storage.async.contactCount(query: ContactQuery())
                    return try await storage.async.insertContact(ContactDraft(name: "Reader \(index)")).id
                }
            }
            var ids: [Int64] = []
            for try await id in group { ids.append(id) }
            return ids
        }
        let ticks = await ticker.value
        holder.waitUntilExit()
        #expect(saved.count == 8)
        #expect(try storage.contactCount() == 8)
        // The writes waited about 1.5 s for the lock; the ticker ran all along. (Its worst gap is
        // the benchmark's figure; here it is enough that it was never held for most of the wait.)
        #expect(ticks.count >= 20, "\(ticks.count) ticks while the lock was held")
        let gaps = zip(ticks.dropFirst(), ticks).map { $0 - $1 }
        #expect(gaps.max() ?? .zero < .seconds(0.6), "worst gap \(gaps.max() ?? .zero)")
    }

    /// Errors keep their type and case.
    @Test func errorsAreTheTypedErrorsOfTheBlockingCalls() async throws {
        let storage = try StorageController.inMemory()
        await #expect(throws: CarnetError.notFound(.contact, id: 42)) { try await storage.async.contact(id: 42) }
        await #expect(throws: CarnetError.self) { try await storage.async.insertContact(ContactDraft(name: "")) }
        let quote = try await storage.async.addQuote(QuoteDraft(text: "To be"), makeCurrent: true)
        #expect(try await storage.async.quotes().contains(quote))
        #expect(try await storage.async.perform { storage throws(CarnetError) in try storage.currentQuote() } == quote)
    }
}
