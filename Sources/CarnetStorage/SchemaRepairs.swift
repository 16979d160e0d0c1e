import CarnetModels
import Foundation
import GRDB

/// Swift steps that run inside a migration's transaction, just before its SQL file.
///
/// Schema 3 made the CHECK constraints as strict as the validation. A file from before it may hold
/// values that break the stricter rules: written by hand with sqlite3, or by an older Carnet whose
/// rules let through what they no longer do (a direction override or line separator in a name, a
/// leading byte-order mark). Refusing to open such a file would lock its owner out of their
/// address book, so each such value is brought within the rules (see ``CarnetModels/ValueRepair``)
/// and its original is kept, byte for byte, in `repaired_values` (schema 2).
enum SchemaRepairs {
    static func before(_ version: Int) -> ((Database) throws -> Void)? {
        if version == 3 { return repairForStrictRules }
        return nil
    }

    private static func repairForStrictRules(_ db: Database) throws {
        let log = RepairLog(db: db, stamp: Timestamp.string(Timestamp.now()))
        let contactText = ["uid", "name", "position", "email", "phone", "created_at", "updated_at"]
        for row in try Row.fetchAll(db, sql: bytesQuery("contacts", text: contactText, other: ["id", "photo", "version"])) {
            try log.repairContact(row)
        }
        for row in try Row.fetchAll(db, sql: bytesQuery("quotes", text: ["text", "author", "created_at", "updated_at"], other: ["id", "version"])) {
            try log.repairQuote(row)
        }
    }

    /// Reads text columns as their bytes and type: GRDB would read a text value only up to its
    /// first NUL, and a value that hides bytes after a NUL is one this repair must see.
    private static func bytesQuery(_ table: String, text: [String], other: [String]) -> String {
        let columns = other + text.flatMap { ["CAST(\($0) AS BLOB) AS \($0)", "typeof(\($0)) AS \($0)_type"] }
        return "SELECT \(columns.joined(separator: ", ")) FROM \(table)"
    }
}

/// Repairs one row at a time and records every value it changes.
private struct RepairLog {
    let db: Database
    let stamp: String

    func repairContact(_ row: Row) throws {
        let id: Int64 = row["id"]
        let fixes = RowFixes(row)
        let fix = fixes.fix
        var name = ValueRepair.line(Self.text(row["name"]), max: Limits.nameLength)
        if name.isEmpty { name = "Unnamed contact \(id)" }
        fix("name", name, "name: the rules of schema 3 (no control, line-separator or direction characters; trimmed; 1 to \(Limits.nameLength) characters)")
        fix("position", ValueRepair.line(Self.text(row["position"]), max: Limits.positionLength),
            "position: the rules of schema 3 (no control, line-separator or direction characters; trimmed; at most \(Limits.positionLength) characters)")
        let draft = ContactDraft(name: "x", email: Self.text(row["email"]), phone: Self.text(row["phone"]), photo: Self.blob(row["photo"]))
        let normalized = draft.normalized()
        let broken = Set(normalized.issues().map(\.field))
        fix("email", broken.contains(.email) ? "" : normalized.email, "email: must look like name@example.com (no spaces or invisible characters)")
        fix("phone", broken.contains(.phone) ? "" : normalized.phone, "phone: digits, spaces and + - ( ) . with a digit")
        fix("photo", broken.contains(.photo) ? nil : normalized.photo, "photo: a JPEG, PNG, GIF or WebP image of at most \(Limits.photoBytes) bytes")
        let uid = Self.text(row["uid"])
        fix("uid", UIDRule.issues(uid).isEmpty ? uid : UUID().uuidString.lowercased(), "uid: 1 to 255 characters, none of them control characters")
        fixTimestamps(fixes)
        fixVersion(fixes)
        try record("contacts", id, fixes.changes)
    }

    func repairQuote(_ row: Row) throws {
        let id: Int64 = row["id"]
        let fixes = RowFixes(row)
        let fix = fixes.fix
        var text = ValueRepair.quoteText(Self.text(row["text"]))
        if text.isEmpty { text = "(quote \(id) had no text)" }
        fix("text", text, "text: the rules of schema 3 (no control characters but line feeds; trimmed; 1 to \(Limits.quoteTextLength) characters)")
        fix("author", ValueRepair.line(Self.text(row["author"]), max: Limits.authorLength),
            "author: the rules of schema 3 (no control, line-separator or direction characters; trimmed; at most \(Limits.authorLength) characters)")
        fixTimestamps(fixes)
        fixVersion(fixes)
        try record("quotes", id, fixes.changes)
    }

    private func fixTimestamps(_ fixes: RowFixes) {
        for column in ["created_at", "updated_at"] {
            let parsed = Timestamp.date(Self.text(fixes.row[column])).map(Timestamp.string)
            fixes.fix(column, parsed ?? stamp, "\(column): a time as Carnet writes it, YYYY-MM-DDTHH:MM:SS.SSSZ")
        }
    }

    private func fixVersion(_ fixes: RowFixes) {
        let value = fixes.row["version"] as DatabaseValue
        var version: Int64 = 1
        if case let .int64(number) = value.storage, number >= 1 { version = number }
        fixes.fix("version", version, "version: a whole number, 1 or more")
    }

    /// Writes the repaired values over the row (the old table's weaker CHECKs accept them) and
    /// the originals into `repaired_values`.
    private func record(_ table: String, _ id: Int64, _ fixes: [RowFixes.Change]) throws {
        guard !fixes.isEmpty else { return }
        for fix in fixes {
            try db.execute(
                sql: "INSERT INTO repaired_values (table_name, row_id, column_name, original, rule, repaired_at) SELECT ?, id, ?, \(fix.column), ?, ? FROM \(table) WHERE id = ?",
                arguments: [table, fix.column, fix.rule, stamp, id])
        }
        let assignments = fixes.map { "\($0.column) = ?" }.joined(separator: ", ")
        try db.execute(sql: "UPDATE \(table) SET \(assignments) WHERE id = ?",
                       arguments: StatementArguments(fixes.map(\.value) + [id.databaseValue]))
    }

    /// A stored value as text, whatever its type: the repair starts from what a person would read.
    static func text(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return ""
        case let .int64(number): return String(number)
        case let .double(number): return String(number)
        case let .string(text): return text
        case let .blob(data): return String(decoding: data, as: UTF8.self)
        }
    }

    static func blob(_ value: DatabaseValue) -> Data? {
        switch value.storage {
        case .null: return nil
        case let .blob(data): return data
        case let .string(text): return Data(text.utf8)
        default: return Data(text(value).utf8)
        }
    }
}

/// The values of one row that a repair changes.
private final class RowFixes {
    struct Change {
        let column: String
        let value: DatabaseValue
        let rule: String
    }

    let row: Row
    private(set) var changes: [Change] = []

    init(_ row: Row) { self.row = row }

    /// Records `value` for `column` if it differs from what the row holds (a text column is
    /// compared byte for byte, and must be stored as text).
    func fix(_ column: String, _ value: (any DatabaseValueConvertible)?, _ rule: String) {
        let repaired = value?.databaseValue ?? .null
        let same: Bool
        if case let .string(text) = repaired.storage {
            same = row["\(column)_type"] == "text" && row[column] == Data(text.utf8)
        } else {
            same = repaired == row[column] as DatabaseValue
        }
        if !same { changes.append(Change(column: column, value: repaired, rule: rule)) }
    }
}
