/// What an import did (or, for a dry run, would do), record by record.
public struct ImportReport: Sendable, Equatable {
    /// A record that was not imported, and why.
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }

        public var description: String { "line \(line): \(reason)" }
    }

    public var added = 0
    /// Records whose UID matched a contact with other values: that contact was updated.
    public var updated = 0
    /// Records whose UID matched a contact with the same values.
    public var unchanged = 0
    public var skipped: [Skipped] = []
    /// True when nothing was written (`--dry-run`).
    public var dryRun = false

    public init() {}

    public var summary: String {
        let verb = dryRun ? "would add" : "added"
        return "\(verb) \(added), \(dryRun ? "would update" : "updated") \(updated), unchanged \(unchanged), skipped \(skipped.count)"
    }
}

/// How an import treats records that break a rule or conflict.
public struct ImportOptions: Sendable, Equatable {
    /// Report what would happen and write nothing.
    public var dryRun: Bool
    /// Skip (and list) records that break a rule or conflict, instead of stopping the import.
    public var skipInvalid: Bool
    /// Overwrite contacts changed after the record's REV / updated_at (as `edit --force`).
    public var force: Bool

    public init(dryRun: Bool = false, skipInvalid: Bool = false, force: Bool = false) {
        self.dryRun = dryRun
        self.skipInvalid = skipInvalid
        self.force = force
    }
}
