/// What a card stands for. vCard 4.0's `KIND` also names `org` and `location`; Carnet keeps
/// those as people (an organization's card lists like anyone's) and models only groups apart.
public enum ContactKind: String, Sendable, Codable, CaseIterable {
    /// A person or an organization: a card of the contacts list.
    case individual
    /// A group card: a name and members by UID; not in the contacts list.
    case group

    /// The members as saved: trimmed, blank ones and repeats dropped (first one kept).
    public static func normalizedMembers(_ members: [String]) -> [String] {
        var seen = Set<String>()
        return members.map(Rules.trimmed).filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}

/// The two forms of group card in use, each written back the way it came so the program that
/// made it keeps it a group.
public enum GroupForm: String, Sendable, Codable, CaseIterable {
    /// vCard 4.0: `KIND:group` and `MEMBER:urn:uuid:…`.
    case vcard4
    /// Apple Contacts and iCloud (vCard 3.0): `X-ADDRESSBOOKSERVER-KIND:group` and
    /// `X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:…`; 3.0 servers accept it as any card.
    case apple
}

/// A group as the screens and commands show it: its card, and its members resolved by UID.
public struct ContactGroup: Sendable, Equatable, Identifiable {
    /// The group's card (`ContactDraft/kind` is `ContactKind/group`).
    public let contact: Contact
    /// The members found in the file, in the group's order.
    public let members: [Contact]
    /// The member UIDs with no card in the file (yet), kept as they are.
    public let missing: [String]

    public var id: Int64 { contact.id }
    public var name: String { contact.name }

    public init(contact: Contact, members: [Contact], missing: [String]) {
        self.contact = contact
        self.members = members
        self.missing = missing
    }
}

/// How a group card names a member: `urn:uuid:` and the member's UID.
public enum GroupMember {
    /// The member's UID named by a `MEMBER` value, or nil for another kind of reference
    /// (`mailto:`, `sip:`, which Carnet keeps verbatim instead).
    public static func uid(fromReference value: String) -> String? {
        let trimmed = Rules.trimmed(value)
        guard trimmed.utf8.count > 9, trimmed.prefix(9).lowercased() == "urn:uuid:" else { return nil }
        let uid = String(trimmed.dropFirst(9))
        return uid.isEmpty || uid.unicodeScalars.count > 255 ? nil : uid
    }

    /// The `MEMBER` value naming the card with `uid`.
    public static func reference(_ uid: String) -> String { "urn:uuid:" + uid }

    /// The member UID a contact is named by: its UID without a `urn:uuid:` it may carry.
    public static func uid(of contactUID: String) -> String { uid(fromReference: contactUID) ?? contactUID }

    /// The UIDs a card named by `member` may have: as named, and with `urn:uuid:` before it.
    public static func candidateUIDs(_ member: String) -> [String] { [member, reference(member)] }
}

/// What a mail client's query shows of one contact: its name, organization and emails, in the
/// person's order (`ContactDraft/emails`), read without the rest of the contact.
public struct MailEntry: Sendable, Equatable {
    public let id: Int64
    public let name: String
    public let organization: String
    public let emails: [LabeledValue]
    /// The address book it is in.
    public let bookID: Int64
    /// The name's parts and the nickname, space-separated: names a mail user may type that the
    /// display name does not show.
    public let otherNames: String

    public init(id: Int64, name: String, organization: String, emails: [LabeledValue], bookID: Int64 = 1, otherNames: String = "") {
        self.id = id
        self.name = name
        self.organization = organization
        self.emails = emails
        self.bookID = bookID
        self.otherNames = otherNames
    }
}

extension CarnetError {
    /// A group card's id given where only a contact (a person) will do: refused, the message
    /// naming the group and saying `reason` (what is only for people, or what to use instead),
    /// so every screen says it the same way.
    public static func groupIsNotAContact(id: Int64, name: String, _ reason: String) -> CarnetError {
        .refused("\(id) is a group (\(name)), not a contact: \(reason)")
    }
}
