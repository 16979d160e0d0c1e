import CarnetModels
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What happens to the path before SQLite sees it: private directory and file on first use, and
/// a look at the file's header so a foreign or newer file is refused before anything writes.
enum FileSetup {
    static func prepare(path: String, createIfMissing: Bool = true) throws(CarnetError) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw .cannotOpen(path: path, reason: "it is a directory, not a file") }
            return
        }
        guard createIfMissing else { throw .noDatabase(path: path) }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !fm.fileExists(atPath: directory) {
            do {
                try fm.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .cannotOpen(path: path, reason: "cannot create directory \(directory): \(reason(errno))")
            }
        }
        // Create the file ourselves so it is private from its first byte; SQLite gives the
        // -wal and -shm files the same mode.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            let code = errno
            if code == EEXIST { return }
            if code == EACCES || code == EROFS || code == EPERM { throw .readOnly(path: path) }
            throw .cannotOpen(path: path, reason: reason(code))
        }
        close(fd)
    }

    /// Whether this process may write both the file and its directory (where SQLite makes the
    /// -wal and -shm files).
    static func canWrite(path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        return access(path, W_OK) == 0 && access(directory.isEmpty ? "." : directory, W_OK) == 0
    }

    /// Reads the 100-byte SQLite header: refuses what is not SQLite, and a file whose
    /// `user_version` is newer than this build, without opening it with SQLite at all. A file in
    /// rollback-journal mode (not made by Carnet, which uses WAL) is inspected read-only, so
    /// refusing it does not convert it to WAL either.
    static func probe(path: String, supported: Int) throws(CarnetError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            if access(path, F_OK) == 0 { throw .cannotOpen(path: path, reason: "permission denied") }
            throw .cannotOpen(path: path, reason: "no such file")
        }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        if header.isEmpty { return }  // a new, empty file
        let magic = Array("SQLite format 3\0".utf8)
        guard header.count >= magic.count, Array(header.prefix(magic.count)) == magic else {
            throw .notADatabase(path: path)
        }
        guard header.count == 100 else { throw .corrupt(path: path, detail: "the file is truncated") }
        let userVersion = Int(header[60]) << 24 | Int(header[61]) << 16 | Int(header[62]) << 8 | Int(header[63])
        if userVersion > supported {
            throw .newerSchema(path: path, found: userVersion, supported: supported)
        }
        if header[18] == 1 {
            var config = Configuration()
            config.readonly = true
            do {
                let queue = try DatabaseQueue(path: path, configuration: config)
                let isCarnet = try queue.read { db in
                    try db.tableExists("schema_migrations")
                        || (try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0) == 0
                }
                try queue.close()
                if !isCarnet { throw CarnetError.notCarnetDatabase(path: path) }
            } catch {
                throw ErrorMapping.map(error, path: path)
            }
        }
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
