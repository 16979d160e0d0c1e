/// Every way a Carnet operation can fail, each with a message that says what happened and what
/// to do. A failed operation has changed nothing.
public enum CarnetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of record an error is about.
    public enum Record: String, Sendable, Equatable {
        case contact, quote, favorite, group
        case syncConflict = "sync conflict"
    }

    /// No record of that kind has that id.
    case notFound(Record, id: Int64)
    /// The record an edit or delete started from was deleted since it was read; nothing was
    /// written. (Ids are never reused, so the change cannot land on another record.)
    case deleted(Record, id: Int64)
    /// One or more fields break a rule; nothing was written.
    case invalid([FieldIssue])
    /// Someone else saved the contact or quote after the edit started; nothing was written.
    case conflict(RecordConflict)
    /// A search the address book cannot run (longer than `Limits/searchLength`); a usage error.
    case invalidSearch(String)
    /// The operation would break a rule of the address book (e.g. deleting the only quote).
    case refused(String)
    /// The path is not an SQLite database (or is a directory).
    case notADatabase(path: String)
    /// The path is an SQLite database, but not one Carnet made.
    case notCarnetDatabase(path: String)
    /// The file is damaged: truncated or corrupted.
    case corrupt(path: String, detail: String)
    /// A newer Carnet wrote this file; it was left untouched.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The file's record of applied migrations (`schema_migrations`) names, at a schema version
    /// this Carnet knows, a migration it never had (`expected` is the one it has there, if any):
    /// the record was changed outside Carnet. The file was left untouched.
    case schemaRecordChanged(path: String, version: Int, found: String, expected: String?)
    /// The file or its directory cannot be written.
    case readOnly(path: String)
    /// The file or its directory cannot be created or opened.
    case cannotOpen(path: String, reason: String)
    /// Nothing is at the path and the caller asked not to create it
    /// (`StorageOptions.createIfMissing` is false); nothing was created.
    case noDatabase(path: String)
    /// A command that only reads was given a file of 0 bytes: not an address book (yet), and
    /// not made one by a command that should not write.
    case emptyFile(path: String)
    /// The database file, or its `-wal` or `-shm` file, could have been planted or changed by
    /// someone else; it was not opened. See `UnsafeFileReason`.
    case unsafeFile(path: String, reason: UnsafeFileReason)
    /// The disk (or the database's size limit) is full; the write was rolled back.
    case diskFull(path: String)
    /// Another process held the database longer than the busy timeout.
    case busy(path: String)
    /// An operation that needs the file to itself (a compaction) found it open elsewhere: in
    /// another process, or on another connection of this one; nothing was changed.
    case openElsewhere(path: String)
    /// The directory `path` lacks the free space an operation needs (a compaction); nothing
    /// was changed.
    case notEnoughSpace(path: String, needed: Int64, available: Int64)
    /// A schema migration failed; the file was left as it was.
    case migrationFailed(path: String, migration: String, detail: String)
    /// An import stopped at a record: nothing was imported.
    case importFailed(source: String, line: Int, reason: String)
    /// Undo or redo found nothing to do, or no such action (see `HistoryRefusal`); nothing was written.
    case history(HistoryRefusal)
    /// Undo or redo would overwrite a change made outside the history since; nothing was written.
    case historyConflict(HistoryConflict)
    /// A sync could not be set up or run (see `SyncFailure`); nothing was changed locally.
    case sync(SyncFailure)
    /// No address book of the file has that name; nothing was written.
    case unknownBook(String)
    /// Any other SQLite failure, with SQLite's own words.
    /// No group has that name (or id).
    case noSuchGroup(String)
    /// Several groups have that name: the user must say which, by id.
    case ambiguousGroup(String, ids: [Int64])
    /// A search meant to name one contact (a command's CONTACT, given as words rather than an
    /// id) found none.
    case noContactMatches(String)
    /// A search meant to name one contact found several: the first of them (best first) and how
    /// many there are in all. The user must say which, by id or by more words.
    case severalContactsMatch(String, candidates: [ContactSummary], total: Int)
    case database(String)

    public var description: String {
        switch self {
        case let .notFound(record, id):
            return "no \(record.rawValue) has id \(id)"
        case let .deleted(record, id):
            return "\(record.rawValue) \(id) was deleted since it was read (by another carnet or program); nothing was written"
        case let .invalid(issues):
            return "invalid " + issues.map(\.description).joined(separator: "; ")
        case let .conflict(conflict):
            return conflict.description
        case let .invalidSearch(reason):
            return reason
        case let .refused(reason):
            return reason
        case let .notADatabase(path):
            return "\(path) is not an SQLite database; choose another file with --db or CARNET_DB"
        case let .notCarnetDatabase(path):
            return "\(path) is an SQLite database that Carnet did not create; it was left untouched"
        case let .corrupt(path, detail):
            return "\(path) is damaged (\(detail)); restore it from a backup (`carnet db backup` makes one)"
        case let .newerSchema(path, found, supported):
            return "\(path) was written by a newer Carnet (schema \(found); this Carnet knows up to \(supported)); upgrade Carnet to open it. The file was left untouched"
        case let .schemaRecordChanged(path, version, found, expected):
            let wanted = expected.map { "where this Carnet expects '\($0)'" } ?? "a version at which this Carnet has no migration"
            return "\(path): its schema record was changed outside Carnet: schema_migrations has '\(found)' at version \(version), \(wanted). The file was left untouched; restore it from a backup, or put the row back with sqlite3"
        case let .readOnly(path):
            return "\(path) cannot be written (read-only file or directory); check its permissions"
        case let .cannotOpen(path, reason):
            return "cannot open \(path): \(reason)"
        case let .noDatabase(path):
            return "no address book at \(path); check the path (--db or CARNET_DB), or create it by adding a contact"
        case let .emptyFile(path):
            return "\(path) is an empty file, not an address book; check the path (--db or CARNET_DB), or make it one by adding a contact"
        case let .unsafeFile(path, reason):
            return "refusing \(path): \(reason)"
        case let .diskFull(path):
            return "the disk holding \(path) is full; nothing was written. Free some space and try again"
        case let .busy(path):
            return "\(path) is busy: another process kept it locked too long; try again"
        case let .openElsewhere(path):
            return "\(path) is open in another program (another carnet, a sync, sqlite3): close it and try again; nothing was changed"
        case let .notEnoughSpace(path, needed, available):
            return "\(path) has \(ByteCount.text(available)) free and this needs \(ByteCount.text(needed)); free some space and try again; nothing was changed"
        case let .migrationFailed(path, migration, detail):
            return "cannot upgrade \(path): migration \(migration) failed (\(detail)); the file was left as it was"
        case let .importFailed(source, line, reason):
            return "\(source):\(line): \(reason); nothing was imported"
        case let .history(refusal):
            return refusal.description
        case let .historyConflict(conflict):
            return conflict.description
        case let .sync(failure):
            return failure.description
        case let .unknownBook(name):
            return "no address book is named \(name.debugDescription) (carnet book list shows them; carnet book add makes one)"
        case let .database(message):
            return "database error: \(message)"
        case let .noSuchGroup(name):
            return "no group is named \(name) (carnet group list shows them)"
        case let .ambiguousGroup(name, ids):
            return "\(ids.count) groups are named \(name): give one of their ids (\(ids.map(String.init).joined(separator: ", ")))"
        case let .noContactMatches(search):
            return "no contact matches \(search.debugDescription) (carnet list --search shows what a search finds)"
        case let .severalContactsMatch(search, candidates, total):
            let more = total > candidates.count ? "\n  … and \(total - candidates.count) more" : ""
            let width = candidates.map { String($0.id).count }.max() ?? 0
            return "\(total) contacts match \(search.debugDescription): give one's id, or more words\n"
                + candidates.map { candidate in
                    let id = String(candidate.id)
                    return "  " + String(repeating: " ", count: width - id.count) + id + "  " + candidate.candidateLine
                }.joined(separator: "\n") + more
        }
    }
}

