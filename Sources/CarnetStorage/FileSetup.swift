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
    /// Refuses what SQLite must not open at `path` (it only calls `stat` before deciding, so a
    /// FIFO cannot block it) and creates the file when it is missing and `createIfMissing`
    /// allows it.
    static func prepare(path: String, createIfMissing: Bool = true) throws(CarnetError) {
        var info = stat()
        if stat(path, &info) == 0 {
            try requireRegularFile(info, path: path)
            return
        }
        let code = errno
        guard code == ENOENT else { throw .cannotOpen(path: path, reason: reason(code)) }
        guard createIfMissing else { throw .noDatabase(path: path) }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
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

    /// Refuses a directory, a FIFO, a device or a socket by name, without opening it.
    static func requireRegularFile(_ info: stat, path: String) throws(CarnetError) {
        let kind: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: kind = "a directory"
        case S_IFIFO: kind = "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: kind = "a device"
        case S_IFSOCK: kind = "a socket"
        default: kind = "a special file"
        }
        throw .cannotOpen(path: path, reason: "it is \(kind), not a file; give the path of an address book file")
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
        // Non-blocking, and checked again once open: what `prepare` saw may have been swapped
        // for a FIFO since.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == EACCES || code == EPERM { throw .cannotOpen(path: path, reason: "permission denied") }
            throw .cannotOpen(path: path, reason: code == ENOENT ? "no such file" : reason(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotOpen(path: path, reason: reason(errno)) }
        try requireRegularFile(info, path: path)
        var header = [UInt8](repeating: 0, count: 100)
        var count = 0
        while count < header.count {
            let got = header.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 { throw .cannotOpen(path: path, reason: reason(errno)) }
            if got == 0 { break }
            count += got
        }
        header.removeSubrange(count...)
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
