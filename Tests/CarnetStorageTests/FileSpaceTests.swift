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
}
