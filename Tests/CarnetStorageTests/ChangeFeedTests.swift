import CarnetModels
import CarnetTestSupport
import Foundation
import GRDB
import TestNeeds
import Testing

@testable import CarnetStorage

/// `StorageController.changes()`: every commit to the file reaches an observer, whoever made it,
/// naming the contacts the history says it wrote.
@Suite struct ChangeFeedTests {
    /// The next change the stream delivers, or nil if none comes within `seconds`.
    static func next(_ iterator: inout AsyncStream<StorageChange>.Iterator, within seconds: Double = 30) async -> StorageChange? {
        let box = IteratorBox(iterator)
        let change = await withTaskGroup(of: StorageChange?.self) { group in
            group.addTask { await box.next() }
            group.addTask {
                try? await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        iterator = box.iterator
        return change
    }

    @Test func aWriteThroughTheSameControllerIsDeliveredNamingItsContact() async throws {
        let dir = TempDirectory()
        let storage = try StorageController(path: dir.database)
        var changes = storage.changes().makeAsyncIterator()
        let ada = try storage.insertContact(ContactDraft(name: "Ada Lovelace"))
        let change = try #require(await Self.next(&changes))
        #expect(change.byThisProcess)
        #expect(change.contactIDs == [ada.id])
        #expect(change.actions.count == 1)
        // An edit, a favorite and an undo each name it too.
        _ = try storage.updateContact(ada, with: ContactDraft(name: "Ada King"))
        #expect(try #require(await Self.next(&changes)).contactIDs == [ada.id])
        _ = try storage.addFavorite(contactID: ada.id)
        #expect(try #require(await Self.next(&changes)).contactIDs == [ada.id])
        _ = try storage.undo()
        let undo = try #require(await Self.next(&changes))
        #expect(undo.contactIDs == [ada.id] && undo.byThisProcess)
        _ = try storage.redo()
        #expect(try #require(await Self.next(&changes)).contactIDs == [ada.id])
        // A quote names no contact, but is a change.
        _ = try storage.addQuote(QuoteDraft(text: "To be"))
        let quote = try #require(await Self.next(&changes))
        #expect(quote.contactIDs == [] && quote.actions.count == 1)
    }

    /// The blind spot GRDB's ValueObservation and `PRAGMA data_version` on the writer share: a
    /// write through another connection of the same process, and one through the same
    /// controller made without the state controller, are both seen.
    @Test func aWriteThroughAnotherConnectionOfThisProcessIsDelivered() async throws {
        let dir = TempDirectory()
        let observed = try StorageController(path: dir.database)
        let other = try StorageController(path: dir.database)
        var changes = observed.changes().makeAsyncIterator()
        let ada = try other.insertContact(ContactDraft(name: "Ada"))
        let change = try #require(await Self.next(&changes))
        #expect(change.contactIDs == [ada.id])
        #expect(change.byThisProcess, "the history names this process")
        try other.deleteContact(id: ada.id)
        #expect(try #require(await Self.next(&changes)).contactIDs == [ada.id])
    }

    /// sqlite3 by hand writes no history: the change arrives, saying what changed is unknown.
    @Test(.needs("sqlite3"))
    func anotherProcessWritingOutsideTheHistoryIsDeliveredAsUnknown() async throws {
        let dir = TempDirectory()
        let storage = try StorageController(path: dir.database)
        let ada = try storage.insertContact(ContactDraft(name: "Ada"))
        var changes = storage.changes().makeAsyncIterator()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestTool.path("sqlite3"))
        process.arguments = [dir.database, "UPDATE contacts SET note = 'by hand' WHERE id = \(ada.id)"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let change = try #require(await Self.next(&changes))
        #expect(change.isUnknown && !change.byThisProcess)
        #expect(try storage.contact(id: ada.id).note == "by hand")
    }

    /// Many commits close together come in order, naming every contact, as at most one value
    /// each (several in one when they come faster than the feed looks).
    @Test func commitsInQuickSuccessionComeInOrderAndNoneIsLost() async throws {
        let dir = TempDirectory()
        let storage = try StorageController(path: dir.database)
        let other = try StorageController(path: dir.database)
        let stream = storage.changes()
        var ids: Set<Int64> = []
        for index in 0..<50 { ids.insert(try other.insertContact(ContactDraft(name: "Person \(index)")).id) }
        var seen: Set<Int64> = []
        var values = 0
        var actions: [Int64] = []
        var changes = stream.makeAsyncIterator()
        while seen.count < ids.count, let change = await Self.next(&changes) {
            values += 1
            seen.formUnion(change.contactIDs ?? [])
            actions += change.actions
        }
        #expect(seen == ids)
        #expect(actions == actions.sorted(), "in commit order")
        #expect(values <= 50, "\(values) values for 50 commits")
    }

    /// The watch exists only while something observes, and the stream ends when the
    /// controller closes.
    @Test func theWatchStopsWithItsLastObserverAndTheStreamEndsAtClose() async throws {
        let dir = TempDirectory()
        let storage = try StorageController(path: dir.database)
        #expect(!storage.feed.isObserved)
        let seen = Recorder<StorageChange>()
        let observation = storage.observeChanges { seen.record($0) }
        #expect(storage.feed.isObserved)
        _ = try storage.insertContact(ContactDraft(name: "Ada"))
        for _ in 0..<1500 where seen.all.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
        #expect(seen.all.count == 1)
        observation.cancel()
        #expect(!storage.feed.isObserved)
        _ = try storage.insertContact(ContactDraft(name: "Bea"))
        try await Task.sleep(for: .milliseconds(200))
        #expect(seen.all.count == 1, "nothing after cancel")

        var changes = storage.changes().makeAsyncIterator()
        try storage.close()
        #expect(await changes.next() == nil)
    }

    /// An in-memory file has no other connection: its own writes are delivered all the same.
    @Test func aFileInMemoryDeliversItsOwnWrites() async throws {
        let storage = try StorageController.inMemory()
        var changes = storage.changes().makeAsyncIterator()
        let ada = try storage.insertContact(ContactDraft(name: "Ada"))
        #expect(try #require(await Self.next(&changes)).contactIDs == [ada.id])
    }

    /// An import of many contacts in several parts names every one.
    @Test func anImportNamesEveryContactItAdded() async throws {
        let dir = TempDirectory()
        let storage = try StorageController(path: dir.database)
        var changes = storage.changes().makeAsyncIterator()
        let count = try storage.insertContacts((0..<300).map { ContactDraft(name: "Person \($0)") })
        let change = try #require(await Self.next(&changes))
        #expect(change.contactIDs?.count == count)
    }
}

/// Lets a task group's child own the iterator for one `next()`.
private final class IteratorBox: @unchecked Sendable {
    var iterator: AsyncStream<StorageChange>.Iterator
    init(_ iterator: AsyncStream<StorageChange>.Iterator) { self.iterator = iterator }
    func next() async -> StorageChange? { await iterator.next() }
}
