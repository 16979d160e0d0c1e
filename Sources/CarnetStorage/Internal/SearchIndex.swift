import CSQLiteConfig
import CarnetModels
import Foundation
import GRDB

/// The full-text index, `contact_search`: an FTS5 table that keeps no copy of its text
/// (`content = ''`, schema 16) and whose documents are made in one place, `CarnetModels/SearchDocument`.
/// It holds people only (schema 19): a search lists contacts, and a group card is not one, so
/// what the index matches needs no other filter. Groups are found by name, in `GroupsViewModel`.
///
/// Carnet indexes each contact as it writes it, on connections that run with triggers off. A
/// write by another program (sqlite3) to a contact or a searched list fires a trigger that marks
/// the index out of date (`contact_search_outdated`); Carnet then rebuilds it from the contacts
/// before its next write or search (`catchUp(_:)`), so a document is never taken out with text other than
/// what was put in. A migration runs with triggers on (``withTriggers(_:_:)``), so one that
/// changes contacts marks the index out of date as sqlite3 would.
enum SearchIndex {
    /// The schema that keeps no text in the index and marks it out of date on others' writes.
    static let outdatedMarkSchema = 16
    static let columns = SearchDocument.columns.joined(separator: ", ")
    /// One row of VALUES, never `INSERT … SELECT`: a statement that may write several rows opens
    /// a statement journal, and FTS5 writes its pending data to disk at each such savepoint.
    static let addSQL = "INSERT INTO contact_search (rowid, \(columns)) VALUES (?, \(databaseQuestionMarks(count: SearchDocument.columns.count)))"
    static let removeSQL = """
        INSERT INTO contact_search (contact_search, rowid, \(columns))
        VALUES ('delete', ?, \(databaseQuestionMarks(count: SearchDocument.columns.count)))
        """

    // MARK: Triggers

    /// Switches the connection's triggers off (Carnet's connections) or on.
    static func setTriggers(_ db: Database, enabled: Bool) throws {
        guard carnet_sqlite3_enable_triggers(db.sqliteConnection, enabled ? 1 : 0) == (enabled ? 1 : 0) else {
            throw CarnetError.database("SQLite would not turn triggers \(enabled ? "on" : "off")")
        }
    }

