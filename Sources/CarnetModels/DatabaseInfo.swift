/// What `carnet db info` shows about an open database file: read by the storage controller,
/// passed up as a plain value.
public struct DatabaseInfo: Sendable, Equatable, Codable {
    /// The file, or `:memory:`.
    public let path: String
    /// The schema version the file is at (`PRAGMA user_version`).
    public let schemaVersion: Int
    /// The newest schema version this build knows.
    public let supportedSchemaVersion: Int
    /// The migrations applied, oldest first, e.g. `0001_initial`.
    public let migrations: [String]
    /// People (and organizations); group cards are counted in `groups`.
    public let contacts: Int
    /// Group cards (vCard 4.0 `KIND:group`, Apple's group cards).
    public var groups: Int = 0
    public let favorites: Int
    public let quotes: Int
    /// Size of the main file in bytes (the write-ahead log is separate).
    public let fileBytes: Int64
    public let journalMode: String
    public let synchronous: String
    /// How many values an upgrade had to bring within stricter rules; their originals are kept
    /// in the `repaired_values` table.
    public let repairedValues: Int
    /// The region that completes phone numbers written without a country code (nil for a file
    /// read by a controller older than the setting).
    public var phoneRegion: PhoneRegionSetting?
    /// What takes the file's bytes (nil where SQLite's `dbstat` table is missing, as in a
    /// SQLite built without it).
    public var space: DatabaseSpace?

    public init(
        path: String, schemaVersion: Int, supportedSchemaVersion: Int, migrations: [String], contacts: Int,
        favorites: Int, quotes: Int, fileBytes: Int64, journalMode: String, synchronous: String, repairedValues: Int = 0
    ) {
        self.path = path
        self.schemaVersion = schemaVersion
        self.supportedSchemaVersion = supportedSchemaVersion
        self.migrations = migrations
        self.contacts = contacts
        self.favorites = favorites
        self.quotes = quotes
        self.fileBytes = fileBytes
        self.journalMode = journalMode
        self.synchronous = synchronous
        self.repairedValues = repairedValues
    }
}

/// The file's bytes by what they hold, as SQLite's `dbstat` table counts its pages: the parts
/// add up to the database's size (its pages times the page size), which is the file's size once
/// the write-ahead log has been copied into it.
public struct DatabaseSpace: Sendable, Equatable, Codable {
    /// The contacts, their lists and every other table: books, groups, quotes, favorites,
    /// settings, sync state, and SQLite's own schema.
    public let data: Int64
    /// The indexes of those tables (the name, family and given-name orders, each UID once…).
    public let indexes: Int64
    /// The full-text search index (the tables named `contact_search…`), rebuilt from the
    /// contacts by `carnet db reindex`.
    public let searchIndex: Int64
    /// What undo and redo need (`history`, `history_changesets`).
    public let history: Int64
    /// Pages nothing uses: SQLite writes into them before it grows the file, and only a
    /// compaction gives them back to the disk.
    public let free: Int64
    /// The sum of the parts.
    public let total: Int64

    public init(data: Int64, indexes: Int64, searchIndex: Int64, history: Int64, free: Int64) {
        self.data = data
        self.indexes = indexes
        self.searchIndex = searchIndex
        self.history = history
        self.free = free
        total = data + indexes + searchIndex + history + free
    }
}
