import Foundation
import GRDBSQLite
import Synchronization

/// Counts `xSync` calls (fsync/fdatasync) made by every SQLite connection in this process.
///
/// Why: the edit and import comparisons are only fair if both sides pay for the same durability
/// (`synchronous = FULL`: one WAL sync per commit). Asking the connection is not enough: what
/// matters is what SQLite actually does, so a thin VFS is registered as the default in front of
/// the real one ("unix"): GRDB's connections and the raw ones all open files through it. It
/// forwards every call unchanged and adds one atomic increment per sync, identical for both sides.
///
/// The wrapper file is laid out like SQLite's own shims (ext/misc/vfstrace.c): our
/// `sqlite3_file` header, then the real VFS's file right after it.
enum SyncCounter {
    static let syncs = Atomic<Int>(0)

    static var count: Int { syncs.load(ordering: .relaxed) }

    /// Registers the counting VFS as the default. Call before opening any connection.
    static func install() throws {
        guard let real = sqlite3_vfs_find(nil) else { throw BenchError("no default SQLite VFS") }
        realVFS = real
        let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(to: countingMethods())
        wrapperMethods = methods

        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: real.pointee)  // same limits, same pAppData; all but xOpen forwarded as is
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup("carnet-bench-sync-counter"))
        vfs.pointee.szOsFile = Int32(realFileOffset) + real.pointee.szOsFile
        vfs.pointee.xOpen = { _, name, file, flags, outFlags in
            guard let file, let realVFS else { return SQLITE_CANTOPEN }
            let inner = innerFile(file)
            let rc = realVFS.pointee.xOpen!(realVFS, name, inner, flags, outFlags)
            // SQLite calls xClose only when pMethods is set; mirror the real file's state.
            file.pointee.pMethods = inner.pointee.pMethods == nil ? nil : UnsafePointer(wrapperMethods)
            return rc
        }
        guard sqlite3_vfs_register(vfs, 1) == SQLITE_OK else { throw BenchError("sqlite3_vfs_register failed") }
    }
}

// Written once by install() before any connection exists, then only read.
nonisolated(unsafe) private var realVFS: UnsafeMutablePointer<sqlite3_vfs>?
nonisolated(unsafe) private var wrapperMethods: UnsafeMutablePointer<sqlite3_io_methods>?

/// Where the real file starts inside ours: after our one-pointer header, 8-byte aligned.
private let realFileOffset = (MemoryLayout<sqlite3_file>.stride + 7) & ~7

@inline(__always)
private func innerFile(_ file: UnsafeMutablePointer<sqlite3_file>?) -> UnsafeMutablePointer<sqlite3_file> {
    UnsafeMutableRawPointer(file!).advanced(by: realFileOffset).assumingMemoryBound(to: sqlite3_file.self)
}

@inline(__always)
private func realMethods(_ inner: UnsafeMutablePointer<sqlite3_file>) -> sqlite3_io_methods {
    inner.pointee.pMethods.pointee
}

/// Every method forwards to the real file's own methods; xSync also counts.
private func countingMethods() -> sqlite3_io_methods {
    var m = sqlite3_io_methods()
    m.iVersion = 3
    m.xClose = { f in let i = innerFile(f); return realMethods(i).xClose!(i) }
    m.xRead = { f, buffer, amount, offset in let i = innerFile(f); return realMethods(i).xRead!(i, buffer, amount, offset) }
    m.xWrite = { f, buffer, amount, offset in let i = innerFile(f); return realMethods(i).xWrite!(i, buffer, amount, offset) }
    m.xTruncate = { f, size in let i = innerFile(f); return realMethods(i).xTruncate!(i, size) }
    m.xSync = { f, flags in
        SyncCounter.syncs.add(1, ordering: .relaxed)
        let i = innerFile(f)
        return realMethods(i).xSync!(i, flags)
    }
    m.xFileSize = { f, size in let i = innerFile(f); return realMethods(i).xFileSize!(i, size) }
    m.xLock = { f, level in let i = innerFile(f); return realMethods(i).xLock!(i, level) }
    m.xUnlock = { f, level in let i = innerFile(f); return realMethods(i).xUnlock!(i, level) }
    m.xCheckReservedLock = { f, out in let i = innerFile(f); return realMethods(i).xCheckReservedLock!(i, out) }
    m.xFileControl = { f, op, arg in let i = innerFile(f); return realMethods(i).xFileControl!(i, op, arg) }
    m.xSectorSize = { f in let i = innerFile(f); return realMethods(i).xSectorSize!(i) }
    m.xDeviceCharacteristics = { f in let i = innerFile(f); return realMethods(i).xDeviceCharacteristics!(i) }
    m.xShmMap = { f, page, size, extend, out in
        let i = innerFile(f)
        guard let map = realMethods(i).xShmMap else { return SQLITE_IOERR }
        return map(i, page, size, extend, out)
    }
    m.xShmLock = { f, offset, n, flags in
        let i = innerFile(f)
        guard let lock = realMethods(i).xShmLock else { return SQLITE_IOERR }
        return lock(i, offset, n, flags)
    }
    m.xShmBarrier = { f in let i = innerFile(f); realMethods(i).xShmBarrier?(i) }
    m.xShmUnmap = { f, delete in
        let i = innerFile(f)
        guard let unmap = realMethods(i).xShmUnmap else { return SQLITE_OK }
        return unmap(i, delete)
    }
    m.xFetch = { f, offset, amount, out in
        let i = innerFile(f)
        guard realMethods(i).iVersion >= 3, let fetch = realMethods(i).xFetch else {
            out?.pointee = nil  // no memory map: SQLite reads instead
            return SQLITE_OK
        }
        return fetch(i, offset, amount, out)
    }
    m.xUnfetch = { f, offset, pointer in
        let i = innerFile(f)
        guard realMethods(i).iVersion >= 3, let unfetch = realMethods(i).xUnfetch else { return SQLITE_OK }
        return unfetch(i, offset, pointer)
    }
    return m
}
