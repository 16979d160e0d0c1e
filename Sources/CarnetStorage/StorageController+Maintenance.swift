import CarnetModels
import Foundation
import GRDB

/// What every screen needs at start, read in one transaction so the parts agree with each other.
public struct StorageSnapshot: Sendable, Equatable {
    public let currentQuote: Quote?
    public let favorites: [Favorite]
    public let quoteCount: Int
}

extension StorageController {
    /// The current quote, the favorites and the quote count, as of one moment. (The contact
    /// count is a scan of the name index, so screens ask for it only when they show it.)
    public func snapshot() throws(CarnetError) -> StorageSnapshot {
        try read { db in
            StorageSnapshot(
                currentQuote: try Self.fetchCurrentQuote(db),
                favorites: try Self.fetchFavorites(db),
                quoteCount: try Int.fetchOne(db, sql: "SELECT count(*) FROM quotes") ?? 0)
        }
    }

    /// A number that changes when *another* connection or process commits to the file
    /// (`PRAGMA data_version` on the writer connection). Costs one pragma: cheap enough to
    /// call every time a screen appears.
    public func externalChangeToken() throws(CarnetError) -> Int {
        do {
            return try writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
    }

    /// Everything `carnet db check` looks at: SQLite's `integrity_check` and `foreign_key_check`;
    /// every table, index and constraint of the schema, against a new file made by the same
    /// migrations (a dropped index, or a table whose CHECKs were edited away, is named); that
    /// `user_version` is the last migration applied; and every contact and quote against the
    /// rules (what only `PRAGMA ignore_check_constraints` can have let in). Returns `["ok"]`
    /// when all is well, otherwise one line per problem.
    public func integrityCheck() throws(CarnetError) -> [String] {
        // What another program wrote is indexed first, as Carnet's next write would.
        try catchUpSearchIndex()
        let expected = try StorageController(inMemoryWith: options, migrations: migrations)
            .read { db in try Self.schemaEntries(db) }
        return try read { db in
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
            problems += try Self.brokenForeignKeys(db)
            let found = try Self.schemaEntries(db)
            for (name, entry) in expected.sorted(by: { $0.key < $1.key }) {
                guard let actual = found[name] else {
                    problems.append("\(entry.type) \(name) is missing; recreate it with: \(entry.sql)")
                    continue
                }
                if actual != entry {
                    problems.append("\(entry.type) \(name) is not defined as this schema defines it (its columns or constraints were changed)")
                }
            }
            let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            let applied = try Int.fetchOne(db, sql: "SELECT max(version) FROM schema_migrations") ?? 0
            if userVersion != applied {
                problems.append("user_version is \(userVersion) but the migrations applied reach \(applied); set it back with: PRAGMA user_version = \(applied)")
            }
            problems += try Self.searchIndexProblems(db)
            problems += try IDSpace.problems(db)
            problems += try Self.bookNameProblems(db)
            problems += try Self.syncStateProblems(db)
            let violations = try SchemaRepairs.violations(db)
            problems += violations.prefix(100).map { "\($0.description) (the rule the schema's CHECK enforces was switched off)" }
            if violations.count > 100 { problems.append("… and \(violations.count - 100) more values that break a rule") }
            return problems.isEmpty ? ["ok"] : problems
        }
    }

    /// The search index out of step with the contacts: a document count that is not the count of
    /// people (group cards are not indexed), or writes by another program not indexed yet (a file
    /// this process may not write).
    static func searchIndexProblems(_ db: Database) throws -> [String] {
        guard try db.tableExists("contact_search_data") else { return [] }
        var problems: [String] = []
        if try SearchIndex.isOutdated(db) {
            problems.append("the search index does not have the changes another program made to the contacts; bring it up to date with: carnet db reindex")
        }
        let documents = try SearchIndex.documentCount(db)
        let contacts = try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts WHERE \(individualsCondition)") ?? 0
        if documents != contacts {
            problems.append("the search index holds \(documents) contacts of \(contacts); rebuild it with: carnet db reindex")
        }
        return problems
    }

    /// Makes the search index anew from the contacts (`carnet db reindex`): after a write with
    /// sqlite3 the next write does it anyway; this is the way to do it on demand, or to repair an
    /// index that `integrityCheck()` finds out of step. Returns how many contacts it indexed.
    public func reindexSearch() throws(CarnetError) -> Int {
        try write(indexing: false) { db in try SearchIndex.rebuild(db) }
    }

    /// Repairs what `integrityCheck()` names as `carnet db repair`'s: an id counter past the
    /// ids a file may carry (see `IDSpace`), a synced group the server has naming a contact
    /// merged away here (marked to send). One line per change; empty when there was nothing
    /// to repair.
    public func repair() throws(CarnetError) -> [String] {
        try write { db in try IDSpace.repair(db) + Self.repairSyncState(db) }
    }

    /// Rows whose foreign key names a row that is not there (only a delete with foreign keys off,
    /// as sqlite3 runs by default, leaves them). A table with rowids names the row; a child table
    /// of a contact has none (WITHOUT ROWID), so its rows are named by the missing contact, once
    /// per contact, with the statement that removes them.
    static func brokenForeignKeys(_ db: Database) throws -> [String] {
        var problems: [String] = []
        var childTables: [String] = []
        for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
            let table: String = row["table"] ?? "?"
            if let rowid = row["rowid"] as Int64? {
                problems.append("foreign key broken in \(table) row \(rowid)")
            } else if !childTables.contains(table) {
                childTables.append(table)
            }
        }
        for table in childTables {
            guard let child = ContactChildTable.all.first(where: { $0.name == table }) else {
                problems.append("foreign key broken in \(table)")
                continue
            }
            let orphans = try Int64.fetchAll(db, sql: """
                SELECT DISTINCT contact_id FROM \(child.name) WHERE contact_id NOT IN (SELECT id FROM contacts) ORDER BY contact_id
                """)
            problems += orphans.map { id in
                "\(child.name) has rows of contact \(id), which does not exist (deleted with foreign keys off); "
                    + "remove them with: DELETE FROM \(child.name) WHERE contact_id NOT IN (SELECT id FROM contacts)"
            }
        }
        return problems
    }

