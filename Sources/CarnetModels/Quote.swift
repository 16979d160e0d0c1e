import Foundation

/// A quote for the quote screen. Exactly one quote is current at any time.
public struct Quote: Sendable, Codable, Equatable, Hashable, Identifiable {
    public let id: Int64
    public let text: String
    public let author: String
    public let isCurrent: Bool
    public let createdAt: Date
    public let updatedAt: Date
    public let version: Int

    public init(id: Int64, text: String, author: String, isCurrent: Bool, createdAt: Date, updatedAt: Date, version: Int) {
        self.id = id
        self.text = text
        self.author = author
        self.isCurrent = isCurrent
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
    }

    public var draft: QuoteDraft { QuoteDraft(text: text, author: author) }
}

/// The editable fields of a quote.
public struct QuoteDraft: Sendable, Codable, Equatable, Hashable {
    public var text: String
    public var author: String

    public init(text: String = "", author: String = "") {
        self.text = text
        self.author = author
    }

    /// The draft as it would be saved: trimmed, and Unicode line and paragraph separators
    /// (U+2028, U+2029) written as the plain line breaks a quote may hold.
    public func normalized() -> QuoteDraft {
        var text = Rules.trimmed(text)
        if text.unicodeScalars.contains(where: { $0.value == 0x2028 || $0.value == 0x2029 }) {
            text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value == 0x2028 || $0.value == 0x2029 ? "\n" : $0 }))
        }
        return QuoteDraft(text: text, author: Rules.trimmed(author))
    }

    public func issues() -> [FieldIssue] {
        let draft = normalized()
        var issues: [FieldIssue] = []
        if draft.text.isEmpty { issues.append(FieldIssue(.text, "is required and must not be blank")) }
        if draft.text.unicodeScalars.count > Limits.quoteTextLength {
            issues.append(FieldIssue(.text, "must be at most \(Limits.quoteTextLength) characters (got \(draft.text.unicodeScalars.count))"))
        }
        // A quote may span lines; other control characters (NUL, escapes) have no place in it.
        Rules.checkCharacters(draft.text, .text, allowingNewlines: true, into: &issues)
        Rules.checkLine(draft.author, .author, max: Limits.authorLength, into: &issues)
        return issues
    }

    public func validated() throws(CarnetError) -> QuoteDraft {
        let issues = issues()
        guard issues.isEmpty else { throw .invalid(issues) }
        return normalized()
    }
}

/// A favorite contact and its place in the user's order (1 is first).
public struct Favorite: Sendable, Codable, Equatable, Hashable, Identifiable {
    public let contact: Contact
    public let position: Int

    public init(contact: Contact, position: Int) {
        self.contact = contact
        self.position = position
    }

    public var id: Int64 { contact.id }
}
