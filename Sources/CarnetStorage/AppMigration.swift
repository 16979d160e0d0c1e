import CarnetModels
import Foundation
import GRDB

/// A migration of an embedding program's own tables, run in Carnet's file after Carnet's own.
///
/// A program that keeps tables of its own beside the address book (notes on a contact, its own
/// settings) registers their migrations here rather than running a `DatabaseMigrator` of its
/// own on the file: they run in order, each once, in its own transaction, every time a
/// `StorageController` opens the file, after Carnet's migrations, so they may refer to
/// Carnet's tables (`REFERENCES contacts (id) ON DELETE CASCADE`).
///
/// GRDB keeps every migrator's list in one table, `grdb_migrations`. An embedder's identifiers
/// are recorded there as `app:` followed by the identifier given here: Carnet's own are its
/// migration files' names (`0022_history_process`), and Carnet never deletes or rewrites a row
/// that is not one of them, so the next Carnet release, which adds a migration, leaves the
/// program's rows and tables as they are.
///
/// Never use GRDB's `eraseDatabaseOnSchemaChange` on a Carnet file: it erases the whole file,
/// the address book with it, whenever a migration changes.
///
/// ```swift
/// let notes = AppMigration("create notes") { db in
///     try db.execute(sql: "CREATE TABLE app_notes (contact_id INTEGER PRIMARY KEY REFERENCES contacts (id) ON DELETE CASCADE, text TEXT NOT NULL)")
/// }
/// let storage = try StorageController(path: path, appMigrations: [notes])
/// ```
public struct AppMigration: Sendable {
    /// The program's name for it, unique among its migrations; recorded as `app:IDENTIFIER`.
    public let identifier: String
    let migrate: @Sendable (Database) throws -> Void

    public init(_ identifier: String, migrate: @escaping @Sendable (Database) throws -> Void) {
        self.identifier = identifier
        self.migrate = migrate
    }

    /// The prefix of an embedder's identifiers in `grdb_migrations`.
    public static let namespace = "app:"

    /// The identifier as `grdb_migrations` records it.
    public var recordedIdentifier: String { Self.namespace + identifier }
}

extension StorageController {
    /// Runs the embedder's migrations not yet applied, after Carnet's (see `AppMigration`).
    func migrateApp(_ migrations: [AppMigration]) throws(CarnetError) {
        guard !migrations.isEmpty else { return }
        var seen: Set<String> = []
        for migration in migrations where !seen.insert(migration.identifier).inserted {
            throw CarnetError.migrationFailed(
                path: path, migration: migration.recordedIdentifier, detail: "two migrations have this identifier: give each its own")
        }
        let path = self.path
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.recordedIdentifier) { db in
                do {
                    try migration.migrate(db)
                } catch {
                    throw CarnetError.migrationFailed(path: path, migration: migration.recordedIdentifier, detail: ErrorMapping.describe(error))
                }
            }
        }
        do {
            try migrator.migrate(writer)
        } catch let error as CarnetError {
            throw error
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
        feed.poke()
    }
}

extension StorageController {
    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`), for an embedding program's own
    /// tables (see `AppMigration`); any error rolls it back. Carnet's tables are written through
    /// the controller's typed calls, which keep the history, the search index and the sync in
    /// step: a write to them here is outside all three, and observers are told only that
    /// something changed.
    public func appWrite<T>(_ body: @escaping (Database) throws -> T) throws(CarnetError) -> T {
        try write(body)
    }

    /// Runs `body` in one read transaction, for an embedding program's own tables.
    public func appRead<T>(_ body: @escaping (Database) throws -> T) throws(CarnetError) -> T {
        try read(body)
    }
}
