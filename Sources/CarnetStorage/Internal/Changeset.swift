import CSQLiteSession
import CarnetModels
import Foundation
import GRDB
import GRDBSQLite

/// The changeset functions of the session extension, on `Data`.
enum Changeset {
    static func invert(_ changes: Data) throws -> Data {
        var size: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        let code = changes.withUnsafeBytes { buffer in
            carnet_changeset_invert(Int32(buffer.count), buffer.baseAddress, &size, &bytes)
        }
        defer { carnet_free(bytes) }
        try check(code, "a changeset of the history could not be read")
        guard let bytes, size > 0 else { return Data() }
        return Data(bytes: bytes, count: Int(size))
    }

    /// The rows of `table` that `changes` inserts or whose `version` column it changes, with the
    /// version each had before (for an insert, the one it inserts).
    static func versionedRows(_ changes: Data, table: String, versionColumn: Int32) throws -> [(id: Int64, version: Int64)] {
        var rows: UnsafeMutablePointer<carnet_versioned_row>?
        var count: Int32 = 0
        let code = changes.withUnsafeBytes { buffer in
            carnet_changeset_versioned_rows(Int32(buffer.count), buffer.baseAddress, table, versionColumn, &rows, &count)
        }
        defer { carnet_free(rows) }
        try check(code, "a changeset of the history could not be read")
        guard let rows else { return [] }
        return (0..<Int(count)).map { (rows[$0].id, rows[$0].version) }
    }

    /// The ids of the contacts whose rows `changes` writes.
    static func contactIDs(_ changes: Data) throws -> [Int64] {
        try keys(changes, tables: History.contactTables)
    }

    /// The first key column's values of the rows of `tables` that `changes` writes.
    static func keys(_ changes: Data, tables: [String]) throws -> [Int64] {
        let names = tables.map { strdup($0) }
        defer { for name in names { free(name) } }
        let pointers: [UnsafePointer<CChar>?] = names.map { UnsafePointer($0) }
        var keys: UnsafeMutablePointer<Int64>?
        var count: Int32 = 0
        let code = changes.withUnsafeBytes { buffer in
            pointers.withUnsafeBufferPointer { tables in
                carnet_changeset_keys(Int32(buffer.count), buffer.baseAddress, tables.baseAddress, Int32(tables.count), &keys, &count)
            }
        }
        defer { carnet_free(keys) }
        try check(code, "a changeset of the history could not be read")
        guard let keys else { return [] }
        return Array(UnsafeBufferPointer(start: keys, count: Int(count)))
    }

    /// What `changes` says, one line per change (`contacts UPDATE old(#1:3, -, 'Ada', …) new(…)`):
    /// for tests, and for reading a changeset.
    static func text(_ changes: Data) throws -> [String] {
        var text: UnsafeMutablePointer<CChar>?
        let code = changes.withUnsafeBytes { buffer in carnet_changeset_text(Int32(buffer.count), buffer.baseAddress, &text) }
        defer { carnet_free(text) }
        try check(code, "a changeset could not be read")
        return text.map { String(cString: $0).split(separator: "\n").map(String.init) } ?? []
    }

    /// The changeset that turns `History/tables` of the attached database `from` into those of
    /// `main` (SQLite's sqlite3session_diff): what a recording of the writes between the two holds.
    static func difference(_ db: Database, from: String) throws -> Data {
        let names = History.tables.map { strdup($0) }
        defer { for name in names { free(name) } }
        let pointers: [UnsafePointer<CChar>?] = names.map { UnsafePointer($0) }
        var size: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        let code = pointers.withUnsafeBufferPointer { tables in
            carnet_session_diff(db.sqliteConnection, from, tables.baseAddress, Int32(tables.count), &size, &bytes)
        }
        defer { carnet_free(bytes) }
        try check(code, "the databases could not be compared")
        guard let bytes, size > 0 else { return Data() }
        return Data(bytes: bytes, count: Int(size))
    }

    /// A row found not as the changeset expects it: its table, what was wrong, its key.
    struct Conflict: Error {
        let table: String
        let kind: String
        let key: [String]
    }

    /// A table's `version` and `updated_at` columns, by index: the bookkeeping every save and
    /// every undo moves on, which the rows an undo checks may differ in.
    struct Bookkeeping {
        let table: String
        let version: Int32
        let updatedAt: Int32

