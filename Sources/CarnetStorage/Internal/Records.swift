import CarnetModels
import Foundation
import GRDB

// The rows of Carnet's tables as GRDB records. CarnetModels knows nothing of GRDB: these small
// structs are where a model value meets its table, column by column and by name, so no read
// depends on the order of a SELECT's columns.

/// A row of `contacts`, exactly as stored (timestamps are the stored text). The lists a contact
/// has live in child tables (see `ContactChildTable`); `draft` holds this row's columns and
/// empty lists.
struct ContactRecord: Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "contacts"

    /// The columns that are not a field of the draft's description.
    enum Columns: String, ColumnExpression, CaseIterable {
        case id, uid, photo
        case createdAt = "created_at", updatedAt = "updated_at", version
        case bookID = "book_id"
        case kind, groupForm = "group_form"
    }

    /// A text column of `contacts`, named by a field's description (`ContactFieldSpec/column`).
    struct TextColumn: ColumnExpression, Equatable {
        let rawValue: String
        var name: String { rawValue }
    }

    /// The text columns read and written field by field, in this order (see `textValues(_:)`
    /// and `init(row:at:)`). Which field each holds still comes from the description.
    private static let fastColumns = [
        "name", "name_prefix", "given_name", "additional_names", "family_name", "name_suffix", "nickname", "organization",
        "department", "title", "role", "note",
    ]

    /// The text columns and the draft fields they hold: `fastColumns`, then every other field
    /// the description stores in a column (`ContactFields/columns`), in its order. A new text
    /// field is read, inserted and updated from its entry alone.
    static let textColumns: [(column: TextColumn, keyPath: WritableKeyPath<ContactDraft, String> & Sendable)] = {
        func keyPath(_ spec: ContactFieldSpec) -> WritableKeyPath<ContactDraft, String> & Sendable {
            guard let keyPath = spec.text ?? spec.multilineText else { preconditionFailure("\(spec.field) has a column but no text") }
            return keyPath
        }
        let fast = fastColumns.map { column in
            guard let spec = ContactFields.columns.first(where: { $0.column == column }) else {
                preconditionFailure("no field of the description is stored in \(column)")
            }
            return (TextColumn(rawValue: column), keyPath(spec))
        }
        return fast + described.map { (TextColumn(rawValue: $0.column ?? ""), keyPath($0)) }
    }()

    /// The fields stored in a column that the fast paths do not name, in description order.
    static let described: [ContactFieldSpec] = ContactFields.columns.filter { !fastColumns.contains($0.column ?? "") }

    /// Every column a person's row is written with, in the order of `insertSQL`: all but `kind`
    /// and `group_form`, whose defaults say "a person" (so a person's row is written the same
    /// at every schema since 5).
    static let personColumnNames: [String] =
        ["id", "uid"] + textColumns.map(\.column.rawValue) + ["photo", "created_at", "updated_at", "version", "book_id"]

    /// Every column of a contact row, in the order of `selection(qualifiedBy:kind:)`.
    static let columnNames: [String] = personColumnNames + ["kind", "group_form"]

    /// The draft's values of `textColumns`, in that order: the `fastColumns` read field by
    /// field (going through the key paths costs a measured part of every insert and save), then
    /// the `described` ones at their offsets. RecordTests checks that the two agree.
    static func textValues(_ d: ContactDraft) -> [(any DatabaseValueConvertible)?] {
        var values: [(any DatabaseValueConvertible)?] = [
            d.name, d.nameParts.prefix, d.nameParts.given, d.nameParts.additional, d.nameParts.family, d.nameParts.suffix,
            d.nickname, d.organization, d.department, d.title, d.role, d.note,
        ]
        for spec in described { values.append(spec.string(of: d)) }
        return values
    }

    /// Nil for a contact not yet inserted: SQLite gives the next id (AUTOINCREMENT, so never one
    /// it gave before).
    var id: Int64?
    var uid: String
    /// This row's fields; the lists are not part of the row.
    var draft: ContactDraft
    var createdAt: String
    var updatedAt: String
    var version: Int
    var bookID: Int64 = AddressBook.defaultID

    /// The model value: this row's fields and whatever lists `draft` holds (none unless
    /// `ContactChildTable/attach(_:to:)` filled them in). A timestamp that does not parse (only a
    /// hand edit with the CHECKs switched off can store one; `db check` names it) reads as the
    /// distant past.
    var contact: Contact {
        Contact(
            id: id ?? 0, uid: uid, draft: draft, createdAt: Timestamp.date(createdAt) ?? .distantPast,
            updatedAt: Timestamp.date(updatedAt) ?? .distantPast, version: version, bookID: bookID)
    }

    /// `contacts`' columns for a SELECT, optionally qualified (`c.id, c.uid, …`); without `kind`
    /// and `group_form` for a read that only ever finds people (the favorites).
    static func selection(qualifiedBy alias: String? = nil, kind: Bool = true) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return (kind ? columnNames : personColumnNames).map { prefix + $0 }.joined(separator: ", ")
    }

    /// Where each column is in the rows of one statement, looked up by name once per statement
    /// rather than once per row and column: loading a million contacts is a measured workload.
    struct ColumnIndexes {
        let id, uid, photo, createdAt, updatedAt, version, bookID: Int
        /// Nil in a read that selects only people's columns.
        let kind, groupForm: Int?
        /// The indexes of `ContactRecord/textColumns`, in that order.
        let text: [Int]

        init(_ statement: Statement) throws {
            try self.init { statement.index(ofColumn: $0) }
        }

        init(_ row: Row) throws {
            let names = Array(row.columnNames.map { $0.lowercased() })
            try self.init { names.firstIndex(of: $0) }
        }

        private init(_ index: (String) -> Int?) throws {
            func find(_ column: Columns) throws -> Int { try find(column.rawValue) }
            func find(_ column: String) throws -> Int {
                guard let found = index(column) else {
                    throw CarnetError.database("a contacts row was read without its \(column) column")
                }
                return found
            }
            id = try find(.id)
            uid = try find(.uid)
            photo = try find(.photo)
            createdAt = try find(.createdAt)
            updatedAt = try find(.updatedAt)
            version = try find(.version)
            bookID = try find(.bookID)
            kind = index(Columns.kind.rawValue)
            groupForm = index(Columns.groupForm.rawValue)
            text = try ContactRecord.textColumns.map { try find($0.column.rawValue) }
        }
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.uid] = uid
        for (column, keyPath) in Self.textColumns { container[column.rawValue] = draft[keyPath: keyPath] }
        container[Columns.photo] = draft.photo
        container[Columns.createdAt] = createdAt
        container[Columns.updatedAt] = updatedAt
        container[Columns.version] = version
        container[Columns.bookID] = bookID
        if draft.kind == .group {
            container[Columns.kind] = draft.kind.rawValue
            container[Columns.groupForm] = draft.groupForm?.rawValue
        }
        container["sort_given"] = draft.sortText(.given)
        container["sort_family"] = draft.sortText(.family)
    }

    // MARK: The one INSERT and the one UPDATE of a contact row

    // Both are cached prepared statements: GRDB's `insert(_:)` would build a persistence
    // container and look its SQL up again for every row, which the import and edit benchmarks
    // measure; and GRDB's `update(_:)` names a row by primary key alone, where an edit must name
    // it by id, uid and the version it read.

    /// Every column of a person, then the two sort columns (schema 5 stores them: see
    /// `migrations/0005_history.sql`); a nil id lets SQLite give the next one.
    static let insertSQL = """
        INSERT INTO contacts (\(personColumnNames.joined(separator: ", ")), sort_given, sort_family)
        VALUES (\(databaseQuestionMarks(count: insertCount)))
        """
    /// `insertSQL` for a group card: `kind` and `group_form` too.
    static let insertGroupSQL = """
        INSERT INTO contacts (\(personColumnNames.joined(separator: ", ")), sort_given, sort_family, kind, group_form)
        VALUES (\(databaseQuestionMarks(count: insertCount + 2)))
        """
    private static let insertCount = personColumnNames.count + 2

    /// The values of `insertSQL`, in its order (a test checks they agree with `encode(to:)`).
    var insertArguments: StatementArguments {
        // One array of the final size: growing it by parts reallocated it twice per contact.
        var values: [(any DatabaseValueConvertible)?] = []
        values.reserveCapacity(Self.insertCount + 2)
        values.append(id)
        values.append(uid)
        values.append(contentsOf: Self.textValues(draft))
        values.append(contentsOf: [draft.photo, createdAt, updatedAt, version, bookID, draft.sortText(.given), draft.sortText(.family)] as [(any DatabaseValueConvertible)?])
        if draft.kind == .group { values.append(contentsOf: [draft.kind.rawValue, draft.groupForm?.rawValue] as [(any DatabaseValueConvertible)?]) }
        return StatementArguments(values)
    }

    /// The prepared `insertSQL` (or `insertGroupSQL`), for a loop that inserts many rows.
    static func insertStatement(_ db: Database, group: Bool = false) throws -> Statement {
        try db.cachedStatement(sql: group ? insertGroupSQL : insertSQL)
    }

    /// Inserts the row with `insertSQL`, then its child rows, indexes it for search, and
    /// returns its id. (GRDB's `insert(_:)`, which this record also has, builds its statement
    /// anew for every row, and knows nothing of the search index.)
    @discardableResult
    func insertRow(_ db: Database) throws -> Int64 {
        try Self.insertStatement(db, group: draft.kind == .group).execute(arguments: insertArguments)
        let id = db.lastInsertedRowID
        try ContactChildTable.write(db, contactID: id, draft, replacing: nil)
        try SearchIndex.add(db, id: id, draft)
        return id
    }

    static let updateSQL = """
        UPDATE contacts SET \(textColumns.map { "\($0.column.rawValue) = ?" }.joined(separator: ", ")), photo = ?,
                            sort_given = ?, sort_family = ?, updated_at = ?, version = version + 1
        WHERE id = ? AND uid = ? AND version = ?
        """

    /// `updateSQL` that also sets `kind` and `group_form`: for a group card (or a row that was one).
    static let updateGroupSQL = """
        UPDATE contacts SET \(textColumns.map { "\($0.column.rawValue) = ?" }.joined(separator: ", ")), photo = ?,
                            sort_given = ?, sort_family = ?, updated_at = ?, version = version + 1, kind = ?, group_form = ?
        WHERE id = ? AND uid = ? AND version = ?
        """

    /// The values of `updateSQL` (with `group`, of `updateGroupSQL`), in order (a test checks they fit it).
    static func updateArguments(
        _ draft: ContactDraft, updatedAt: String, id: Int64, uid: String, version: Int, group: Bool = false
    ) -> StatementArguments {
        let kind: [(any DatabaseValueConvertible)?] = group ? [draft.kind.rawValue, draft.groupForm?.rawValue] : []
        return StatementArguments(textValues(draft) + [draft.photo, draft.sortText(.given), draft.sortText(.family), updatedAt] + kind + [id, uid, version])
    }

    /// Writes `draft` over the contact with `id` *and* `uid` if its stored version is `version`,
    /// bumping the version and setting `updated_at`, rewrites the child tables of the lists
    /// that differ from `stored`, and replaces its search document if its texts changed. Returns whether a row was written: false when that contact was
    /// deleted or saved by someone else since `version` was read.
    static func update(
        _ db: Database, id: Int64, uid: String, expecting version: Int, with draft: ContactDraft, replacing stored: ContactDraft,
        updatedAt: String
    ) throws -> Bool {
        try SearchIndex.replace(db, id: id, from: stored, to: draft) {
            let group = draft.kind == .group || stored.kind == .group
            try db.cachedStatement(sql: group ? updateGroupSQL : updateSQL)
                .execute(arguments: updateArguments(draft, updatedAt: updatedAt, id: id, uid: uid, version: version, group: group))
            guard db.changesCount == 1 else { return false }
            try ContactChildTable.write(db, contactID: id, draft, replacing: stored)
            return true
        }
    }
}

