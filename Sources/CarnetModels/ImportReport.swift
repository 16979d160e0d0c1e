/// What an import did (or, for a dry run, would do), record by record.
public struct ImportReport: Sendable, Equatable {
    /// A record that was not imported, and why.
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        /// The file, when the import read several (a vdir directory).
        public let file: String?

        public init(line: Int, reason: String, file: String? = nil) {
            self.line = line
            self.reason = reason
            self.file = file
        }

        public var description: String { file.map { "\($0):\(line): \(reason)" } ?? "line \(line): \(reason)" }
    }

    public var added = 0
    /// The ids of the contacts added, as runs (an import's new ids are one run, whatever its size).
    public var addedIDs = IDRanges()
    /// Records whose UID matched a contact with other values: that contact was updated.
    public var updated = 0
    /// Records whose UID matched a contact with the same values.
    public var unchanged = 0
    public var skipped: [Skipped] = []
    /// Contacts a record matched but, with `ImportOptions/keepsExisting`, did not change
    /// because their values differ from the record's (someone edited them): their ids.
    public var kept: [Int64] = []
    /// True when nothing was written (`--dry-run`).
    public var dryRun = false
    /// Group cards added and updated, counted apart from the people in `added` and `updated`.
    public var groupsAdded = 0
    public var groupsUpdated = 0

    public init() {}

    public var summary: String {
        let verb = dryRun ? "would add" : "added"
        let people = "\(verb) \(added), \(dryRun ? "would update" : "updated") \(updated), unchanged \(unchanged), skipped \(skipped.count)"
        let groups = groupsAdded + groupsUpdated == 0 ? "" : "; groups: \(verb) \(groupsAdded)"
            + (groupsUpdated > 0 ? ", \(dryRun ? "would update" : "updated") \(groupsUpdated)" : "")
        let counts = people + groups
        guard !kept.isEmpty else { return counts }
        let ids = kept.map(String.init).joined(separator: ", ")
        return counts + ", kept \(kept.count) edited (contact\(kept.count == 1 ? "" : "s") \(ids) left as you changed \(kept.count == 1 ? "it" : "them"))"
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
    /// Only add: a record whose UID is already in the address book never changes that contact,
    /// and one whose values differ is listed in `ImportReport/kept`. For data Carnet itself
    /// supplies (`carnet sample`), which must never undo what the user made of it.
    public var keepsExisting: Bool
    /// The address book new contacts go to (`AddressBook/id`); nil for the default book. A
    /// record whose UID is already in the file updates that contact in its own book.
    public var bookID: Int64?

    public init(dryRun: Bool = false, skipInvalid: Bool = false, force: Bool = false, keepsExisting: Bool = false, bookID: Int64? = nil) {
        self.dryRun = dryRun
        self.skipInvalid = skipInvalid
        self.force = force
        self.keepsExisting = keepsExisting
        self.bookID = bookID
    }
}