        init(_ db: Database, table: String) throws {
            // GRDB keeps each table's columns for the connection: no statement per undo.
            let columns = try db.columns(in: table).map(\.name)
            func index(_ column: String) throws -> Int32 {
                guard let index = columns.firstIndex(of: column) else { throw CarnetError.database("\(table) has no \(column) column") }
                return Int32(index)
            }
            self.table = table
            version = try index("version")
            updatedAt = try index("updated_at")
        }
    }

    /// One change of a changeset, its values read out (nil: the changeset holds none for the column).
    struct Change {
        enum Operation { case insert, update, delete }
        let table: String
        let operation: Operation
        let key: [Bool]
        let old: [DatabaseValue?]
        let new: [DatabaseValue?]

        /// The key's values, in column order.
        var keyValues: [DatabaseValue] {
            zip(key, operation == .insert ? new : old).compactMap { isKey, value in isKey ? value ?? .null : nil }
        }
    }

    /// Calls `body` with each change of `changes`, in order, that `include` keeps (given its
    /// table and operation): the values of the others are not read out, which is most of the
    /// cost of walking a changeset.
    static func forEach(
        _ changes: Data, including include: (String, Change.Operation) -> Bool = { _, _ in true }, _ body: (Change) throws -> Void
    ) throws {
        try walk(changes) { change in
            guard include(change.table, change.operation) else { return }
            try body(change.decoded)
        }
    }

    /// One change as the changeset holds it, valid only inside `walk(_:_:)`'s call: its values
    /// are read out on demand.
    struct RawChange {
        let table: String
        let operation: Change.Operation
        let count: Int
        fileprivate let key: UnsafePointer<UInt8>
        fileprivate let old: UnsafePointer<carnet_value>
        fileprivate let new: UnsafePointer<carnet_value>

        /// Whether the change gives column `column` a value: an insert's column, or one an
        /// update sets.
        func sets(_ column: Int) -> Bool { column < count && new[column].type != 0 }

        /// The first column's integer (a row's id, or the contact a child row belongs to), as the
        /// change finds it or, for an insert, makes it.
        var firstInteger: Int64? {
            let value = operation == .insert ? new[0] : old[0]
            return count > 0 && value.type == SQLITE_INTEGER ? value.integer : nil
        }

        var decoded: Change {
            Change(
                table: table, operation: operation, key: (0..<count).map { key[$0] != 0 },
                old: (0..<count).map { Changeset.value(old[$0]) }, new: (0..<count).map { Changeset.value(new[$0]) })
        }
    }

    /// Calls `body` with each change of `changes`, in order, none of its values read out.
    static func walk(_ changes: Data, _ body: (RawChange) throws -> Void) throws {
        try changes.withUnsafeBytes { buffer in
            var iterator: OpaquePointer?
            try check(carnet_changes_start(Int32(buffer.count), buffer.baseAddress, &iterator), "a changeset of the history could not be read")
            defer { _ = carnet_changes_finish(iterator) }
            let capacity = 256
            let old = UnsafeMutablePointer<carnet_value>.allocate(capacity: capacity)
            let new = UnsafeMutablePointer<carnet_value>.allocate(capacity: capacity)
            old.initialize(repeating: carnet_value(), count: capacity)
            new.initialize(repeating: carnet_value(), count: capacity)
            defer {
                old.deallocate()
                new.deallocate()
            }
            // The table's name, made once per run of changes to one table (SQLite keeps the
            // name in one buffer for every table, so its address says nothing).
            var name = ""
            while true {
                var table: UnsafePointer<CChar>?
                var operation: Int32 = 0
                var columns: Int32 = 0
                var key: UnsafePointer<UInt8>?
                let code = carnet_changes_next(iterator, &table, &operation, &columns, &key, old, new, Int32(capacity))
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW, let table, let key else {
                    try check(code == SQLITE_ROW ? SQLITE_CORRUPT : code, "a changeset of the history could not be read")
                    break
                }
                if name.utf8.count != strlen(table) || !name.utf8.elementsEqual(UnsafeBufferPointer(start: UnsafeRawPointer(table).assumingMemoryBound(to: UInt8.self), count: strlen(table))) {
                    name = String(cString: table)
                }
                try body(RawChange(
                    table: name, operation: operation == SQLITE_INSERT ? .insert : operation == SQLITE_DELETE ? .delete : .update,
                    count: min(Int(columns), capacity), key: key, old: old, new: new))
            }
        }
    }

