/// A field a person can edit, named the way error messages and the CLI name it.
public enum Field: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    case name, prefix, given, additional, family, suffix, nickname, pronouns, gender
    case organization, department, title, role
    case email, phone, address, url, handle, date, note, category, photo
    /// What the person knows, does for pleasure and cares about (vCard 4.0, RFC 6715).
    case expertise, hobby, interest
    /// A property Carnet does not model, kept verbatim.
    case extra
    /// Title and organization as one line: Carnet's first schema, and the `--position` flag.
    case position
    case text, author
    /// A contact's vCard UID (set by imports, not edited by hand).
    case uid
    /// A group's members (by UID).
    case member

    /// The structured name's parts, in vCard `N`'s order.
    public static let nameParts: [Field] = [.prefix, .given, .additional, .family, .suffix]

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
    /// Each part of a structured name.
    public static let namePartLength = 100
    /// A type or label of a list entry (`work`, `Mobile 2`).
    public static let labelLength = 60
    public static let addressPartLength = 200
    public static let urlLength = 2000
    public static let handleLength = 500
    public static let categoryLength = 100
    public static let noteLength = 10_000
    /// One unmodelled vCard property line (an inline logo or sound fits).
    public static let extraLength = 4_194_304
    /// 1 MiB: a contact photo is a thumbnail, not an album.
    public static let photoBytes = 1_048_576
    public static let quoteTextLength = 2000
    public static let authorLength = 200
    /// A contacts search: longer text cannot match any field (the longest holds 254).
    public static let searchLength = 1000

    /// Refuses a search longer than `searchLength` (empty is no filter, and always fine).
    public static func checkSearch(_ text: String) throws(CarnetError) {
        guard text.utf8.count > searchLength else { return }  // never more scalars than bytes
        let length = text.unicodeScalars.count
        if length > searchLength {
            throw .invalidSearch("search text must be at most \(searchLength) characters (got \(length))")
        }
    }
}

/// The characters Carnet's text rules single out, in one place: validation refuses them, the
/// schema's CHECK constraints refuse the same set (`SchemaRulesTests` holds the two together), and
/// screens escape them.
public enum TextRules {
    /// Control characters (Cc), line and paragraph separators, the bidirectional embedding,
    /// override and isolate controls that can reorder what a terminal shows (U+202A–U+202E,
    /// U+2066–U+2069), and a byte-order mark inside a value. None belongs in a one-line field.
    public static func isForbiddenInLine(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (v >= 0x7F && v <= 0x9F) || v == 0x2028 || v == 0x2029
            || isInvisibleControl(scalar)
    }

