import CarnetModels
import Foundation
import GRDB

/// Records one write transaction's changes as one action of the history (see `History`).
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
    /// scope (a sync commits between its steps); `end()` writes the action, before the commit.
    static func start(_ db: Database, enabled: Bool = true) throws -> HistoryRecorder {
        let recorder = HistoryRecorder(db, keep: enabled ? try keepSetting(db) : 0)
        if recorder.keep > 0 { recorder.session = try ChangeSession(db) }
        return recorder
    }

    /// Writes the action recorded since `start(_:enabled:)` (none when nothing changed) and
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
        // Only an action of one part is written whole (see `History`).
        let recorded = try session.changeset(insertsByKey: !(last && parts == 0))
        guard !recorded.isEmpty else { return }
        let changes = StoredChanges.stored(recorded)
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
        if try History.recordsProcess(db) {
            try db.cachedStatement(sql: "INSERT INTO history (time, kind, subject, summary, undone, bytes, changeset, pid) VALUES (?, ?, ?, ?, 0, ?, ?, ?)")
                .execute(arguments: [Timestamp.string(Timestamp.now()), note.kind.rawValue, note.subject, note.summary, last ? bytes : 0, changeset, History.processID])
        } else {
            try db.cachedStatement(sql: "INSERT INTO history (time, kind, subject, summary, undone, bytes, changeset) VALUES (?, ?, ?, ?, 0, ?, ?)")
                .execute(arguments: [Timestamp.string(Timestamp.now()), note.kind.rawValue, note.subject, note.summary, last ? bytes : 0, changeset])
        }
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

    /// How many actions over `keep` the file may hold before `trim(_:keep:force:)` removes them,
    /// all at once: 1/64 of `keep` (15 at the default 1,000; none below 64). Removing the oldest
    /// action with every new one rewrote the oldest page of `history` in every transaction, one
    /// WAL frame more per edit; removed 15 at a time, that page is written once in 15 actions.
    static func slack(keep: Int) -> Int { keep / 64 }

    /// Removes all but the newest `keep` actions, once there are more than `keep` + `slack(keep:)`
    /// (`force`: whenever there are more than `keep`, as when the setting changes).
    static func trim(_ db: Database, keep: Int, force: Bool = false) throws {
        guard keep > 0 else {
            try db.execute(sql: "DELETE FROM history")
            return
        }
        // Two statements, each cheap. Ids only grow, so fewer than `most` ids between the oldest
        // and the newest means there is nothing to trim, without counting; then count(*) adds up
        // the table's pages (stepping over `keep` rows instead costs every action a walk). The two
        // ends are two subqueries: SQLite answers min() or max() alone from the end of the key,
        // but `SELECT min(id), max(id)` reads the whole table.
        let most = keep + (force ? 0 : slack(keep: keep))
        let count = try Int.fetchOne(db.cachedStatement(sql: """
            SELECT CASE WHEN (SELECT max(id) FROM history) - (SELECT min(id) FROM history) >= ? THEN (SELECT count(*) FROM history) ELSE 0 END
            """), arguments: [most]) ?? 0
        guard count > most else { return }
        try db.cachedStatement(sql: "DELETE FROM history WHERE id < (SELECT id FROM history ORDER BY id LIMIT 1 OFFSET ?)")
            .execute(arguments: [count - keep])
    }
}
