/// One step of the schema, from a file `migrations/NNNN_what.sql`.
struct Migration: Sendable, Equatable {
    /// `NNNN`, the schema version this step brings the file to.
    let version: Int
    /// The file name without `.sql`, e.g. `0001_initial`.
    let name: String
    let sql: String

    /// The migrations compiled into this build, in order.
    static var embedded: [Migration] {
        embeddedMigrations.map { file, sql in
            let name = file.hasSuffix(".sql") ? String(file.dropLast(4)) : file
            let version = Int(name.prefix { $0.isNumber }) ?? 0
            return Migration(version: version, name: name, sql: sql)
        }
    }
}
