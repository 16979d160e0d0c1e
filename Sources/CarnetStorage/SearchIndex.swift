import CarnetModels
import GRDB

/// The full-text index of schema 6 (`migrations/0006_search.sql`): `contact_search`, an FTS5 table
/// over the view `contact_search_source`, kept in step by triggers on `contacts` and its child
/// tables.
///
/// The triggers take a contact's document out of the index before each row of it changes and put
/// it back after; FTS5 writes its pending data to disk whenever a document it holds is replaced,
/// so a contact written row by row would cost an import ten times its time. Carnet's own writes
/// hold the triggers back instead (a row in `contact_search_deferred`, only ever inside the write
/// transaction) and index each contact once, after its rows are written.
enum SearchIndex {
    static let columns = SearchColumn.allCases.map(\.rawValue).joined(separator: ", ")
    static let holdSQL = "INSERT INTO contact_search_deferred (held) VALUES (1)"
    static let releaseSQL = "DELETE FROM contact_search_deferred"
    static let addSQL = "INSERT INTO contact_search (rowid, \(columns)) SELECT id, \(columns) FROM contact_search_source WHERE id = ?"
    static let sourceSQL = "SELECT \(columns) FROM contact_search_source WHERE id = ?"
    static let removeSQL = """
        INSERT INTO contact_search (contact_search, rowid, \(columns))
        VALUES ('delete', ?, \(databaseQuestionMarks(count: SearchColumn.allCases.count)))
        """

    /// Runs `body` (which writes contacts' rows and calls ``add(_:id:)`` or ``replace(_:id:_:)``
    /// for each) with the triggers held back. The hold is released before this returns, also when
    /// `body` throws, so a caller that goes on in the same transaction finds the triggers working.
    static func holdingTriggers<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: holdSQL).execute()
        let result: T
        do {
            result = try body()
        } catch {
            try db.cachedStatement(sql: releaseSQL).execute()
            throw error
        }
        try db.cachedStatement(sql: releaseSQL).execute()
        return result
    }

    /// Indexes a contact whose rows were just written (inside ``holdingTriggers(_:_:)``).
    static func add(_ db: Database, id: Int64) throws {
        try db.cachedStatement(sql: addSQL).execute(arguments: [id])
    }

    /// Runs `write`, which changes contact `id`'s rows (inside ``holdingTriggers(_:_:)``), and
    /// replaces its document when its texts changed: an edit of a photo or a date leaves the
    /// index alone.
    static func replace<T>(_ db: Database, id: Int64, _ write: () throws -> T) throws -> T {
        let before = try document(db, id: id)
        let result = try write()
        let after = try document(db, id: id)
        if before != after {
            if let before {
                var arguments: StatementArguments = [id]
                _ = arguments.append(contentsOf: StatementArguments(before))
                try db.cachedStatement(sql: removeSQL).execute(arguments: arguments)
            }
            if after != nil { try add(db, id: id) }
        }
        return result
    }

    /// What the index holds (or would hold) for contact `id`, column by column.
    static func document(_ db: Database, id: Int64) throws -> [String]? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: sourceSQL), arguments: [id]) else { return nil }
        return (0..<row.count).map { row[$0] as String? ?? "" }
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
        "\"" + phrase.words.joined(separator: " ").replacingOccurrences(of: "\"", with: "\"\"") + "\"*"
    }

    /// The condition on `contacts` (as `column`) that keeps the contacts matching `query`.
    static let matchCondition = "id IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ?)"

    /// The rank of a matching contact (see ``CarnetModels/SearchQuery/rank(_:)``): its arguments
    /// are ``namesAllExpression(_:)`` and ``namesAnyExpression(_:)``.
    static let rankExpression = """
        CASE WHEN id IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ?) THEN 0
             WHEN id IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ?) THEN 1 ELSE 2 END
        """
}
