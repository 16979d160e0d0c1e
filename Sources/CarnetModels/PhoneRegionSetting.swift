/// Which region completes a phone number written without a country code: the file's, set by
/// `carnet db phone-region`, or else this process's locale's. Every process that opens the file
/// agrees on the file's; the locale is only a fallback, so a book shared between machines should
/// have it set.
public struct PhoneRegionSetting: Sendable, Equatable, Codable {
    /// The region stored in the file (`settings.phone_region`), or nil.
    public let stored: String?
    /// The region of this process's locale (`LC_ALL`, else `LANG`), or nil.
    public let locale: String?
    /// The locale variable it came from (`LANG=fr_FR.UTF-8`), for saying so.
    public let localeSource: String?

    public init(stored: String?, locale: String?, localeSource: String? = nil) {
        self.stored = stored
        self.locale = locale
        self.localeSource = localeSource
    }

    /// The file's region, else the locale's.
    public var region: String? { stored ?? locale }

    /// The normal form numbers are compared in.
    public var normalForm: PhoneNormalForm { PhoneNormalForm(region: region) }

    /// The setting for a file storing `stored`, in a process whose environment is `environment`:
    /// the locale is `LC_ALL` when set and not empty, else `LANG` (as POSIX ranks them for a
    /// category nobody set on its own).
    public static func reading(stored: String?, environment: [String: String]) -> PhoneRegionSetting {
        for name in ["LC_ALL", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return PhoneRegionSetting(stored: stored, locale: PhoneNormalForm.localeRegion(value), localeSource: "\(name)=\(value)")
        }
        return PhoneRegionSetting(stored: stored, locale: nil)
    }

    /// Why `code` cannot be a file's phone region, or nil when it can (an ISO 3166-1 alpha-2 code
    /// libphonenumber knows, any case, space around it ignored).
    public static func refusal(of code: String) -> String? {
        let upper = Rules.trimmed(code).uppercased()
        guard !PhoneNormalForm.isKnownRegion(upper) else { return nil }
        let hint = upper == "UK" ? "the United Kingdom is GB" : "give an ISO 3166-1 code such as GB, US or DE"
        return "\(code.debugDescription) is not a region of phone numbers: \(hint)"
    }

    /// One line for `carnet db info` and `carnet db phone-region`.
    public var summary: String {
        if let stored { return "\(stored) (this file's)" }
        if let locale, let localeSource { return "\(locale) (from the locale, \(localeSource); not stored in the file)" }
        return "none: a number written without its country code meets only the same digits (set one with carnet db phone-region)"
    }
}
