import CarnetModels
import Foundation
import GRDB
import Testing
@testable import CarnetStorage

/// A file no bigger than it needs to be: what takes its space, dropping old history, and a
/// compaction that gives free pages back, on real files.
@Suite struct FileSpaceTests {
    let dir = TempDirectory()

    /// `count` people with a note each, so that their rows take pages.
    func addPeople(_ storage: StorageController, _ count: Int, note: String = String(repeating: "A long note. ", count: 40)) throws -> [Contact] {
        try (1...count).map { index in
            try storage.insertContact(ContactDraft(
                name: "Person \(index)", emails: [LabeledValue("p\(index)@example.org", label: "work")], note: note))
        }
    }

    /// The database's size as SQLite counts it, and its integrity check, on a connection of the test's own.
    func pages(_ path: String) throws -> (bytes: Int64, check: String) {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            let size = (try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0) * (try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
            return (size, try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "")
        }
    }

    /// Drops the whole history, whose rows hold what the deletes took: their pages become free.
    func dropHistory(_ storage: StorageController) throws {
        try storage.setHistoryKeep(0)
        try storage.setHistoryKeep(1000)
    }

    func mode(_ path: String) throws -> Int {
        ((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? 0) & 0o777
    }

    @Test func infoSaysWhatTakesTheSpaceAndThePartsAddUpToTheFile() throws {
        let storage = try StorageController(path: dir.database, options: StorageOptions(connections: .single))
        let people = try addPeople(storage, 60)
        let space = try #require(try storage.info().space)
        #expect(space.data > 0 && space.indexes > 0 && space.searchIndex > 0 && space.history > 0, "\(space)")
        #expect(space.total == space.data + space.indexes + space.searchIndex + space.history + space.free)
        try storage.close()
        #expect(space.total == (try pages(dir.database)).bytes)
        #expect(space.total == Int64((try FileManager.default.attributesOfItem(atPath: dir.database)[.size] as? NSNumber)?.intValue ?? 0))

        // Deleting the people moves their rows into the history (an undo brings them back);
        // dropping that history leaves free pages, which the file keeps.
        let reopened = try StorageController(path: dir.database, options: StorageOptions(connections: .single))
        for person in people { try reopened.deleteContact(id: person.id) }
        try dropHistory(reopened)
        let after = try #require(try reopened.info().space)
        #expect(after.free > 0 && after.history < space.history, "\(after)")
        #expect(after.total == (try pages(dir.database)).bytes)
    }

    @Test func compactingGivesBackTheFreePagesAndKeepsEverything() throws {
        let storage = try StorageController(path: dir.database)
        let people = try addPeople(storage, 300)
        try storage.addFavorite(contactID: people[0].id)
        for person in people[10...] { try storage.deleteContact(id: person.id) }
        try dropHistory(storage)
        // One action to undo after the compaction.
        var draft = people[1].draft
        draft.title = "Analyst"
        try storage.updateContact(people[1], with: draft)
        let kept = try storage.allContacts()
        let plan = try storage.compactionPlan()
        #expect(plan.freeBytes > 0 && plan.neededBytes > 2 * (plan.bytes - plan.freeBytes) && plan.directory == dir.url.path)

        let done = try storage.compact()
        // Every free page comes back; the copy may pack the schema's text into one more page.
        #expect(done.bytesAfter < done.bytesBefore && done.bytesBefore - done.bytesAfter >= plan.freeBytes - 4_096, "\(done) \(plan)")
        #expect(try storage.info().space?.free == 0)
        #expect(try storage.allContacts() == kept)
        #expect(try storage.favorites().map(\.contact.id) == [people[0].id])
        #expect(try storage.integrityCheck() == ["ok"])
        #expect(try mode(dir.database) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains(".compact-") } == [])
        // The history still undoes and redoes, and the same controller goes on writing.
        try storage.undo()
        #expect(try storage.contact(id: people[1].id).title == "")
        try storage.redo()
        let added = try storage.insertContact(ContactDraft(name: "After Compaction"))
        #expect(try storage.contact(id: added.id).name == "After Compaction")
        try storage.close()

        // Another process opening it finds the same file, at its new size.
        let (bytes, check) = try pages(dir.database)
        #expect(check == "ok")
        #expect(bytes == Int64((try FileManager.default.attributesOfItem(atPath: dir.database)[.size] as? NSNumber)?.intValue ?? 0))
        let reopened = try StorageController(path: dir.database)
        #expect(try reopened.allContacts().count == kept.count + 1)
        #expect(try reopened.info().schemaVersion == StorageController.supportedSchemaVersion)
    }

    @Test func compactingRefusesWithoutTheFreeSpaceItNeedsAndChangesNothing() throws {
        let storage = try StorageController(path: dir.database, options: StorageOptions(connections: .single))
        for person in try addPeople(storage, 50) { try storage.deleteContact(id: person.id) }
        try dropHistory(storage)
        let plan = try storage.compactionPlan()
        let before = bytes(dir.database)
        #expect(carnetError { try storage.compact(availableBytes: plan.neededBytes - 1) }
            == .notEnoughSpace(path: dir.url.path, needed: plan.neededBytes, available: plan.neededBytes - 1))
        #expect(bytes(dir.database) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains(".compact-") } == [])
        let done = try storage.compact(availableBytes: plan.neededBytes)
        #expect(done.bytesAfter < done.bytesBefore)
    }

