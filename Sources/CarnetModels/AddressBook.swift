import Foundation

/// A named address book of the file. Every contact belongs to exactly one; the file always has
/// its default book (the one contacts go to when no book is named), which can be renamed but not
/// deleted. Identity is `id`; the name is what people type, unique ignoring A-Z case.
public struct AddressBook: Sendable, Equatable, Hashable, Identifiable, Codable {
    /// The default book of every file (made by the schema step that brought books).
    public static let defaultID: Int64 = 1
    /// The default book's name in a new file.
    public static let defaultName = "Contacts"
    public static let maxNameLength = 100

    public let id: Int64
    public var name: String
    public var isDefault: Bool
    /// How many people it holds (as read).
    public var contactCount: Int
    /// How many group cards it holds (as read): a group is a card of the book, not a person.
    public var groupCount: Int

    public init(id: Int64, name: String, isDefault: Bool = false, contactCount: Int = 0, groupCount: Int = 0) {
        self.id = id
        self.name = name
        self.isDefault = isDefault
        self.contactCount = contactCount
        self.groupCount = groupCount
    }

    /// Every card it holds, people and groups: what a deletion of the book takes with it.
    public var cardCount: Int { contactCount + groupCount }

    /// "12 contacts", "12 contacts and 2 groups", "1 group": what the book holds, as a screen says it.
    public var contents: String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        if groupCount == 0 { return count(contactCount, "contact") }
        if contactCount == 0 { return count(groupCount, "group") }
        return count(contactCount, "contact") + " and " + count(groupCount, "group")
    }

    /// `name` trimmed and in Unicode's composed form (NFC), if it can name a book: one line of 1
    /// to `maxNameLength` characters.
    public static func validName(_ name: String) throws(CarnetError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { throw .refused("an address book needs a name") }
        let messages = Rules.lineMessages(trimmed, max: maxNameLength)
        if let first = messages.first { throw .refused("the address book name \(trimmed.debugDescription) \(first)") }
        // One spelling of each name: "Café" typed as é or as e and a combining accent is one
        // name to a person, and SQLite compares bytes.
        return trimmed.precomposedStringWithCanonicalMapping
    }

    /// Whether `name` names this book (ignoring A-Z case, as the file's unique index does).
    public func isNamed(_ name: String) -> Bool {
        self.name.lowercased() == name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }
}
