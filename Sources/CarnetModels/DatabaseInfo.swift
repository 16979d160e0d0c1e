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
