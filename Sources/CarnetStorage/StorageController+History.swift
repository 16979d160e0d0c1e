import CarnetModels
import Foundation
import GRDB

extension StorageController {
    static func historyEntry(_ row: Row) -> HistoryEntry {
        HistoryEntry(
            id: row["id"], time: Timestamp.date(row["time"] as String? ?? "") ?? .distantPast,
            kind: HistoryKind(rawValue: row["kind"]), subject: row["subject"], summary: row["summary"],
            isUndone: row["undone"] as Bool? ?? false, bytes: row["bytes"] as Int? ?? 0)
    }

    private static let entryColumns = "id, time, kind, subject, summary, undone, bytes"

    /// The oldest undone action: the undone ones are always the newest, so it is the first after
    /// the newest action not undone (both found from the end of the table, with no index).
    private static let oldestUndone = """
        WHERE undone = 1 AND id > coalesce((SELECT id FROM history WHERE undone = 0 ORDER BY id DESC LIMIT 1), 0) ORDER BY id LIMIT 1
        """

    static func fetchEntries(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [HistoryEntry] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT \(entryColumns) FROM history " + sql), arguments: arguments).map(historyEntry)
    }

    static func fetchStatus(_ db: Database) throws -> HistoryStatus {
        HistoryStatus(
            nextUndo: try fetchEntries(db, sql: "WHERE undone = 0 ORDER BY id DESC LIMIT 1").first,
            nextRedo: try fetchEntries(db, sql: oldestUndone).first)
    }

    /// The newest `limit` actions, newest first.
    public func history(limit: Int = 20) throws(CarnetError) -> [HistoryEntry] {
        guard limit > 0 else { return [] }
        return try read { db in try Self.fetchEntries(db, sql: "ORDER BY id DESC LIMIT ?", arguments: [limit]) }
    }

    /// What undo and redo would do next.
    public func historyStatus() throws(CarnetError) -> HistoryStatus {
        try read { db in try Self.fetchStatus(db) }
    }

    /// How many actions the file keeps (1,000 unless set).
    public func historyKeep() throws(CarnetError) -> Int {
        try read { db in try HistoryRecorder.keepSetting(db) }
    }