    /// The file's tables, indexes, views and triggers by name (SQLite's own excepted, and GRDB's
    /// list of applied migrations, which a file migrated before Carnet used GRDB's migrator lacks).
    private static func schemaEntries(_ db: Database) throws -> [String: SchemaEntry] {
        var entries: [String: SchemaEntry] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'
            """) {
            entries[row["name"]] = SchemaEntry(type: row["type"], sql: row["sql"])
        }
        return entries
    }

    private struct SchemaEntry: Equatable {
        let type: String
        let sql: String
    }

    /// Copies the database, while others may keep using it, into a new file at `destination`
    /// (mode 0600) that is itself a complete Carnet database. Refuses to overwrite a file.
    public func backup(to destination: String) throws(CarnetError) {
        if FileManager.default.fileExists(atPath: destination) {
            throw .refused("\(destination) already exists; choose a new file name for the backup")
        }
        try FileSetup.prepare(path: destination)
        do {
            let target = try DatabaseQueue(path: destination)
            try writer.backup(to: target)
            try target.close()
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw ErrorMapping.map(error, path: destination)
        }
    }

    /// Schema version, counts and settings of the open file.
    public func info() throws(CarnetError) -> DatabaseInfo {
        let supported = migrations.last?.version ?? 0
        let path = self.path
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        // The setting that counts is the writer connection's (readers never commit).
        let synchronousLevel: Int
        do {
            synchronousLevel = try writer.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? 0 }
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
        let hasGroups = self.hasGroups
        let environment = options.environment
        return try read { db in
            // A controller made for an earlier schema (tests of upgrades) has no groups to count.
            let groups = hasGroups ? try Self.groupCount(db) : 0
            var info = DatabaseInfo(
                path: path,
                schemaVersion: try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                supportedSchemaVersion: supported,
                migrations: try String.fetchAll(db, sql: "SELECT name FROM schema_migrations ORDER BY version"),
                contacts: (try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts") ?? 0) - groups,
                favorites: try Int.fetchOne(db, sql: "SELECT count(*) FROM favorites") ?? 0,
                quotes: try Int.fetchOne(db, sql: "SELECT count(*) FROM quotes") ?? 0,
                fileBytes: fileBytes,
                journalMode: try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?",
                synchronous: ["OFF", "NORMAL", "FULL", "EXTRA"][min(3, max(0, synchronousLevel))],
                repairedValues: try db.tableExists("repaired_values")
                    ? Int.fetchOne(db, sql: "SELECT count(*) FROM repaired_values") ?? 0 : 0)
            info.groups = groups
            info.phoneRegion = try Self.phoneRegionSetting(db, environment: environment)
            info.space = try Self.space(db)
            return info
        }
    }

    /// The tables of the undo history, as `carnet db info` counts them.
    static let historyTables: Set<String> = ["history", "history_changesets"]

    /// What takes the file's pages, from SQLite's `dbstat` table; nil when this SQLite lacks it.
    /// `aggregate = TRUE` gives one row per table or index: it still reads every page, but
    /// skips the per-page rows the plain table makes, the faster of the two.
    static func space(_ db: Database) throws -> DatabaseSpace? {
        let pageSize = Int64(try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        let pages = Int64(try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0)
        let freePages = Int64(try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0)
        let sizes: [Row]
        do {
            sizes = try Row.fetchAll(db, sql: "SELECT name, pgsize FROM dbstat WHERE aggregate = TRUE")
        } catch let error as DatabaseError where error.message?.contains("dbstat") == true {
            return nil
        }
        // Each table or index by the table it belongs to: the search index's and the history's
        // own indexes count as theirs.
        var owners: [String: (type: String, table: String)] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name FROM sqlite_schema") {
            owners[row["name"]] = (row["type"], row["tbl_name"])
        }
        var indexes: Int64 = 0, search: Int64 = 0, history: Int64 = 0
        for row in sizes {
            let name: String = row["name"]
            let bytes: Int64 = row["pgsize"] ?? 0
            guard let owner = owners[name] else { continue }
            if owner.table.hasPrefix("contact_search") {
                search += bytes
            } else if historyTables.contains(owner.table) {
                history += bytes
            } else if owner.type == "index" {
                indexes += bytes
            }
        }
        // The rest is data: the tables, SQLite's schema, and any page dbstat does not name.
        let used = (pages - freePages) * pageSize
        return DatabaseSpace(
            data: max(0, used - indexes - search - history), indexes: indexes, searchIndex: search, history: history,
            free: freePages * pageSize)
    }
}
