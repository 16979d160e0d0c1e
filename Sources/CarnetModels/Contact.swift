import Foundation

/// A saved contact. Identity is `id` (and `uid` for interchange), never the name, so renaming a
/// contact keeps its favorite, its history and everyone's references to it.
///
/// Values are immutable snapshots of a row and its child rows: to change a contact, edit a
/// `ContactDraft` and save it through the state controller, which checks `version` so no one's
/// edit is silently lost. Every field of the draft reads straight off the contact
/// (`contact.name`, `contact.emails`, `contact.email` for the preferred one).
@dynamicMemberLookup
public struct Contact: Sendable, Codable, Equatable, Hashable, Identifiable {
    public let id: Int64
    /// A stable unique identifier for vCard `UID` and other tools; a UUID unless imported.
    public let uid: String
    /// Everything a person edits: names, organization, lists, note, photo, unmodelled properties.
    public let draft: ContactDraft
    public let createdAt: Date
    public let updatedAt: Date
    /// Starts at 1 and grows by one with every saved edit.
    public let version: Int
    /// The address book it belongs to (`AddressBook/id`).
    public let bookID: Int64

    public init(
        id: Int64, uid: String, draft: ContactDraft, createdAt: Date, updatedAt: Date, version: Int, bookID: Int64 = AddressBook.defaultID
    ) {
        self.id = id
        self.uid = uid
        self.draft = draft
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
        self.bookID = bookID
    }

    /// A contact with only the fields of Carnet's first schema (tests and samples).
    public init(
        id: Int64, uid: String, name: String, position: String, email: String, phone: String,
        photo: Data?, createdAt: Date, updatedAt: Date, version: Int
    ) {
        self.init(
            id: id, uid: uid, draft: ContactDraft(name: name, position: position, email: email, phone: phone, photo: photo),
            createdAt: createdAt, updatedAt: updatedAt, version: version)
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<ContactDraft, Value>) -> Value { draft[keyPath: keyPath] }

    /// Where this contact stands in the name-sorted list.
    public var sortKey: ContactSortKey { ContactSortKey(name: draft.name, id: id) }

    /// Where this contact stands in the list sorted by `order`.
    public func sortKey(_ order: ContactOrder) -> ContactSortKey { ContactSortKey(name: draft.sortText(order), id: id) }

    /// The fields whose values differ between two versions of a contact.
    public func differences(from other: Contact) -> [Field] {
        draft.differences(from: other.draft)
    }

    /// Whether the contact matches `search` as the search index would find it (see
    /// `SearchQuery`): every word, in any order, starts a word of one of its texts, ignoring
    /// case and accents. A search that cannot be read (too long, nothing to look for) matches nothing.
    public func matches(search: String) -> Bool {
        guard let query = try? SearchQuery(search) else { return false }
        return query.matches(draft)
    }

    /// Whether the contact is in `category` (compared like SQLite's `NOCASE`).
    public func isIn(category: String) -> Bool {
        let wanted = category.asciiLowercased
        return draft.categories.contains { $0.asciiLowercased == wanted }
    }
}

/// The orders the contact list can be sorted in.
public enum ContactOrder: String, Sendable, CaseIterable, Codable {
    /// By display name (the default).
    case name
    /// By given name, then family name: "Ada Lovelace" under A.
    case given
    /// By family name, then given name: "Ada Lovelace" under L.
    case family
    /// Best matches of the search first (see `SearchQuery/rank(_:)`), then by display name.
    /// Without a search, the same as `name`.
    case relevance
}

/// The editable fields of a contact: what an add or edit screen works on before saving. Lists
/// are ordered as the person ordered them; at most one entry of each is preferred.
public struct ContactDraft: Sendable, Codable, Equatable, Hashable {
    /// The display name (vCard `FN`).
    public var name: String
    /// The structured name (vCard `N`). Filled from `name` when only that is given and it can
    /// be read without guessing; `name` is made from it when only it is given.
    public var nameParts: PersonName
    public var nickname: String
    /// The pronouns to use for the person, as they give them: `she/her`, `they/them`.
    public var pronouns: String
    /// Sex and gender identity as vCard's `GENDER` has them: a sex (`M`, `F`, `O` other, `N`
    /// none or not applicable, `U` unknown), then `;` and a free identity text when there is one
    /// (`F`, `O;non-binary`, `;agender`).
    public var gender: String
    public var organization: String
    public var department: String
    public var title: String
    public var role: String
    public var emails: [LabeledValue]
    public var phones: [LabeledValue]
    public var addresses: [PostalAddress]
    public var urls: [LabeledValue]
    /// Instant-messaging and social handles; the label names the service (`skype`, `mastodon`).
    public var handles: [LabeledValue]
    public var dates: [ContactDate]
    /// Several lines allowed.
    public var note: String
    /// The person's groups, in the order given; no two the same (ignoring case).
    public var categories: [String]
    /// Image bytes (JPEG, PNG, GIF or WebP), at most `Limits/photoBytes`.
    public var photo: Data?
    /// Properties Carnet does not model, kept verbatim as unfolded vCard content lines
    /// (`X-ABLabel:…`, `GEO:…`), so an import and export lose nothing.
    public var extras: [String]
    /// A person (or organization), or a group card (see `ContactKind`).
    public var kind: ContactKind = .individual
    /// The form a group card came in and goes out in; nil for a person, and for a group made
    /// here (it takes the form of the file or server it goes to).
    public var groupForm: GroupForm? = nil
    /// A group's members by UID, in order; a member whose card is not in the file is kept.
    public var members: [String] = []
    /// What the person knows, labelled with its level (`expert:Swift`; `beginner`, `average`, `expert`).
    public var expertise: [LabeledValue] = []
    /// What the person does for pleasure, labelled with how much (`high:sailing`; `high`, `medium`, `low`).
    public var hobbies: [LabeledValue] = []
    /// What the person cares about, labelled as hobbies are (`medium:astronomy`).
    public var interests: [LabeledValue] = []

