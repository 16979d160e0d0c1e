import CarnetStorage
import Foundation
import GRDB

// What a file must be after every attack: intact, and accounted for by its history.

/// Checks a file the way `carnet db check` and a careful person with sqlite3 would.
func checkFile(_ path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
        var problems: [String] = []
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        if integrity != ["ok"] { problems.append("integrity_check: \(integrity.joined(separator: "; "))") }
        if try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil { problems.append("foreign_key_check failed") }
        let names = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master"))
        for name in ["contacts", "favorites", "quotes", "schema_migrations", "contacts_by_name", "quotes_one_current"]
        where !names.contains(name) {
            problems.append("schema lost \(name)")
        }
        if try Int.fetchOne(db, sql: "PRAGMA user_version") != Int.fetchOne(db, sql: "SELECT max(version) FROM schema_migrations") {
            problems.append("user_version is not the last migration applied")
        }
        if try Int.fetchOne(db, sql: "SELECT count(*) FROM quotes WHERE is_current") != 1 { problems.append("not exactly one current quote") }
        return problems
    }
}


/// What a person sees in the file, row by row: every column of every table an action changes,
/// but a contact's or quote's version and updated_at (an undo saves anew, with a higher version).
/// The search index's tables are left out: their bytes depend on the order of the writes that made
/// them, not only on what they index (`carnet db check` checks the index against the contacts).
func userState(_ path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
        var rows: [String] = []
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'contact%' OR name IN ('favorites', 'quotes'))
              AND name NOT LIKE 'contact_search%' ORDER BY name
            """)
        for table in tables {
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE name NOT IN ('version', 'updated_at')", arguments: [table])
            let list = columns.joined(separator: ", ")
            rows += try Row.fetchAll(db, sql: "SELECT \(list) FROM \(table) ORDER BY \(list)").map { "\(table): \($0)" }
        }
        return rows
    }
}

/// Checks that the history accounts for every change since `baseline` (the state when the
/// history was last emptied): on a copy, undoing every action not undone gives `baseline` back,
/// and redoing them gives the file back. A change without its history entry, or an entry without
/// its change, makes one of the two fail. Returns the problems.
func checkHistory(_ path: String, baseline: [String], scratch: URL) -> [String] {
    let copy = scratch.appendingPathComponent("check-\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
    do {
        try StorageController(path: path).backup(to: copy)
        let now = try userState(copy)
        let storage = try StorageController(path: copy)
        let done = try storage.history(limit: 1_000_000).filter { !$0.isUndone }
        guard let first = done.last else {
            return now == baseline ? [] : ["the file changed, but its history holds no action"]
        }
        try storage.undo(to: first.id)
        var problems: [String] = []
        if try userState(copy) != baseline { problems.append("undoing the \(done.count) actions of the history does not give the state before them") }
        for _ in done { try storage.redo() }
        if try userState(copy) != now { problems.append("redoing the \(done.count) actions of the history does not give the file back") }
        try storage.close()
        return problems
    } catch {
        return ["history check: \(error)"]
    }
}

/// Empties the history (so undo cannot reach before this point) and keeps every action from now
/// on; returns the state it starts from.
func restartHistory(_ path: String) throws -> [String] {
    let storage = try StorageController(path: path)
    try storage.setHistoryKeep(0)
    try storage.setHistoryKeep(1_000_000)
    try storage.close()
    return try userState(path)
}