/// Why a file Carnet would open is not trusted, as ssh distrusts a key file others could write.
public enum UnsafeFileReason: Sendable, Equatable, CustomStringConvertible {
    /// Owned by a user other than this process's effective user (or root).
    case ownedByAnotherUser(uid: UInt32)
    /// Group or others may write it (`mode & 0o022`); `mode` is the permission bits.
    case writableByOthers(mode: UInt32)
    /// A `-wal` or `-shm` file that is a symbolic link (SQLite would write through it).
    case symbolicLink

    public var description: String {
        switch self {
        case let .ownedByAnotherUser(uid):
            return "it belongs to another user (uid \(uid)), who could have planted or changed it; remove it, or copy it to a file of your own if you trust it"
        case let .writableByOthers(mode):
            let octal = String(mode & 0o7777, radix: 8)
            return "group or others may write it (mode \(String(repeating: "0", count: max(0, 4 - octal.count)) + octal)), so anyone could have planted or changed it; if it is yours, `chmod go-w` it, otherwise remove it"
        case .symbolicLink:
            return "it is a symbolic link where SQLite expects a plain file of its own; remove it"
        }
    }
}

/// Two versions of a record that both moved on from the same starting point: the one an edit
/// started from, and the one someone else saved meanwhile; plus what the edit wanted to save.
public struct Conflict<Record: EditableRecord>: Sendable, Equatable, CustomStringConvertible {
    /// The record as it was when the edit started.
    public let base: Record
    /// The record as it is in the database now, saved by someone else.
    public let current: Record
    /// What this edit wanted to save.
    public let mine: Record.Draft