    public init(
        name: String = "", nameParts: PersonName = PersonName(), nickname: String = "", pronouns: String = "", gender: String = "", organization: String = "",
        department: String = "", title: String = "", role: String = "", emails: [LabeledValue] = [],
        phones: [LabeledValue] = [], addresses: [PostalAddress] = [], urls: [LabeledValue] = [],
        handles: [LabeledValue] = [], dates: [ContactDate] = [], note: String = "", categories: [String] = [],
        photo: Data? = nil, extras: [String] = []
    ) {
        self.name = name
        self.nameParts = nameParts
        self.nickname = nickname
        self.pronouns = pronouns
        self.gender = gender
        self.organization = organization
        self.department = department
        self.title = title
        self.role = role
        self.emails = emails
        self.phones = phones
        self.addresses = addresses
        self.urls = urls
        self.handles = handles
        self.dates = dates
        self.note = note
        self.categories = categories
        self.photo = photo
        self.extras = extras
    }

    /// A draft with the fields of Carnet's first schema: `position` is split into title and
    /// organization, the email and phone become the preferred entries.
    public init(name: String = "", position: String = "", email: String = "", phone: String = "", photo: Data? = nil) {
        self.init(name: name, nameParts: PersonName(), photo: photo)
        self.position = position
        self.email = email
        self.phone = phone
    }

    // MARK: The first schema's fields, as views of the rich ones

    /// "Title, Organization", or whichever is there: the one-line position of Carnet's first
    /// schema and of the list's TSV column. Setting it splits at the first ", " when both sides
    /// are non-empty and unpadded (as the first schema's files are migrated), else all title.
    public var position: String {
        get { Self.position(title: title, organization: organization) }
        set {
            let (title, organization) = Self.split(position: newValue)
            self.title = title
            self.organization = organization
        }
    }

    /// "Title, Organization", or whichever is there.
    public static func position(title: String, organization: String) -> String {
        if organization.isEmpty { return title }
        return title.isEmpty ? organization : title + ", " + organization
    }

    /// The position as (title, organization): split at the first ", " when both sides are
    /// non-empty and have no white space at their ends; otherwise all title.
    public static func split(position: String) -> (title: String, organization: String) {
        guard let comma = position.range(of: ", ") else { return (position, "") }
        let title = String(position[..<comma.lowerBound])
        let organization = String(position[comma.upperBound...])
        guard !title.isEmpty, !organization.isEmpty, Rules.trimmed(title) == title, Rules.trimmed(organization) == organization
        else { return (position, "") }
        return (title, organization)
    }

    /// The preferred email (or the first), or "". Setting it replaces that entry's value, adds
    /// a preferred entry when there is none, and removes the entry when set to "".
    public var email: String {
        get { emails.preferredEntry?.value ?? "" }
        set { Self.setPreferred(&emails, newValue) }
    }

    /// The preferred phone number (or the first), or "", set like `email`.
    public var phone: String {
        get { phones.preferredEntry?.value ?? "" }
        set { Self.setPreferred(&phones, newValue) }
    }

    private static func setPreferred(_ list: inout [LabeledValue], _ value: String) {
        let index = list.firstIndex(where: \.preferred) ?? list.indices.first
        switch (index, value.isEmpty) {
        case (nil, true): return
        case (nil, false): list.append(LabeledValue(value, preferred: true))
        case let (i?, true): list.remove(at: i)
        case let (i?, false): list[i].value = value
        }
    }

