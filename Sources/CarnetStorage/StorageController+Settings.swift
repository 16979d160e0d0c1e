import CarnetModels
import Foundation
import GRDB

extension StorageController {
    /// The region phone numbers without a country code belong to: the file's, else this
    /// process's locale's.
    public func phoneRegionSetting() throws(CarnetError) -> PhoneRegionSetting {
        let environment = options.environment
        return try read { db in try Self.phoneRegionSetting(db, environment: environment) }
    }

    /// The setting as `db` holds it (a file made before schema 23 holds none), with the locale
    /// of `environment`.
    static func phoneRegionSetting(_ db: Database, environment: [String: String]) throws -> PhoneRegionSetting {
        let stored = try db.tableExists("settings")
            ? String.fetchOne(db.cachedStatement(sql: "SELECT phone_region FROM settings WHERE id = 1")) : nil
        return PhoneRegionSetting.reading(stored: stored, environment: environment)
    }

    /// Stores `region` (an ISO 3166-1 alpha-2 code libphonenumber knows, any case) as the file's
    /// phone region; nil forgets it, so each process takes its locale's.
    /// - Throws: `CarnetError.invalid(_:)` for a code that names no region.
    public func setPhoneRegion(_ region: String?) throws(CarnetError) {
        if let region, let refusal = PhoneRegionSetting.refusal(of: region) { throw .invalid([FieldIssue(.phone, refusal)]) }
        let code = region.map { Rules.trimmed($0).uppercased() }
        try write { db in
            try db.execute(sql: "UPDATE settings SET phone_region = ? WHERE id = 1", arguments: [code])
        }
    }
}
