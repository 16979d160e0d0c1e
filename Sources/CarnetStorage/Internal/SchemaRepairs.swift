import CarnetModels
import Foundation
import GRDB

/// Values a file holds that break Carnet's rules, found row by row: the schema-3 upgrade repairs
/// them (keeping every original), and `carnet db check` reports them.
///
/// Schema 3 made the CHECK constraints as strict as the validation. A file from before it may hold
/// values that break the stricter rules: written by hand with sqlite3, or by an older Carnet whose
/// rules let through what they no longer do (a direction override or line separator in a name, a
/// leading byte-order mark). Refusing to open such a file would lock its owner out of their
/// address book, so each such value is brought within the rules (see ``CarnetModels/ValueRepair``)
/// and its original is kept, byte for byte, in `repaired_values` (schema 2). After schema 3 only
/// a hand edit that switches the CHECKs off (`PRAGMA ignore_check_constraints`) can store such a
/// value, and `db check` names it.
enum SchemaRepairs {
    /// The Swift step that runs inside migration `version`'s transaction, before its SQL.
    static func before(_ version: Int) -> ((Database) throws -> Void)? {
        if version == 3 { return repairForStrictRules }
        return nil
    }

    /// The Swift step that runs inside migration `version`'s transaction, after its SQL.
    static func after(_ version: Int) -> ((Database) throws -> Void)? {
        if version == 4 {
            return { db in
                try splitPositionsAsTheInterchangeDoes(db)
                try deriveNameParts(db)
            }
        }
        return nil
    }

    /// Schema 4's SQL splits a position at its first ", " byte for byte. The interchange
    /// (``CarnetModels/ContactDraft/split(position:)``) compares characters, so to it ", " followed
    /// by a combining mark or an emoji modifier (", \u{301}…") is no separator, and it may split at
    /// a later ", " or not at all. Where the two differ the interchange's split is the one kept, so a
    /// contact reads and exports as the previous release showed it. The SQL split only when both
    /// sides were non-empty, so title, ", " and organization are the old position exactly.
    private static func splitPositionsAsTheInterchangeDoes(_ db: Database) throws {
        let update = try db.makeStatement(sql: "UPDATE contacts SET title = ?, organization = ? WHERE id = ?")
        for row in try Row.fetchAll(db, sql: "SELECT id, title, organization FROM contacts WHERE organization <> ''") {
            let (title, organization): (String, String) = (row["title"], row["organization"])
            let split = ContactDraft.split(position: title + ", " + organization)
            if split != (title, organization) {
                try update.execute(arguments: [split.title, split.organization, row["id"] as Int64])
            }
        }
    }

    /// Schema 4 gave contacts a structured name. A contact from before has only its display
    /// name; where that can be read without guessing ("Ada Lovelace", "Dr. John Q. Appleseed
    /// Jr."), its parts are filled in, so `--sort family` finds her under L.
    private static func deriveNameParts(_ db: Database) throws {
        let update = try db.makeStatement(sql: """
            UPDATE contacts SET name_prefix = ?, given_name = ?, additional_names = ?, family_name = ?, name_suffix = ?
            WHERE id = ?
            """)
        let rows = try Row.fetchCursor(db, sql: "SELECT id, name FROM contacts")
        var updates: [(Int64, PersonName)] = []
        while let row = try rows.next() {
            // A name of up to 200 characters can have a part longer than a part may be (100):
            // such a name keeps its display name and gets no parts, rather than failing the
            // upgrade (the parts' CHECKs would refuse them) and locking the file at schema 3.
            guard let parts = PersonName.derived(from: row["name"]),
                  [parts.prefix, parts.given, parts.additional, parts.family, parts.suffix]
                      .allSatisfy({ $0.unicodeScalars.count <= Limits.namePartLength })
            else { continue }
            updates.append((row["id"], parts))
        }
        for (id, parts) in updates {
            try update.execute(arguments: [parts.prefix, parts.given, parts.additional, parts.family, parts.suffix, id])
        }
    }

    /// One value that breaks a rule, and what it would be repaired to.
    struct Violation {
        let table: String
        let rowID: Int64
        let column: String
        let repaired: DatabaseValue
        let rule: String

        var description: String { "\(table) row \(rowID), \(column): \(rule)" }
    }

