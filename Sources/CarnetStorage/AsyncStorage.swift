import CarnetModels
import Foundation

/// The storage controller's reads and writes for `async` code off the main actor: a server, a
/// background job, a task group.
///
/// SQLite blocks the thread that calls it (while it reads, and while it waits up to
/// `StorageOptions/busyTimeout` for another process's write lock). Called from a task, that
/// thread is one of the few of Swift's cooperative pool, and every other task waits with it.
/// Each call here runs on a thread of the controller's own instead (as GRDB's `async` reads and
/// writes do) and suspends the task until it is done, so the pool goes on running other tasks.
/// Errors are the same typed `CarnetError`s as the blocking calls'.
///
/// ```swift
/// let contact = try await storage.async.insertContact(ContactDraft(name: "Ada Lovelace"))
/// let page = try await storage.async.contacts(after: nil, limit: 50, query: ContactQuery())
/// ```
///
/// The `@MainActor` `StateController` and the view models stay as they are, for screens.
public struct AsyncStorage: Sendable {
    public let storage: StorageController

    /// Runs any blocking call of the controller off the cooperative pool.
    public func perform<T: Sendable>(_ work: @escaping @Sendable (StorageController) throws(CarnetError) -> T) async throws(CarnetError) -> T {
        let storage = storage
        let result: Result<T, CarnetError> = await withCheckedContinuation { continuation in
            storage.blocking.next().async {
                continuation.resume(returning: Result { () throws(CarnetError) -> T in try work(storage) })
            }
        }
        return try result.get()
    }

    // MARK: Contacts

    public func contact(id: Int64) async throws(CarnetError) -> Contact {
        try await perform { storage throws(CarnetError) in try storage.contact(id: id) }
    }

    public func contact(uid: String) async throws(CarnetError) -> Contact? {
        try await perform { storage throws(CarnetError) in try storage.contact(uid: uid) }
    }

    /// A page of the contacts `query` lists, after `key` (see the blocking call).
    public func contacts(after key: ContactSortKey?, limit: Int, query: ContactQuery) async throws(CarnetError) -> ContactPage {
        try await perform { storage throws(CarnetError) in try storage.contacts(after: key, limit: limit, query: query) }
    }

    public func contactCount(query: ContactQuery) async throws(CarnetError) -> Int {
        try await perform { storage throws(CarnetError) in try storage.contactCount(query: query) }
    }

    @discardableResult
    public func insertContact(_ draft: ContactDraft, uid: String? = nil, bookID: Int64? = nil) async throws(CarnetError) -> Contact {
        try await perform { storage throws(CarnetError) in try storage.insertContact(draft, uid: uid, bookID: bookID) }
    }

    @discardableResult
    public func updateContact(_ base: Contact, with draft: ContactDraft, force: Bool = false) async throws(CarnetError) -> Contact {
        try await perform { storage throws(CarnetError) in try storage.updateContact(base, with: draft, force: force) }
    }

    public func deleteContact(id: Int64) async throws(CarnetError) {
        try await perform { storage throws(CarnetError) in try storage.deleteContact(id: id) }
    }

    public func deleteContact(_ contact: Contact) async throws(CarnetError) {
        try await perform { storage throws(CarnetError) in try storage.deleteContact(contact) }
    }

    // MARK: Favorites and quotes

    public func favorites() async throws(CarnetError) -> [Favorite] {
        try await perform { storage throws(CarnetError) in try storage.favorites() }
    }

    @discardableResult
    public func addFavorite(contactID: Int64, at position: Int? = nil) async throws(CarnetError) -> [Favorite] {
        try await perform { storage throws(CarnetError) in try storage.addFavorite(contactID: contactID, at: position) }
    }

    @discardableResult
    public func removeFavorite(contactID: Int64) async throws(CarnetError) -> [Favorite] {
        try await perform { storage throws(CarnetError) in try storage.removeFavorite(contactID: contactID) }
    }

    public func quotes() async throws(CarnetError) -> [Quote] {
        try await perform { storage throws(CarnetError) in try storage.quotes() }
    }

    @discardableResult
    public func addQuote(_ draft: QuoteDraft, makeCurrent: Bool = false) async throws(CarnetError) -> Quote {
        try await perform { storage throws(CarnetError) in try storage.addQuote(draft, makeCurrent: makeCurrent) }
    }
}

extension StorageController {
    /// The same reads and writes for `async` code, run off the cooperative pool (see
    /// `AsyncStorage`).
    public var async: AsyncStorage { AsyncStorage(storage: self) }
}

/// Serial queues `async` calls take in turn. Serial queues, because libdispatch gives each its
/// own thread when it has work, where a concurrent queue's threads are bounded by the cores:
/// eight calls waiting for another process's write lock would otherwise wait for each other
/// before they even ask for it.
final class BlockingQueues: @unchecked Sendable {
    private let lock = NSLock()
    /// Made at the first call: a command that never calls `async` makes none.
    private var queues: [DispatchQueue] = []
    private var turn = 0

    private let key = DispatchSpecificKey<String>()

    /// The label of the queue the caller runs on, if it is one of these.
    func current() -> String? { DispatchQueue.getSpecific(key: key) }

    func next() -> DispatchQueue {
        lock.withLock {
            if queues.isEmpty {
                queues = (0..<8).map { index in
                    let queue = DispatchQueue(label: "Carnet.blocking.\(index)", qos: .userInitiated)
                    queue.setSpecific(key: key, value: queue.label)
                    return queue
                }
            }
            turn = (turn + 1) % queues.count
            return queues[turn]
        }
    }
}