    fileprivate static func value(_ value: carnet_value) -> DatabaseValue? {
        switch value.type {
        case SQLITE_INTEGER: return value.integer.databaseValue
        case SQLITE_FLOAT: return value.real.databaseValue
        case SQLITE_TEXT:
            let bytes = UnsafeRawBufferPointer(start: value.bytes, count: Int(value.size))
            return String(decoding: bytes, as: UTF8.self).databaseValue
        case SQLITE_BLOB: return Data(UnsafeRawBufferPointer(start: value.bytes, count: Int(value.size))).databaseValue
        case SQLITE_NULL: return .null
        default: return nil
        }
    }

    /// Applies `changes` all or nothing (the caller rolls its transaction back on an error), as
    /// `sqlite3changeset_apply` does with a handler that stops at the first conflict, but
    /// through statements kept for the connection: SQLite's apply compiles a statement for
    /// each operation on each table it meets, in every call (most of an undo's time, a CHECK of
    /// every column in each), and turns `PRAGMA defer_foreign_keys` on and off around it, which
    /// makes every statement of the connection compile itself again on its next use.
    ///
    /// Throws `Conflict` for the first row not as the changeset expects it (other than in its
    /// `bookkeeping` columns): a row to delete or update that is missing ("missing") or holds
    /// other values ("changed"), a row to insert whose key is taken ("present"), or a change a
    /// constraint refuses once every other change is made ("constraint", "foreign key").
    ///
    /// Deletes and updates go in changeset order (the rows that refer to a contact before the
    /// contact, so none is found gone by ON DELETE CASCADE), then inserts with the tables in
    /// the other order (a contact before the rows that refer to it, which foreign keys check at
    /// once). A change a constraint refuses is tried again after the others, as SQLite does (an
    /// undone reorder passes through a moment where two rows would share a place).
    static func apply(_ changes: Data, to db: Database, bookkeeping: [Bookkeeping]) throws {
        var shapes: [String: TableShape] = [:]
        func shape(_ table: String) throws -> TableShape {
            if let known = shapes[table] { return known }
            let made = try TableShape(db, table: table, unchecked: bookkeeping.first { $0.table == table })
            shapes[table] = made
            return made
        }
        var refused: [(Change, DatabaseError)] = []
        var tables: [String] = []
        // Every change but the inserts, noting on the way each table in the order it comes.
        let notingTablesKeepingAllButInserts = { (table: String, operation: Change.Operation) -> Bool in
            if tables.last != table && !tables.contains(table) { tables.append(table) }
            return operation != .insert
        }
        try forEach(changes, including: notingTablesKeepingAllButInserts) { change in
            if let error = try applyOne(change, shape(change.table), db) { refused.append((change, error)) }
        }
        for table in tables.reversed() {
            try forEach(changes, including: { $0 == table && $1 == .insert }) { change in
                if let error = try applyOne(change, shape(table), db) { refused.append((change, error)) }
            }
        }
        while !refused.isEmpty {
            let before = refused.count
            refused = try refused.compactMap { change, _ in try applyOne(change, shape(change.table), db).map { (change, $0) } }
            if refused.count == before, let (change, error) = refused.first {
                // As SQLite words a foreign key conflict: a row the change refers to is gone.
                let foreignKey = error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY
                throw Conflict(
                    table: foreignKey ? "" : change.table, kind: foreignKey ? "foreign key" : "constraint",
                    key: foreignKey ? [] : change.keyValues.map(Self.describe))
            }
        }
    }

    /// A table as an apply needs it: its columns, which are its key, which it does not compare.
    struct TableShape {
        let name: String
        let columns: [String]
        let unchecked: Set<Int>
        /// The table's and its columns' names quoted for SQL, once per apply rather than once per
        /// column of each change.
        let quotedName: String
        private let quotedColumns: [String]

        init(_ db: Database, table: String, unchecked bookkeeping: Bookkeeping?) throws {
            name = table
            columns = try db.columns(in: table).map(\.name)
            unchecked = Set([bookkeeping?.version, bookkeeping?.updatedAt].compactMap { $0.map(Int.init) })
            quotedName = table.doubleQuoted
            quotedColumns = columns.map(\.doubleQuoted)
        }

        func quoted(_ i: Int) -> String { quotedColumns[i] }
    }