    /// Bidirectional embedding, override and isolate controls, and U+FEFF (byte-order mark /
    /// zero-width no-break space): invisible, and able to make a name read as another.
    public static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069) || v == 0xFEFF
    }

    /// What trimming strips from both ends of a value: Unicode white space, and the zero-width
    /// characters that show nothing (U+200B–U+200D, U+2060, U+FEFF), so a leading byte-order
    /// mark goes and a value made only of invisible characters counts as blank.
    public static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return scalar.properties.isWhitespace || (v >= 0x200B && v <= 0x200D) || v == 0x2060 || v == 0xFEFF
    }

    /// `value` trimmed as a one-line field is before it is saved.
    public static func trimmed(_ value: String) -> String { Rules.trimmed(value) }

    /// `value` trimmed as a multi-line field (a note) is before it is saved.
    public static func trimmedText(_ value: String) -> String { Rules.trimmedText(value) }

    /// Whether a terminal should be shown `scalar` escaped rather than raw: everything a
    /// one-line field may not hold (escape sequences, bells, line breaks, direction overrides).
    public static func needsEscapeForDisplay(_ scalar: Unicode.Scalar) -> Bool {
        isForbiddenInLine(scalar)
    }

    /// `text` with every character a terminal should not receive raw written as `\u{1B}`, so
    /// what a file holds can never move the cursor, ring the bell or reverse a line. Text
    /// without such characters comes back as it is.
    public static func escapedForDisplay(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        guard text.unicodeScalars.contains(where: needsEscapeForDisplay) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscapeForDisplay(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}

package enum Rules {
    /// The rules of a one-line field: a length, and no control or invisible direction character.
    package static func checkLine(_ value: String, _ field: Field, max: Int, into issues: inout [FieldIssue]) {
        check(value, field, max: max, allowingNewlines: false, into: &issues)
    }

    /// The broken rules of a one-line value, as messages without the field's name.
    package static func lineMessages(_ value: String, max: Int) -> [String] {
        var issues: [FieldIssue] = []
        checkLine(value, .name, max: max, into: &issues)
        return issues.map(\.message)
    }

    /// The rules of a multi-line field (a note): a length, and no control character but line feeds.
    package static func checkText(_ value: String, _ field: Field, max: Int, into issues: inout [FieldIssue]) {
        check(value, field, max: max, allowingNewlines: true, into: &issues)
    }

    // Inlined into both callers, so the fast path's test of `allowingNewlines` is a constant.
    @inline(__always)
    private static func check(_ value: String, _ field: Field, max: Int, allowingNewlines: Bool, into issues: inout [FieldIssue]) {
        // Printable ASCII (the common case, and all of a bulk import), and line feeds where they
        // are allowed: one byte per scalar and no forbidden character, so the byte count answers
        // both rules without decoding.
        let plain = value.utf8.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || (allowingNewlines && $0 == 0x0A) }
        let length = plain ? value.utf8.count : value.unicodeScalars.count
        if length > max {
            issues.append(FieldIssue(field, "must be at most \(max) characters (got \(length))"))
        }
        if !plain { checkCharacters(value, field, allowingNewlines: allowingNewlines, into: &issues) }
    }

    /// An unmodelled property line is kept as another program wrote it: only what no line can
    /// hold (NUL, carriage return, line feed) and the length are refused.
    package static func extraMessages(_ value: String, max: Int) -> [String] {
        var messages: [String] = []
        if value.unicodeScalars.count > max { messages.append("must be at most \(max) characters") }
        if value.utf8.contains(where: { $0 == 0 || $0 == 0x0A || $0 == 0x0D }) {
            messages.append("must be one line without NUL")
        }
        return messages
    }

    /// Trims a multi-line value: white space and zero-width characters at both ends, carriage
    /// returns turned into line feeds, and trailing spaces of each line kept as typed.
    package static func trimmedText(_ value: String) -> String {
        let unified = value.contains("\r") ? value.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n") : value
        return trimmed(unified)
    }

    /// The character rules of a one-line field (or, with `allowingNewlines`, of a quote's text).
    package static func checkCharacters(_ value: String, _ field: Field, allowingNewlines: Bool, into issues: inout [FieldIssue]) {
        let scalars = value.unicodeScalars
        if scalars.contains(where: { s in
            let v = s.value
            return (v < 0x20 && !(allowingNewlines && v == 0x0A)) || (v >= 0x7F && v <= 0x9F) || v == 0x2028 || v == 0x2029
        }) {
            issues.append(FieldIssue(field, allowingNewlines
                ? "must not contain control characters such as NUL (line breaks are fine)"
                : "must not contain control characters such as NUL, tabs or line breaks"))
        }
        if scalars.contains(where: TextRules.isInvisibleControl) {
            issues.append(FieldIssue(field, "must not contain invisible direction or byte-order characters (U+202A–U+202E, U+2066–U+2069, U+FEFF)"))
        }
    }

    /// Strips leading and trailing white space (any Unicode white space, line breaks included)
    /// and zero-width characters (see `TextRules/isTrimmed(_:)`).
    package static func trimmed(_ value: String) -> String {
        // Both ends printable, non-space ASCII: nothing to strip, and no copy. (A UTF-8 byte
        // below 0x80 is a whole scalar, so the first and last bytes are the end scalars.)
        if let first = value.utf8.first, let last = value.utf8.last,
           first > 0x20 && first < 0x7F, last > 0x20 && last < 0x7F {
            return value
        }
        let scalars = value.unicodeScalars
        guard let first = scalars.firstIndex(where: { !TextRules.isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !TextRules.isTrimmed($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}

/// What a contact's UID may be: 1 to 255 characters, none of them forbidden in a line. UIDs come
/// from other programs' files, so this is all Carnet asks of them.
public enum UIDRule {
    public static let maxLength = 255

    public static func issues(_ uid: String) -> [FieldIssue] {
        var issues: [FieldIssue] = []
        if uid.isEmpty { issues.append(FieldIssue(.uid, "must not be empty")) }
        Rules.checkLine(uid, .uid, max: maxLength, into: &issues)
        return issues
    }
}

/// How a value that breaks the rules is brought back within them when Carnet must keep the row
/// (an older file upgraded to stricter rules): characters the rules forbid become spaces, the
/// ends are trimmed, and the value is cut to its limit. The caller keeps the original.
public enum ValueRepair {
    /// A one-line field's value within the rules (possibly empty).
    public static func line(_ value: String, max: Int) -> String {
        clean(value, max: max) { TextRules.isForbiddenInLine($0) }
    }

    /// A multi-line value (a note) within the rules: line feeds kept, possibly empty.
    public static func text(_ value: String, max: Int) -> String {
        clean(Rules.trimmedText(value), max: max) { $0 != "\n" && TextRules.isForbiddenInLine($0) }
    }

    /// A quote's text within the rules (line feeds kept; possibly empty).
    public static func quoteText(_ value: String) -> String {
        let text = QuoteDraft(text: value).normalized().text
        return clean(text, max: Limits.quoteTextLength) { $0 != "\n" && TextRules.isForbiddenInLine($0) }
    }

    private static func clean(_ value: String, max: Int, forbidden: (Unicode.Scalar) -> Bool) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in value.unicodeScalars { scalars.append(forbidden(scalar) ? " " : scalar) }
        var text = Rules.trimmed(String(scalars))
        if text.unicodeScalars.count > max {
            text = Rules.trimmed(String(String.UnicodeScalarView(text.unicodeScalars.prefix(max))))
        }
        return text
    }
}
