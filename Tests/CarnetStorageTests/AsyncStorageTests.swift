import CarnetModels
import CarnetTestSupport
import Foundation
import TestNeeds
import Testing

@testable import CarnetStorage

/// `storage.async`: SQLite's blocking work runs off the cooperative pool.
@Suite struct AsyncStorageTests {
    /// Another process holds the write lock; eight tasks write and read meanwhile. Their calls
    /// wait for the lock on queues of the controller's, never on a thread of the cooperative
    /// pool (so the pool goes on running other tasks: the benchmark measures its worst gap),
    /// and every write goes through once the lock is free.
    @Test(.needs("python3")) func eightTasksWaitForTheWriteLockOnTheControllersQueues() async throws {
        let dir = TempDirectory()
        let storage = try StorageController(path: dir.database)
        let holder = try WriteLockHolder(path: dir.database, seconds: 1)

        let saved = try await withThrowingTaskGroup(of: (Int64, String).self) { group in
            for index in 0..<8 {
                group.addTask {
                    try await storage.async.perform { storage throws(CarnetError) in
                        let queue = storage.blocking.current() ?? "not one of the controller's queues"
                        if index.isMultiple(of: 2) { _ = try storage.contactCount(query: ContactQuery()) }
                        return (try storage.insertContact(ContactDraft(name: "Writer \(index)")).id, queue)
                    }
                }
            }
            var results: [(Int64, String)] = []
            for try await result in group { results.append(result) }
            return results
        }
        holder.wait()
        #expect(saved.count == 8)
        #expect(try storage.contactCount() == 8)
        let queues: [String] = saved.map { $0.1 }
        #expect(queues.allSatisfy { $0.hasPrefix("Carnet.blocking.") }, "\(queues)")
        // Several queues: the eight calls wait side by side, not one behind the other.
        #expect(Set(queues).count > 1)
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
