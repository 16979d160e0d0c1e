/// A field a person can edit, named the way error messages and the CLI name it.
public enum Field: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case name, position, email, phone, photo
    case text, author

    public var description: String { rawValue }
}

/// One broken rule on one field, e.g. `email: must look like name@example.com`.
public struct FieldIssue: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public let field: Field
    public let message: String

    public init(_ field: Field, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}

/// The documented limits. Lengths count Unicode scalars, as SQLite's `length()` does, so the
/// CHECK constraints in `migrations/` and this validation agree on every string.
public enum Limits {
    public static let nameLength = 200
    public static let positionLength = 200
    public static let emailLength = 254
    public static let phoneLength = 40
    /// 1 MiB: a contact photo is a thumbnail, not an album.
    public static let photoBytes = 1_048_576
    public static let quoteTextLength = 2000
    public static let authorLength = 200
    /// A contacts search: longer text cannot match any field (the longest holds 254), and SQLite
    /// refuses a LIKE pattern past 50,000 bytes as "too complex".
    public static let searchLength = 1000

    /// Refuses a search longer than ``searchLength`` (empty is no filter, and always fine).
    public static func checkSearch(_ text: String) throws(CarnetError) {
        guard text.utf8.count > searchLength else { return }  // never more scalars than bytes
        let length = text.unicodeScalars.count
        if length > searchLength {
            throw .invalidSearch("search text must be at most \(searchLength) characters (got \(length))")
        }
    }
}

enum Rules {
    static func checkLine(_ value: String, _ field: Field, max: Int, into issues: inout [FieldIssue]) {
        // Printable ASCII (the common case, and all of a bulk import): one byte per scalar and
        // no control characters, so the byte count answers both rules without decoding.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            if value.utf8.count > max {
                issues.append(FieldIssue(field, "must be at most \(max) characters (got \(value.utf8.count))"))
            }
            return
        }
        if value.unicodeScalars.count > max {
            issues.append(FieldIssue(field, "must be at most \(max) characters (got \(value.unicodeScalars.count))"))
        }
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            issues.append(FieldIssue(field, "must not contain control characters such as NUL, tabs or line breaks"))
        }
    }

    /// Strips leading and trailing white space (any Unicode white space, line breaks included).
    static func trimmed(_ value: String) -> String {
        // Both ends printable, non-space ASCII: nothing to strip, and no copy. (A UTF-8 byte
        // below 0x80 is a whole scalar, so the first and last bytes are the end scalars.)
        if let first = value.utf8.first, let last = value.utf8.last,
           first > 0x20 && first < 0x7F, last > 0x20 && last < 0x7F {
            return value
        }
        let scalars = value.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
