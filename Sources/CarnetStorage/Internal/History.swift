import Foundation
import GRDB

/// Undo, redo and the history, on SQLite's session extension.
///
/// Every write records, in its own transaction, a changeset of what it changed (SQLite keeps
/// each row's values from before the first change and builds the changeset from them and the
/// row as it is at the end): one `history` row, with the changeset in it for an action of one
/// part (most), or in `history_changesets` parts for a long one (an import). Undo
/// applies the inverse of the changesets, newest part first; SQLite checks, row by row, that
/// what it changes back is as the action left it, and the conflict handler stops at the first
/// row that is not, rolling back everything the undo wrote. The undo's own changes are recorded
/// the same way, in place of the action's, so redo is the same step in the other direction.
///
/// An action written in parts (an import, a first sync down, the undo or redo of one) keeps the
/// rows it inserted by their keys alone, not their values: undoing an insert deletes the row by
/// its key, and what a redo needs is recorded by the undo, which reads each row as it deletes it.
/// At a million contacts an import's history is a few megabytes instead of sixty. What that gives
/// up: the undo does not check that a row it deletes is as the action left it. Every change
/// Carnet makes after the action is in the history and is undone first, so only a change made
/// outside Carnet (with sqlite3) to such a row goes unseen, and goes with the row. An action of
/// one part (an edit, a short import) keeps every value, and its undo checks them.
///
/// An undo or redo is a new change to each contact and quote it saves back, not a return to an
/// old version number: it writes the old values with a version above any the row had and the
/// time of the undo. An editor that read the contact before the undo finds a newer version and
/// gets a conflict, never silently overwrites the restored values; an export or sync sees the
/// contact as changed. (A contact an undo brings back from deletion keeps its id and uid.)
enum History {
    /// The tables an action's changes are recorded from, in the order a changeset lists them:
    /// the rows that refer to a contact before the contact, so an undo that removes a contact
    /// removes its rows itself rather than finding them gone by ON DELETE CASCADE. Not `history`
    /// itself, not `sqlite_sequence` (an id, once issued, stays issued after an undo). The
    /// address books come last: the contacts refer to them.
    static let tables: [String] = recorded.map(\.name)

    /// `tables` with the columns of each one's primary key, by index: the recorder is told them
    /// rather than asking SQLite in every transaction (HistoryTests holds them to the schema).
    static let recorded: [(name: String, key: [Int32])] =
        [("favorites", [0])] + ContactChildTable.all.map { ($0.name, [0, 1]) }
        + [("contact_uid_aliases", [0]), ("different_people", [0, 1]), ("contacts", [0]), ("quotes", [0]), ("address_books", [0])]

    /// The tables whose first key column is a contact's id.
    static let contactTables: [String] = ["favorites"] + ContactChildTable.all.map(\.name) + ["contacts"]

    /// A long action (an import) writes out the changes recorded so far as a part once the
    /// session holds this much memory, so no part, and no undo of it, holds a million rows at
    /// once: the recorder, its changeset and an undo's inverse of it are each about this size, a
    /// few megabytes whatever the action's size.
    static let partMemory: Int64 = 4 << 20

    /// This process, as the history names who did, undid or redid an action (schema 22), so a
    /// program told of a commit knows whether it made it itself.
    static var processID: Int64 { Int64(getpid()) }

    /// Whether the file's history has the `pid` column (schema 22 on; a controller made with
    /// fewer migrations, as tests of older files are, writes without it). GRDB caches the
    /// columns per connection: this asks SQLite once.
    static func recordsProcess(_ db: Database) throws -> Bool {
        try db.columns(in: "history").contains { $0.name == "pid" }
    }

    /// The number of actions kept when `history_settings` says nothing.
    static let defaultKeep = 1000
    static let maximumKeep = 1_000_000
}
