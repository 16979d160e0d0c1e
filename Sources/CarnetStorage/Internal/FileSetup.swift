import CarnetModels
import Foundation
import GRDB

/// What happens to the path before SQLite sees it: a look at what is there and beside it (so a
/// FIFO, a device or a file someone else planted is refused before anything opens it), a private
/// directory and file on first use, and a look at the file's header so a foreign or newer file is
/// refused before anything writes.
enum FileSetup {
    /// The files SQLite may open beside the database: the write-ahead log and its index (WAL
    /// mode, which Carnet uses), and the rollback journal, which SQLite would play back into the
    /// file on open if it found one.
    static let companionSuffixes = ["-wal", "-shm", "-journal"]

    /// Refuses what SQLite must not open at `path` and creates the file (mode 0600, in new
    /// directories of mode 0700) when it is missing and `createIfMissing` allows it.
    ///
    /// Like ssh with its keys, it trusts a file only if this process's user (or root) owns it and
    /// neither group nor others may write it: in a directory others may write, someone could
    /// have made the file, or its -wal or -shm, for Carnet to adopt. It only calls `stat`
    /// before deciding, so a FIFO cannot block it. A symbolic link to a file of one's own is fine
    /// for the database (SQLite keeps the -wal and -shm beside the file it points to).
    static func prepare(path: String, createIfMissing: Bool = true) throws(CarnetError) {
        var info = stat()
        if stat(path, &info) == 0 {
            try checkExisting(info, path: path)
            // An empty file is a new address book only to a command that may create one (its
            // pages may also all be in the log, after a crash before the first checkpoint).
            var log = stat()
            if !createIfMissing, info.st_size == 0, !(stat(path + "-wal", &log) == 0 && log.st_size > 0) {
                throw .emptyFile(path: path)
            }
            return
        }
        let code = errno
        guard code == ENOENT else { throw .cannotOpen(path: path, reason: reason(code)) }
        var link = stat()
        if lstat(path, &link) == 0 {
            throw .cannotOpen(path: path, reason: "it is a symbolic link to a file that does not exist")
        }
        guard createIfMissing else { throw .noDatabase(path: path) }
        // A log planted beside a file that does not exist yet would be adopted by the new file.
        try checkCompanions(of: path)
        try createDirectories(for: path)
        // Create the file ourselves so it is private from its first byte, whatever the umask;
        // SQLite gives the -wal and -shm files the same mode.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 {
            let code = errno
            if code == EEXIST {
                // Someone made it since the stat above: judge it as any existing file.
                guard stat(path, &info) == 0 else { throw .cannotOpen(path: path, reason: reason(errno)) }
                try checkExisting(info, path: path)
                return
            }
            if code == EACCES || code == EROFS || code == EPERM { throw .readOnly(path: path) }
            throw .cannotOpen(path: path, reason: reason(code))
        }
        _ = fchmod(fd, 0o600)
        close(fd)
    }

    /// The checks for a file that exists: `info` is what `stat` (which follows links) said.
    private static func checkExisting(_ info: stat, path: String) throws(CarnetError) {
        try requireRegularFile(info, path: path)
        try requireTrusted(info, path: path)
        try checkCompanions(of: resolvingLinks(path))
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

    /// Refuses a file another user owns, or that group or others may write.
    static func requireTrusted(_ info: stat, path: String) throws(CarnetError) {
        if info.st_uid != geteuid() && info.st_uid != 0 {
            throw .unsafeFile(path: path, reason: .ownedByAnotherUser(uid: UInt32(info.st_uid)))
        }
        if info.st_mode & 0o022 != 0 {
            throw .unsafeFile(path: path, reason: .writableByOthers(mode: UInt32(info.st_mode & 0o7777)))
        }
    }

    /// The -wal, -shm and -journal files beside `path`, where they exist, must be plain files of
    /// one's own that only their owner may write; not symbolic links, which SQLite would follow.
    static func checkCompanions(of path: String) throws(CarnetError) {
        for suffix in companionSuffixes {
            let file = path + suffix
            var info = stat()
            guard lstat(file, &info) == 0 else {
                let code = errno
                if code == ENOENT || code == ENOTDIR { continue }
                throw .cannotOpen(path: file, reason: reason(code))
            }
            if info.st_mode & S_IFMT == S_IFLNK { throw .unsafeFile(path: file, reason: .symbolicLink) }
            try requireRegularFile(info, path: file)
            try requireTrusted(info, path: file)
        }
    }

    /// Where SQLite will put the companions: it resolves symbolic links in the database's path.
    private static func resolvingLinks(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Makes each missing directory above `path` with mode 0700 (as the XDG base directory
    /// specification asks), so no new directory is one others may write, whatever the umask.
    private static func createDirectories(for path: String) throws(CarnetError) {
        var missing: [String] = []
        var directory = (path as NSString).deletingLastPathComponent
        var info = stat()
        while !directory.isEmpty && directory != "/" && lstat(directory, &info) != 0 {
            missing.append(directory)
            directory = (directory as NSString).deletingLastPathComponent
        }
        for directory in missing.reversed() where mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .cannotOpen(path: path, reason: "cannot create directory \(directory): \(reason(errno))")
        }
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
        let applicationID = Int32(bitPattern: UInt32(header[68]) << 24 | UInt32(header[69]) << 16 | UInt32(header[70]) << 8 | UInt32(header[71]))
        try checkMark(applicationID: applicationID, userVersion: userVersion, supported: supported, path: path)
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

    /// Refuses another application's file (its own `application_id`, or none past the schema
    /// that set Carnet's), and a newer Carnet's file, each with its own message: an application
    /// whose `user_version` is 42 is not "a newer Carnet".
    static func checkMark(applicationID: Int32, userVersion: Int, supported: Int, path: String) throws(CarnetError) {
        if applicationID != 0 && applicationID != StorageController.applicationID {
            throw .notCarnetDatabase(path: path)
        }
        if userVersion > supported {
            if applicationID != StorageController.applicationID && userVersion >= StorageController.applicationIDSchema {
                throw .notCarnetDatabase(path: path)
            }
            throw .newerSchema(path: path, found: userVersion, supported: supported)
        }
    }

    static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
