import CarnetModels
import Foundation
import GRDB

// `carnet query` runs at every completion in mutt and aerc: it reads only the columns it
// prints (two statements in one read), not whole contacts with every list.
extension StorageController {
    /// Up to `limit` contacts of `query` in its order, each with its name, organization and
    /// emails. Throws for a search that cannot be read.
    public func mailEntries(query: ContactQuery, limit: Int) throws(CarnetError) -> [MailEntry] {
        guard limit > 0 else { return [] }
        let page = try Self.pageClause(key: nil, forward: true, limit: limit, query: query)
        let sql = "SELECT id, name, organization, book_id FROM \(page.source) \(page.clause)"
        return try searchRead(query) { db in
            var rows: [(id: Int64, name: String, organization: String, book: Int64)] = []
            let statement = try db.cachedStatement(sql: sql)
            let (id, name, organization) = (try Self.index("id", statement), try Self.index("name", statement), try Self.index("organization", statement))
            let book = try Self.index("book_id", statement)
            let cursor = try Row.fetchCursor(statement, arguments: page.arguments)
            while let row = try cursor.next(), rows.count < limit {
                rows.append((row[id], row[name], row[organization], row[book]))
            }
            guard !rows.isEmpty else { return [] }
            var emails: [Int64: [LabeledValue]] = [:]
            let ids = "[" + rows.map { String($0.id) }.joined(separator: ",") + "]"
            let emailStatement = try db.cachedStatement(sql: Self.mailEmailsSQL)
            let (contact, label, value, preferred) = (
                try Self.index("contact_id", emailStatement), try Self.index("label", emailStatement),
                try Self.index("value", emailStatement), try Self.index("preferred", emailStatement))
            let emailRows = try Row.fetchCursor(emailStatement, arguments: [ids])
            while let row = try emailRows.next() {
                emails[row[contact], default: []].append(LabeledValue(row[value], label: row[label], preferred: row[preferred]))
            }
            return rows.map { MailEntry(id: $0.id, name: $0.name, organization: $0.organization, emails: emails[$0.id] ?? [], bookID: $0.book) }
        }
    }

    /// Where `column` is in `statement`'s rows, looked up by name once per statement.
    private static func index(_ column: String, _ statement: Statement) throws -> Int {
        guard let index = statement.index(ofColumn: column) else { throw CarnetError.database("a mail query was read without its \(column) column") }
        return index
    }

    private static let mailEmailsSQL = """
        SELECT contact_id, label, value, preferred FROM contact_emails
        WHERE contact_id IN (SELECT value FROM json_each(?)) ORDER BY contact_id, position
        """
}
