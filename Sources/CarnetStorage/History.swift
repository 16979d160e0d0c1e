import CSQLiteSession
import CarnetModels
import Foundation
import GRDB
import GRDBSQLite

/// Undo, redo and the history, on SQLite's session extension.
///
/// Every write records, in its own transaction, a changeset of what it changed (SQLite keeps
/// each row's values from before the first change and builds the changeset from them and the
/// row as it is at the end): one `history` row, with the changeset in it for an action of one
/// part (most), or in `history_changesets` parts for a long one (an import). Undo
/// applies the inverse of the changesets, newest part first; SQLite checks, row by row, that
/// what it changes back is as the action left it, and the conflict handler stops at the first
/// row that is not, rolling back everything the undo wrote. The undo's own changes are recorded
/// the same way, in place of the action's, so redo is the same step in the other direction.
///
/// An undo or redo is a new change to each contact and quote it saves back, not a return to an
/// old version number: it writes the old values with a version above any the row had and the
/// time of the undo. An editor that read the contact before the undo finds a newer version and
/// gets a conflict, never silently overwrites the restored values; an export or sync sees the
/// contact as changed. (A contact an undo brings back from deletion keeps its id and uid.)
enum History {
    /// The tables an action's changes are recorded from, in the order a changeset lists them:
    /// the rows that refer to a contact before the contact, so an undo that removes a contact
    /// removes its rows itself rather than finding them gone by ON DELETE CASCADE. Not `history`
    /// itself, not `sqlite_sequence` (an id, once issued, stays issued after an undo).
    static let tables: [String] = recorded.map(\.name)

    /// ``tables`` with the columns of each one's primary key, by index: the recorder is told them
    /// rather than asking SQLite in every transaction (HistoryTests holds them to the schema).
    static let recorded: [(name: String, key: [Int32])] =
        [("favorites", [0])] + ContactChildTable.all.map { ($0.name, [0, 1]) } + [("contacts", [0]), ("quotes", [0])]

    /// The tables whose first key column is a contact's id.
    static let contactTables: [String] = ["favorites"] + ContactChildTable.all.map(\.name) + ["contacts"]

    /// A long action (an import) writes out the changes recorded so far as a part once the
    /// session holds this much memory, so no part, and no undo of it, holds a million rows at once.
    static let partMemory: Int64 = 32 << 20

    /// The number of actions kept when `history_settings` says nothing.
    static let defaultKeep = 1000
    static let maximumKeep = 1_000_000
}

/// What a write tells the history about itself.
struct HistoryNote {
    var kind: HistoryKind
    var subject: String
    var summary: String

    init(_ kind: HistoryKind, subject: String, _ summary: String) {
        self.kind = kind
        self.subject = String(subject.prefix(200))
        self.summary = String(summary.prefix(1000))
    }
}

extension HistoryNote {
    /// "edited Ada Lovelace: phone, email" (the name before the edit).
    static func edit(_ contact: Contact, to draft: ContactDraft) -> HistoryNote {
        let fields = draft.differences(from: contact.draft).map(\.rawValue).joined(separator: ", ")
        return HistoryNote(.edit, subject: contact.name, fields.isEmpty ? "edited \(contact.name)" : "edited \(contact.name): \(fields)")
    }

    /// The start of a quote, on one line, for a summary.
    static func excerpt(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= 60 ? "“\(line)”" : "“\(line.prefix(59))…”"
    }

    /// "1 contact", "1,204 contacts".
    static func count(_ n: Int, _ noun: String) -> String {
        "\(grouped(n)) \(noun)\(n == 1 ? "" : "s")"
    }

    /// 1204 as "1,204", whatever the locale (the history is read in the file, by anyone).
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (n < 0 ? "-" : "") + out
    }
}

/// Records every change to ``History/tables`` made on the writer connection, as an SQLite
/// session changeset (`CSQLiteSession/recorder.c`: the rows' values from SQLite's pre-update
/// hook, without the statements a session object compiles in every transaction).
final class ChangeSession {
    private var handle: OpaquePointer?

