import Foundation

/// How a ``StorageController`` opens its file.
public struct StorageOptions: Sendable, Equatable {
    /// What a committed write survives. Carnet prints "saved" only after commit.
    public enum Durability: String, Sendable, Equatable {
        /// `PRAGMA synchronous = FULL`: the write-ahead log is synced to disk at every commit,
        /// so a saved change survives a process crash *and* a power loss or OS crash.
        case full
        /// `PRAGMA synchronous = NORMAL`: a saved change survives a process crash; after a power
        /// loss the last commits may be rolled back (never corrupted). Faster bulk work.
        case normal
    }

    /// How many SQLite connections the controller keeps open.
    public enum Connections: String, Sendable, Equatable {
        /// A writer and a pool of readers (GRDB's `DatabasePool`): reads from several threads
        /// run at once, beside a write. For long-lived programs that embed Carnet.
        case pool
        /// One connection (GRDB's `DatabaseQueue`) that reads and writes in turn. Opens and
        /// closes faster, and the last process to close folds the write-ahead log back into the
        /// file and empties it (the `-wal` and `-shm` files stay, empty, so someone who may read
        /// the file but not write its directory can still open it): for one-shot processes such
        /// as the `carnet` command.
        case single
    }

    /// Default ``Durability/full``: an address book is small and people's data is not.
    public var durability: Durability
    /// How long a write waits for another process's write to finish before failing with
    /// `CarnetError.busy(path:)`. Default 10 seconds. To hear when a wait
    /// passes a second, pass `onLockWait` to ``StorageController/init(path:options:onLockWait:)``.
    public var busyTimeout: TimeInterval
    /// Default ``Connections/pool``. Either way the file is in WAL mode, every write is one
    /// `BEGIN IMMEDIATE` transaction and other processes see the same file.
    public var connections: Connections
    /// Whether a missing file is created (with its directory). Default `true`. With `false`, a
    /// missing file throws `CarnetError.noDatabase(path:)` and nothing is created:
    /// for a program that only reads, so a mistyped path is an error instead of a new, empty book.
    public var createIfMissing: Bool
    /// Where the locale is read from when the file stores no phone region (`LC_ALL`, else
    /// `LANG`; see `PhoneRegionSetting`). Default this process's environment.
    public var environment: [String: String]
    /// How many bytes at the start of the file SQLite reads through a memory map (`PRAGMA
    /// mmap_size`) instead of copying every page it reads into its page cache. Default 0: none.
    /// For a short process that reads a few hundred scattered pages once (`carnet query`): the
    /// pages are the OS's cached ones, mapped several at a fault, where the copies cost a read
    /// each and a page of heap each, faulted in one at a time. The mapped pages count in the
    /// resident size, so long-lived programs and whole-book walks leave it at 0.
    public var mappedBytes: Int

    public init(
        durability: Durability = .full, busyTimeout: TimeInterval = 10, connections: Connections = .pool,
        createIfMissing: Bool = true, environment: [String: String] = ProcessInfo.processInfo.environment,
        mappedBytes: Int = 0
    ) {
        self.durability = durability
        self.busyTimeout = busyTimeout
        self.connections = connections
        self.createIfMissing = createIfMissing
        self.environment = environment
        self.mappedBytes = mappedBytes
    }
}

extension StorageOptions.Durability {
    var pragmaValue: String { self == .full ? "FULL" : "NORMAL" }
}