// Decoding lives in an extension so that the struct keeps the memberwise initializer
// `init(id:uid:draft:createdAt:updatedAt:version:)` the compiler writes.
extension ContactRecord {
    init(row: Row) throws {
        try self.init(row: row, at: ColumnIndexes(row))
    }

    /// Decodes a row whose columns were found beforehand (see `ColumnIndexes`): the contact
    /// list's fast path. (Looking each column up by name on every row is measurably slower.)
    init(row: Row, at column: ColumnIndexes) throws {
        id = try row.decode(Int64.self, atIndex: column.id)
        uid = try row.decode(String.self, atIndex: column.uid)
        // Field by field rather than through ``textColumns``' key paths, which cost a measured
        // part of loading every contact; RecordTests checks the two agree.
        let text = column.text
        func string(_ i: Int) throws -> String { try row.decode(String.self, atIndex: text[i]) }
        draft = ContactDraft(
            name: try string(0),
            nameParts: PersonName(prefix: try string(1), given: try string(2), additional: try string(3), family: try string(4), suffix: try string(5)),
            nickname: try string(6), organization: try string(7), department: try string(8), title: try string(9), role: try string(10),
            note: try string(11), photo: try row.decode(Data?.self, atIndex: column.photo))
        // The other fields through their key paths, each only when it holds text: a new draft's
        // fields are empty, and most contacts leave most of them so.
        let columns = Self.textColumns
        for i in Self.fastColumns.count..<columns.count {
            let value = try string(i)
            if !value.isEmpty { draft[keyPath: columns[i].keyPath] = value }
        }
        if let at = column.kind, let kind = try row.decode(String?.self, atIndex: at), kind != ContactKind.individual.rawValue {
            // A kind this build does not know (a newer Carnet's) reads as a person.
            draft.kind = ContactKind(rawValue: kind) ?? .individual
            draft.groupForm = try column.groupForm.flatMap { try row.decode(String?.self, atIndex: $0) }.flatMap(GroupForm.init(rawValue:))
        }
        createdAt = try row.decode(String.self, atIndex: column.createdAt)
        updatedAt = try row.decode(String.self, atIndex: column.updatedAt)
        version = try row.decode(Int.self, atIndex: column.version)
        bookID = try row.decode(Int64.self, atIndex: column.bookID)
    }
}

