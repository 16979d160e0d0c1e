/// What dropping the history's oldest actions did (`carnet history --prune-before DATE`).
public struct HistoryPrune: Sendable, Equatable {
    /// How many actions were dropped.
    public let actions: Int
    /// The size of what they kept to undo and redo them (the sum of their `bytes`).
    public let bytes: Int64
    /// The oldest action left, the furthest back an undo can now go (nil: none left).
    public let oldestKept: HistoryEntry?
    /// The file's free pages after the drop, in bytes: deleting rows frees pages inside the file
    /// but does not shrink it; a compaction gives them back.
    public let freeBytes: Int64

    public init(actions: Int, bytes: Int64, oldestKept: HistoryEntry?, freeBytes: Int64) {
        self.actions = actions
        self.bytes = bytes
        self.oldestKept = oldestKept
        self.freeBytes = freeBytes
    }
}
