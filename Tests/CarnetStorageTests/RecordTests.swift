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
        let inColumnOrder = (ContactRecord.personColumnNames + ["sort_given", "sort_family"]).map { encoded[$0] ?? nil }
        #expect(encoded.count == ContactRecord.personColumnNames.count + 2)
        #expect(record.insertArguments == StatementArguments(inColumnOrder))
    }

    /// The row's text columns are written and read field by field (for speed), and described once
    /// as ``ContactRecord/textColumns`` (column and key path): the two must name the same field
    /// for every column.
    @Test func theFieldByFieldColumnsAgreeWithTheDescription() throws {
        var draft = ContactDraft()
        // Each value as its field saves it (a field with a form of its own, gender, writes "v15" as ";v15").
        func value(_ i: Int) -> String {
            let spec = ContactFields.columns.first { $0.column == ContactRecord.textColumns[i].column.rawValue }
            return spec?.canonical?("v\(i)") ?? "v\(i)"
        }
        for (i, column) in ContactRecord.textColumns.enumerated() { draft[keyPath: column.keyPath] = value(i) }
        let values = ContactRecord.textValues(draft).map { $0 as? String }
        #expect(values == ContactRecord.textColumns.map { draft[keyPath: $0.keyPath] })
        #expect(values == ContactRecord.textColumns.indices.map(value))
        // Every field the description stores in a column, and only those, with the description's key path.
        #expect(Set(ContactRecord.textColumns.map(\.column.rawValue)) == Set(ContactFields.columns.compactMap(\.column)))
        #expect(ContactRecord.textColumns.count == ContactFields.columns.count)
        for (column, keyPath) in ContactRecord.textColumns {
            let spec = try #require(ContactFields.columns.first { $0.column == column.rawValue })
            #expect((spec.text ?? spec.multilineText) == keyPath, "\(column.rawValue)")
        }
        let storage = try StorageController.inMemory()
        let record = ContactRecord(id: nil, uid: "u", draft: draft, createdAt: "2026-01-02T03:04:05.678Z", updatedAt: "2026-01-02T03:04:05.678Z", version: 1)
        let id = try storage.writer.write { db in try record.insertRow(db) }
        let read = try storage.read { db in
            try ContactRecord(row: #require(try Row.fetchOne(db, sql: "SELECT * FROM contacts WHERE id = ?", arguments: [id])))
        }
        #expect(read.draft == draft)
    }

    /// Every list of labelled values is stored in the table its entry names: the tables written
    /// out by hand hold the fields their entries say, and a list described by its entry alone is
    /// written and read back through the table made from it.
    @Test func everyLabelledListIsStoredInTheTableItsEntryNames() throws {
        var draft = ContactDraft(name: "Ada")
        for spec in ContactFields.all {
            guard let keyPath = spec.labeledValues else { continue }
            let table = try #require(ContactChildTable.all.first { $0.name == spec.table }, "\(spec.field)")
            #expect(table.field == spec.field && table.columns == ["label", "value", "preferred"], "\(spec.field)")
            if ContactChildTable.described.contains(where: { $0.name == spec.table }) {
                draft[keyPath: keyPath] = [LabeledValue("one " + spec.key, label: "Some label"), LabeledValue("two", preferred: true)]
            }
        }
        #expect(Set(ContactChildTable.all.map(\.name)).count == ContactChildTable.all.count)
        let storage = try StorageController.inMemory()
        let saved = try storage.insertContact(draft)
        #expect(try storage.contact(id: saved.id) == saved)
        var edited = saved.draft
        for table in ContactChildTable.described {
            let keyPath = try #require(ContactFields.spec(table.field)?.labeledValues)
            #expect(saved.draft[keyPath: keyPath] == draft[keyPath: keyPath])
            edited[keyPath: keyPath].remove(at: 0)
        }
        let updated = try storage.updateContact(saved, with: edited)
        #expect(try storage.contact(id: saved.id) == updated && updated.draft == edited)
    }

    /// The contact's INSERT and UPDATE and every child table's INSERT run with arguments built
    /// beside their SQL, not derived from it: each must fit its statement exactly.
    @Test func everyWriteStatementGetsExactlyTheArgumentsItTakes() throws {
        let storage = try StorageController.inMemory()
        let draft = ContactStorageTests.rich
        let record = ContactRecord(id: nil, uid: "u", draft: draft, createdAt: "2026-01-02T03:04:05.678Z", updatedAt: "2026-01-02T03:04:05.678Z", version: 1)
        try storage.writer.write { db in
            try db.makeStatement(sql: ContactRecord.insertSQL).validateArguments(record.insertArguments)
            try db.makeStatement(sql: ContactRecord.updateSQL).validateArguments(
                ContactRecord.updateArguments(draft, updatedAt: record.updatedAt, id: 1, uid: "u", version: 1))
            var group = ContactDraft(name: "Choir")
            group.kind = .group
            group.groupForm = .apple
            group.members = ["a-1", "b-2"]
            let groupRecord = ContactRecord(id: nil, uid: "g", draft: group, createdAt: record.createdAt, updatedAt: record.updatedAt, version: 1)
            try db.makeStatement(sql: ContactRecord.insertGroupSQL).validateArguments(groupRecord.insertArguments)
            try db.makeStatement(sql: ContactRecord.updateGroupSQL).validateArguments(
                ContactRecord.updateArguments(group, updatedAt: record.updatedAt, id: 1, uid: "g", version: 1, group: true))
            for table in ContactChildTable.all {
                let statement = try db.makeStatement(sql: table.insertSQL)
                let rows = table.rows(table.field == .member ? group : draft, 7)
                #expect(!rows.isEmpty, "\(table.name)")
                for arguments in rows { try statement.validateArguments(arguments) }
            }
        }
    }

    @Test func aContactReadsTheSameWhateverTheOrderOfTheSelectedColumns() throws {
        let storage = try StorageController.inMemory()
        let ada = try storage.insertContact(ContactDraft(name: "Ada", email: "ada@example.com", photo: pngBytes))
        let reversed = ContactRecord.columnNames.reversed().joined(separator: ", ")
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

    /// The contact list decodes rows by column offset, found once per statement
    /// (``ContactRecord/ColumnIndexes``), in place of GRDB's lookup by name in every row: both
    /// must read the same values from every column, whatever the order of the SELECT.
    @Test func theOffsetReadsDecodeAsGRDBsReadsByName() throws {
        let storage = try StorageController.inMemory()
        var rich = ContactStorageTests.rich
        rich.photo = pngBytes
        let stored = [
            try storage.insertContact(rich),
            try storage.insertContact(ContactDraft(name: "Grace Hopper", email: "grace@example.com")),
            try storage.insertContact(ContactDraft(name: "Zoë \u{1F642}", nickname: "z", note: "line\nbreak")),
        ]
        let columns = ContactRecord.columnNames
        for order in [columns, columns.reversed(), ["'x' AS extra"] + columns.shuffled()] {
            try storage.read { db in
                let statement = try db.makeStatement(sql: "SELECT \(order.joined(separator: ", ")) FROM contacts ORDER BY id")
                let indexes = try ContactRecord.ColumnIndexes(statement)
                let rows = try Row.fetchAll(statement)
                #expect(rows.count == stored.count)
                for row in rows {
                    let fast = try ContactRecord(row: row, at: indexes)
                    #expect(fast.id == row["id"])
                    #expect(fast.uid == row["uid"])
                    for (column, keyPath) in ContactRecord.textColumns {
                        #expect(fast.draft[keyPath: keyPath] == row[column.rawValue] as String?, "\(column.rawValue)")
                    }
                    #expect(fast.draft.photo == row["photo"] as Data?)
                    #expect(fast.createdAt == row["created_at"])
                    #expect(fast.updatedAt == row["updated_at"])
                    #expect(fast.version == row["version"])
                }
            }
        }
    }
}