    init(_ db: Database) throws {
        let names = History.recorded.map { strdup($0.name) }
        defer { for name in names { free(name) } }
        let tables = zip(History.recorded, names).map { table, name in
            var recorded = carnet_recorded_table()
            recorded.name = UnsafePointer(name)
            recorded.keyCount = Int32(table.key.count)
            withUnsafeMutableBytes(of: &recorded.key) { key in
                for (i, column) in table.key.enumerated() { key.storeBytes(of: column, toByteOffset: i * MemoryLayout<Int32>.stride, as: Int32.self) }
            }
            return recorded
        }
        var recorder: OpaquePointer?
        let code = tables.withUnsafeBufferPointer { buffer in
            carnet_recorder_open(db.sqliteConnection, buffer.baseAddress, Int32(buffer.count), &recorder)
        }
        try check(code, "could not start recording the history")
        handle = recorder
    }

    deinit { close() }

    func close() {
        carnet_recorder_close(handle)
        handle = nil
    }

    var memory: Int64 { handle.map { carnet_recorder_memory($0) } ?? 0 }

    /// The changes recorded so far (empty when there are none).
    func changeset() throws -> Data {
        var size: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        try check(carnet_recorder_changeset(handle, &size, &bytes), "could not read the changes to record in the history")
        defer { carnet_free(bytes) }
        guard let bytes, size > 0 else { return Data() }
        return Data(bytes: bytes, count: Int(size))
    }
}

/// Throws SQLite's error for a result code of the session extension other than SQLITE_OK.
private func check(_ code: Int32, _ what: String) throws {
    guard code != 0 else { return }
    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "\(what) (\(String(cString: sqlite3_errstr(code))))")
}

/// Records one write transaction's changes as one action of the history (see ``History``).
final class HistoryRecorder {
    private let db: Database
    private let keep: Int
    private var session: ChangeSession?
    private var actionID: Int64?
    private var parts = 0
    private var bytes = 0
    /// Whether the action's row was written with its final note and size.
    private var rowIsFinal = false
    /// What the action is called; set by the write once it knows (an edit that changes nothing
    /// records nothing whatever it says).
    var note: HistoryNote?

    private init(_ db: Database, keep: Int) {
        self.db = db
        self.keep = keep
    }

    /// Runs `body` inside the current transaction, recording what it changes unless `enabled` is
    /// false or the file keeps no history.
    static func record<T>(_ db: Database, enabled: Bool = true, _ body: (HistoryRecorder) throws -> T) throws -> T {
        let recorder = try start(db, enabled: enabled)
        defer { recorder.session?.close() }
        let result = try body(recorder)
        try recorder.finish()
        return result
    }

    /// Starts recording in the current transaction, for a write whose transactions are not one
    /// scope (a sync commits between its steps); ``end()`` writes the action, before the commit.
    static func start(_ db: Database, enabled: Bool = true) throws -> HistoryRecorder {
        let recorder = HistoryRecorder(db, keep: enabled ? try keepSetting(db) : 0)
        if recorder.keep > 0 { recorder.session = try ChangeSession(db) }
        return recorder
    }

    /// Writes the action recorded since ``start(_:enabled:)`` (none when nothing changed) and
    /// stops recording.
    func end() throws {
        defer { discard() }
        try finish()
    }

    /// Stops recording and keeps nothing (the transaction is rolled back).
    func discard() {
        session?.close()
        session = nil
    }

    /// For a long action: writes out what the session holds once it holds much, so memory stays
    /// bounded. Call it between records.
    func checkpoint() throws {
        guard let session, session.memory > History.partMemory else { return }
        try flush(last: false)
        session.close()
        self.session = try ChangeSession(db)
    }

    /// Writes what the session holds as the action's next part; `last` when nothing follows.
    private func flush(last: Bool) throws {
        guard let session else { return }
        let changes = try session.changeset()
        guard !changes.isEmpty else { return }
        bytes += changes.count
        if last && parts == 0 {
            // An action of one part, as most are: its changeset goes in its row (schema 9), so
            // it writes no page but the row's.
            _ = try ensureRow(last: true, changeset: changes)
            return
        }
        parts += 1
        let id = try ensureRow(last: last, changeset: nil)
        try db.cachedStatement(sql: "INSERT INTO history_changesets (action_id, part, changeset) VALUES (?, ?, ?)")
            .execute(arguments: [id, parts, changes])
    }