/// A row of `quotes`. Codable: GRDB derives the decoding and encoding from `CodingKeys` (quotes
/// are few; the hand-written decoding is kept for contacts, where it was measured).
struct QuoteRecord: Equatable, Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "quotes"

    enum CodingKeys: String, CodingKey {
        case id, text, author
        case isCurrent = "is_current", createdAt = "created_at", updatedAt = "updated_at", version
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let isCurrent = Column(CodingKeys.isCurrent)
    }

    var id: Int64?
    var text: String
    var author: String
    var isCurrent: Bool
    var createdAt: String
    var updatedAt: String
    var version: Int

    init(draft: QuoteDraft, isCurrent: Bool, at stamp: String) {
        id = nil
        text = draft.text
        author = draft.author
        self.isCurrent = isCurrent
        createdAt = stamp
        updatedAt = stamp
        version = 1
    }

    var quote: Quote {
        Quote(
            id: id ?? 0, text: text, author: author, isCurrent: isCurrent,
            createdAt: Timestamp.date(createdAt) ?? .distantPast, updatedAt: Timestamp.date(updatedAt) ?? .distantPast,
            version: version)
    }
}

/// A row of `favorites`: which contact, at which place in the user's order.
struct FavoriteRecord: Equatable, Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "favorites"

    enum CodingKeys: String, CodingKey {
        case contactID = "contact_id", position, createdAt = "created_at"
    }

    var contactID: Int64
    var position: Int
    var createdAt: String
}

/// A row of `schema_migrations`: the documented record of the schema steps applied (sqlite3
/// users read it, and `PRAGMA user_version` mirrors its last version). Each migration writes its
/// row with plain SQL (`StorageController.apply`), so the record is only read.
struct SchemaMigrationRecord: Equatable, FetchableRecord {
    static let databaseTableName = "schema_migrations"

    enum CodingKeys: String, CodingKey {
        case version, name, appliedAt = "applied_at"
    }

    var version: Int
    var name: String
    var appliedAt: String
}

extension SchemaMigrationRecord {
    /// Read by hand: every start reads this table, and Codable's decoder cost more than the read.
    init(row: Row) throws {
        version = try row.decode(Int.self, forColumn: CodingKeys.version.rawValue)
        name = try row.decode(String.self, forColumn: CodingKeys.name.rawValue)
        appliedAt = try row.decode(String.self, forColumn: CodingKeys.appliedAt.rawValue)
    }
}
