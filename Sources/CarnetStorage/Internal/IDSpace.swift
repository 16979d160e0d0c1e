import CarnetModels
import Foundation
import GRDB

/// The ids of contacts and quotes are AUTOINCREMENT: each new row gets the largest id ever
/// issued plus one, and SQLite refuses an insert (SQLITE_FULL, "disk full") once that counter
/// reaches the largest 64-bit integer. Carnet itself counts up from 1 and never gets near; only
/// an id carried in from a file could put the counter there, so no id above ``largestRestored``
/// is ever taken from a file, and `carnet db check` names a file that got one before.
enum IDSpace {
    /// The largest id an import keeps as the file gave it: 2^53 - 1, the largest integer every
    /// JSON reader holds exactly, and still 2^63 - 2^53 ids short of the end.
    static let largestRestored: Int64 = (1 << 53) - 1

    /// The tables whose id counter matters: a row of each can be added by a user.
    static let tables = ["contacts", "quotes"]

    /// One line per table whose counter is past ``largestRestored``, naming the rows that hold
    /// such ids, with the repair.
    static func problems(_ db: Database) throws -> [String] {
        var problems: [String] = []
        for table in tables {
            guard let seq = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table]),
                  seq > largestRestored else { continue }
            let holders = try Int64.fetchAll(db, sql: "SELECT id FROM \(table) WHERE id > ? ORDER BY id", arguments: [largestRestored])
            let rows = holders.isEmpty ? "" : "; \(holders.count == 1 ? "it is" : "they are") the id of "
                + holders.prefix(10).map { "\(table == "contacts" ? "contact" : "quote") \($0)" }.joined(separator: ", ")
                + (holders.count > 10 ? " and \(holders.count - 10) more" : "")
            problems.append(
                "the \(table) id counter is at \(seq), an id taken from a file, so \(seq == Int64.max ? "no" : "few")"
                    + " \(table == "contacts" ? "contact" : "quote") can be added\(rows); repair with: carnet db repair")
        }
        return problems
    }

    /// Gives every row holding an id past ``largestRestored`` the next id after the largest
    /// below it (and the rows that refer to it follow), then sets the counter back to the
    /// largest id held. Returns one line per change, empty when there was nothing to do.
    static func repair(_ db: Database) throws -> [String] {
        var done: [String] = []
        for table in tables {
            guard let seq = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table]),
                  seq > largestRestored else { continue }
            // The rows that refer to this table follow each move; the check waits for the commit.
            try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
            let references = try Row.fetchAll(db, sql: """
                SELECT m.name AS child, f."from" AS col FROM sqlite_master m, pragma_foreign_key_list(m.name) f
                WHERE m.type = 'table' AND f."table" = ?
                """, arguments: [table])
            let holders = try Int64.fetchAll(db, sql: "SELECT id FROM \(table) WHERE id > ? ORDER BY id", arguments: [largestRestored])
            var next = (try Int64.fetchOne(db, sql: "SELECT max(id) FROM \(table) WHERE id <= ?", arguments: [largestRestored]) ?? 0) + 1
            for old in holders {
                for reference in references {
                    let child: String = reference["child"]
                    let column: String = reference["col"]
                    try db.execute(sql: "UPDATE \(child.quotedDatabaseIdentifier) SET \(column.quotedDatabaseIdentifier) = ? WHERE \(column.quotedDatabaseIdentifier) = ?",
                                   arguments: [next, old])
                }
                try db.execute(sql: "UPDATE \(table) SET id = ? WHERE id = ?", arguments: [next, old])
                done.append("\(table == "contacts" ? "contact" : "quote") \(old) is now \(table == "contacts" ? "contact" : "quote") \(next)")
                next += 1
            }
            let largest = try Int64.fetchOne(db, sql: "SELECT max(id) FROM \(table)") ?? 0
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = ? WHERE name = ?", arguments: [largest, table])
            done.append("the \(table) id counter is back at \(largest)")
            if table == "contacts", !holders.isEmpty, try db.tableExists("contact_search") {
                try SearchIndex.rebuild(db)
            }
        }
        return done
    }
}
