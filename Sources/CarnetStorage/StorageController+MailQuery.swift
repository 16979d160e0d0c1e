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
        let page = try Self.pageClause(key: nil, forward: true, limit: limit, query: query, phones: try phoneForm(for: query.search))
        let sql = "SELECT id, name, organization, book_id, given_name || ' ' || additional_names || ' ' || family_name || ' ' || nickname AS other_names FROM \(page.source) \(page.clause)"
        return try searchRead(query) { db in
            var rows: [(id: Int64, name: String, organization: String, book: Int64, otherNames: String)] = []
            let statement = try db.cachedStatement(sql: sql)
            let (id, name, organization) = (try Self.index("id", statement), try Self.index("name", statement), try Self.index("organization", statement))
            let (book, otherNames) = (try Self.index("book_id", statement), try Self.index("other_names", statement))
            let cursor = try Row.fetchCursor(statement, arguments: page.arguments)
            while let row = try cursor.next(), rows.count < limit {
                rows.append((row[id], row[name], row[organization], row[book], row[otherNames]))
            }
            guard !rows.isEmpty else { return [] }
            // The emails come in contact id order, and are matched to the rows by walking the rows
            // in id order beside them: a dictionary keyed by id would have the runtime search every
            // protocol conformance of the binary for `Int64: Hashable` at its first use.
            var emails = [[LabeledValue]](repeating: [], count: rows.count)
            let byID = rows.indices.sorted { rows[$0].id < rows[$1].id }
            var next = 0
            let ids = "[" + rows.map { String($0.id) }.joined(separator: ",") + "]"
            let emailStatement = try db.cachedStatement(sql: Self.mailEmailsSQL)
            let (contact, label, value, preferred) = (
                try Self.index("contact_id", emailStatement), try Self.index("label", emailStatement),
                try Self.index("value", emailStatement), try Self.index("preferred", emailStatement))
            let emailRows = try Row.fetchCursor(emailStatement, arguments: [ids])
            while let row = try emailRows.next() {
                let id: Int64 = row[contact]
                while next < byID.count, rows[byID[next]].id < id { next += 1 }
                guard next < byID.count, rows[byID[next]].id == id else { continue }
                emails[byID[next]].append(LabeledValue(row[value], label: row[label], preferred: row[preferred]))
            }
            return rows.indices.map { index in
                let row = rows[index]
                return MailEntry(
                    id: row.id, name: row.name, organization: row.organization, emails: emails[index], bookID: row.book, otherNames: row.otherNames)
            }
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
