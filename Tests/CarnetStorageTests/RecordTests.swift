import CarnetModels
import Foundation
import GRDB
import Testing
@testable import CarnetStorage

/// The records that map Carnet's rows: what they write and read agrees with the table, by name.
@Suite struct RecordTests {
    @Test func theOneContactInsertWritesWhatTheRecordEncodes() throws {
        let record = ContactRecord(
            id: 7, uid: "u-7", draft: ContactDraft(name: "Ada", position: "Countess", email: "ada@example.com", phone: "+44 1", photo: pngBytes),
            createdAt: "2026-01-02T03:04:05.678Z", updatedAt: "2026-01-03T03:04:05.678Z", version: 3)
        let encoded = try record.databaseDictionary
        let inColumnOrder = ContactRecord.Columns.allCases.map { encoded[$0.rawValue] ?? nil }
        #expect(encoded.count == ContactRecord.Columns.allCases.count)
        #expect(record.insertArguments == StatementArguments(inColumnOrder))
    }

    @Test func aContactReadsTheSameWhateverTheOrderOfTheSelectedColumns() throws {
        let storage = try StorageController.inMemory()
        let ada = try storage.insertContact(ContactDraft(name: "Ada", email: "ada@example.com", photo: pngBytes))
        let reversed = ContactRecord.Columns.allCases.reversed().map(\.rawValue).joined(separator: ", ")
        let read = try storage.read { db in
            try StorageController.fetchContacts(db, sql: "SELECT 'x' AS extra, \(reversed) FROM contacts")
        }
        #expect(read == [ada])
        // GRDB's own fetch reads the row alone: the lists are in their child tables.
        var row = ada.draft
        row.emails = []
        let rowOnly = Contact(id: ada.id, uid: ada.uid, draft: row, createdAt: ada.createdAt, updatedAt: ada.updatedAt, version: ada.version)
        #expect(try storage.read { db in try ContactRecord.fetchOne(db, key: ada.id)?.contact } == rowOnly)
    }
}
