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

    private static func isDiskFull(_ path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: directory.isEmpty ? "." : directory),
              let free = attributes[.systemFreeSize] as? NSNumber
        else { return false }
        return free.int64Value < 1 << 20
    }
}
