import CarnetModels
import Foundation
import GRDB

/// One of the tables that hold a contact's lists (`contact_emails`, `contact_addresses`, …): its
/// columns, and how a row becomes an entry of the draft and back. Every child row has
/// `contact_id` and `position` (1 for the first entry) before these columns, and goes with its
/// contact (`ON DELETE CASCADE`).
struct ContactChildTable: Sendable {
    /// The draft field whose list the table holds.
    let field: Field
    let name: String
    /// The value columns, after `contact_id` and `position`.
    let columns: [String]
    /// Appends the entry held by `row`'s value columns, found at `at` (in ``columns`` order,
    /// looked up by name once per statement).
    let read: @Sendable (Row, _ at: [Int], inout ContactDraft) throws -> Void
    /// The rows for the draft's list, in order, as values of ``columns``.
    let rows: @Sendable (ContactDraft) -> [[(any DatabaseValueConvertible)?]]
    let differs: @Sendable (ContactDraft, ContactDraft) -> Bool
    let isEmpty: @Sendable (ContactDraft) -> Bool
    /// What a search compares with: the same text as the entry's
    /// ``CarnetModels/ContactEntry/searchText`` (an address's parts, one per line).
    var searchExpression: String = "value"

    static let all: [ContactChildTable] = [
        labeled(.email, "contact_emails", \.emails), labeled(.phone, "contact_phones", \.phones),
        ContactChildTable(
            field: .address, name: "contact_addresses",
            columns: ["label", "po_box", "extended", "street", "locality", "region", "postal_code", "country", "preferred"],
            read: { row, at, draft in
                draft.addresses.append(PostalAddress(
                    label: try row.decode(String.self, atIndex: at[0]), poBox: try row.decode(String.self, atIndex: at[1]),
                    extended: try row.decode(String.self, atIndex: at[2]), street: try row.decode(String.self, atIndex: at[3]),
                    locality: try row.decode(String.self, atIndex: at[4]), region: try row.decode(String.self, atIndex: at[5]),
                    postalCode: try row.decode(String.self, atIndex: at[6]), country: try row.decode(String.self, atIndex: at[7]),
                    preferred: try row.decode(Bool.self, atIndex: at[8])))
            },
            rows: { draft in
                draft.addresses.map { [$0.label, $0.poBox, $0.extended, $0.street, $0.locality, $0.region, $0.postalCode, $0.country, $0.preferred] }
            },
            differs: { $0.addresses != $1.addresses }, isEmpty: { $0.addresses.isEmpty },
            searchExpression: "(po_box || char(10) || extended || char(10) || street || char(10) || locality || char(10) || region || char(10) || postal_code || char(10) || country)"),
        labeled(.url, "contact_urls", \.urls), labeled(.handle, "contact_handles", \.handles),
        ContactChildTable(
            field: .date, name: "contact_dates", columns: ["label", "date"],
            read: { row, at, draft in
                let text = try row.decode(String.self, atIndex: at[1])
                // The CHECK holds the shape; a hand edit that switched it off reads as no date.
                guard let date = ContactDate.parseDate(text) else { return }
                draft.dates.append(ContactDate(label: try row.decode(String.self, atIndex: at[0]), year: date.year, month: date.month, day: date.day))
            },
            rows: { draft in draft.dates.map { [$0.label, $0.dateText] } },
            differs: { $0.dates != $1.dates }, isEmpty: { $0.dates.isEmpty }, searchExpression: "date"),
        ContactChildTable(
            field: .category, name: "contact_categories", columns: ["name"],
            read: { row, at, draft in draft.categories.append(try row.decode(String.self, atIndex: at[0])) },
            rows: { draft in draft.categories.map { [$0] } },
            differs: { $0.categories != $1.categories }, isEmpty: { $0.categories.isEmpty }, searchExpression: "name"),
        ContactChildTable(
            field: .extra, name: "contact_extras", columns: ["line"],
            read: { row, at, draft in draft.extras.append(try row.decode(String.self, atIndex: at[0])) },
            rows: { draft in draft.extras.map { [$0] } },
            differs: { $0.extras != $1.extras }, isEmpty: { $0.extras.isEmpty }, searchExpression: "line"),
    ]

