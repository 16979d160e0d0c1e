import CarnetModels
import Foundation
import GRDB

/// One of the tables that hold a contact's lists (`contact_emails`, `contact_addresses`, …): its
/// columns, and how a row becomes an entry of the draft and back. Every child row has
/// `contact_id` and `position` (1 for the first entry) before these columns, and goes with its
/// contact (`ON DELETE CASCADE`).
///
/// A class: every write of a contact walks all the tables, and copying this struct out of
/// `all` retained its four closures and six strings each time (a measured part of an import).
final class ContactChildTable: Sendable {
    /// The draft field whose list the table holds.
    let field: Field
    let name: String
    /// The value columns, after `contact_id` and `position`.
    let columns: [String]
    /// Appends the entry held by `row`'s value columns, found at `at` (in `columns` order,
    /// looked up by name once per statement: no read depends on a SELECT's column order).
    let read: @Sendable (Row, _ at: [Int], inout ContactDraft) throws -> Void
    /// The arguments of `insertSQL` for each entry of the draft's list, in order, for the
    /// contact with the id given: its id, the position (1 for the first) and `columns`.
    let rows: @Sendable (ContactDraft, Int64) -> [StatementArguments]
    let differs: @Sendable (ContactDraft, ContactDraft) -> Bool
    let isEmpty: @Sendable (ContactDraft) -> Bool
    /// How many entries two drafts' lists share at their start and at their end.
    let commonEnds: @Sendable (ContactDraft, ContactDraft) -> CommonEnds

    // The statements of this table, made once: building and hashing them per contact was a
    // measured part of an import.
    let insertSQL: String
    let deleteSQL: String
    /// One contact's rows, in order.
    let selectOneSQL: String
    /// The rows of the contacts whose ids are in a JSON array (a page).
    let selectSomeSQL: String
    /// Every row, in key order.
    let selectAllSQL: String
    /// One contact's positions, in order.
    let positionsSQL: String
    /// `insertSQL` whose position is moved on by one more argument after the columns.
    let insertMovedSQL: String
    let deleteOneSQL: String

    init(
        field: Field, name: String, columns: [String], read: @escaping @Sendable (Row, [Int], inout ContactDraft) throws -> Void,
        rows: @escaping @Sendable (ContactDraft, Int64) -> [StatementArguments],
        differs: @escaping @Sendable (ContactDraft, ContactDraft) -> Bool, isEmpty: @escaping @Sendable (ContactDraft) -> Bool,
        commonEnds: @escaping @Sendable (ContactDraft, ContactDraft) -> CommonEnds
    ) {
        self.field = field
        self.name = name
        self.columns = columns
        self.read = read
        self.rows = rows
        self.differs = differs
        self.isEmpty = isEmpty
        self.commonEnds = commonEnds
        let selection = (["contact_id"] + columns).joined(separator: ", ")
        insertSQL = "INSERT INTO \(name) (contact_id, position, \(columns.joined(separator: ", "))) VALUES (\(databaseQuestionMarks(count: columns.count + 2)))"
        deleteSQL = "DELETE FROM \(name) WHERE contact_id = ?"
        selectOneSQL = "SELECT \(selection) FROM \(name) WHERE contact_id = ? ORDER BY position"
        selectSomeSQL = """
            SELECT \(selection) FROM \(name)
            WHERE contact_id IN (SELECT value FROM json_each(?)) ORDER BY contact_id, position
            """
        selectAllSQL = "SELECT \(selection) FROM \(name) ORDER BY contact_id, position"
        positionsSQL = "SELECT position FROM \(name) WHERE contact_id = ? ORDER BY position"
        let values = (3...(columns.count + 2)).map { "?\($0)" }.joined(separator: ", ")
        insertMovedSQL = "INSERT INTO \(name) (contact_id, position, \(columns.joined(separator: ", "))) VALUES (?1, ?2 + ?\(columns.count + 3), \(values))"
        deleteOneSQL = "DELETE FROM \(name) WHERE contact_id = ? AND position = ?"
    }

    /// Every child table: those named here, then those of `described`.
    static let all: [ContactChildTable] = named + described