    /// Every value in `contacts` and `quotes` that breaks a rule.
    static func violations(_ db: Database) throws -> [Violation] {
        let stamp = Timestamp.string(Timestamp.now())
        var found: [Violation] = []
        // Before schema 4 a contact had one position, email and phone; since, its lists are in
        // child tables whose CHECKs hold every rule of an entry.
        let firstSchema = try db.columns(in: "contacts").contains { $0.name == "position" }
        let text = firstSchema ? contactText : ["uid"] + ContactRecord.textColumns.map(\.column.rawValue) + ["created_at", "updated_at"]
        for row in try Row.fetchAll(db, sql: bytesQuery("contacts", text: text, other: ["id", "photo", "version"])) {
            var audit = RowAudit(row, table: "contacts", stamp: stamp)
            found += firstSchema ? audit.firstSchemaContact() : audit.contact()
        }
        for row in try Row.fetchAll(db, sql: bytesQuery("quotes", text: quoteText, other: ["id", "version"])) {
            var audit = RowAudit(row, table: "quotes", stamp: stamp)
            found += audit.quote()
        }
        return found
    }

    private static let contactText = ["uid", "name", "position", "email", "phone", "created_at", "updated_at"]
    private static let quoteText = ["text", "author", "created_at", "updated_at"]

    private static func repairForStrictRules(_ db: Database) throws {
        let stamp = Timestamp.string(Timestamp.now())
        for violation in try violations(db) {
            // The original is copied by SQL, so it is kept exactly as stored, whatever its type.
            try db.execute(
                sql: """
                    INSERT INTO repaired_values (table_name, row_id, column_name, original, rule, repaired_at)
                    SELECT ?, id, ?, \(violation.column), ?, ? FROM \(violation.table) WHERE id = ?
                    """,
                arguments: [violation.table, violation.column, violation.rule, stamp, violation.rowID])
            // The old table's weaker CHECKs accept every repaired value.
            try db.execute(
                sql: "UPDATE \(violation.table) SET \(violation.column) = ? WHERE id = ?",
                arguments: [violation.repaired, violation.rowID])
        }
    }

    /// Reads text columns as their bytes and type: GRDB would read a text value only up to its
    /// first NUL, and a value that hides bytes after a NUL is one this audit must see.
    private static func bytesQuery(_ table: String, text: [String], other: [String]) -> String {
        let columns = other + text.flatMap { ["CAST(\($0) AS BLOB) AS \($0)", "typeof(\($0)) AS \($0)_type"] }
        return "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY id"
    }
}

/// The rules applied to one row as stored.
private struct RowAudit {
    let row: Row
    let table: String
    let id: Int64
    let stamp: String
    private var found: [SchemaRepairs.Violation] = []

    init(_ row: Row, table: String, stamp: String) {
        self.row = row
        self.table = table
        self.stamp = stamp
        id = row["id"]
    }

    /// A contact row of schema 4 and later.
    mutating func contact() -> [SchemaRepairs.Violation] {
        var raw = ContactDraft()
        for (column, keyPath) in ContactRecord.textColumns { raw[keyPath: keyPath] = text(column.rawValue) }
        raw.photo = blob("photo")
        let broken = Dictionary(grouping: raw.issues(), by: \.field)
        for spec in ContactFields.all {
            guard let column = ContactRecord.textColumns.first(where: { $0.keyPath == spec.text || $0.keyPath == spec.multilineText })
            else { continue }
            let value = raw[keyPath: column.keyPath]
            let isNote = spec.text == nil
            let normal = isNote ? TextRules.trimmedText(value) : TextRules.trimmed(value)
            var repaired = isNote ? ValueRepair.text(value, max: spec.maxLength) : ValueRepair.line(value, max: spec.maxLength)
            if spec.field == .name, repaired.isEmpty { repaired = "Unnamed contact \(id)" }
            // An empty value breaks no rule but the name's: an issue on an empty name part is
            // about the parts the rules would derive from the name, not about what is stored.
            let issues = value.isEmpty && spec.field != .name ? nil : broken[spec.field]
            check(column.column.rawValue, repaired, issues, normal)
        }
        photoAndIdentity(broken, normalPhoto: raw.normalized().photo)
        return found
    }

