import CarnetModels
import Foundation
import GRDB
import Testing
@testable import CarnetStorage

/// `migrations/*.sql` applied through GRDB's `DatabaseMigrator`, with the record sqlite3
/// users read (`schema_migrations`, `PRAGMA user_version`) kept as it was.
@Suite struct MigratorTests {
    let dir = TempDirectory()

    /// A file as the previous release made it: schema 1, recorded in `schema_migrations` only.
    func makePreviousReleaseFile(_ name: String = "old.sqlite", _ body: (Database) throws -> Void) throws -> String {
        let path = dir.path(name)
        let old = try StorageController(path: path, options: StorageOptions(), migrations: Array(Migration.embedded.prefix(1)))
        try old.writer.write { db in
            try db.drop(table: "grdb_migrations")
            try body(db)
        }
        try old.close()
        return path
    }

    /// A contact row as the release before writes it: only the columns every schema has, since
    /// this release's `insertContact` writes the columns of its last migration, which a file one
    /// migration back may not have (a new field's). Returns its id.
    @discardableResult
    static func insertAsEveryReleaseDoes(_ storage: StorageController, name: String) throws -> Int64 {
        // With triggers on, as another writer's: the search index is marked out of date and caught up.
        try storage.writer.write { db in
            try SearchIndex.withTriggers(db) {
                try db.execute(
                    sql: "INSERT INTO contacts (uid, name, created_at, updated_at) VALUES (?, ?, '2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.678Z')",
                    arguments: ["uid-\(name)", name])
                return db.lastInsertedRowID
            }
        }
    }

