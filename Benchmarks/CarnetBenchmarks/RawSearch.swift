import CarnetModels
import GRDBSQLite

/// The raw side of a search: the FTS5 query a person would write with sqlite3 for the same
/// answer as Carnet's first page sorted by relevance (the contacts matching every word as a
/// prefix, those with every word in their names first, then some, then the rest, each group by
/// name), then the page's lists by one statement per child table, as ``RawPager`` reads them.
final class RawSearch {
    private let statement: OpaquePointer
    private let pages: RawPageReader

    init(_ db: RawConnection, limit: Int) throws {
        statement = try db.prepare("""
            SELECT \(rawContactColumns) FROM (
                SELECT *, CASE WHEN id IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ?1) THEN 0
                               WHEN id IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ?2) THEN 1 ELSE 2 END AS search_rank
                FROM contacts)
            WHERE id IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ?3)
            ORDER BY search_rank, name, id LIMIT \(limit + 1)
            """)
        pages = try RawPageReader(db, limit: limit)
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// The FTS5 expressions for `words` (plain words: each a quoted prefix).
    static func expressions(_ words: [String]) -> (all: String, namesAll: String, namesAny: String) {
        let phrases = words.map { "\"\($0)\"*" }
        let all = phrases.joined(separator: " AND ")
        return (all, "{names} : (\(all))", "{names} : (\(phrases.joined(separator: " OR ")))")
    }

    /// The first `limit` contacts matching `words`, best first, with their lists.
    func first(_ words: [String]) throws -> ContactPage {
        let (all, namesAll, namesAny) = Self.expressions(words)
        rawBindText(statement, 1, namesAll)
        rawBindText(statement, 2, namesAny)
        rawBindText(statement, 3, all)
        return try pages.read(statement, what: "search")
    }
}

/// The same contacts as an abook data file (`abook --datafile FILE --mutt-query TEXT`): name
/// and emails, which is what a mutt query reads.
func writeAbookFile(_ drafts: [ContactDraft], to path: String) throws {
    var text = "[format]\nprogram=abook\nversion=0.6.1\n\n"
    for (i, draft) in drafts.enumerated() {
        text += "[\(i)]\nname=\(draft.name)\n"
        if !draft.emails.isEmpty { text += "email=\(draft.emails.map(\.value).joined(separator: ","))\n" }
        text += "\n"
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}
