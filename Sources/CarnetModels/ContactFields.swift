import Foundation

/// One field of a contact that a person edits, described once. The list ``ContactFields/all``
/// drives every place that names a contact's fields: the CSV columns and JSON keys (``key``), the
/// editor template and the interactive edit commands (``key``), prompts and detail screens
/// (``label``), change summaries and conflicts (``ContactDraft/differences(from:)``), search
/// (``ContactFields/searchable``) and merges. Adding a field means the model, a migration and one
/// entry here.
public struct ContactFieldSpec: Sendable {
    /// How the field's value is held in a ``ContactDraft``.
    public enum Value: Sendable {
        /// One line of text.
        case text(WritableKeyPath<ContactDraft, String> & Sendable)
        /// Image bytes, or none.
        case photo(WritableKeyPath<ContactDraft, Data?> & Sendable)
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

    /// The text key path, for text fields.
    public var text: (WritableKeyPath<ContactDraft, String> & Sendable)? {
        if case let .text(keyPath) = value { return keyPath }
        return nil
    }

    /// Whether `a` and `b` hold different values for this field.
    public func differs(_ a: ContactDraft, _ b: ContactDraft) -> Bool {
        switch value {
        case let .text(keyPath): return a[keyPath: keyPath] != b[keyPath: keyPath]
        case let .photo(keyPath): return a[keyPath: keyPath] != b[keyPath: keyPath]
        }
    }

    /// Sets this field of `draft` to what it is in `source`.
    public func copy(from source: ContactDraft, into draft: inout ContactDraft) {
        switch value {
        case let .text(keyPath): draft[keyPath: keyPath] = source[keyPath: keyPath]
        case let .photo(keyPath): draft[keyPath: keyPath] = source[keyPath: keyPath]
        }
    }
}

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
