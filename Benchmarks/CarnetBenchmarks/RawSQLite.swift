import CarnetModels
import CarnetStorage
import Foundation
import CSQLiteConfig
import GRDBSQLite

/// The raw side: SQLite's C API called directly, as an expert would without any layer.
///
/// Only connection setup and error checks are wrapped; the hot loops in the workloads call
/// `sqlite3_bind_*`, `sqlite3_step` and `sqlite3_column_*` themselves.
final class RawConnection {
    let handle: OpaquePointer
    let path: String

    /// Opens (creating if needed) with the settings Carnet's `StorageController` uses: WAL,
    /// `synchronous = FULL`, foreign keys on, its page cache size, and `SQLITE_OPEN_NOMUTEX`
    /// (GRDB's threading mode).
    init(path: String) throws {
        self.path = path
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw BenchError("sqlite3_open_v2(\(path)): \(message)")
        }
        handle = db
        sqlite3_busy_timeout(db, 10_000)
        try exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON")
        try exec("PRAGMA cache_size = -\(StorageController.pageCacheKiB)")
        // As Carnet's connections: it keeps the search index itself (RawContactWriter does too).
        guard carnet_sqlite3_enable_triggers(db, 0) == 0 else { throw BenchError("cannot turn triggers off") }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func exec(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &error) != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw BenchError("sqlite3_exec: \(message) in \(sql.prefix(80))")
        }
    }

    /// A prepared statement; the caller finalizes it.
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError("sqlite3_prepare_v2: \(lastError) in \(sql.prefix(80))")
        }
        return statement
    }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// Folds the WAL into the main file and empties it, so the next reader (another process,
    /// the sqlite3 CLI, a file copy) starts from one self-contained file.
    func checkpointTruncate() throws {
        try exec("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

/// `SQLITE_TRANSIENT`: SQLite copies the bound bytes before `sqlite3_bind_*` returns. The C
/// macro is a cast of -1 to a function pointer, which Swift does not import.
let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// Binds a string by pointer and byte count (no strlen, no NUL-terminated copy).
@inline(__always)
/// The first column of the first row of `sql`, as an integer (a count).
func rawCount(_ db: RawConnection, _ sql: String) throws -> Int {
    let statement = try db.prepare(sql)
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw BenchError("\(sql): \(db.lastError)") }
    return Int(sqlite3_column_int64(statement, 0))
}

func rawBindText(_ statement: OpaquePointer, _ index: Int32, _ text: String) {
    var text = text
    text.withUTF8 { bytes in
        if let base = bytes.baseAddress {
            _ = sqlite3_bind_text(statement, index, base, Int32(bytes.count), sqliteTransient)
        } else {
            _ = sqlite3_bind_text(statement, index, "", 0, sqliteTransient)  // "" must stay text, not NULL
        }
    }
}

@inline(__always)
func rawBindBlob(_ statement: OpaquePointer, _ index: Int32, _ data: Data?) {
    guard let data else {
        sqlite3_bind_null(statement, index)
        return
    }
    data.withUnsafeBytes { bytes in
        _ = sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
    }
}

@inline(__always)
func rawColumnText(_ statement: OpaquePointer, _ index: Int32) -> String {
    // sqlite3_column_text before sqlite3_column_bytes, as SQLite's documentation asks.
    guard let text = sqlite3_column_text(statement, index) else { return "" }
    let count = Int(sqlite3_column_bytes(statement, index))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