    /// A contact row of schemas 1 to 3: one position, email and phone.
    mutating func firstSchemaContact() -> [SchemaRepairs.Violation] {
        let raw = ContactDraft(
            name: text("name"), position: text("position"), email: text("email"), phone: text("phone"), photo: blob("photo"))
        let broken = Dictionary(grouping: raw.issues(), by: \.field)
        let normal = raw.normalized()
        var name = ValueRepair.line(raw.name, max: Limits.nameLength)
        if name.isEmpty { name = "Unnamed contact \(id)" }
        check("name", name, broken[.name], normal.name)
        check("position", ValueRepair.line(raw.position, max: Limits.positionLength), broken[.position], normal.position)
        check("email", broken[.email] == nil ? normal.email : "", broken[.email], normal.email)
        check("phone", broken[.phone] == nil ? normal.phone : "", broken[.phone], normal.phone)
        photoAndIdentity(broken, normalPhoto: normal.photo)
        return found
    }

    private mutating func photoAndIdentity(_ broken: [Field: [FieldIssue]], normalPhoto: Data?) {
        let photo = broken[.photo] == nil ? normalPhoto : nil
        if photo?.databaseValue ?? .null != row["photo"] as DatabaseValue {
            report("photo", photo?.databaseValue ?? .null, broken[.photo].map(Self.describe) ?? "an empty photo is stored as none (NULL)")
        }
        let uid = text("uid")
        let uidIssues = UIDRule.issues(uid)
        check("uid", uidIssues.isEmpty ? uid : UUID().uuidString.lowercased(), uidIssues.isEmpty ? nil : uidIssues, uid)
        timestampsAndVersion()
    }

    mutating func quote() -> [SchemaRepairs.Violation] {
        let raw = QuoteDraft(text: text("text"), author: text("author"))
        let broken = Dictionary(grouping: raw.issues(), by: \.field)
        let normal = raw.normalized()
        var quote = ValueRepair.quoteText(raw.text)
        if quote.isEmpty { quote = "(quote \(id) had no text)" }
        check("text", quote, broken[.text], normal.text)
        check("author", ValueRepair.line(raw.author, max: Limits.authorLength), broken[.author], normal.author)
        timestampsAndVersion()
        return found
    }

    private mutating func timestampsAndVersion() {
        for column in ["created_at", "updated_at"] {
            let value = text(column)
            let parsed = Timestamp.date(value).map(Timestamp.string)
            if parsed != value || !isText(column) {
                report(column, (parsed ?? stamp).databaseValue, "is not a time as Carnet writes it (YYYY-MM-DDTHH:MM:SS.SSSZ)")
            }
        }
        let stored = row["version"] as DatabaseValue
        guard case let .int64(version) = stored.storage, version >= 1 else {
            report("version", Int64(1).databaseValue, "is not a whole number of 1 or more")
            return
        }
    }

    /// Reports `column` when its stored value breaks a rule: `issues`, or not stored as the text
    /// `normal` it normalizes to (white space or invisible characters at an end, not text).
    private mutating func check(_ column: String, _ repaired: String, _ issues: [FieldIssue]?, _ normal: String) {
        if let issues {
            report(column, repaired.databaseValue, Self.describe(issues))
        } else if !isText(column) {
            report(column, repaired.databaseValue, "is stored as \(row["\(column)_type"] as String? ?? "?"), not as text")
        } else if Data(normal.utf8) != row[column] as Data? ?? Data() {
            report(column, normal.databaseValue, "has white space or invisible characters at an end, or is not valid UTF-8")
        }
    }

    private mutating func report(_ column: String, _ repaired: DatabaseValue, _ rule: String) {
        found.append(SchemaRepairs.Violation(table: table, rowID: id, column: column, repaired: repaired, rule: rule))
    }

    private static func describe(_ issues: [FieldIssue]) -> String {
        issues.map(\.message).joined(separator: "; ")
    }

    private func isText(_ column: String) -> Bool { row["\(column)_type"] == "text" }

    /// A stored value as text, whatever its type: the rules judge what a person would read.
    private func text(_ column: String) -> String {
        let value = row[column] as DatabaseValue
        switch value.storage {
        case .null: return ""
        case let .int64(number): return String(number)
        case let .double(number): return String(number)
        case let .string(text): return text
        case let .blob(data): return String(decoding: data, as: UTF8.self)
        }
    }

    private func blob(_ column: String) -> Data? {
        switch (row[column] as DatabaseValue).storage {
        case .null: return nil
        case let .blob(data): return data
        case let .string(text): return Data(text.utf8)
        case let .int64(number): return Data(String(number).utf8)
        case let .double(number): return Data(String(number).utf8)
        }
    }
}
