import CarnetModels
import Foundation
import GRDB
import GRDBSQLite

/// Owns one Carnet database file: opens or creates it, applies the schema in `migrations/`, and
/// offers typed reads and writes. It is the only code in Carnet that speaks SQL.
///
/// Every write is one `BEGIN IMMEDIATE` transaction: it takes the write lock up front, so
/// several processes on one file queue behind each other (within `StorageOptions/busyTimeout`)
/// instead of failing half-way. Every value is a bound argument. A write that fails changes
/// nothing and throws a `CarnetError`.
///
/// There is no shared instance: make one at your composition root and hand it to the
/// `StateController`.
///
/// ```swift
/// let storage = try StorageController(path: "/tmp/book.sqlite")
/// let contact = try storage.insertContact(ContactDraft(name: "Ada Lovelace"))
/// ```
public final class StorageController: Sendable {
    /// The database file, or `:memory:` for `inMemory(options:)`.
    public let path: String
    public let options: StorageOptions
    let writer: any DatabaseWriter
    let migrations: [Migration]
    private let isClosed = Locked(false)
    /// Tells observers what every commit changed (see `changes()`).
    let feed: ChangeFeed
    /// The threads `async` calls block on instead of the cooperative pool (see `AsyncStorage`).
    let blocking = BlockingQueues()

    /// Opens the Carnet database at `path`, creating it (and its directory, mode 0700; the file
    /// mode 0600) when missing unless `StorageOptions/createIfMissing` is false, and brings its
    /// schema up to date in one transaction.
    ///
    /// Before SQLite opens anything it refuses a path that is not a regular file (a directory,
    /// FIFO, device or socket) and, as ssh does with keys, a file or -wal/-shm/-journal file that
    /// another user owns (other than root) or that group or others may write.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - options: how the file is opened (see `StorageOptions`).
    ///   - onLockWait: called once per wait, on the thread that writes, when a write
    ///     has waited about a second for another process's write lock. The write keeps waiting, up
    ///     to `StorageOptions/busyTimeout` in all: say so to the person waiting (the `carnet`
    ///     command prints a line on a terminal), don't block.
    /// - Throws: `CarnetError.notADatabase(path:)`, `.notCarnetDatabase`,
    ///   `.corrupt`, `.newerSchema` and `.schemaRecordChanged` (the file is left untouched),
    ///   `.readOnly`, `.cannotOpen`, `.noDatabase`, `.unsafeFile` (nothing was opened or created),
    ///   `.migrationFailed` (the file is left as it was).
    ///   - appMigrations: an embedding program's migrations of its own tables, run after
    ///     Carnet's (see `AppMigration`); one that fails throws `.migrationFailed` and leaves
    ///     the file as the migrations before it left it.
    public convenience init(
        path: String, options: StorageOptions = StorageOptions(), appMigrations: [AppMigration] = [],
        onLockWait: (@Sendable () -> Void)? = nil
    ) throws(CarnetError) {
        try self.init(path: path, options: options, migrations: Migration.embedded, onLockWait: onLockWait)
        try migrateApp(appMigrations)
    }

    /// A private database in memory, with the full schema (and `appMigrations` after it): for
    /// tests and previews.
    public static func inMemory(options: StorageOptions = StorageOptions(), appMigrations: [AppMigration] = []) throws(CarnetError) -> StorageController {
        let storage = try StorageController(inMemoryWith: options, migrations: Migration.embedded)
        try storage.migrateApp(appMigrations)
        return storage
    }

    /// The newest schema version this build knows.
    public static var supportedSchemaVersion: Int { Migration.embedded.last?.version ?? 0 }

    /// `PRAGMA application_id` of a Carnet file ("Carn" in ASCII), set by migration 12.
    public static let applicationID: Int32 = 0x4361_726E

    /// The first schema that sets `applicationID`: a file past it without the mark is not Carnet's.
    static let applicationIDSchema = 12

