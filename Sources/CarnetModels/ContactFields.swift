import Foundation

/// One field of a draft that a person edits (a contact's or a quote's), described once. The lists
/// ``ContactFields/all`` and ``QuoteFields/all`` drive every place that names those fields: the
/// CSV columns and JSON keys (``key``), the editor template and the interactive edit commands
/// (``key``), prompts and detail screens (``label``), change summaries and conflicts
/// (``EditableDraft/differences(from:)``), search (``ContactFields/searchable``) and merges.
/// Adding a field means the model, a migration and one entry in its list.
public struct DraftField<Draft>: Sendable {
    /// How the field's value is held in the draft.
    public enum Value: Sendable {
        /// Text (one line, or for a quote's text several).
        case text(WritableKeyPath<Draft, String> & Sendable)
        /// Image bytes, or none.
        case photo(WritableKeyPath<Draft, Data?> & Sendable)
    }

    /// The field, as error messages and conflicts name it.
    public let field: Field
    /// What prompts and detail screens call it: `Name`, `Email`.
    public let label: String
    public let value: Value
    /// One line of help for a prompt or a flag.
    public let help: String

    /// The name of the field in files and commands: the JSON key, the CSV column, the editor
    /// template's key and the interactive edit verb (`name`, `email`).
    public var key: String { field.rawValue }

    public init(field: Field, label: String, value: Value, help: String) {
        self.field = field
        self.label = label
        self.value = value
        self.help = help
    }

    /// The text key path, for text fields.
    public var text: (WritableKeyPath<Draft, String> & Sendable)? {
        if case let .text(keyPath) = value { return keyPath }
        return nil
    }

    /// Whether `a` and `b` hold different values for this field.
    public func differs(_ a: Draft, _ b: Draft) -> Bool {
        switch value {
        case let .text(keyPath): return a[keyPath: keyPath] != b[keyPath: keyPath]
        case let .photo(keyPath): return a[keyPath: keyPath] != b[keyPath: keyPath]
        }
    }

    /// Sets this field of `draft` to what it is in `source`.
    public func copy(from source: Draft, into draft: inout Draft) {
        switch value {
        case let .text(keyPath): draft[keyPath: keyPath] = source[keyPath: keyPath]
        case let .photo(keyPath): draft[keyPath: keyPath] = source[keyPath: keyPath]
        }
    }
}

/// A contact's field description.
public typealias ContactFieldSpec = DraftField<ContactDraft>

/// The editable fields of a contact, in the order screens and files show them.
public enum ContactFields {
    public static let all: [ContactFieldSpec] = [
        ContactFieldSpec(field: .name, label: "Name", value: .text(\.name), help: "The name (required)."),
        ContactFieldSpec(
            field: .position, label: "Position", value: .text(\.position),
            help: "Job and organisation, e.g. \"Sales, Gale Foods\"."),
        ContactFieldSpec(field: .email, label: "Email", value: .text(\.email), help: "An email address."),
        ContactFieldSpec(
            field: .phone, label: "Phone", value: .text(\.phone), help: "A phone number: digits, spaces and + - ( ) ."),
        ContactFieldSpec(
            field: .photo, label: "Photo", value: .photo(\.photo), help: "An image: JPEG, PNG, GIF or WebP, at most 1 MiB."),
    ]

    /// The fields that are one line of text, with their key paths.
    public static let text: [(spec: ContactFieldSpec, keyPath: WritableKeyPath<ContactDraft, String> & Sendable)] =
        all.compactMap { spec in spec.text.map { (spec, $0) } }

    /// The text fields a search looks in.
    public static var searchable: [WritableKeyPath<ContactDraft, String> & Sendable] { text.map(\.keyPath) }

    /// The field whose ``ContactFieldSpec/key`` is `key`, ignoring case.
    public static func named(_ key: String) -> ContactFieldSpec? {
        let wanted = key.lowercased()
        return all.first { $0.key == wanted }
    }
}

/// The editable fields of a quote.
public enum QuoteFields {
    public static let all: [DraftField<QuoteDraft>] = [
        DraftField(field: .text, label: "Text", value: .text(\.text), help: "The quote (line breaks allowed)."),
        DraftField(field: .author, label: "Author", value: .text(\.author), help: "Who said or wrote it."),
    ]
}

/// A draft edited on a screen and saved with a version check: a contact's or a quote's. Its
/// fields are described once (``fields``), so differences, merges and prompts need no list of
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
    /// The fields whose values differ between two drafts, in ``fields`` order.
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
    public init() { self.init(name: "") }
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
