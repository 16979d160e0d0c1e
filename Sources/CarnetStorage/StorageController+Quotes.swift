import CarnetModels
import Foundation
import GRDB

extension StorageController {
    static func fetchQuote(_ db: Database, id: Int64) throws -> Quote? {
        try QuoteRecord.fetchOne(db, key: id)?.quote
    }

    static func fetchCurrentQuote(_ db: Database) throws -> Quote? {
        // A file edited by hand may have lost its current flag: fall back to the newest quote.
        try QuoteRecord.order(QuoteRecord.Columns.isCurrent.desc, QuoteRecord.Columns.id.desc).fetchOne(db)?.quote
    }

    /// The quote the quote screen shows. Nil only if every quote was deleted by hand.
    public func currentQuote() throws(CarnetError) -> Quote? {
        try read { db in try Self.fetchCurrentQuote(db) }
    }

    /// Every quote, oldest first.
    public func quotes() throws(CarnetError) -> [Quote] {
        try read { db in try QuoteRecord.order(QuoteRecord.Columns.id).fetchAll(db).map(\.quote) }
    }

    public func quote(id: Int64) throws(CarnetError) -> Quote {
        try read { db in
            guard let quote = try Self.fetchQuote(db, id: id) else { throw CarnetError.notFound(.quote, id: id) }
            return quote
        }
    }

    /// Adds a quote, making it the current one when `makeCurrent` is true.
    @discardableResult
    public func addQuote(_ draft: QuoteDraft, makeCurrent: Bool = false) throws(CarnetError) -> Quote {
        let draft = try draft.validated()
        return try recordedWrite { db, history in
            if makeCurrent { try db.execute(sql: "UPDATE quotes SET is_current = 0 WHERE is_current = 1") }
            try QuoteRecord(draft: draft, isCurrent: makeCurrent, at: Timestamp.string(Timestamp.now())).insert(db)
            let quote = try Self.fetchQuote(db, id: db.lastInsertedRowID)!
            history.note = HistoryNote(.addQuote, subject: "quote \(quote.id)", "added quote \(quote.id): \(HistoryNote.excerpt(quote.text))")
            return quote
        }
    }

    /// Saves `draft` over the quote read as `base`; a stale `base` is a
    /// `CarnetError.conflict(_:)` unless `force`, and a deleted one is
    /// `CarnetError.deleted(_:id:)` (quote ids are never reused).
    @discardableResult
    public func updateQuote(_ base: Quote, with draft: QuoteDraft, force: Bool = false) throws(CarnetError) -> Quote {
        let draft = try draft.validated()
        return try recordedWrite { db, history in
            let stamp = Timestamp.string(Timestamp.now())
            let fields = draft.differences(from: base.draft).map(\.rawValue).joined(separator: ", ")
            history.note = HistoryNote(.editQuote, subject: "quote \(base.id)", "edited quote \(base.id): \(fields.isEmpty ? "text" : fields)")
            let update = try db.cachedStatement(sql: """
                UPDATE quotes SET text = ?, author = ?, updated_at = ?, version = version + 1 WHERE id = ? AND version = ?
                """)
            // The usual case: one conditional UPDATE checks the version and saves.
            if !force && base.draft != draft {
                try update.execute(arguments: [draft.text, draft.author, stamp, base.id, base.version])
                if db.changesCount == 1 { return try Self.fetchQuote(db, id: base.id)! }
            }
            guard let current = try Self.fetchQuote(db, id: base.id) else { throw CarnetError.deleted(.quote, id: base.id) }
            if !force && current.version != base.version {
                throw CarnetError.conflict(.quote(QuoteConflict(base: base, current: current, mine: draft)))
            }
            if current.draft == draft { return current }
            try update.execute(arguments: [draft.text, draft.author, stamp, base.id, current.version])
            return try Self.fetchQuote(db, id: base.id)!
        }
    }

    /// Makes the quote with that id the current one.
    @discardableResult
    public func useQuote(id: Int64) throws(CarnetError) -> Quote {
        try recordedWrite { db, history in
            guard try Self.fetchQuote(db, id: id) != nil else { throw CarnetError.notFound(.quote, id: id) }
            history.note = HistoryNote(.useQuote, subject: "quote \(id)", "made quote \(id) the current quote")
            try db.execute(sql: "UPDATE quotes SET is_current = 0 WHERE is_current = 1 AND id <> ?", arguments: [id])
            try db.execute(sql: "UPDATE quotes SET is_current = 1 WHERE id = ?", arguments: [id])
            return try Self.fetchQuote(db, id: id)!
        }
    }

    /// Deletes a quote. The last quote cannot be deleted (the quote screen is never empty);
    /// deleting the current one makes the newest remaining quote current.
    public func deleteQuote(id: Int64) throws(CarnetError) {
        try recordedWrite { db, history in
            guard let quote = try Self.fetchQuote(db, id: id) else { throw CarnetError.notFound(.quote, id: id) }
            history.note = HistoryNote(.deleteQuote, subject: "quote \(id)", "deleted quote \(id): \(HistoryNote.excerpt(quote.text))")
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM quotes") == 1 {
                throw CarnetError.refused("quote \(id) is the only quote; add another before deleting it")
            }
            try db.execute(sql: "DELETE FROM quotes WHERE id = ?", arguments: [id])
            if quote.isCurrent {
                try db.execute(sql: "UPDATE quotes SET is_current = 1 WHERE id = (SELECT max(id) FROM quotes)")
            }
        }
    }
}