    @Test func compactingRefusesWhileAnotherConnectionHasTheFileOpen() throws {
        let options = StorageOptions(busyTimeout: 0.2, connections: .single)
        let storage = try StorageController(path: dir.database, options: options)
        for person in try addPeople(storage, 30) { try storage.deleteContact(id: person.id) }
        try dropHistory(storage)
        let other = try StorageController(path: dir.database, options: options)
        #expect(try other.allContacts().isEmpty)
        let before = try pages(dir.database).bytes
        #expect(carnetError { try storage.compact() } == .openElsewhere(path: dir.database))
        // The lock went back to shared: both write as before, and a new connection opens.
        _ = try other.insertContact(ContactDraft(name: "Other"))
        _ = try storage.insertContact(ContactDraft(name: "Mine"))
        #expect(try pages(dir.database).bytes == before)
        try other.close()
        let done = try storage.compact()
        #expect(done.bytesAfter < done.bytesBefore)
        #expect(try storage.allContacts().map(\.name).sorted() == ["Mine", "Other"])
        #expect(try pages(dir.database).check == "ok")
    }

    @Test func pruningDropsTheOldestActionsAndKeepsWhatCanBeRedone() throws {
        let storage = try StorageController(path: dir.database)
        let people = try addPeople(storage, 6)
        try storage.undo()
        try storage.undo()
        // Actions 1 to 6 made a year ago; the undone 5 and 6 are on the redo list.
        try storage.writer.write { db in
            try db.execute(sql: "UPDATE history SET time = '2025-01-01T00:00:00.000Z'")
        }
        let pruned = try storage.pruneHistory(before: Timestamp.date("2025-06-01T00:00")!)
        #expect(pruned.actions == 4)
        #expect(pruned.oldestKept?.id == 5 && pruned.oldestKept?.isUndone == true)
        #expect(try storage.history(limit: 10).map(\.id) == [6, 5])
        #expect(try storage.historyStatus().nextUndo == nil)
        try storage.redo()
        try storage.redo()
        #expect(try storage.allContacts().count == 6)
        try storage.undo()
        #expect(try storage.allContacts().map(\.id).sorted() == people.prefix(5).map(\.id))
        try storage.redo()
        // Nothing of a dropped action is left behind, and nothing refers to one.
        let orphans = try storage.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM history_changesets WHERE action_id NOT IN (SELECT id FROM history)")
        }
        #expect(orphans == 0)
        #expect(try storage.integrityCheck() == ["ok"])
    }

    @Test func pruningReportsTheBytesDroppedAndStopsAtTheFirstActionToKeep() throws {
        let storage = try StorageController(path: dir.database)
        _ = try addPeople(storage, 5)
        // A clock set back: action 3 is newer than the date, action 4 older again.
        try storage.writer.write { db in
            try db.execute(sql: "UPDATE history SET time = '2025-01-01T00:00:00.000Z' WHERE id IN (1, 2, 4)")
            try db.execute(sql: "UPDATE history SET time = '2025-09-01T00:00:00.000Z' WHERE id IN (3, 5)")
        }
        let dropped = try storage.history(limit: 10).filter { $0.id <= 2 }.map(\.bytes).reduce(0, +)
        let pruned = try storage.pruneHistory(before: Timestamp.date("2025-06-01T00:00")!)
        #expect(pruned.actions == 2 && pruned.bytes == Int64(dropped) && dropped > 0)
        #expect(pruned.oldestKept?.id == 3)
        #expect(pruned.freeBytes == (try storage.info().space?.free))
        #expect(try storage.history(limit: 10).map(\.id) == [5, 4, 3])
        // Nothing older than the date: nothing dropped.
        let again = try storage.pruneHistory(before: Timestamp.date("2024-01-01T00:00")!)
        #expect(again.actions == 0 && again.bytes == 0 && again.oldestKept?.id == 3)
    }
}