    /// The action's row, made on its first changes: a new action clears the redo list. Made by
    /// the last part (an action of one part, as most are), it is made as it stays, with the
    /// changeset of that one part.
    private func ensureRow(last: Bool, changeset: Data?) throws -> Int64 {
        if let actionID { return actionID }
        // The undone actions are the newest ones: everything after the newest action not undone.
        try db.cachedStatement(sql: """
            DELETE FROM history WHERE id > coalesce((SELECT id FROM history WHERE undone = 0 ORDER BY id DESC LIMIT 1), 0)
            """).execute()
        let note = note ?? HistoryNote(.edit, subject: "", "changed the address book")
        try db.cachedStatement(sql: "INSERT INTO history (time, kind, subject, summary, undone, bytes, changeset) VALUES (?, ?, ?, ?, 0, ?, ?)")
            .execute(arguments: [Timestamp.string(Timestamp.now()), note.kind.rawValue, note.subject, note.summary, last ? bytes : 0, changeset])
        actionID = db.lastInsertedRowID
        rowIsFinal = last
        return db.lastInsertedRowID
    }

    private func finish() throws {
        try flush(last: true)
        guard let actionID else { return }
        if !rowIsFinal {
            let note = note ?? HistoryNote(.edit, subject: "", "changed the address book")
            try db.cachedStatement(sql: "UPDATE history SET kind = ?, subject = ?, summary = ?, bytes = ? WHERE id = ?")
                .execute(arguments: [note.kind.rawValue, note.subject, note.summary, bytes, actionID])
        }
        try Self.trim(db, keep: keep)
    }

    /// The number of actions the file keeps (`history_settings`; 1,000 when the row is missing).
    static func keepSetting(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT keep FROM history_settings WHERE id = 1")) ?? History.defaultKeep
    }

    /// How many actions over `keep` the file may hold before ``trim(_:keep:force:)`` removes them,
    /// all at once: 1/64 of `keep` (15 at the default 1,000; none below 64). Removing the oldest
    /// action with every new one rewrote the oldest page of `history` in every transaction, one
    /// WAL frame more per edit; removed 15 at a time, that page is written once in 15 actions.
    static func slack(keep: Int) -> Int { keep / 64 }

    /// Removes all but the newest `keep` actions, once there are more than `keep` + ``slack(keep:)``
    /// (`force`: whenever there are more than `keep`, as when the setting changes).
    static func trim(_ db: Database, keep: Int, force: Bool = false) throws {
        guard keep > 0 else {
            try db.execute(sql: "DELETE FROM history")
            return
        }
        // Two statements, each cheap. Ids only grow, so fewer than `most` ids between the oldest
        // and the newest means there is nothing to trim, without counting; then count(*) adds up
        // the table's pages (stepping over `keep` rows instead cost 0.15 ms per action). The two
        // ends are two subqueries: SQLite answers min() or max() alone from the end of the key,
        // but `SELECT min(id), max(id)` reads the whole table (0.7 ms per action at 1,000).
        let most = keep + (force ? 0 : slack(keep: keep))
        let count = try Int.fetchOne(db.cachedStatement(sql: """
            SELECT CASE WHEN (SELECT max(id) FROM history) - (SELECT min(id) FROM history) >= ? THEN (SELECT count(*) FROM history) ELSE 0 END
            """), arguments: [most]) ?? 0
        guard count > most else { return }
        try db.cachedStatement(sql: "DELETE FROM history WHERE id < (SELECT id FROM history ORDER BY id LIMIT 1 OFFSET ?)")
            .execute(arguments: [count - keep])
    }
}