    func table(_ path: String, _ sql: String) throws -> [[String]] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { "\($0)" } }
        }
    }

    @Test func aPreviousReleaseFileOpensWithEveryContactFavoriteAndQuoteAndItsHistory() throws {
        let stamp = "2026-01-02T03:04:05.678Z"
        let path = try makePreviousReleaseFile { db in
            for id in 1...40 {
                try db.execute(
                    sql: "INSERT INTO contacts (id, uid, name, email, photo, created_at, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    arguments: [id * 3, "uid-\(id)", "Person \(id)", "p\(id)@example.com", id % 7 == 0 ? pngBytes : nil, stamp, stamp, id % 4 + 1])
            }
            for (position, id) in [30, 3, 90, 12].enumerated() {
                try db.execute(sql: "INSERT INTO favorites (contact_id, position, created_at) VALUES (?, ?, ?)", arguments: [id, position + 1, stamp])
            }
            try db.execute(sql: "INSERT INTO quotes (text, author, created_at, updated_at, version) VALUES ('Second', 'Me', ?, ?, 2)", arguments: [stamp, stamp])
        }
        // Schema 4 moved email, phone and position out of this table (see the schema-3 upgrade tests);
        // the columns it kept keep their values.
        let kept = "SELECT id, uid, name, photo, created_at, updated_at, version FROM contacts ORDER BY id"
        let contactsBefore = try table(path, kept)
        let emailsBefore = try table(path, "SELECT id, email FROM contacts WHERE email <> '' ORDER BY id")
        let favoritesBefore = try table(path, "SELECT * FROM favorites ORDER BY position")
        let quotesBefore = try table(path, "SELECT * FROM quotes ORDER BY id")
        let firstApplied = try table(path, "SELECT * FROM schema_migrations")
        #expect(try table(path, "SELECT name FROM sqlite_master WHERE name = 'grdb_migrations'").isEmpty)

        let storage = try StorageController(path: path)
        #expect(try storage.allContacts().count == 40)
        #expect(try storage.favorites().map(\.contact.id) == [30, 3, 90, 12])
        #expect(try storage.quotes().map(\.text).last == "Second")
        #expect(try storage.info().migrations == Migration.embedded.map(\.name))
        #expect(try storage.integrityCheck() == ["ok"])
        try storage.close()

        #expect(try table(path, kept) == contactsBefore)
        #expect(try table(path, "SELECT contact_id, value FROM contact_emails WHERE position = 1 AND preferred ORDER BY contact_id") == emailsBefore)
        #expect(try table(path, "SELECT * FROM favorites ORDER BY position") == favoritesBefore)
        #expect(try table(path, "SELECT * FROM quotes ORDER BY id") == quotesBefore)
        // The history: the first step as that release recorded it, then each step of this one.
        let applied = try table(path, "SELECT version, name, applied_at FROM schema_migrations ORDER BY version")
        #expect(applied.map { $0[1] } == Migration.embedded.map { "\"\($0.name)\"" })
        #expect(Array(applied.prefix(1)) == firstApplied)
        #expect(try table(path, "PRAGMA user_version") == [["\(StorageController.supportedSchemaVersion)"]])
        #expect(Set(try table(path, "SELECT identifier FROM grdb_migrations").map { $0[0] }) == Set(Migration.embedded.map { "\"\($0.name)\"" }))
    }

    /// The migrator commits each migration on its own: one that fails is rolled back whole and
    /// named, and the file keeps the steps before it (it opens at that schema, rows intact).
    @Test func aFailingMigrationIsRolledBackAndTheStepsBeforeItStay() throws {
        let path = try makePreviousReleaseFile { db in
            try db.execute(sql: "INSERT INTO contacts (uid, name, created_at, updated_at) VALUES ('u', 'Ada', '2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.678Z')")
        }
        let broken = Migration.embedded + [
            Migration(version: 99, name: "0099_broken", sql: "ALTER TABLE contacts ADD COLUMN pager TEXT; INSERT INTO no_such_table VALUES (1);")
        ]
        let error = carnetError { try StorageController(path: path, options: StorageOptions(), migrations: broken) }
        guard case let .migrationFailed(_, migration, detail) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(migration == "0099_broken" && detail.contains("no_such_table"))
        #expect(try table(path, "SELECT name FROM schema_migrations ORDER BY version").map { $0[0] } == Migration.embedded.map { "\"\($0.name)\"" })
        #expect(try table(path, "SELECT count(*) FROM pragma_table_info('contacts') WHERE name = 'pager'") == [["0"]])
        let storage = try StorageController(path: path)
        #expect(try storage.allContacts().map(\.name) == ["Ada"])
        #expect(try storage.integrityCheck() == ["ok"])
    }

    /// A file already at this schema but migrated before Carnet used GRDB's migrator: nothing to
    /// do, so nothing is written; it opens read-only too, and `db check` finds nothing wrong.
    @Test func aCurrentFileWithoutGRDBsTableOpensWithoutAWrite() throws {
        let path = dir.path("current.sqlite")
        let made = try StorageController(path: path, options: StorageOptions(connections: .single))
        try made.insertContact(ContactDraft(name: "Ada"))
        try made.writer.write { db in try db.drop(table: "grdb_migrations") }
        try made.close()
        let before = bytes(path)
        let storage = try StorageController(path: path, options: StorageOptions(connections: .single))
        #expect(try storage.contactCount() == 1)
        #expect(try storage.integrityCheck() == ["ok"])
        try storage.close()
        #expect(bytes(path) == before)
    }

    /// A program that embeds Carnet keeps its own tables in the same file with GRDB's migrator,
    /// whose identifiers share `grdb_migrations` with Carnet's. The next Carnet release (one
    /// more migration) leaves the program's rows alone, so its migrator finds its step applied
    /// instead of creating its table again.
    @Test func anEmbeddersMigrationsSurviveTheNextCarnetRelease() throws {
        let path = dir.path("app.sqlite")
        let previous = try StorageController(path: path, options: StorageOptions(), migrations: Array(Migration.embedded.dropLast()))
        try Self.insertAsEveryReleaseDoes(previous, name: "Ada")
        try previous.close()
        var app = DatabaseMigrator()
        app.registerMigration("com.example.app.v1") { db in
            try db.execute(sql: "CREATE TABLE app_notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
        }
        let queue = try DatabaseQueue(path: path)
        try app.migrate(queue)
        try queue.write { db in try db.execute(sql: "INSERT INTO app_notes (text) VALUES ('kept')") }
        try queue.close()

        let next = try StorageController(path: path)
        #expect(try next.allContacts().map(\.name) == ["Ada"])
        try next.close()

        #expect(try table(path, "SELECT identifier FROM grdb_migrations WHERE identifier = 'com.example.app.v1'") == [["\"com.example.app.v1\""]])
        let reopened = try DatabaseQueue(path: path)
        defer { try? reopened.close() }
        try app.migrate(reopened)
        #expect(try reopened.read { db in try String.fetchAll(db, sql: "SELECT text FROM app_notes") } == ["kept"])
    }

    /// The public way: an embedder's migrations run after Carnet's, recorded as `app:…`, each
    /// once; the next Carnet release (one more migration) and the program's next version (one
    /// more of its own) both find the program's table and rows as they were.
    @Test func appMigrationsRunAfterCarnetsAndSurviveTheNextCarnetRelease() throws {
        let path = dir.path("embedder.sqlite")
        let notes = AppMigration("create notes") { db in
            try db.execute(sql: "CREATE TABLE app_notes (contact_id INTEGER PRIMARY KEY REFERENCES contacts (id) ON DELETE CASCADE, text TEXT NOT NULL)")
        }
        let previous = try StorageController(path: path, options: StorageOptions(), migrations: Array(Migration.embedded.dropLast()))
        try previous.migrateApp([notes])
        let ada = try Self.insertAsEveryReleaseDoes(previous, name: "Ada")
        try previous.writer.write { db in try db.execute(sql: "INSERT INTO app_notes VALUES (?, 'kept')", arguments: [ada]) }
        try previous.close()

        let pinned = AppMigration("pin notes") { db in try db.execute(sql: "ALTER TABLE app_notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0") }
        let next = try StorageController(path: path, appMigrations: [notes, pinned])
        #expect(try next.allContacts().map(\.name) == ["Ada"])
        #expect(try next.integrityCheck() == ["ok"])
        try next.close()
        #expect(try table(path, "SELECT identifier FROM grdb_migrations WHERE identifier LIKE 'app:%' ORDER BY identifier")
            == [["\"app:create notes\""], ["\"app:pin notes\""]])
        #expect(try table(path, "SELECT text, pinned FROM app_notes") == [["\"kept\"", "0"]])
        // Opened again, nothing runs twice.
        try StorageController(path: path, appMigrations: [notes, pinned]).close()
        #expect(try table(path, "SELECT count(*) FROM grdb_migrations WHERE identifier LIKE 'app:%'") == [["2"]])
    }

    /// An embedder's migration that fails names itself and leaves the file as the ones before
    /// it left it; two with one identifier are refused before anything runs.
    @Test func aFailingAppMigrationIsNamedAndLeavesNothingHalfDone() throws {
        let path = dir.path("failing.sqlite")
        let good = AppMigration("one") { db in try db.execute(sql: "CREATE TABLE app_one (id INTEGER PRIMARY KEY)") }
        let bad = AppMigration("two") { db in
            try db.execute(sql: "CREATE TABLE app_two (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO no_such_table VALUES (1)")
        }
        let error = carnetError { try StorageController(path: path, appMigrations: [good, bad]) }
        guard case let .migrationFailed(_, migration, detail) = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(migration == "app:two" && detail.contains("no_such_table"), "\(detail)")
        #expect(try table(path, "SELECT name FROM sqlite_master WHERE name LIKE 'app_%' ORDER BY name") == [["\"app_one\""]])
        let twice = carnetError { try StorageController(path: path, appMigrations: [good, good]) }
        guard case .migrationFailed(_, "app:one", _) = twice else {
            Issue.record("\(String(describing: twice))")
            return
        }
    }

    /// Several openers of one old file at the same moment (one connection each, as processes would
    /// have): all of them open it, and each step is applied and recorded once.
    @Test func severalOpenersMigrateOneFileOnce() throws {
        let path = try makePreviousReleaseFile { db in
            try db.execute(sql: "INSERT INTO contacts (uid, name, created_at, updated_at) VALUES ('u', 'Ada', '2026-01-02T03:04:05.678Z', '2026-01-02T03:04:05.678Z')")
        }
        let errors = ErrorBox()
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let storage = try StorageController(path: path)
                    try storage.close()
                } catch {
                    errors.append("\(error)")
                }
            }
        }
        #expect(group.wait(timeout: .now() + 30) == .success)
        #expect(errors.all == [])
        #expect(try table(path, "SELECT name FROM schema_migrations ORDER BY version").map { $0[0] } == Migration.embedded.map { "\"\($0.name)\"" })
        #expect(try StorageController(path: path).contactCount() == 1)
    }
}

final class ErrorBox: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [String] = []
    func append(_ error: String) { lock.withLock { errors.append(error) } }
    var all: [String] { lock.withLock { errors } }
}
