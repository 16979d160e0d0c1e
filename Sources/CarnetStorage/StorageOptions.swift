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

    /// Default ``Durability/full``: an address book is small and people's data is not.
    public var durability: Durability
    /// How long a write waits for another process's write to finish before failing with
    /// ``CarnetModels/CarnetError/busy(path:)``. Default 10 seconds.
    public var busyTimeout: TimeInterval

    public init(durability: Durability = .full, busyTimeout: TimeInterval = 10) {
        self.durability = durability
        self.busyTimeout = busyTimeout
    }
}

extension StorageOptions.Durability {
    var pragmaValue: String { self == .full ? "FULL" : "NORMAL" }
}