    /// Makes one change; returns the error of a constraint that refused it (to try again later),
    /// throws `Conflict` for a row not as expected.
    private static func applyOne(_ change: Change, _ table: TableShape, _ db: Database) throws -> DatabaseError? {
        // A change recorded before a migration added columns (ALTER TABLE … ADD COLUMN appends
        // them) names the first ones: the others keep their defaults, as they had then.
        guard change.key.count <= table.columns.count else {
            throw CarnetError.database("the history's changes to \(table.name) have \(change.key.count) columns, the table \(table.columns.count)")
        }
        let keyColumns = change.key.indices.filter { change.key[$0] }
        let keyCondition = keyColumns.map { "\(table.quoted($0)) = ?" }.joined(separator: " AND ")
        // Each statement's arguments are made from one array: every StatementArguments made
        // (and every two added) converts its values again.
        let keyValues = change.keyValues
        func conflict(_ kind: String) -> Conflict { Conflict(table: table.name, kind: kind, key: keyValues.map(describe)) }
        func exists() throws -> Bool {
            try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM \(table.quotedName) WHERE \(keyCondition)"), arguments: .values(keyValues)) != nil
        }
        do {
            switch change.operation {
            case .insert:
                // An insert recorded by key alone (see `History`) is only ever undone, never made.
                guard !change.new.contains(where: { $0 == nil }) else {
                    throw CarnetError.database("the history holds only the keys of the rows of \(table.name) to insert again")
                }
                let values = change.new.map { $0 ?? .null }
                do {
                    try db.cachedStatement(sql: """
                        INSERT INTO \(table.quotedName) (\(table.columns.indices.prefix(values.count).map(table.quoted).joined(separator: ", "))) \
                        VALUES (\(databaseQuestionMarks(count: values.count)))
                        """).execute(arguments: .values(values))
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    if try exists() { throw conflict("present") }
                    return error
                }
            case .delete:
                // Every column as the changeset has it (bookkeeping aside), or it is a conflict; an
                // insert recorded by its key alone (see `History`) is undone by its key alone.
                let checked = change.old.indices.filter { !change.key[$0] && !table.unchecked.contains($0) && change.old[$0] != nil }
                let sql = "DELETE FROM \(table.quotedName) WHERE \(([keyCondition] + checked.map { "\(table.quoted($0)) IS ?" }).joined(separator: " AND "))"
                try db.cachedStatement(sql: sql).execute(arguments: .values(keyValues + checked.map { change.old[$0] ?? .null }))
                if db.changesCount == 0 { throw conflict(try exists() ? "changed" : "missing") }
            case .update:
                // The columns the change sets, each found with the value it had (bookkeeping aside).
                let set = change.new.indices.filter { change.new[$0] != nil }
                guard !set.isEmpty else { return nil }
                let checked = set.filter { !change.key[$0] && !table.unchecked.contains($0) && change.old[$0] != nil }
                let sql = """
                    UPDATE \(table.quotedName) SET \(set.map { "\(table.quoted($0)) = ?" }.joined(separator: ", ")) \
                    WHERE \(([keyCondition] + checked.map { "\(table.quoted($0)) IS ?" }).joined(separator: " AND "))
                    """
                try db.cachedStatement(sql: sql).execute(
                    arguments: .values(set.map { change.new[$0] ?? .null } + keyValues + checked.map { change.old[$0] ?? .null }))
                if db.changesCount == 0 { throw conflict(try exists() ? "changed" : "missing") }
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            return error
        }
        return nil
    }

    /// A key value in a conflict's words.
    private static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case let .int64(n): return String(n)
        case let .string(text): return String(text.prefix(60))
        default: return "?"
        }
    }
}

extension Changeset.Conflict {
    /// In words, e.g. "contact 3's phones were changed".
    var words: String {
        let contact = key.first.map { "contact \($0)" } ?? "a contact"
        let (what, plural): (String, Bool) =
            switch table {
            case "contacts": (contact, false)
            case "favorites": ("\(contact)'s place among the favorites", false)
            case "quotes": (key.first.map { "quote \($0)" } ?? "a quote", false)
            case "address_books": (key.first.map { "address book \($0)" } ?? "an address book", false)
            case let child where child.hasPrefix("contact_"): ("\(contact)'s \(child.dropFirst("contact_".count))", true)
            case "": ("a row it refers to", false)
            default: ("a row of \(table)", false)
            }
        switch kind {
        case "missing": return "\(what) \(plural ? "were" : "was") deleted"
        case "present": return "\(what) \(plural ? "were" : "was") added"
        case "constraint": return "\(what) would break a rule; \(plural ? "they were" : "it was") changed"
        case "foreign key": return "\(what) was deleted"
        default: return "\(what) \(plural ? "were" : "was") changed"
        }
    }
}
