import CSQLiteSession
import Foundation
import GRDB
import GRDBSQLite

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

    /// The changes recorded so far (empty when there are none); with `insertsByKey`, each row
    /// inserted as its key alone (see `History`).
    func changeset(insertsByKey: Bool = false) throws -> Data {
        var size: Int32 = 0
        var bytes: UnsafeMutableRawPointer?
        try check(carnet_recorder_changeset(handle, insertsByKey ? 1 : 0, &size, &bytes), "could not read the changes to record in the history")
        defer { carnet_free(bytes) }
        guard let bytes, size > 0 else { return Data() }
        return Data(bytes: bytes, count: Int(size))
    }
}

/// Throws SQLite's error for a result code of the session extension other than SQLITE_OK.
func check(_ code: Int32, _ what: String) throws {
    guard code != 0 else { return }
    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "\(what) (\(String(cString: sqlite3_errstr(code))))")
}