    /// Runs `body` with the connection's triggers on: a migration, which the triggers index as
    /// they would for sqlite3.
    static func withTriggers<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try setTriggers(db, enabled: true)
        let result: T
        do {
            result = try body()
        } catch {
            try? setTriggers(db, enabled: false)
            throw error
        }
        try setTriggers(db, enabled: false)
        return result
    }

    // MARK: Carnet's writes

    /// Indexes a contact whose rows were just written from `draft` (a group card is not indexed).
    static func add(_ db: Database, id: Int64, _ draft: ContactDraft) throws {
        guard let texts = texts(draft) else { return }
        try db.cachedStatement(sql: addSQL).execute(arguments: arguments(id, texts))
    }

    /// The document the index holds for `draft`: none for a group card.
    private static func texts(_ draft: ContactDraft) -> [String]? {
        draft.kind == .group ? nil : SearchDocument(draft).texts
    }

    /// Runs `write`, which changes contact `id`'s rows from `stored` to `draft`, and replaces its
    /// document when its texts changed (an edit of a photo or a date leaves the index alone).
    static func replace(_ db: Database, id: Int64, from stored: ContactDraft, to draft: ContactDraft, _ write: () throws -> Bool) throws -> Bool {
        guard try write() else { return false }
        let before = texts(stored)
        let after = texts(draft)
        if before != after {
            if let before { try remove(db, id: id, document: before) }
            if let after { try db.cachedStatement(sql: addSQL).execute(arguments: arguments(id, after)) }
        }
        return true
    }

    /// Puts contact `id`'s document in the index as its rows are now, after writes made past
    /// Carnet's own indexing (an undo or redo applied as a changeset) and after
    /// ``remove(_:id:document:)`` took the old one out. Returns whether the contact exists.
    @discardableResult
    static func reindex(_ db: Database, id: Int64) throws -> Bool {
        let stored = try document(db, id: id)
        if let texts = stored.texts { try db.cachedStatement(sql: addSQL).execute(arguments: arguments(id, texts)) }
        return stored.exists
    }

    /// Takes contact `id` out of the index, before its rows are deleted.
    static func remove(_ db: Database, id: Int64) throws {
        guard let before = try document(db, id: id).texts else { return }
        try remove(db, id: id, document: before)
    }

    /// Takes contact `id`'s `document` out of the index: what ``document(_:id:)`` read before
    /// its rows were changed past Carnet's own indexing (an undo or redo).
    static func remove(_ db: Database, id: Int64, document: [String]) throws {
        try db.cachedStatement(sql: removeSQL).execute(arguments: arguments(id, document))
    }

    /// Whether contact `id` exists, and its document as its rows are now, column by column (nil
    /// for a group card, which has none). While the index is up to date, that is what it holds.
    ///
    /// Read from the searched columns and lists alone, in two statements (the row, then every
    /// searched list at once), rather than as the whole contact (a statement per child table, the
    /// photo, the dates): an undo reads the document of each contact it changes twice, before and
    /// after, and whole contacts made it cost half as much again as the edit it takes back.
    static func document(_ db: Database, id: Int64) throws -> (exists: Bool, texts: [String]?) {
        let statement = try db.cachedStatement(sql: documentRowSQL)
        let at = try searchedColumns.map { try index(of: $0.column, in: statement) }
        let kind = try index(of: "kind", in: statement)
        guard let row = try Row.fetchOne(statement, arguments: [id]) else { return (false, nil) }
        guard try row.decode(String.self, atIndex: kind) != ContactKind.group.rawValue else { return (true, nil) }
        var draft = ContactDraft()
        for (column, index) in zip(searchedColumns, at) {
            draft[keyPath: column.keyPath] = try row.decode(String.self, atIndex: index)
        }
        guard try readLists(db, id: id, into: &draft) else {
            // Rows out of order (SQLite does not promise the order of a UNION ALL without ORDER
            // BY, though it keeps it): the whole contact, read as every other read reads it.
            let contact = try StorageController.fetchContact(db, id: id)
            return (contact != nil, contact.flatMap { texts($0.draft) })
        }
        return (true, SearchDocument(draft).texts)
    }

    /// Appends contact `id`'s entries of `searchedTables` to `draft`'s lists, in one statement;
    /// false, leaving `draft` part-filled, if the rows did not come in table and position order.
    private static func readLists(_ db: Database, id: Int64, into draft: inout ContactDraft) throws -> Bool {
        let statement = try db.cachedStatement(sql: documentListsSQL)
        let (list, position) = (try index(of: "list", in: statement), try index(of: "position", in: statement))
        let values = try (0..<listValueCount).map { try index(of: "value\($0 + 1)", in: statement) }
        let at = searchedTables.map { Array(values.prefix($0.columns.count)) }
        let rows = try Row.fetchCursor(statement, arguments: [id])
        var last = (table: -1, position: Int64.min)
        while let entry = try rows.next() {
            let table = try entry.decode(Int.self, atIndex: list)
            let place = try entry.decode(Int64.self, atIndex: position)
            guard searchedTables.indices.contains(table), (table, place) > last else { return false }
            last = (table, place)
            try searchedTables[table].read(entry, at[table], &draft)
        }
        return true
    }

    /// Where `column` is in `statement`'s rows (looked up by name, as every read does).
    private static func index(of column: String, in statement: Statement) throws -> Int {
        guard let index = statement.index(ofColumn: column) else {
            throw CarnetError.database("a search document was read without its \(column) column")
        }
        return index
    }

    /// The text columns of `contacts` whose fields a search looks in, with where each goes in a
    /// draft: every field `SearchDocument` reads from the row.
    static let searchedColumns: [(column: String, keyPath: WritableKeyPath<ContactDraft, String> & Sendable)] =
        ContactFields.columns.compactMap { spec in
            guard spec.searchable, let column = spec.column, let keyPath = spec.text ?? spec.multilineText else { return nil }
            return (column, keyPath)
        }

    /// The child tables whose entries a search looks in.
    static let searchedTables: [ContactChildTable] = ContactChildTable.all.filter { ContactFields.spec($0.field)?.searchable == true }

    /// The names of `searchedTables`.
    static let searchedTableNames: Set<String> = Set(searchedTables.map(\.name))

    private static let documentRowSQL = "SELECT kind, \(searchedColumns.map(\.column).joined(separator: ", ")) FROM contacts WHERE id = ?"

    /// A contact's rows of every table of `searchedTables`, in one statement: each row is the
    /// table's place in that list (`list`), the position, then the table's value columns as
    /// `value1`, `value2`, … (padded with NULL to the widest table's). No ORDER BY: each table's rows come by its primary key,
    /// (contact_id, position), and the tables one after the other, where an ORDER BY made a
    /// sorter for each table (`readLists` checks the order).
    private static let documentListsSQL: String = searchedTables.enumerated().map { index, table in
        let values = (0..<listValueCount).map { i in (i < table.columns.count ? table.columns[i] : "NULL") + " AS value\(i + 1)" }
        return "SELECT \(index) AS list, position, \(values.joined(separator: ", ")) FROM \(table.name) WHERE contact_id = ?1"
    }.joined(separator: " UNION ALL ")

    /// The value columns of a row of `documentListsSQL`: the widest table's.
    private static let listValueCount = searchedTables.map(\.columns.count).max() ?? 0

    /// The contacts whose document `changes` (a changeset about to be applied) may change: those
    /// it inserts or deletes, those whose searched columns or kind it updates (a card that turns
    /// from a group into a person gains a document), those whose searched lists it writes. An
    /// undo of a change to a photo, a date, a favorite or a version number leaves the index alone.
    static func contactsWhoseDocumentChanges(_ db: Database, _ changes: Data) throws -> Set<Int64> {
        // GRDB keeps each table's columns for the connection: no statement per undo.
        let columns = try db.columns(in: "contacts").map(\.name)
        let searched = columns.indices.filter { searchedColumnNames.contains(columns[$0]) }
        var ids = Set<Int64>()
        try Changeset.walk(changes) { change in
            let changesText: Bool
            switch change.table {
            case "contacts": changesText = change.operation != .update || searched.contains { change.sets($0) }
            case let table: changesText = searchedTableNames.contains(table)
            }
            if changesText, let id = change.firstInteger { ids.insert(id) }
        }
        return ids
    }

    private static let searchedColumnNames: Set<String> = Set(searchedColumns.map(\.column) + ["kind"])

    // MARK: Writes by other programs

    /// Whether another program wrote to the contacts since Carnet last indexed them.
    static func isOutdated(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM contact_search_outdated)")) ?? false
    }

    /// Rebuilds the index if another program wrote to the contacts since it was last built:
    /// called at the start of every write transaction, before anything is taken out of it.
    static func catchUp(_ db: Database) throws {
        if try isOutdated(db) { try rebuild(db) }
    }

    /// Makes the whole index anew from the contacts, a thousand at a time. Returns how many
    /// documents it holds.
    @discardableResult
    static func rebuild(_ db: Database) throws -> Int {
        try db.execute(sql: "INSERT INTO contact_search (contact_search) VALUES ('delete-all')")
        let page = "SELECT \(StorageController.contactColumns) FROM contacts WHERE id > ? AND kind = 'individual' ORDER BY id LIMIT 1000"
        var last: Int64 = .min
        var count = 0
        while true {
            let contacts = try StorageController.fetchContacts(db, sql: page, arguments: [last], capacity: 1000)
            guard let end = contacts.last else { break }
            for contact in contacts { try add(db, id: contact.id, contact.draft) }
            count += contacts.count
            last = end.id
        }
        try db.execute(sql: "DELETE FROM contact_search_outdated")
        return count
    }

    /// How many documents the index holds. Since schema 8 it keeps no row per document
    /// (`columnsize = 0`, no `contact_search_docsize`), so this reads FTS5's totals record (row 1
    /// of `contact_search_data`, kept at every commit), which starts with the number of documents
    /// as an SQLite varint. Schema 6's files have the same record.
    static func documentCount(_ db: Database) throws -> Int {
        guard let totals = try Data.fetchOne(db, sql: "SELECT block FROM contact_search_data WHERE id = 1") else { return 0 }
        var count: UInt64 = 0
        for (index, byte) in totals.prefix(9).enumerated() {
            // The ninth byte of a varint gives all its eight bits.
            if index == 8 { return Int(truncatingIfNeeded: count << 8 | UInt64(byte)) }
            count = count << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { break }
        }
        return Int(truncatingIfNeeded: count)
    }

    private static func arguments(_ id: Int64, _ document: [String]) -> StatementArguments {
        var values: [(any DatabaseValueConvertible)?] = [id]
        values.reserveCapacity(document.count + 1)
        for text in document { values.append(text) }
        return StatementArguments(values)
    }

    // MARK: Queries

    /// The FTS5 query for `query`: each word a quoted phrase (so `"`, `*`, `:`, `-` and `OR` in
    /// it are text), prefix-matched, every term required.
    static func matchExpression(_ query: SearchQuery) -> String {
        query.terms.map(expression).joined(separator: " AND ")
    }

    /// Every term in the names column.
    static func namesAllExpression(_ query: SearchQuery) -> String {
        "{names} : (" + matchExpression(query) + ")"
    }

    /// Some term in the names column.
    static func namesAnyExpression(_ query: SearchQuery) -> String {
        "{names} : (" + query.terms.map(expression).joined(separator: " OR ") + ")"
    }

    private static func expression(_ term: SearchQuery.Term) -> String {
        let alternatives = term.alternatives.map { phrases in
            phrases.count == 1 ? phrase(phrases[0]) : "(" + phrases.map(phrase).joined(separator: " AND ") + ")"
        }
        return alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " OR ") + ")"
    }

    private static func phrase(_ phrase: SearchQuery.Phrase) -> String {
        // Digits only: no quote to double, and the number after a 0 too (Phrase.isNumber).
        if phrase.isNumber { return "(\"" + phrase.words[0] + "\"* OR \"0" + phrase.words[0] + "\"*)" }
        return phrase.words.joined(separator: " ").doubleQuoted + "*"
    }

    /// The condition on `contacts` that keeps the contacts matching `query`.
    static let matchCondition = "id IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ?)"

    /// The rank of a matching contact (see ``CarnetModels/SearchQuery/rank(_:)``): its arguments
    /// are ``namesAllExpression(_:)`` and ``namesAnyExpression(_:)``.
    static let rankExpression = """
        CASE WHEN id IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ?) THEN 0
             WHEN id IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ?) THEN 1 ELSE 2 END
        """
}
