/// What a one-line listing shows of a contact: its id, name, position and preferred email and
/// phone. `carnet list` and a plain list screen need no more, and reading only this skips every
/// child table but two: a listing of a large book costs a fraction of reading whole contacts.
/// Not a draft: to edit, read the whole `Contact` by `id`.
public struct ContactSummary: Sendable, Equatable, Identifiable {
    public let id: Int64
    public let name: String
    public let title: String
    public let organization: String
    /// The preferred email address (or the first), or "".
    public let email: String
    /// The preferred phone number (or the first), or "".
    public let phone: String
    /// Its address book (`AddressBook/id`).
    public let bookID: Int64

    public init(
        id: Int64, name: String, title: String, organization: String, email: String, phone: String, bookID: Int64 = AddressBook.defaultID
    ) {
        self.id = id
        self.name = name
        self.title = title
        self.organization = organization
        self.email = email
        self.phone = phone
        self.bookID = bookID
    }

    /// The summary of a whole contact: the same values a summary read from the file holds.
    public init(_ contact: Contact) {
        self.init(
            id: contact.id, name: contact.name, title: contact.title, organization: contact.organization,
            email: contact.email, phone: contact.phone, bookID: contact.bookID)
    }

    /// "Title, Organization", as `ContactDraft/position` shows it.
    public var position: String { ContactDraft.position(title: title, organization: organization) }

    /// The name, then what tells two people of one name apart (email, phone, organization), on
    /// one line with control characters escaped: a candidate among several a search found.
    public var candidateLine: String {
        ([name] + [email, phone, organization].filter { !$0.isEmpty }.prefix(2)).map(TextRules.escapedForDisplay).joined(separator: "  ")
    }
}
