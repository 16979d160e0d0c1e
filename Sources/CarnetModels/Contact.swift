import Foundation

/// A saved contact. Identity is `id` (and `uid` for interchange), never the name, so renaming a
/// contact keeps its favorite, its history and everyone's references to it.
///
/// Values are immutable snapshots of a row: to change a contact, edit a ``ContactDraft`` and save
/// it through the state controller, which checks ``version`` so no one's edit is silently lost.
public struct Contact: Sendable, Codable, Equatable, Hashable, Identifiable {
    public let id: Int64
    /// A stable unique identifier for vCard `UID` and other tools; a UUID unless imported.
    public let uid: String
    public let name: String
    public let position: String
    public let email: String
    public let phone: String
    /// Image bytes (JPEG, PNG, GIF or WebP), at most ``Limits/photoBytes``.
    public let photo: Data?
    public let createdAt: Date
    public let updatedAt: Date
    /// Starts at 1 and grows by one with every saved edit.
    public let version: Int

    public init(
        id: Int64, uid: String, name: String, position: String, email: String, phone: String,
        photo: Data?, createdAt: Date, updatedAt: Date, version: Int
    ) {
        self.id = id
        self.uid = uid
        self.name = name
        self.position = position
        self.email = email
        self.phone = phone
        self.photo = photo
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
    }

    /// The editable fields, as a draft to start an edit from.
    public var draft: ContactDraft {
        ContactDraft(name: name, position: position, email: email, phone: phone, photo: photo)
    }

    /// Where this contact stands in the name-sorted list.
    public var sortKey: ContactSortKey { ContactSortKey(name: name, id: id) }

    /// The fields whose values differ between two versions of a contact.
    public func differences(from other: Contact) -> [Field] {
        draft.differences(from: other.draft)
    }

    /// Case-insensitive (ASCII, like SQLite's `LIKE`) substring match on name, position, email
    /// and phone: the same rule the storage controller's search applies.
    public func matches(search: String) -> Bool {
        let needle = search.asciiLowercased
        if needle.isEmpty { return true }
        let draft = draft
        return ContactFields.searchable.contains { draft[keyPath: $0].asciiLowercased.contains(needle) }
    }
}

/// The editable fields of a contact: what an add or edit screen works on before saving.
public struct ContactDraft: Sendable, Codable, Equatable, Hashable {
    public var name: String
    public var position: String
    public var email: String
    public var phone: String
    public var photo: Data?

    public init(name: String = "", position: String = "", email: String = "", phone: String = "", photo: Data? = nil) {
        self.name = name
        self.position = position
        self.email = email
        self.phone = phone
        self.photo = photo
    }

    /// The draft as it would be saved: text trimmed, an empty photo treated as none.
    public func normalized() -> ContactDraft {
        ContactDraft(
            name: Rules.trimmed(name), position: Rules.trimmed(position), email: Rules.trimmed(email),
            phone: Rules.trimmed(phone), photo: photo?.isEmpty == true ? nil : photo)
    }

    /// Every broken rule, field by field, in field order; empty when the draft can be saved.
    public func issues() -> [FieldIssue] {
        normalized().issuesOfNormalized()
    }

    /// The normalized draft, or ``CarnetError/invalid(_:)`` listing every broken rule.
    public func validated() throws(CarnetError) -> ContactDraft {
        let draft = normalized()
        let issues = draft.issuesOfNormalized()
        guard issues.isEmpty else { throw .invalid(issues) }
        return draft
    }

    /// ``issues()`` of a draft that is already ``normalized()``: a bulk import normalizes once.
    private func issuesOfNormalized() -> [FieldIssue] {
        let draft = self
        var issues: [FieldIssue] = []
        if draft.name.isEmpty { issues.append(FieldIssue(.name, "is required and must not be blank")) }
        Rules.checkLine(draft.name, .name, max: Limits.nameLength, into: &issues)
        Rules.checkLine(draft.position, .position, max: Limits.positionLength, into: &issues)
        Rules.checkLine(draft.email, .email, max: Limits.emailLength, into: &issues)
        if !draft.email.isEmpty && !EmailRule.isValid(draft.email) {
            issues.append(FieldIssue(.email, "must look like name@example.com (no spaces or invisible characters)"))
        }
        Rules.checkLine(draft.phone, .phone, max: Limits.phoneLength, into: &issues)
        if !draft.phone.isEmpty && !PhoneRule.isValid(draft.phone) {
            issues.append(FieldIssue(.phone, "may hold only digits, spaces and + - ( ) . and must have a digit"))
        }
        if let photo = draft.photo {
            if photo.count > Limits.photoBytes {
                issues.append(FieldIssue(.photo, "must be at most \(Limits.photoBytes) bytes (got \(photo.count))"))
            }
            if ImageKind(of: photo) == nil {
                issues.append(FieldIssue(.photo, "must be a JPEG, PNG, GIF or WebP image"))
            }
        }
        return issues
    }

}

enum EmailRule {
    /// Deliberately simple: one `@`, something before it, a dotted domain of non-empty labels
    /// after it, no white space and no invisible formatting characters (zero-width spaces,
    /// direction marks: they make one address look like another). Real deliverability is the
    /// mail server's business, not an address book's. Judged scalar by scalar, as the schema's
    /// CHECK (GLOB) judges it, so the two always agree.
    static func isValid(_ email: String) -> Bool {
        if email.utf8.allSatisfy({ $0 < 0x80 }) { return isValid(email.utf8.lazy.map { UInt32($0) }) }
        return isValid(email.unicodeScalars.lazy.map(\.value))
    }

    private static func isValid(_ values: some Sequence<UInt32>) -> Bool {
        var ats = 0
        var local = 0  // characters before the @
        var labels = 0
        var labelLength = 0
        for value in values {
            switch value {
            case 0x40:  // @
                ats += 1
                guard ats == 1 else { return false }
            case 0x2E where ats == 1:  // . in the domain
                guard labelLength > 0 else { return false }
                labels += 1
                labelLength = 0
            default:
                if value < 0x80 {
                    if value == 0x20 || (value >= 0x09 && value <= 0x0D) { return false }  // ASCII white space
                } else {
                    guard let scalar = Unicode.Scalar(value) else { return false }
                    if scalar.properties.isWhitespace || scalar.properties.generalCategory == .format { return false }
                }
                if ats == 0 { local += 1 } else { labelLength += 1 }
            }
        }
        if ats == 0 { return false }
        // A "." before the @ counts toward the local part.
        return local > 0 && labelLength > 0 && labels >= 1
    }
}

enum PhoneRule {
    /// Digits, space and `+ - ( ) .`, at least one digit. Every allowed character is ASCII, so
    /// any byte outside the set (including every byte of a non-ASCII character) is refused.
    static func isValid(_ phone: String) -> Bool {
        var digits = false
        for byte in phone.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits = true
            case UInt8(ascii: " "), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "("), UInt8(ascii: ")"),
                UInt8(ascii: "."):
                continue
            default: return false
            }
        }
        return digits
    }
}

/// The image formats a photo may be, recognised by their first bytes.
public enum ImageKind: String, Sendable {
    case jpeg, png, gif, webp

    public init?(of data: Data) {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if bytes.count == 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }
}

/// Lowercases one byte of A-Z, the folding SQLite's NOCASE and LIKE use; every other byte
/// (and so every byte of a non-ASCII character) stays as it is.
@inline(__always)
func asciiLower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

extension String {
    /// Lowercases A-Z only, the folding SQLite's NOCASE and LIKE use.
    public var asciiLowercased: String {
        String(decoding: utf8.map(asciiLower), as: UTF8.self)
    }
}