    /// Keeps the newest `keep` actions from now on (0 records none), trimming the older ones now.
    public func setHistoryKeep(_ keep: Int) throws(CarnetError) {
        guard (0...History.maximumKeep).contains(keep) else {
            throw .invalid([FieldIssue(.position, "history --keep must be between 0 and \(History.maximumKeep) (got \(keep))")])
        }
        try write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO history_settings (id, keep) VALUES (1, ?)", arguments: [keep])
            try HistoryRecorder.trim(db, keep: keep, force: true)
        }
    }

    /// Undoes the newest action not undone, whichever process made it.
    /// - Throws: `CarnetError.history(_:)` (`.nothingToUndo`) or
    ///   `CarnetError.historyConflict(_:)` when a row it touched was changed outside
    ///   the history since; nothing is written either way.
    @discardableResult
    public func undo() throws(CarnetError) -> HistoryStep {
        try write { db in
            guard let entry = try Self.fetchEntries(db, sql: "WHERE undone = 0 ORDER BY id DESC LIMIT 1").first else {
                throw CarnetError.history(.nothingToUndo)
            }
            return try Self.toggle(db, [entry], undoing: true)
        }
    }

    /// Redoes the oldest undone action.
    @discardableResult
    public func redo() throws(CarnetError) -> HistoryStep {
        try write { db in
            guard let entry = try Self.fetchEntries(db, sql: Self.oldestUndone).first else {
                throw CarnetError.history(.nothingToRedo)
            }
            return try Self.toggle(db, [entry], undoing: false)
        }
    }

    /// Undoes action `id` and every action after it that is not undone yet, newest first, in one
    /// transaction: all of them, or (on a conflict) none.
    @discardableResult
    public func undo(to id: Int64) throws(CarnetError) -> HistoryStep {
        try write { db in
            guard let target = try Self.fetchEntries(db, sql: "WHERE id = ?", arguments: [id]).first else {
                throw CarnetError.history(.unknownAction(id))
            }
            if target.isUndone { throw CarnetError.history(.alreadyUndone(id)) }
            let entries = try Self.fetchEntries(db, sql: "WHERE undone = 0 AND id >= ? ORDER BY id DESC", arguments: [id])
            return try Self.toggle(db, entries, undoing: true)
        }
    }

    /// Undoes (or redoes) `entries` in that order, inside the caller's transaction.
    private static func toggle(_ db: Database, _ entries: [HistoryEntry], undoing: Bool) throws -> HistoryStep {
        let now = Timestamp.string(Timestamp.now())
        let bookkeeping = [try Changeset.Bookkeeping(db, table: "contacts"), try Changeset.Bookkeeping(db, table: "quotes")]
        var contactIDs = IDRanges()
        var relinked: [RelinkedBook] = []
        var done: [HistoryEntry] = []
        for entry in entries {
            // One part in the row (part 0 here), or the parts of a long action in their table.
            let inline = try Data.fetchOne(db.cachedStatement(sql: "SELECT changeset FROM history WHERE id = ?"), arguments: [entry.id])
                .map(StoredChanges.changes)
            var recordedInline: Data?
            let parts = inline != nil ? [0] : try Int.fetchAll(
                db.cachedStatement(sql: "SELECT part FROM history_changesets WHERE action_id = ? ORDER BY part"), arguments: [entry.id])
            // A done action's parts were made in part order, so undo goes back from the last; an
            // undone one's parts were made from the last part down, so redo goes up from the first.
            let order = undoing ? Array(parts.reversed()) : parts
            var bytes = 0
            for part in order {
                guard let changes = try part == 0 ? inline : Data.fetchOne(
                    db.cachedStatement(sql: "SELECT changeset FROM history_changesets WHERE action_id = ? AND part = ?"),
                    arguments: [entry.id, part]).map(StoredChanges.changes)
                else { continue }
                let inverse = try Changeset.invert(changes)
                // The version each contact and quote had before this part (or, for one it brings
                // back, the version it had when it was deleted): it saves them back above it, so
                // a version number never names two different states of a row. Kept per part, so
                // an undo of a million rows holds one part's versions at a time.
                var before: [[Int64: Int64]] = bookkeeping.map { _ in [:] }
                for (index, table) in bookkeeping.enumerated() {
                    let current = try db.cachedStatement(sql: "SELECT version FROM \(table.table) WHERE id = ?")
                    for row in try Changeset.versionedRows(inverse, table: table.table, versionColumn: table.version)
                    where before[index][row.id] == nil {
                        before[index][row.id] = try Int64.fetchOne(current, arguments: [row.id]) ?? row.version
                    }
                }
                var touched: [Int64] = []
                var seen = Set<Int64>()
                for id in try Changeset.contactIDs(inverse) where seen.insert(id).inserted { touched.append(id) }
                for id in touched { contactIDs.insert(id) }
                let session = try ChangeSession(db)
                defer { session.close() }
                // The changeset is applied with triggers off, as Carnet's connections write: what
                // the schema's triggers do for other writers is done here, for each contact the
                // part touches (with triggers on, an FTS document rebuilt for every row the part
                // changes made the undo of one edit five times the edit). For each contact whose
                // searched text the part changes, its search document as the index holds it is
                // read before, and replaced by the new one after; one that was deleted leaves its
                // sync tombstones. Nothing is written before the changeset applies, so a conflict
                // leaves the file as it was.
                let reindexed = try SearchIndex.contactsWhoseDocumentChanges(db, inverse)
                touched.removeAll { !reindexed.contains($0) }
                var documents: [Int64: [String]] = [:]
                var links: [Int64: [Row]] = [:]
                for id in touched {
                    let stored = try SearchIndex.document(db, id: id)
                    guard stored.exists else { continue }
                    documents[id] = stored.texts
                    links[id] = try syncLinks(db, contactID: id)
                }
                // A book this part deletes sets its sync link aside (a cascade would delete it),
                // and one it brings back takes its link again.
                let books = Set(try Changeset.keys(inverse, tables: ["address_books"])).sorted()
                let booksBefore = try books.filter { id in
                    try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM address_books WHERE id = ?)"), arguments: [id]) ?? false
                }
                try setSyncLinksAside(db, bookIDs: booksBefore)
                do {
                    try Changeset.apply(inverse, to: db, bookkeeping: bookkeeping)
                } catch let conflict as Changeset.Conflict {
                    throw CarnetError.historyConflict(HistoryConflict(entry: entry, undoing: undoing, changed: conflict.words))
                }
                for id in touched {
                    if let document = documents[id] { try SearchIndex.remove(db, id: id, document: document) }
                    if try !SearchIndex.reindex(db, id: id) { try leaveTombstones(db, links[id] ?? []) }
                }
                // A part that renames a book sets its link aside and takes it again: not news.
                relinked += try bringSyncLinksBack(db, bookIDs: books).filter { !booksBefore.contains($0.id) }.map(\.book)
                for (table, versions) in zip(bookkeeping, before) {
                    let save = try db.cachedStatement(sql: "UPDATE \(table.table) SET version = ?, updated_at = ? WHERE id = ?")
                    for (id, version) in versions { try save.execute(arguments: [version + 1, now, id]) }
                }
                let recorded = StoredChanges.stored(try session.changeset(insertsByKey: part != 0))
                bytes += recorded.count
                if part == 0 {
                    recordedInline = recorded
                } else {
                    try db.cachedStatement(sql: "UPDATE history_changesets SET changeset = ? WHERE action_id = ? AND part = ?")
                        .execute(arguments: [recorded, entry.id, part])
                }
            }
            try db.cachedStatement(sql: "UPDATE history SET undone = ?, bytes = ?, changeset = ? WHERE id = ?")
                .execute(arguments: [undoing, bytes, recordedInline, entry.id])
            if try History.recordsProcess(db) {
                try db.cachedStatement(sql: "UPDATE history SET pid = ? WHERE id = ?").execute(arguments: [History.processID, entry.id])
            }
            done.append(HistoryEntry(
                id: entry.id, time: entry.time, kind: entry.kind, subject: entry.subject, summary: entry.summary,
                isUndone: undoing, bytes: bytes))
        }
        return HistoryStep(entries: done, contactIDs: contactIDs, relinked: relinked)
    }
}

