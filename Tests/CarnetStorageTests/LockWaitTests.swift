import CarnetModels
import Foundation
import GRDB
import Synchronization
import Testing
@testable import CarnetStorage

/// A write waiting for another connection's write lock: the embedder hears about it once after
/// about a second, the write goes through when the lock is free, and the busy timeout still ends
/// a wait that lasts too long.
@Suite struct StorageLockWaitTests {
    let dir = TempDirectory()

    /// How many times, and after how long, the storage controller said it was waiting.
    final class Notices: Sendable {
        private let times = Mutex<[TimeInterval]>([])
        let started = Date()
        func record() { times.withLock { $0.append(Date().timeIntervalSince(started)) } }
        var all: [TimeInterval] { times.withLock { $0 } }
    }

    /// Another connection to the file (another process, as far as SQLite's locks go) in the middle
    /// of a write transaction; `release` commits it.
    final class LockHolder: Sendable {
        let queue: DatabaseQueue

        init(path: String) throws {
            var config = Configuration()
            config.allowsUnsafeTransactions = true  // the transaction outlives this call on purpose
            queue = try DatabaseQueue(path: path, configuration: config)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        }

        func release() {
            try? queue.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        }

        /// Commits from a thread of its own: while tests sleep in busy handlers, GCD's global
        /// queues may not get a thread in time on a small machine.
        func release(after delay: TimeInterval) {
            Thread.detachNewThread { [self] in
                Thread.sleep(forTimeInterval: delay)
                release()
            }
        }
    }

    @Test(arguments: [StorageOptions.Connections.single, .pool])
    func aWaitPastASecondIsReportedOnceAndTheWriteGoesThrough(connections: StorageOptions.Connections) throws {
        let path = dir.path("book.sqlite")
        let notices = Notices()
        let storage = try StorageController(
            path: path, options: StorageOptions(busyTimeout: 5, connections: connections), onLockWait: { notices.record() })
        let holder = try LockHolder(path: path)
        holder.release(after: 1.6)
        let started = Date()
        let saved = try storage.insertContact(ContactDraft(name: "Ada Lovelace"))
        let waited = Date().timeIntervalSince(started)
        #expect(try storage.contact(id: saved.id) == saved)
        // Behaviour, not speed (a loaded machine stretches every wait): it waited for the
        // holder, went through before the busy timeout, and said so once, a second or more in.
        #expect(waited >= 1.5 && waited < 5, "waited \(waited) s")
        #expect(notices.all.count == 1, "\(notices.all)")
        #expect(notices.all.allSatisfy { $0 >= 0.95 && $0 < 5 }, "\(notices.all)")
    }

    @Test func theBusyTimeoutStillEndsTheWait() throws {
        let path = dir.path("book.sqlite")
        let notices = Notices()
        let storage = try StorageController(path: path, options: StorageOptions(busyTimeout: 1.5), onLockWait: { notices.record() })
        let holder = try LockHolder(path: path)
        defer { holder.release() }
        let started = Date()
        #expect(carnetError { try storage.insertContact(ContactDraft(name: "Ada Lovelace")) } == .busy(path: path))
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 1.45 && waited < 3, "waited \(waited) s")
        #expect(notices.all.count == 1, "\(notices.all)")
    }

    @Test func aShortWaitIsNotReported() throws {
        let path = dir.path("book.sqlite")
        let notices = Notices()
        let impatient = try StorageController(path: path, options: StorageOptions(busyTimeout: 0.3), onLockWait: { notices.record() })
        let patient = try StorageController(path: path, onLockWait: { notices.record() })
        let holder = try LockHolder(path: path)
        // Giving up before the second is up: nothing to say.
        #expect(carnetError { try impatient.insertContact(ContactDraft(name: "Ada Lovelace")) } == .busy(path: path))
        // A wait that ends within the second is not worth a word either.
        holder.release(after: 0.3)
        #expect(try patient.insertContact(ContactDraft(name: "Grace Hopper")).name == "Grace Hopper")
        #expect(notices.all.isEmpty, "\(notices.all)")
    }
}