    /// Sets the display name, keeping the structured name in step when it was read from the old
    /// display name (or was empty): renaming "Ada Lovelace" to "Ada King" moves her under K.
    public mutating func rename(to newName: String) {
        if nameParts.isEmpty || PersonName.derived(from: name) == nameParts {
            nameParts = PersonName.derived(from: Rules.trimmed(newName)) ?? PersonName()
        }
        name = newName
    }

    /// Sets the structured name, keeping the display name in step when it was made from the old
    /// parts (or was empty).
    public mutating func setNameParts(_ parts: PersonName) {
        if name.isEmpty || Rules.trimmed(name) == nameParts.displayName { name = parts.displayName }
        nameParts = parts
    }

    /// The text the list is sorted by in `order`: the display name, or the structured name read
    /// given-first or family-first, falling back to the display name when the part is missing.
    /// The schema's generated columns `sort_given` and `sort_family` compute the same.
    public func sortText(_ order: ContactOrder) -> String {
        let parts = nameParts
        switch order {
        case .name, .relevance: return name
        case .given:
            guard !parts.given.isEmpty else { return name }
            return [parts.given, parts.additional, parts.family].filter { !$0.isEmpty }.joined(separator: " ")
        case .family:
            guard !parts.family.isEmpty else { return name }
            return [parts.family, parts.given, parts.additional].filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    /// The draft as it would be saved: text trimmed, known types in lower case, an empty photo
    /// treated as none, blank entries dropped, and whichever of display name and structured
    /// name is missing derived from the other.
    public func normalized() -> ContactDraft {
        var d = self
        for spec in ContactFields.all { spec.normalize(&d) }
        if d.kind == .group {
            // A group's name is no person's name: "Climbing club" has no family name "club".
            d.members = ContactKind.normalizedMembers(d.members)
        } else if d.nameParts.isEmpty, !d.name.isEmpty, let parts = PersonName.derived(from: d.name), parts.fitsLimits { d.nameParts = parts }
        if d.name.isEmpty { d.name = d.nameParts.displayName }
        if d.photo?.isEmpty == true { d.photo = nil }
        // A category given twice (ignoring A-Z case, as the schema's NOCASE UNIQUE compares) is
        // one category: the first spelling stays.
        if d.categories.count > 1 {
            var seen = Set<String>()
            d.categories = d.categories.filter { seen.insert($0.asciiLowercased).inserted }
        }
        return d
    }

    /// Every broken rule, field by field, in field order; empty when the draft can be saved.
    public func issues() -> [FieldIssue] {
        normalized().issuesOfNormalized()
    }

    /// The normalized draft, or `CarnetError/invalid(_:)` listing every broken rule.
    public func validated() throws(CarnetError) -> ContactDraft {
        let draft = normalized()
        let issues = draft.issuesOfNormalized()
        guard issues.isEmpty else { throw .invalid(issues) }
        return draft
    }

    /// `issues()` of a draft that is already `normalized()`: a bulk import normalizes once.
    private func issuesOfNormalized() -> [FieldIssue] {
        var issues: [FieldIssue] = []
        if name.isEmpty { issues.append(FieldIssue(.name, "is required and must not be blank")) }
        for spec in ContactFields.all { spec.check(self, into: &issues) }
        if kind == .individual, !members.isEmpty { issues.append(FieldIssue(.member, "only a group has members")) }
        if kind == .individual, groupForm != nil { issues.append(FieldIssue(.member, "only a group has a group form")) }
        for uid in members where uid.unicodeScalars.count > 255 || uid.unicodeScalars.contains(where: { $0.value == 0 }) {
            issues.append(FieldIssue(.member, "a member's UID must be 1 to 255 characters (got \(uid.unicodeScalars.count))"))
        }
        return issues
    }
}

package enum EmailRule {
    /// Deliberately simple: one `@`, something before it, a dotted domain of non-empty labels
    /// after it, no white space and no invisible formatting characters (zero-width spaces,
    /// direction marks: they make one address look like another). Real deliverability is the
    /// mail server's business, not an address book's. Judged scalar by scalar, as the schema's
    /// CHECK (GLOB) judges it, so the two always agree.
    package static func isValid(_ email: String) -> Bool {
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

package enum PhoneRule {
    /// Digits, space and `+ - ( ) .`, at least one digit. Every allowed character is ASCII, so
    /// any byte outside the set (including every byte of a non-ASCII character) is refused.
    package static func isValid(_ phone: String) -> Bool {
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
package func asciiLower(_ byte: UInt8) -> UInt8 { byte >= 65 && byte <= 90 ? byte + 32 : byte }

extension String {
    /// Lowercases A-Z only, the folding SQLite's NOCASE and LIKE use.
    public var asciiLowercased: String {
        String(decoding: utf8.map(asciiLower), as: UTF8.self)
    }
}