// MARK: - Changesets

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
        let names = History.contactTables.map { strdup($0) }
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

    /// The changeset that turns ``History/tables`` of the attached database `from` into those of
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

    /// Calls `body` with each change of `changes`, in order.
    static func forEach(_ changes: Data, _ body: (Change) throws -> Void) throws {
        try changes.withUnsafeBytes { buffer in
            var iterator: OpaquePointer?
            try check(carnet_changes_start(Int32(buffer.count), buffer.baseAddress, &iterator), "a changeset of the history could not be read")
            defer { _ = carnet_changes_finish(iterator) }
            let capacity = 256
            var old = [carnet_value](repeating: carnet_value(), count: capacity)
            var new = old
            // The table's name, made once per run of changes to one table (SQLite keeps the
            // name in one buffer for every table, so its address says nothing).
            var name = ""
            while true {
                var table: UnsafePointer<CChar>?
                var operation: Int32 = 0
                var columns: Int32 = 0
                var key: UnsafePointer<UInt8>?
                let code = carnet_changes_next(iterator, &table, &operation, &columns, &key, &old, &new, Int32(capacity))
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW, let table, let key else {
                    try check(code == SQLITE_ROW ? SQLITE_CORRUPT : code, "a changeset of the history could not be read")
                    break
                }
                if name.utf8.count != strlen(table) || !name.utf8.elementsEqual(UnsafeBufferPointer(start: UnsafeRawPointer(table).assumingMemoryBound(to: UInt8.self), count: strlen(table))) {
                    name = String(cString: table)
                }
                let count = Int(columns)
                try body(Change(
                    table: name,
                    operation: operation == SQLITE_INSERT ? .insert : operation == SQLITE_DELETE ? .delete : .update,
                    key: (0..<count).map { key[$0] != 0 },
                    old: old.prefix(count).map(Self.value), new: new.prefix(count).map(Self.value)))
            }
        }
    }

    private static func value(_ value: carnet_value) -> DatabaseValue? {
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
    /// Throws ``Conflict`` for the first row not as the changeset expects it (other than in its
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
        try forEach(changes) { change in
            if tables.last != change.table && !tables.contains(change.table) { tables.append(change.table) }
            guard change.operation != .insert else { return }
            if let error = try applyOne(change, shape(change.table), db) { refused.append((change, error)) }
        }
        for table in tables.reversed() {
            try forEach(changes) { change in
                guard change.operation == .insert, change.table == table else { return }
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

        init(_ db: Database, table: String, unchecked bookkeeping: Bookkeeping?) throws {
            name = table
            columns = try db.columns(in: table).map(\.name)
            unchecked = Set([bookkeeping?.version, bookkeeping?.updatedAt].compactMap { $0.map(Int.init) })
        }

        func quoted(_ i: Int) -> String { "\"" + columns[i].replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        var quotedName: String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    }

    /// Makes one change; returns the error of a constraint that refused it (to try again later),
    /// throws ``Conflict`` for a row not as expected.
    private static func applyOne(_ change: Change, _ table: TableShape, _ db: Database) throws -> DatabaseError? {
        // A change recorded before a migration added columns at the end of the table (a new
        // field) names the first columns only: the others keep what they hold, or their
        // default for a row it inserts.
        guard change.key.count <= table.columns.count else {
            throw CarnetError.database("the history's changes to \(table.name) have \(change.key.count) columns, the table \(table.columns.count)")
        }
        let keyColumns = change.key.indices.filter { change.key[$0] }
        let keyCondition = keyColumns.map { "\(table.quoted($0)) = ?" }.joined(separator: " AND ")
        let keyArguments = StatementArguments(change.keyValues)
        func conflict(_ kind: String) -> Conflict { Conflict(table: table.name, kind: kind, key: change.keyValues.map(describe)) }
        func exists() throws -> Bool {
            try Int.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM \(table.quotedName) WHERE \(keyCondition)"), arguments: keyArguments) != nil
        }
        do {
            switch change.operation {
            case .insert:
                let values = change.new.map { $0 ?? .null }
                do {
                    try db.cachedStatement(sql: """
                        INSERT INTO \(table.quotedName) (\(values.indices.map(table.quoted).joined(separator: ", "))) \
                        VALUES (\(databaseQuestionMarks(count: values.count)))
                        """).execute(arguments: StatementArguments(values))
                } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                    if try exists() { throw conflict("present") }
                    return error
                }
            case .delete:
                // Every column as the changeset has it (bookkeeping aside), or it is a conflict.
                let checked = change.old.indices.filter { !change.key[$0] && !table.unchecked.contains($0) }
                let sql = "DELETE FROM \(table.quotedName) WHERE \(([keyCondition] + checked.map { "\(table.quoted($0)) IS ?" }).joined(separator: " AND "))"
                try db.cachedStatement(sql: sql).execute(arguments: keyArguments + StatementArguments(checked.map { change.old[$0] ?? .null }))
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
                    arguments: StatementArguments(set.map { change.new[$0] ?? .null }) + keyArguments
                        + StatementArguments(checked.map { change.old[$0] ?? .null }))
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

// MARK: - Undo and redo

extension StorageController {
    static func historyEntry(_ row: Row) -> HistoryEntry {
        HistoryEntry(
            id: row["id"], time: Timestamp.date(row["time"] as String? ?? "") ?? .distantPast,
            kind: HistoryKind(rawValue: row["kind"]), subject: row["subject"], summary: row["summary"],
            isUndone: row["undone"] as Bool? ?? false, bytes: row["bytes"] as Int? ?? 0)
    }

    private static let entryColumns = "id, time, kind, subject, summary, undone, bytes"

    /// The oldest undone action: the undone ones are always the newest, so it is the first after
    /// the newest action not undone (both found from the end of the table, with no index).
    private static let oldestUndone = """
        WHERE undone = 1 AND id > coalesce((SELECT id FROM history WHERE undone = 0 ORDER BY id DESC LIMIT 1), 0) ORDER BY id LIMIT 1
        """

    static func fetchEntries(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [HistoryEntry] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT \(entryColumns) FROM history " + sql), arguments: arguments).map(historyEntry)
    }

    static func fetchStatus(_ db: Database) throws -> HistoryStatus {
        HistoryStatus(
            nextUndo: try fetchEntries(db, sql: "WHERE undone = 0 ORDER BY id DESC LIMIT 1").first,
            nextRedo: try fetchEntries(db, sql: oldestUndone).first)
    }

    /// The newest `limit` actions, newest first.
    public func history(limit: Int = 20) throws(CarnetError) -> [HistoryEntry] {
        guard limit > 0 else { return [] }
        return try read { db in try Self.fetchEntries(db, sql: "ORDER BY id DESC LIMIT ?", arguments: [limit]) }
    }

    /// What undo and redo would do next.
    public func historyStatus() throws(CarnetError) -> HistoryStatus {
        try read { db in try Self.fetchStatus(db) }
    }

    /// How many actions the file keeps (1,000 unless set).
    public func historyKeep() throws(CarnetError) -> Int {
        try read { db in try HistoryRecorder.keepSetting(db) }
    }

    /// Keeps the newest `keep` actions from now on (0 records none), trimming the older ones now.
    public func setHistoryKeep(_ keep: Int) throws(CarnetError) {
        guard (0...History.maximumKeep).contains(keep) else {
            throw .invalid([FieldIssue(.position, "history --keep must be between 0 and \(History.maximumKeep) (got \(keep))")])
        }
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO history_settings (id, keep) VALUES (1, ?)", arguments: [keep])
            try HistoryRecorder.trim(db, keep: keep, force: true)
        }
    }

    /// Undoes the newest action not undone, whichever process made it.
    /// - Throws: ``CarnetModels/CarnetError/history(_:)`` (`.nothingToUndo`) or
    ///   ``CarnetModels/CarnetError/historyConflict(_:)`` when a row it touched was changed outside
    ///   the history since; nothing is written either way.
    @discardableResult
    public func undo() throws(CarnetError) -> HistoryStep {
        try write { db in
            guard let entry = try Self.fetchEntries(db, sql: "WHERE undone = 0 ORDER BY id DESC LIMIT 1").first else {
                throw CarnetError.history(.nothingToUndo)
            }
            return try Self.toggle(db, [entry], undoing: true)
        }
    }

    /// Redoes the oldest undone action.
    @discardableResult
    public func redo() throws(CarnetError) -> HistoryStep {
        try write { db in
            guard let entry = try Self.fetchEntries(db, sql: Self.oldestUndone).first else {
                throw CarnetError.history(.nothingToRedo)
            }
            return try Self.toggle(db, [entry], undoing: false)
        }
    }

    /// Undoes action `id` and every action after it that is not undone yet, newest first, in one
    /// transaction: all of them, or (on a conflict) none.
    @discardableResult
    public func undo(to id: Int64) throws(CarnetError) -> HistoryStep {
        try write { db in
            guard let target = try Self.fetchEntries(db, sql: "WHERE id = ?", arguments: [id]).first else {
                throw CarnetError.history(.unknownAction(id))
            }
            if target.isUndone { throw CarnetError.history(.alreadyUndone(id)) }
            let entries = try Self.fetchEntries(db, sql: "WHERE undone = 0 AND id >= ? ORDER BY id DESC", arguments: [id])
            return try Self.toggle(db, entries, undoing: true)
        }
    }

    /// Undoes (or redoes) `entries` in that order, inside the caller's transaction.
    private static func toggle(_ db: Database, _ entries: [HistoryEntry], undoing: Bool) throws -> HistoryStep {
        let now = Timestamp.string(Timestamp.now())
        let bookkeeping = [try Changeset.Bookkeeping(db, table: "contacts"), try Changeset.Bookkeeping(db, table: "quotes")]
        var contactIDs = Set<Int64>()
        var done: [HistoryEntry] = []
        for entry in entries {
            // One part in the row (part 0 here), or the parts of a long action in their table.
            let inline = try Data.fetchOne(db.cachedStatement(sql: "SELECT changeset FROM history WHERE id = ?"), arguments: [entry.id])
            var recordedInline: Data?
            let parts = inline != nil ? [0] : try Int.fetchAll(
                db.cachedStatement(sql: "SELECT part FROM history_changesets WHERE action_id = ? ORDER BY part"), arguments: [entry.id])
            // A done action's parts were made in part order, so undo goes back from the last; an
            // undone one's parts were made from the last part down, so redo goes up from the first.
            let order = undoing ? Array(parts.reversed()) : parts
            // The version each contact and quote had before this step (or, for one it brings
            // back, the version it had when it was deleted): it saves them back above it, so a
            // version number never names two different states of a row.
            var before: [[Int64: Int64]] = bookkeeping.map { _ in [:] }
            var bytes = 0
            for (index, part) in order.enumerated() {
                guard let changes = try part == 0 ? inline : Data.fetchOne(
                    db.cachedStatement(sql: "SELECT changeset FROM history_changesets WHERE action_id = ? AND part = ?"),
                    arguments: [entry.id, part])
                else { continue }
                let inverse = try Changeset.invert(changes)
                for (index, table) in bookkeeping.enumerated() {
                    let current = try db.cachedStatement(sql: "SELECT version FROM \(table.table) WHERE id = ?")
                    for row in try Changeset.versionedRows(inverse, table: table.table, versionColumn: table.version)
                    where before[index][row.id] == nil {
                        before[index][row.id] = try Int64.fetchOne(current, arguments: [row.id]) ?? row.version
                    }
                }
                var touched: [Int64] = []
                var seen = Set<Int64>()
                for id in try Changeset.contactIDs(inverse) where seen.insert(id).inserted { touched.append(id) }
                contactIDs.formUnion(touched)
                let session = try ChangeSession(db)
                defer { session.close() }
                // The changeset is applied with triggers off, as Carnet's connections write: what
                // the schema's triggers do for other writers is done here, for each contact the
                // part touches (with triggers on, an FTS document rebuilt for every row the part
                // changes made the undo of one edit five times the edit). Its search document as
                // the index holds it is read before, and replaced by the new one after; one that
                // was deleted leaves its sync tombstones. Nothing is written before the changeset
                // applies, so a conflict leaves the file as it was.
                var documents: [Int64: [String]] = [:]
                var links: [Int64: [Row]] = [:]
                for id in touched {
                    guard let document = try SearchIndex.document(db, id: id) else { continue }
                    documents[id] = document
                    links[id] = try syncLinks(db, contactID: id)
                }
                do {
                    try Changeset.apply(inverse, to: db, bookkeeping: bookkeeping)
                } catch let conflict as Changeset.Conflict {
                    throw CarnetError.historyConflict(HistoryConflict(entry: entry, undoing: undoing, changed: conflict.words))
                }
                for id in touched {
                    if let document = documents[id] { try SearchIndex.remove(db, id: id, document: document) }
                    if try !SearchIndex.reindex(db, id: id) { try leaveTombstones(db, links[id] ?? []) }
                }
                if index == order.count - 1 {
                    for (table, versions) in zip(bookkeeping, before) {
                        let save = try db.cachedStatement(sql: "UPDATE \(table.table) SET version = ?, updated_at = ? WHERE id = ?")
                        for (id, version) in versions { try save.execute(arguments: [version + 1, now, id]) }
                    }
                }
                let recorded = try session.changeset()
                bytes += recorded.count
                if part == 0 {
                    recordedInline = recorded
                } else {
                    try db.cachedStatement(sql: "UPDATE history_changesets SET changeset = ? WHERE action_id = ? AND part = ?")
                        .execute(arguments: [recorded, entry.id, part])
                }
            }
            try db.cachedStatement(sql: "UPDATE history SET undone = ?, bytes = ?, changeset = ? WHERE id = ?")
                .execute(arguments: [undoing, bytes, recordedInline, entry.id])
            done.append(HistoryEntry(
                id: entry.id, time: entry.time, kind: entry.kind, subject: entry.subject, summary: entry.summary,
                isUndone: undoing, bytes: bytes))
        }
        return HistoryStep(entries: done, contactIDs: contactIDs)
    }
}
