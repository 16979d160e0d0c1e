import CarnetModels
import Foundation
import GRDB

// The rows of Carnet's tables as GRDB records. CarnetModels knows nothing of GRDB: these small
// structs are where a model value meets its table, column by column and by name, so no read
// depends on the order of a SELECT's columns.

/// A row of `contacts`, exactly as stored (timestamps are the stored text).
struct ContactRecord: Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "contacts"

    enum Columns: String, ColumnExpression, CaseIterable {
        case id, uid, name, position, email, phone, photo
        case createdAt = "created_at", updatedAt = "updated_at", version
    }

    /// Nil for a contact not yet inserted: SQLite gives the next id (AUTOINCREMENT, so never one
    /// it gave before).
    var id: Int64?
    var uid: String
    var name: String
    var position: String
    var email: String
    var phone: String
    var photo: Data?
    var createdAt: String
    var updatedAt: String
    var version: Int

    init(id: Int64?, uid: String, draft: ContactDraft, createdAt: String, updatedAt: String, version: Int) {
        self.id = id
        self.uid = uid
        name = draft.name
        position = draft.position
        email = draft.email
        phone = draft.phone
        photo = draft.photo
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
    }

    /// The model value. A timestamp that does not parse (only a hand edit with the CHECKs
    /// switched off can store one; `db check` names it) reads as the distant past.
    var contact: Contact {
        Contact(
            id: id ?? 0, uid: uid, name: name, position: position, email: email, phone: phone, photo: photo,
            createdAt: Timestamp.date(createdAt) ?? .distantPast, updatedAt: Timestamp.date(updatedAt) ?? .distantPast,
            version: version)
    }

    /// `contacts`' columns for a SELECT, optionally qualified (`c.id, c.uid, …`).
    static func selection(qualifiedBy alias: String? = nil) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return Columns.allCases.map { prefix + $0.rawValue }.joined(separator: ", ")
    }

    /// Where each column is in the rows of one statement, looked up by name once per statement
    /// rather than once per row and column: loading a million contacts is a measured workload.
    struct ColumnIndexes {
        let id, uid, name, position, email, phone, photo, createdAt, updatedAt, version: Int

        init(_ statement: Statement) throws {
            try self.init { statement.index(ofColumn: $0) }
        }

        init(_ row: Row) throws {
            let names = Array(row.columnNames.map { $0.lowercased() })
            try self.init { names.firstIndex(of: $0) }
        }

        private init(_ index: (String) -> Int?) throws {
            func find(_ column: Columns) throws -> Int {
                guard let found = index(column.rawValue) else {
                    throw CarnetError.database("a contacts row was read without its \(column.rawValue) column")
                }
                return found
            }
            id = try find(.id)
            uid = try find(.uid)
            name = try find(.name)
            position = try find(.position)
            email = try find(.email)
            phone = try find(.phone)
            photo = try find(.photo)
            createdAt = try find(.createdAt)
            updatedAt = try find(.updatedAt)
            version = try find(.version)
        }
    }

    init(row: Row) throws {
        try self.init(row: row, at: ColumnIndexes(row))
    }

    /// The contact in a row whose columns were found beforehand, decoded straight into the model
    /// value: the contact list's fast path. (Going through a `ContactRecord` first measured about
    /// 15% slower on a page of 50 and on loading every contact; looking each column up by name
    /// on every row, about 30%.)
    static func contact(row: Row, at column: ColumnIndexes) throws -> Contact {
        Contact(
            id: try row.decode(Int64.self, atIndex: column.id),
            uid: try row.decode(String.self, atIndex: column.uid),
            name: try row.decode(String.self, atIndex: column.name),
            position: try row.decode(String.self, atIndex: column.position),
            email: try row.decode(String.self, atIndex: column.email),
            phone: try row.decode(String.self, atIndex: column.phone),
            photo: try row.decode(Data?.self, atIndex: column.photo),
            createdAt: Timestamp.date(try row.decode(String.self, atIndex: column.createdAt)) ?? .distantPast,
            updatedAt: Timestamp.date(try row.decode(String.self, atIndex: column.updatedAt)) ?? .distantPast,
            version: try row.decode(Int.self, atIndex: column.version))
    }

    /// Decodes a row whose columns were found beforehand (see ``ColumnIndexes``).
    init(row: Row, at column: ColumnIndexes) throws {
        id = try row.decode(Int64.self, atIndex: column.id)
        uid = try row.decode(String.self, atIndex: column.uid)
        name = try row.decode(String.self, atIndex: column.name)
        position = try row.decode(String.self, atIndex: column.position)
        email = try row.decode(String.self, atIndex: column.email)
        phone = try row.decode(String.self, atIndex: column.phone)
        photo = try row.decode(Data?.self, atIndex: column.photo)
        createdAt = try row.decode(String.self, atIndex: column.createdAt)
        updatedAt = try row.decode(String.self, atIndex: column.updatedAt)
        version = try row.decode(Int.self, atIndex: column.version)
    }

    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.uid] = uid
        container[Columns.name] = name
        container[Columns.position] = position
        container[Columns.email] = email
        container[Columns.phone] = phone
        container[Columns.photo] = photo
        container[Columns.createdAt] = createdAt
        container[Columns.updatedAt] = updatedAt
        container[Columns.version] = version
    }

    // MARK: The one INSERT and the one UPDATE of a contact

    // Both are cached prepared statements: GRDB's `insert(_:)` would build a persistence
    // container and look its SQL up again for every row, which the import and edit benchmarks
    // measure; and GRDB's `update(_:)` names a row by primary key alone, where an edit must name
    // it by id, uid and the version it read.

    /// Every column, in ``Columns`` order; a nil id lets SQLite give the next one.
    static let insertSQL = """
        INSERT INTO contacts (\(selection())) VALUES (\(databaseQuestionMarks(count: Columns.allCases.count)))
        """

    /// The values of ``insertSQL``, in ``Columns`` order (a test checks they agree with `encode(to:)`).
    var insertArguments: StatementArguments {
        [id, uid, name, position, email, phone, photo, createdAt, updatedAt, version]
    }

    /// The prepared ``insertSQL``, for a loop that inserts many rows.
    static func insertStatement(_ db: Database) throws -> Statement {
        try db.cachedStatement(sql: insertSQL)
    }

    /// Inserts the row with ``insertSQL`` and returns its id. (GRDB's `insert(_:)`, which this
    /// record also has, builds its statement anew for every row.)
    @discardableResult
    func insertRow(_ db: Database) throws -> Int64 {
        try Self.insertStatement(db).execute(arguments: insertArguments)
        return db.lastInsertedRowID
    }

    /// Writes `draft` over the contact with `id` *and* `uid` if its stored version is `version`,
    /// bumping the version and setting `updated_at`. Returns whether a row was written: false
    /// when that contact was deleted or saved by someone else since `version` was read.
    static func update(
        _ db: Database, id: Int64, uid: String, expecting version: Int, with draft: ContactDraft, updatedAt: String
    ) throws -> Bool {
        try db.cachedStatement(sql: """
            UPDATE contacts SET name = ?, position = ?, email = ?, phone = ?, photo = ?,
                                updated_at = ?, version = version + 1
            WHERE id = ? AND uid = ? AND version = ?
            """)
            .execute(arguments: [draft.name, draft.position, draft.email, draft.phone, draft.photo, updatedAt, id, uid, version])
        return db.changesCount == 1
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
/// users read it, and `PRAGMA user_version` mirrors its last version).
struct SchemaMigrationRecord: Equatable, Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "schema_migrations"

    enum CodingKeys: String, CodingKey {
        case version, name, appliedAt = "applied_at"
    }

    enum Columns {
        static let version = Column(CodingKeys.version)
        static let name = Column(CodingKeys.name)
    }

    var version: Int
    var name: String
    var appliedAt: String
}
