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
        let sql = "SELECT id, name, organization FROM \(page.source) \(page.clause)"
        return try read { db in
            var rows: [(id: Int64, name: String, organization: String)] = []
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: page.arguments)
            while let row = try cursor.next(), rows.count < limit {
                rows.append((row[0], row[1], row[2]))
            }
            guard !rows.isEmpty else { return [] }
            var emails: [Int64: [LabeledValue]] = [:]
            let ids = "[" + rows.map { String($0.id) }.joined(separator: ",") + "]"
            let emailRows = try Row.fetchCursor(db.cachedStatement(sql: Self.mailEmailsSQL), arguments: [ids])
            while let row = try emailRows.next() {
                emails[row[0], default: []].append(LabeledValue(row[2], label: row[1], preferred: row[3]))
            }
            return rows.map { MailEntry(id: $0.id, name: $0.name, organization: $0.organization, emails: emails[$0.id] ?? []) }
        }
    }

    private static let mailEmailsSQL = """
        SELECT contact_id, label, value, preferred FROM contact_emails
        WHERE contact_id IN (SELECT value FROM json_each(?)) ORDER BY contact_id, position
        """
}
