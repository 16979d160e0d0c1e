import CarnetModels
import Foundation
import GRDB

/// Turns SQLite's result codes into the ``CarnetError`` a person can act on.
enum ErrorMapping {
    static func map(_ error: any Error, path: String) -> CarnetError {
        if let error = error as? CarnetError { return error }
        guard let error = error as? DatabaseError else {
            return .database(String(describing: error))
        }
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return .notADatabase(path: path)
        case .SQLITE_CORRUPT:
            return .corrupt(path: path, detail: error.message ?? "database disk image is malformed")
        case .SQLITE_FULL:
            return .diskFull(path: path)
        case .SQLITE_READONLY:
            return .readOnly(path: path)
        case .SQLITE_CANTOPEN:
            return .cannotOpen(path: path, reason: error.message ?? "unable to open database file")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .busy(path: path)
        case .SQLITE_PERM, .SQLITE_AUTH:
            return .readOnly(path: path)
        case .SQLITE_IOERR:
            // A short write on a full disk surfaces as an I/O error on some file systems.
            if error.extendedResultCode == .SQLITE_IOERR_WRITE || error.extendedResultCode == .SQLITE_IOERR_FSYNC,
               isDiskFull(path) {
                return .diskFull(path: path)
            }
            if let missing = missingLog(path, error) { return .database(missing) }
            return .database(describe(error))
        default:
            return .database(describe(error))
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        return String(describing: error)
    }

    /// A reader finds the shared index of the write-ahead log saying there is more log than the
    /// file holds: the log was deleted (or cut) while another connection had the book open.
    /// That connection still writes to its open log, and puts it back into the file when it
    /// closes; new readers fail until then.
    private static func missingLog(_ path: String, _ error: DatabaseError) -> String? {
        let log = path + "-wal"
        guard error.extendedResultCode == .SQLITE_IOERR_SHORT_READ, FileManager.default.fileExists(atPath: path + "-shm") else { return nil }
        let size = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? NSNumber)?.int64Value
        let what = size == nil ? "was deleted" : "was cut short or deleted and made again"
        return "disk I/O error: the write-ahead log \(log) \(what) while another program had the address book open. "
            + "Close that program (a carnet session, sqlite3): it writes its changes back into the file as it closes; "
            + "never delete a -wal or -shm file beside a book in use"
    }

    private static func isDiskFull(_ path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: directory.isEmpty ? "." : directory),
              let free = attributes[.systemFreeSize] as? NSNumber
        else { return false }
        return free.int64Value < 1 << 20
    }
}