extension StorageController {
    /// Drops the actions recorded before `date`, oldest first, with their changes: they can no
    /// longer be undone. Undo goes back newest first, so the oldest actions are the ones no other
    /// undo needs; an undone action (on the redo list) is never dropped, nor anything after it,
    /// so what can be redone still can. Times only grow with ids as long as clocks do: the drop
    /// stops at the first action from `date` on, so a later action with an earlier time (a clock
    /// set back) stays too. The rows' pages become free pages of the file, which keeps its size
    /// until `compact(availableBytes:)`.
    @discardableResult
    public func pruneHistory(before date: Date) throws(CarnetError) -> HistoryPrune {
        let cutoff = Timestamp.string(date)
        return try write { db in
            // The ids only grow: the first action to keep bounds what goes (all of it, when none
            // is to be kept).
            let firstKept = try Int64.fetchOne(db, sql: """
                SELECT id FROM history WHERE time >= ? OR undone = 1 ORDER BY id LIMIT 1
                """, arguments: [cutoff]) ?? Int64.max
            let dropped = try Row.fetchOne(db, sql: """
                SELECT count(*) AS actions, coalesce(sum(bytes), 0) AS bytes FROM history WHERE id < ?
                """, arguments: [firstKept])
            // Their parts in history_changesets go with them (ON DELETE CASCADE).
            try db.execute(sql: "DELETE FROM history WHERE id < ?", arguments: [firstKept])
            let pageSize = try Int64.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            let freePages = try Int64.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            return HistoryPrune(
                actions: dropped?["actions"] ?? 0, bytes: dropped?["bytes"] ?? 0,
                oldestKept: try Self.fetchEntries(db, sql: "ORDER BY id LIMIT 1").first, freeBytes: pageSize * freePages)
        }
    }
}
