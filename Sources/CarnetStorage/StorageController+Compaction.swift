import CarnetModels
import Foundation
import GRDB
import GRDBSQLite

/// Giving the file's free pages back to the disk (`carnet db compact`).
///
/// SQLite reuses the pages a delete frees but never shrinks the file by itself. A compaction
/// writes what the file holds, packed, into a new file beside it (`VACUUM INTO`), then copies
/// that back into the file through SQLite (its backup API) and folds the log into the file,
/// which SQLite then cuts to its new size.
///
/// The copy goes back into the same file rather than being renamed over it: a process that
/// opened the file before a rename keeps writing to the old file, now gone from the directory,
/// and its log (named after the path, so shared with the new file) would be replayed into the
/// new one. Written back through SQLite, the file keeps its inode, owner, mode and every
/// connection's view of it, and the write is one transaction: a failure or a crash at any point
/// leaves the file as it was, or compacted.
extension StorageController {
    /// What `compact(availableBytes:)` needs: the file's size, its free pages, and the free disk
    /// space it takes in the file's directory against what the directory has.
    /// - Parameter availableBytes: the directory's free space to assume instead of asking the
    ///   file system (for tests).
    public func compactionPlan(availableBytes: Int64? = nil) throws(CarnetError) -> CompactionPlan {
        guard path != ":memory:" else { throw .refused("an address book in memory has no file to compact") }
        let directory = Self.directory(of: path)
        let (pageSize, pages, freePages) = try read { db in
            (try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0, try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0,
             try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0)
        }
        let usedPages = pages - freePages
        // The packed copy holds at most the pages in use; writing it back puts each of them in
        // the log first, as a frame of a page and a 24-byte header after the log's 32-byte one.
        let copy = usedPages * pageSize
        let log = usedPages * (pageSize + 24) + 32
        let available: Int64
        if let availableBytes {
            available = availableBytes
        } else {
            available = try Self.freeSpace(in: directory)
        }
        return CompactionPlan(
            path: path, directory: directory, bytes: pages * pageSize, freeBytes: freePages * pageSize,
            neededBytes: copy + log, availableBytes: available)
    }

    /// Packs the file so that it is no bigger than what it holds, giving its free pages back to
    /// the disk. Contacts, history (undo and redo work as before), settings and ids are kept as
    /// they are, and the file keeps its mode.
    ///
    /// It needs the file to itself: every other connection, in another process or this one
    /// (an observer of `changes()` holds one), must be closed first; one that opens the file
    /// meanwhile waits for it to finish.
    /// - Parameter availableBytes: the directory's free space to assume instead of asking the
    ///   file system (for tests).
    /// - Throws: `CarnetError.notEnoughSpace` when the directory has less free space than
    ///   `compactionPlan()` says it needs, `.openElsewhere` when another connection has the file
    ///   open (after waiting up to `StorageOptions/busyTimeout` for it to close), `.diskFull`;
    ///   the file is left as it was, and the copy removed, whatever fails.
    @discardableResult
    public func compact(availableBytes: Int64? = nil) throws(CarnetError) -> Compaction {
        let plan = try compactionPlan(availableBytes: availableBytes)
        guard plan.fits else {
            throw .notEnoughSpace(path: plan.directory, needed: plan.neededBytes, available: plan.availableBytes)
        }
        let path = self.path
        let copy = plan.directory + "/" + URL(fileURLWithPath: path).lastPathComponent + ".compact-"
            + UUID().uuidString.prefix(8).lowercased()
        defer { unlink(copy) }
        // This process's readers hold the file open too; they open again when next needed.
        (writer as? DatabasePool)?.invalidateReadOnlyConnections()
        let before: Int64
        do {
            before = try writer.writeWithoutTransaction { db in
                try Self.holdingTheFileAlone(db, path: path) {
                    // The log folded into the file first: the copy-back then starts an empty log,
                    // as the plan counted, and the size before is the file's own.
                    try db.checkpoint(.truncate)
                    let before = Self.fileSize(path)
                    try PrivateFile.create(copy)
                    try db.execute(sql: "VACUUM INTO ?", arguments: [copy])
                    var configuration = Configuration()
                    configuration.readonly = true
                    let source = try DatabaseQueue(path: copy, configuration: configuration)
                    try source.inDatabase { packed in try packed.backup(to: db) }
                    try source.close()
                    // SQLite cuts the file to its new size once the whole log is in it.
                    try db.checkpoint(.truncate)
                    return before
                }
            }
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
        feed.poke()
        return Compaction(path: path, bytesBefore: before, bytesAfter: Self.fileSize(path))
    }

    /// Runs `body` while `db` holds the file alone: `locking_mode = EXCLUSIVE` takes SQLite's
    /// exclusive lock on the file at the next write transaction, which every other connection's
    /// shared lock (a WAL connection holds one as long as it is open) refuses. The lock goes back
    /// to shared at the end of the first write transaction after `NORMAL`, whatever `body` does.
    private static func holdingTheFileAlone<T>(_ db: Database, path: String, _ body: () throws -> T) throws -> T {
        try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
        defer {
            try? db.execute(sql: "PRAGMA locking_mode = NORMAL")
            try? db.execute(sql: "BEGIN IMMEDIATE")
            try? db.execute(sql: "COMMIT")
        }
        do {
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "COMMIT")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            releasePendingLock(db)
            throw CarnetError.openElsewhere(path: path)
        }
        return try body()
    }

    /// On its way to an exclusive lock SQLite's unix VFS takes the PENDING lock, which lets no new
    /// reader in, and keeps it when the exclusive lock is refused, for the writer to try again.
    /// In WAL mode the pager never lets go of it: every connection opened afterwards, in any
    /// process, would find the file locked until this one closes. It goes back down here to the
    /// shared lock the pager counts on holding, as every open WAL connection does.
    private static func releasePendingLock(_ db: Database) {
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
              let file, let unlock = file.pointee.pMethods?.pointee.xUnlock
        else { return }
        _ = unlock(file, SQLITE_LOCK_SHARED)
    }

    /// The directory that holds the file (the file a symbolic link names): SQLite keeps the log
    /// there, and the packed copy goes there too, so one file system's free space counts.
    static func directory(of path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// The free space of the file system holding `directory`, as an unprivileged process may use it.
    static func freeSpace(in directory: String) throws(CarnetError) -> Int64 {
        var stats = statvfs()
        guard statvfs(directory, &stats) == 0 else {
            throw .cannotOpen(path: directory, reason: FileSetup.reason(errno))
        }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}

private enum PrivateFile {
    /// An empty file of mode 0600 that was not there before: `VACUUM INTO` writes into an empty
    /// file as into a new one, and keeps its mode, so the copy is never readable by others.
    static func create(_ path: String) throws(CarnetError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .cannotOpen(path: path, reason: FileSetup.reason(errno)) }
        close(fd)
    }
}