    /// The tables written out here: each reads and appends through closures of its own rather
    /// than the field's key path (see `labeled`).
    private static let named: [ContactChildTable] = [
        labeled(.email, "contact_emails", { $0.emails }, { $0.emails.append($1) }),
        labeled(.phone, "contact_phones", { $0.phones }, { $0.phones.append($1) }),
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
            rows: { draft, id in
                draft.addresses.enumerated().map { i, a in
                    [id, i + 1, a.label, a.poBox, a.extended, a.street, a.locality, a.region, a.postalCode, a.country, a.preferred]
                }
            },
            differs: { $0.addresses != $1.addresses }, isEmpty: { $0.addresses.isEmpty },
            commonEnds: { CommonEnds($0.addresses, $1.addresses) }),
        labeled(.url, "contact_urls", { $0.urls }, { $0.urls.append($1) }),
        labeled(.handle, "contact_handles", { $0.handles }, { $0.handles.append($1) }),
        ContactChildTable(
            field: .date, name: "contact_dates", columns: ["label", "date"],
            read: { row, at, draft in
                let text = try row.decode(String.self, atIndex: at[1])
                // The CHECK holds the shape; a hand edit that switched it off reads as no date.
                guard let date = ContactDate.parseDate(text) else { return }
                draft.dates.append(ContactDate(label: try row.decode(String.self, atIndex: at[0]), year: date.year, month: date.month, day: date.day))
            },
            rows: { draft, id in draft.dates.enumerated().map { i, d in [id, i + 1, d.label, d.dateText] } },
            differs: { $0.dates != $1.dates }, isEmpty: { $0.dates.isEmpty }, commonEnds: { CommonEnds($0.dates, $1.dates) }),
        ContactChildTable(
            field: .category, name: "contact_categories", columns: ["name"],
            read: { row, at, draft in draft.categories.append(try row.decode(String.self, atIndex: at[0])) },
            rows: { draft, id in draft.categories.enumerated().map { i, name in [id, i + 1, name] } },
            differs: { $0.categories != $1.categories }, isEmpty: { $0.categories.isEmpty },
            commonEnds: { CommonEnds($0.categories, $1.categories) }),
        ContactChildTable(
            field: .extra, name: "contact_extras", columns: ["line"],
            read: { row, at, draft in draft.extras.append(try row.decode(String.self, atIndex: at[0])) },
            rows: { draft, id in draft.extras.enumerated().map { i, line in [id, i + 1, line] } },
            differs: { $0.extras != $1.extras }, isEmpty: { $0.extras.isEmpty }, commonEnds: { CommonEnds($0.extras, $1.extras) }),
        ContactChildTable(
            field: .member, name: "group_members", columns: ["member_uid"],
            read: { row, at, draft in draft.members.append(try row.decode(String.self, atIndex: at[0])) },
            rows: { draft, id in draft.members.enumerated().map { i, uid in [id, i + 1, uid] } },
            differs: { $0.members != $1.members }, isEmpty: { $0.members.isEmpty }, commonEnds: { CommonEnds($0.members, $1.members) }),
    ]

    /// The tables of the lists of labelled values `named` does not hold, from their entries in
    /// `ContactFields/all` (`DraftField/table`): a new list is stored from its entry alone.
    static let described: [ContactChildTable] = {
        let known = Set(named.map(\.name))
        return ContactFields.all.compactMap { spec in
            guard let name = spec.table, let keyPath = spec.labeledValues, !known.contains(name) else { return nil }
            return labeled(spec.field, name, { $0[keyPath: keyPath] }, { $0[keyPath: keyPath].append($1) })
        }
    }()

    /// The tables of a person's lists: all but `group_members`.
    static let ofPeople: [ContactChildTable] = all.filter { $0.field != .member }

    /// A table of labelled values: `label`, `value`, `preferred`. The list is read and appended to
    /// through closures rather than a key path: projecting a key path for every row was a
    /// measured part of loading every contact.
    private static func labeled(
        _ field: Field, _ name: String, _ list: @escaping @Sendable (ContactDraft) -> [LabeledValue],
        _ append: @escaping @Sendable (inout ContactDraft, LabeledValue) -> Void
    ) -> ContactChildTable {
        ContactChildTable(
            field: field, name: name, columns: ["label", "value", "preferred"],
            read: { row, at, draft in
                append(&draft, LabeledValue(
                    try row.decode(String.self, atIndex: at[1]), label: try row.decode(String.self, atIndex: at[0]),
                    preferred: try row.decode(Bool.self, atIndex: at[2])))
            },
            rows: { draft, id in list(draft).enumerated().map { i, e in [id, i + 1, e.label, e.value, e.preferred] } },
            differs: { list($0) != list($1) }, isEmpty: { list($0).isEmpty }, commonEnds: { CommonEnds(list($0), list($1)) })
    }

    /// Where each of `columns` is in `statement`'s rows.
    private func indexes(_ statement: Statement) throws -> [Int] {
        try columns.map { column in
            guard let index = statement.index(ofColumn: column) else {
                throw CarnetError.database("a \(name) row was read without its \(column) column")
            }
            return index
        }
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
                    if try table.writeMiddle(db, contactID: contactID, draft, replacing: stored) { continue }
                    try db.cachedStatement(sql: table.deleteSQL).execute(arguments: [contactID])
                }
            }
            if table.isEmpty(draft) { continue }
            let insert = try db.cachedStatement(sql: table.insertSQL)
            for arguments in table.rows(draft, contactID) { try insert.execute(arguments: arguments) }
        }
    }

    /// Writes only the entries between the start and the end the two lists share, so that
    /// taking one entry out of a long list (a member of a big group) deletes one row, and the
    /// history keeps that row rather than the whole list twice. The rows kept keep their
    /// positions, so positions order a list but may leave gaps. Returns false, writing nothing,
    /// when the new entries do not fit between the kept ones (the list is then written whole).
    private func writeMiddle(_ db: Database, contactID: Int64, _ draft: ContactDraft, replacing stored: ContactDraft) throws -> Bool {
        let ends = commonEnds(stored, draft)
        let positions = try Int.fetchAll(db.cachedStatement(sql: positionsSQL), arguments: [contactID])
        let old = positions.count
        let new = rows(draft, contactID)
        guard old == rows(stored, contactID).count, ends.start + ends.end <= min(old, new.count) else { return false }
        let below = ends.start > 0 ? positions[ends.start - 1] : 0
        let added = new.count - ends.start - ends.end
        if ends.end > 0, positions[old - ends.end] - below - 1 < added { return false }
        let delete = try db.cachedStatement(sql: deleteOneSQL)
        for position in positions[ends.start..<(old - ends.end)] { try delete.execute(arguments: [contactID, position]) }
        guard added > 0 else { return true }
        // The new entries follow the last kept one at the start: `rows` numbers entry i as i + 1.
        let insert = try db.cachedStatement(sql: insertMovedSQL)
        let offset: StatementArguments = [below - ends.start]
        for arguments in new[ends.start..<(new.count - ends.end)] { try insert.execute(arguments: arguments + offset) }
        return true
    }

    // MARK: Reads

    /// Fills in the lists of `records`, read from `contacts` without them.
    ///
    /// One statement per table whatever the number of contacts: a single contact is found by
    /// its key; a page by `json_each` over the page's ids (one cached statement for every page
    /// size); many contacts (an export, or loading all) by one pass over each table in key
    /// order, keeping the rows of the contacts asked for. Entries go straight into each record's
    /// draft, so no contact is copied on the way.
    static func attach(_ db: Database, to records: inout [ContactRecord]) throws {
        guard !records.isEmpty else { return }
        // Only a group card has members: a page of people reads no group_members. (The records
        // are read in place, by index: going through them as elements copied each one.)
        let tables = records.indices.contains { records[$0].draft.kind == .group } ? all : ofPeople
        if records.count == 1 {
            let id = records[0].id ?? 0
            for table in tables {
                let statement = try db.cachedStatement(sql: table.selectOneSQL)
                let at = try table.indexes(statement)
                let rows = try Row.fetchCursor(statement, arguments: [id])
                while let row = try rows.next() { try table.read(row, at, &records[0].draft) }
            }
            return
        }
        var index: [Int64: Int] = [:]
        index.reserveCapacity(records.count)
        for i in records.indices { index[records[i].id ?? 0] = i }
        let everything = records.count > 2_000
        let idList = everything ? "" : "[" + records.indices.map { String(records[$0].id ?? 0) }.joined(separator: ",") + "]"
        for table in tables {
            let statement = try db.cachedStatement(sql: everything ? table.selectAllSQL : table.selectSomeSQL)
            let at = try table.indexes(statement)
            guard let contactID = statement.index(ofColumn: "contact_id") else { continue }
            let rows = try Row.fetchCursor(statement, arguments: everything ? [] : [idList])
            while let row = try rows.next() {
                guard let i = index[row[contactID]] else { continue }
                try table.read(row, at, &records[i].draft)
            }
        }
    }
}

/// How many entries two lists share at their start and, after that, at their end: what a
/// change of the list leaves as it was.
struct CommonEnds: Sendable, Equatable {
    var start: Int
    var end: Int

    init<T: Equatable>(_ old: [T], _ new: [T]) {
        let shorter = min(old.count, new.count)
        var start = 0
        while start < shorter, old[start] == new[start] { start += 1 }
        var end = 0
        while end < shorter - start, old[old.count - 1 - end] == new[new.count - 1 - end] { end += 1 }
        self.start = start
        self.end = end
    }
}
