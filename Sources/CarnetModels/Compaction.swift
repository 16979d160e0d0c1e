/// What compacting the file takes, known before it starts (`carnet db compact` says it first).
public struct CompactionPlan: Sendable, Equatable {
    /// The database file.
    public let path: String
    /// The directory that holds it, where the compacted copy is made.
    public let directory: String
    /// The database's size now (its pages times the page size).
    public let bytes: Int64
    /// Of which free pages, which the compaction gives back.
    public let freeBytes: Int64
    /// The free disk space it needs in `directory` while it runs: room for the compacted copy,
    /// and for the log that writes the copy back into the file.
    public let neededBytes: Int64
    /// The free disk space `directory` has now.
    public let availableBytes: Int64

    public init(path: String, directory: String, bytes: Int64, freeBytes: Int64, neededBytes: Int64, availableBytes: Int64) {
        self.path = path
        self.directory = directory
        self.bytes = bytes
        self.freeBytes = freeBytes
        self.neededBytes = neededBytes
        self.availableBytes = availableBytes
    }

    /// Whether the directory has the room the compaction needs.
    public var fits: Bool { availableBytes >= neededBytes }
}

/// What a compaction did: the file's size before and after.
public struct Compaction: Sendable, Equatable {
    public let path: String
    public let bytesBefore: Int64
    public let bytesAfter: Int64

    public init(path: String, bytesBefore: Int64, bytesAfter: Int64) {
        self.path = path
        self.bytesBefore = bytesBefore
        self.bytesAfter = bytesAfter
    }

    /// The bytes given back to the disk.
    public var bytesSaved: Int64 { max(0, bytesBefore - bytesAfter) }
}