    /// A table of labelled values: `label`, `value`, `preferred`.
    private static func labeled(_ field: Field, _ name: String, _ keyPath: WritableKeyPath<ContactDraft, [LabeledValue]> & Sendable) -> ContactChildTable {
        ContactChildTable(
            field: field, name: name, columns: ["label", "value", "preferred"],
            read: { row, at, draft in
                draft[keyPath: keyPath].append(LabeledValue(
                    try row.decode(String.self, atIndex: at[1]), label: try row.decode(String.self, atIndex: at[0]),
                    preferred: try row.decode(Bool.self, atIndex: at[2])))
            },
            rows: { draft in draft[keyPath: keyPath].map { [$0.label, $0.value, $0.preferred] } },
            differs: { $0[keyPath: keyPath] != $1[keyPath: keyPath] }, isEmpty: { $0[keyPath: keyPath].isEmpty })
    }

    /// Where each of ``columns`` is in `statement`'s rows.
    private func indexes(_ statement: Statement) throws -> [Int] {
        try columns.map { column in
            guard let index = statement.index(ofColumn: column) else {
                throw CarnetError.database("a \(name) row was read without its \(column) column")
            }
            return index
        }
    }

    private var selection: String { (["contact_id"] + columns).joined(separator: ", ") }

    private var insertSQL: String {
        "INSERT INTO \(name) (contact_id, position, \(columns.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count + 2)))"
    }

    // MARK: Writes

    /// Writes the child rows of `draft` for the contact `contactID`. With `stored` (what the
    /// tables hold now), only the lists that differ from it are rewritten; without it the
    /// contact is new and has no child rows yet.
    static func write(_ db: Database, contactID: Int64, _ draft: ContactDraft, replacing stored: ContactDraft?) throws {
        for table in all {
            if let stored {
                guard table.differs(stored, draft) else { continue }
                if !table.isEmpty(stored) {
                    try db.cachedStatement(sql: "DELETE FROM \(table.name) WHERE contact_id = ?").execute(arguments: [contactID])
                }
            }
            if table.isEmpty(draft) { continue }
            let insert = try db.cachedStatement(sql: table.insertSQL)
            for (index, values) in table.rows(draft).enumerated() {
                try insert.execute(arguments: StatementArguments([contactID, index + 1] + values))
            }
        }
    }

    // MARK: Reads

    /// Fills in the lists of `drafts`, the drafts of the contacts `ids` (same order).
    ///
    /// One statement per table whatever the number of contacts: a single contact is found by
    /// its key; a page by `json_each` over the page's ids (one cached statement for every page
    /// size); many contacts (an export, or loading all) by one pass over each table in key
    /// order, keeping the rows of the contacts asked for.
    static func attach(_ db: Database, to drafts: inout [ContactDraft], ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        if ids.count == 1 {
            for table in all {
                let statement = try db.cachedStatement(
                    sql: "SELECT \(table.selection) FROM \(table.name) WHERE contact_id = ? ORDER BY position")
                let at = try table.indexes(statement)
                let rows = try Row.fetchCursor(statement, arguments: [ids[0]])
                while let row = try rows.next() { try table.read(row, at, &drafts[0]) }
            }
            return
        }
        var index: [Int64: Int] = [:]
        index.reserveCapacity(ids.count)
        for (i, id) in ids.enumerated() { index[id] = i }
        let everything = ids.count > 2_000
        let idList = everything ? "" : "[" + ids.map(String.init).joined(separator: ",") + "]"
        for table in all {
            let statement = try db.cachedStatement(sql: everything
                ? "SELECT \(table.selection) FROM \(table.name) ORDER BY contact_id, position"
                : """
                    SELECT \(table.selection) FROM \(table.name)
                    WHERE contact_id IN (SELECT value FROM json_each(?)) ORDER BY contact_id, position
                    """)
            let at = try table.indexes(statement)
            guard let contactID = statement.index(ofColumn: "contact_id") else { continue }
            let rows = try Row.fetchCursor(statement, arguments: everything ? [] : [idList])
            while let row = try rows.next() {
                guard let i = index[row[contactID]] else { continue }
                try table.read(row, at, &drafts[i])
            }
        }
    }
}