    init(path: String, options: StorageOptions, migrations: [Migration], onLockWait: (@Sendable () -> Void)? = nil) throws(CarnetError) {
        self.path = path
        self.options = options
        self.migrations = migrations
        try FileSetup.prepare(path: path, createIfMissing: options.createIfMissing)
        try FileSetup.probe(path: path, supported: migrations.last?.version ?? 0)
        do {
            switch options.connections {
            case .pool:
                let pool = try DatabasePool(path: path, configuration: Self.configuration(options, onLockWait: onLockWait))
                // GRDB switches a pool's writer to synchronous = NORMAL after prepareDatabase runs
                // (when it turns WAL on), so the durability choice is applied again, last, on the
                // one connection that writes.
                try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(options.durability.pragmaValue)") }
                writer = pool
            case .single:
                // GRDB's own WAL set-up would also write a dummy transaction whenever the log is
                // empty or missing (which it is after every single-connection process), so the
                // queue leaves the journal mode alone and the mode, persistent in the file, is
                // set here once for a new file.
                var config = Self.configuration(options, onLockWait: onLockWait)
                config.journalMode = .default
                config.prepareDatabase { db in
                    // When the last connection closes, SQLite checkpoints the log into the file;
                    // with a persistent WAL and a size limit of 0 it then empties the -wal file
                    // instead of deleting it and the -shm file. The next process has nothing to
                    // recover, and someone who may read the file but not write its directory
                    // still finds the -wal and -shm files SQLite needs to read a WAL database.
                    var persist: Int32 = 1
                    _ = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
                    try db.execute(sql: "PRAGMA journal_size_limit = 0")
                }
                // Such a reader opens read-only, so a write fails with `.readOnly` at once.
                config.readonly = !FileSetup.canWrite(path: path)
                let queue = try DatabaseQueue(path: path, configuration: config)
                try queue.writeWithoutTransaction { db in
                    if try !config.readonly && String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
                        guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                            throw CarnetError.cannotOpen(path: path, reason: "SQLite could not switch it to WAL mode")
                        }
                    }
                }
                writer = queue
            }
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
        feed = ChangeFeed(path: path, writer: writer)
        try migrate()
    }

    init(inMemoryWith options: StorageOptions, migrations: [Migration]) throws(CarnetError) {
        path = ":memory:"
        self.options = options
        self.migrations = migrations
        do {
            writer = try DatabaseQueue(configuration: Self.configuration(options))
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
        feed = ChangeFeed(path: path, writer: writer)
        try migrate()
    }

    /// The page cache of each connection, in KiB (SQLite's default is 2,000). A page of the
    /// contact list reads its 50 contacts and their rows in eight child tables: in a book of a
    /// million contacts that is a few MiB of pages scattered over the file, more than SQLite's
    /// default holds, so every first page was read again from the OS. 8 MiB holds that with room
    /// for larger pages; the memory is taken only as pages are read (docs/performance.md has
    /// the page walk's peak memory).
    public static let pageCacheKiB = 8_192

    static func configuration(_ options: StorageOptions, onLockWait: (@Sendable () -> Void)? = nil) -> Configuration {
        var config = Configuration()
        config.foreignKeysEnabled = true
        let lockWait = LockWait(timeout: options.busyTimeout, notice: onLockWait)
        config.busyMode = .callback { tries in lockWait.shouldRetry(tries: tries) }
        config.label = "Carnet"
        let synchronous = options.durability.pragmaValue
        let mappedBytes = max(0, options.mappedBytes)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            try db.execute(sql: "PRAGMA cache_size = -\(pageCacheKiB)")
            if mappedBytes > 0 { try db.execute(sql: "PRAGMA mmap_size = \(mappedBytes)") }
            // Carnet keeps the search index itself (see SearchIndex); the triggers are for others.
            try SearchIndex.setTriggers(db, enabled: false)
        }
        return config
    }

    /// Closes the file now (it also closes when the controller is released), first folding the
    /// write-ahead log back into the main file so that a copy of `carnet.sqlite` alone is
    /// complete. Using the controller afterwards throws.
    public func close() throws(CarnetError) {
        feed.shutDown()
        checkpoint()
        guard isClosed.withLock({ closed in defer { closed = true }; return !closed }) else { return }
        do {
            if let pool = writer as? DatabasePool {
                try pool.close()
            } else if let queue = writer as? DatabaseQueue {
                try queue.close()
            }
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
    }

    deinit {
        feed.shutDown()
        checkpoint()
    }

    /// A passive checkpoint: copies committed pages from the -wal file into the main file as far
    /// as no reader still needs them, without waiting for anyone. GRDB closes a pool's writer
    /// before its readers, so SQLite's own checkpoint-on-last-close does not run; this stands in
    /// for it. A single connection needs none: when it is the file's last, SQLite checkpoints
    /// the log into the file and empties it as it closes.
    private func checkpoint() {
        guard writer is DatabasePool, !isClosed.withLock({ $0 }) else { return }
        _ = try? writer.writeWithoutTransaction { db in try db.checkpoint(.passive) }
    }

    // MARK: - Running statements

    /// Runs `body` in one write transaction (`BEGIN IMMEDIATE`); any error rolls it back. The
    /// search index is brought up to date first if another program wrote to the contacts
    /// (`indexing: false` only for the migrations, before the schema has the index's marker).
    func write<T>(indexing: Bool = true, _ body: @escaping (Database) throws -> T) throws(CarnetError) -> T {
        do {
            // GRDB's `write` would parse BEGIN and COMMIT anew for every transaction; these two
            // statements are prepared once per connection.
            let indexing = indexing && indexesOtherWriters
            defer { feed.poke() }
            return try writer.writeWithoutTransaction { db in try Self.immediateTransaction(db, indexing: indexing) { try body(db) } }
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
    }

    /// `body` between `BEGIN IMMEDIATE` and `COMMIT`; any error rolls it back and is rethrown as is.
    static func immediateTransaction<T>(_ db: Database, indexing: Bool = true, _ body: () throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
        do {
            if indexing { try SearchIndex.catchUp(db) }
            let result = try body()
            try db.cachedStatement(sql: "COMMIT").execute()
            return result
        } catch {
            if db.isInsideTransaction { try? db.rollback() }
            throw error
        }
    }

    /// Runs `body` in one write transaction, recording what it changes as one action of the
    /// history in the same transaction (see `History`): `body` names the action on the recorder.
    func recordedWrite<T>(_ body: @escaping (Database, HistoryRecorder) throws -> T) throws(CarnetError) -> T {
        try write { db in try HistoryRecorder.record(db) { recorder in try body(db, recorder) } }
    }

    /// Runs `body` in one read transaction, which sees one consistent state of the file.
    func read<T>(_ body: @escaping (Database) throws -> T) throws(CarnetError) -> T {
        do {
            return try writer.read(body)
        } catch {
            throw ErrorMapping.map(error, path: path)
        }
    }

    // MARK: - Schema

    /// Brings the schema up to date with GRDB's `DatabaseMigrator`, one migration per file of
    /// `migrations/`, each in its own `BEGIN IMMEDIATE` transaction with foreign keys off while it
    /// runs and checked before it commits (`.deferred`: schema 3 rebuilds `contacts`, which
    /// `favorites` refers to).
    ///
    /// `schema_migrations` and `PRAGMA user_version` stay the record people read with sqlite3;
    /// each migration writes them itself. GRDB keeps its own list in `grdb_migrations`, which a
    /// file from before the migrator lacks: it is filled from `schema_migrations` first, under
    /// the write lock, so such a file opens as what it is.
    private func migrate() throws(CarnetError) {
        let path = self.path
        let migrations = self.migrations
        // Another process may migrate the same file at the same moment. Each migration checks
        // again under the write lock; one that finds itself applied stops the run, and the
        // decision is made again from what is now in the file.
        var migrated = false
        for _ in 0...(migrations.count + 1) {
            // Nothing to do is the usual case, and needs no write (the file may be read-only).
            let pending = try read { db in try Self.pendingMigrations(db, migrations, path: path) }
            guard !pending.isEmpty else {
                // A migration that changes what the index holds marks it out of date: it is
                // rebuilt now, at the final schema, so that no reader (one that may not write
                // among them) searches the old index.
                if migrated { try catchUpSearchIndex() }
                return
            }
            let isNewFile = try write(indexing: false) { db in try Self.prepareMigrator(db, migrations, path: path) }
            do {
                // Then round again: the read above finds nothing pending, or refuses a file that
                // a newer Carnet migrated further meanwhile.
                try Self.migrator(migrations, path: path).migrate(writer)
                migrated = true
                continue
            } catch is AppliedMeanwhile {
                continue
            } catch {
                // GRDB creates `grdb_migrations` before the first migration, outside its
                // transaction: a new file whose first migration failed is left with no table.
                if isNewFile { _ = try? write(indexing: false) { db in try Self.dropEmptyMigratorTable(db) } }
                throw ErrorMapping.map(error, path: path)
            }
        }
        throw CarnetError.busy(path: path)
    }

    /// Whether this controller's schema marks the search index out of date on writes by other
    /// programs (schema 16 on); before it, the schema's triggers kept the index in step.
    var indexesOtherWriters: Bool { (migrations.last?.version ?? 0) >= SearchIndex.outdatedMarkSchema }

    /// Rebuilds the search index if another program (sqlite3) wrote to the contacts since Carnet
    /// last indexed them, so a search finds what it wrote (see `searchRead`). A file this process
    /// may not write keeps its index as it is until someone who may opens it.
    func catchUpSearchIndex() throws(CarnetError) {
        guard indexesOtherWriters, try read({ db in try SearchIndex.isOutdated(db) }) else { return }
        do {
            try write { _ in }
        } catch {
            guard case .readOnly = error else { throw error }
        }
    }

    /// A read that searches: whether another program wrote to the contacts since the index was
    /// built is asked in the same transaction, and only then is the index brought up to date and
    /// the read run again. A read that does not search, and every write (which catches up first
    /// itself), pays nothing for it.
    func searchRead<T>(_ query: ContactQuery, _ body: @escaping (Database) throws -> T) throws(CarnetError) -> T {
        if indexesOtherWriters, !query.search.isEmpty {
            if let result = try read({ db -> T? in try SearchIndex.isOutdated(db) ? nil : try body(db) }) { return result }
            try catchUpSearchIndex()
        }
        return try read(body)
    }

    /// Thrown inside a migration that another process applied since this one decided to run it.
    private struct AppliedMeanwhile: Error {}

    static func migrator(_ migrations: [Migration], path: String) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.name, foreignKeyChecks: .deferred) { db in
                // One lookup each: after every migration's DDL, GRDB's `tableExists` and a
                // record's query read the whole schema again, which made a new file's migrations
                // cost twice what their SQL does.
                if try hasTable(db, SchemaMigrationRecord.databaseTableName),
                   try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE name = ?)", arguments: [migration.name]) == true {
                    throw AppliedMeanwhile()
                }
                try apply(migration, db, path: path)
            }
        }
        return migrator
    }

    /// One migration, inside the migrator's transaction: the Swift repair step, the SQL, and the
    /// record sqlite3 users read.
    private static func apply(_ migration: Migration, _ db: Database, path: String) throws {
        do {
            try db.execute(sql: migrationsTableSQL)
            // With triggers on, a migration that changes contacts keeps the search index in step.
            try SearchIndex.withTriggers(db) {
                try SchemaRepairs.before(migration.version)?(db)
                try db.execute(sql: migration.sql)
                try SchemaRepairs.after(migration.version)?(db)
            }
            try db.execute(
                sql: "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                arguments: [migration.version, migration.name, Timestamp.string(Timestamp.now())])
            try db.execute(sql: "PRAGMA user_version = \(migration.version)")
            // The migrator checks too, before it commits; checking here names the migration.
            if try db.foreignKeyViolations().next() != nil {
                throw CarnetError.migrationFailed(path: path, migration: migration.name, detail: "it left a foreign key broken")
            }
        } catch let error as CarnetError {
            throw error
        } catch {
            throw CarnetError.migrationFailed(path: path, migration: migration.name, detail: ErrorMapping.describe(error))
        }
    }

    /// Under the write lock: refuses what `pendingMigrations` refuses, and makes GRDB's list of
    /// Carnet's applied migrations say what `schema_migrations`, the record, says (a file made before
    /// Carnet used the migrator has no list; a row removed by hand is a step to run again, as it
    /// always was). Returns whether the file has no schema yet.
    private static func prepareMigrator(_ db: Database, _ migrations: [Migration], path: String) throws -> Bool {
        _ = try pendingMigrations(db, migrations, path: path)
        guard try hasTable(db, SchemaMigrationRecord.databaseTableName) else { return true }
        try db.execute(sql: migratorTableSQL)
        try db.execute(sql: "INSERT OR IGNORE INTO grdb_migrations (identifier) SELECT name FROM schema_migrations")
        // Only Carnet's own identifiers: a program that embeds Carnet may keep its migrations'
        // rows in the same table, and deleting them would make its migrator run them again.
        for migration in migrations {
            try db.execute(
                sql: "DELETE FROM grdb_migrations WHERE identifier = ? AND identifier NOT IN (SELECT name FROM schema_migrations)",
                arguments: [migration.name])
        }
        return false
    }

    private static func dropEmptyMigratorTable(_ db: Database) throws {
        guard try hasTable(db, "grdb_migrations"), try !hasTable(db, SchemaMigrationRecord.databaseTableName),
              try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") == 0
        else { return }
        try db.execute(sql: "DROP TABLE grdb_migrations")
    }

    /// Where the controller records which migrations ran; `PRAGMA user_version` mirrors the last.
    static let migrationsTableSQL = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version    INTEGER PRIMARY KEY,
            name       TEXT    NOT NULL UNIQUE,
            applied_at TEXT    NOT NULL
        )
        """

    /// GRDB's list of applied migrations, as `DatabaseMigrator` creates it.
    static let migratorTableSQL = "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)"

    /// Whether the main schema has a table of that name: one lookup, where GRDB's `tableExists`
    /// reads and caches the names of the whole schema (this runs at every start).
    private static func hasTable(_ db: Database, _ name: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE)", arguments: [name]) ?? false
    }

    /// The migrations not yet applied to `db`, by `schema_migrations`; throws when the file is not
    /// Carnet's, is newer, or its record of applied migrations was changed outside Carnet.
    static func pendingMigrations(_ db: Database, _ migrations: [Migration], path: String) throws -> [Migration] {
        let supported = migrations.last?.version ?? 0
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        try FileSetup.checkMark(applicationID: applicationID, userVersion: userVersion, supported: supported, path: path)
        guard try hasTable(db, SchemaMigrationRecord.databaseTableName) else {
            // GRDB's table alone is what a new file whose first migration failed may keep.
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name <> 'grdb_migrations'") ?? 0
            if tables > 0 || userVersion != 0 { throw CarnetError.notCarnetDatabase(path: path) }
            return migrations
        }
        let applied = try SchemaMigrationRecord.fetchAll(db, sql: "SELECT * FROM schema_migrations ORDER BY version")
        // A linear look-up among a few dozen migrations: a dictionary keyed by version would have
        // the runtime search every protocol conformance of the binary for `Int: Hashable` at its
        // first use, at every start of every command.
        func known(_ version: Int) -> String? { migrations.first { $0.version == version }?.name }
        for row in applied where known(row.version) != row.name {
            // A step past this build's last is a newer Carnet's. A name this build never had at a
            // version it knows is no Carnet's: someone changed the record by hand (or another
            // program did), and guessing which schema the file really has could only do harm.
            if row.version > supported {
                throw CarnetError.newerSchema(path: path, found: max(row.version, userVersion), supported: supported)
            }
            throw CarnetError.schemaRecordChanged(path: path, version: row.version, found: row.name, expected: known(row.version))
        }
        let done = Set(applied.map(\.name))
        return migrations.filter { !done.contains($0.name) }
    }
}
