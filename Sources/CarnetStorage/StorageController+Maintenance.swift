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

    /// `PRAGMA integrity_check` and `PRAGMA foreign_key_check`: `["ok"]` when the file is sound,
    /// otherwise one line per problem.
    public func integrityCheck() throws(CarnetError) -> [String] {
        try read { db in
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check")
            let orphans = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            if !orphans.isEmpty {
                if problems == ["ok"] { problems = [] }
                problems += orphans.map { "foreign key broken in \($0[0] as String? ?? "?") row \($0[1] as Int64? ?? 0)" }
            }
            return problems
        }
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
        return try read { db in
            DatabaseInfo(
                path: path,
                schemaVersion: try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                supportedSchemaVersion: supported,
                migrations: try String.fetchAll(db, sql: "SELECT name FROM schema_migrations ORDER BY version"),
                contacts: try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts") ?? 0,
                favorites: try Int.fetchOne(db, sql: "SELECT count(*) FROM favorites") ?? 0,
                quotes: try Int.fetchOne(db, sql: "SELECT count(*) FROM quotes") ?? 0,
                fileBytes: fileBytes,
                journalMode: try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?",
                synchronous: ["OFF", "NORMAL", "FULL", "EXTRA"][min(3, max(0, synchronousLevel))])
        }
    }
}