    public init(base: Record, current: Record, mine: Record.Draft) {
        self.base = base
        self.current = current
        self.mine = mine
    }

    /// The fields the other writer changed since the edit started.
    public var changedFields: [Field] { current.draft.differences(from: base.draft) }

    /// What happened, without the way out (which depends on the screen: a flag, a command).
    public var summary: String {
        let fields = changedFields.map(\.rawValue).joined(separator: ", ")
        let what = fields.isEmpty ? "it was saved again" : "changed: \(fields)"
        return "\(Record.kind.rawValue) \(current.id) was changed by someone else since this edit started (\(what))"
    }

    /// The summary and the command line's ways out.
    public var description: String { summary + "; reload it, or overwrite with --force" }
}

/// A conflict on a contact or on a quote: the one error case (`CarnetError/conflict(_:)`)
/// for both kinds of record, each carrying its `Conflict`.
public enum RecordConflict: Sendable, Equatable, CustomStringConvertible {
    case contact(ContactConflict)
    case quote(QuoteConflict)

    /// What happened, without the way out.
    public var summary: String {
        switch self {
        case let .contact(conflict): conflict.summary
        case let .quote(conflict): conflict.summary
        }
    }

    /// The fields the other writer changed since the edit started.
    public var changedFields: [Field] {
        switch self {
        case let .contact(conflict): conflict.changedFields
        case let .quote(conflict): conflict.changedFields
        }
    }

    /// The version the other writer saved, which an overwrite goes over.
    public var currentVersion: Int {
        switch self {
        case let .contact(conflict): conflict.current.version
        case let .quote(conflict): conflict.current.version
        }
    }

    public var description: String {
        switch self {
        case let .contact(conflict): conflict.description
        case let .quote(conflict): conflict.description
        }
    }
}

/// Two versions of a contact that both moved on from the same starting point.
public typealias ContactConflict = Conflict<Contact>

/// Two versions of a quote that both moved on from the same starting point.
public typealias QuoteConflict = Conflict<Quote>
