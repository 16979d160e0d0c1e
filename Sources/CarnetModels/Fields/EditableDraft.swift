/// A draft edited on a screen and saved with a version check: a contact's or a quote's. Its
/// fields are described once (`fields`), so differences, merges and prompts need no list of
/// their own.
public protocol EditableDraft: Sendable, Equatable {
    init()
    static var fields: [DraftField<Self>] { get }
    /// The draft as it would be saved (trimmed, …).
    func normalized() -> Self
    /// Every broken rule, field by field.
    func issues() -> [FieldIssue]
}

extension EditableDraft {
    /// The fields whose values differ between two drafts, in `fields` order. (Inlinable, so
    /// that a caller's concrete draft type is known: applied generically, each key path looked
    /// its types up by name on every call.)
    @inlinable
    public func differences(from other: Self) -> [Field] {
        Self.fields.filter { $0.differs(self, other) }.map(\.field)
    }

    /// Whether `field` holds the same value in both drafts.
    public func sameValue(_ field: Field, as other: Self) -> Bool {
        Self.fields.first { $0.field == field }.map { !$0.differs(self, other) } ?? true
    }

    /// Sets `field` to its value in `other`.
    public mutating func take(_ field: Field, from other: Self) {
        Self.fields.first { $0.field == field }?.copy(from: other, into: &self)
    }
}

extension ContactDraft: EditableDraft {
    /// An empty draft, for a new contact.
    public init() { self.init(name: "", nameParts: PersonName()) }
    public static var fields: [DraftField<ContactDraft>] { ContactFields.all }
}

extension QuoteDraft: EditableDraft {
    /// An empty draft, for a new quote.
    public init() { self.init(text: "") }
    public static var fields: [DraftField<QuoteDraft>] { QuoteFields.all }
}

/// A saved record that is edited through a draft: identity by id, a version bumped by every save.
public protocol EditableRecord: Sendable, Equatable {
    associatedtype Draft: EditableDraft
    /// What errors and conflicts call this kind of record.
    static var kind: CarnetError.Record { get }
    var id: Int64 { get }
    var version: Int { get }
    var draft: Draft { get }
}

extension Contact: EditableRecord {
    public static var kind: CarnetError.Record { .contact }
}

extension Quote: EditableRecord {
    public static var kind: CarnetError.Record { .quote }
}
