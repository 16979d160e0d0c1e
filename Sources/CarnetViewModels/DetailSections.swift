import CarnetModels

/// One value on a detail (or edit) screen: a one-line field, a note, a photo, or one entry of a
/// list.
public struct DetailRow: Sendable, Equatable, Hashable {
    /// The field the value belongs to.
    public let field: Field
    /// What the field is called (`DraftField.label`): `Title`, `Emails`.
    public let label: String
    /// The value as shown: the text (a note keeps its line breaks), a list entry's value, or for
    /// a photo its kind and size (`JPEG, 2048 bytes`).
    public let value: String
    /// A list entry's type or label and whether it is preferred (`work, preferred`,
    /// `birthday`); empty for other fields and for an entry with neither.
    public let entryLabel: String
    /// A list entry's place in its list (0 is first); nil for other fields.
    public let index: Int?

    public init(field: Field, label: String, value: String, entryLabel: String = "", index: Int? = nil) {
        self.field = field
        self.label = label
        self.value = value
        self.entryLabel = entryLabel
        self.index = index
    }

    /// The rows of one field of `draft`: none when it is empty, one per entry for a list.
    static func rows<Draft>(of spec: DraftField<Draft>, in draft: Draft) -> [DetailRow] {
        switch spec.value {
        case let .text(keyPath), let .multiline(keyPath):
            let text = draft[keyPath: keyPath]
            return text.isEmpty ? [] : [DetailRow(field: spec.field, label: spec.label, value: text)]
        case let .photo(keyPath):
            guard let photo = draft[keyPath: keyPath] else { return [] }
            let kind = ImageKind(of: photo)?.rawValue.uppercased() ?? "image"
            return [DetailRow(field: spec.field, label: spec.label, value: "\(kind), \(photo.count) bytes")]
        case let .list(list):
            return rows(of: list, in: draft, spec: spec)
        }
    }

    static func rows<Draft>(of list: EntryList<Draft>, in draft: Draft, spec: DraftField<Draft>) -> [DetailRow] {
        list.display(draft).enumerated().map { index, entry in
            DetailRow(field: spec.field, label: spec.label, value: entry.value, entryLabel: entry.label, index: index)
        }
    }
}

/// A group of a detail screen (`Name`, `Work`, `Contact`, …), in the order and with the fields
/// the field description (`ContactFields`, `FieldSection`) gives,
/// so a screen that shows a contact needs no list of fields of its own.
public struct DetailSection: Sendable, Equatable, Hashable, Identifiable {
    public let section: FieldSection
    /// The rows with a value, in field order; a section without any is not made.
    public let rows: [DetailRow]

    public init(section: FieldSection, rows: [DetailRow]) {
        self.section = section
        self.rows = rows
    }

    /// The heading: `Name`, `Work`, `Contact`, `Dates`, `Note`, `Categories`, `Photo`, `Other properties`.
    public var title: String { section.rawValue }
    public var id: FieldSection { section }

    /// The sections of `draft` that have a value, in `FieldSection` order. The
    /// fields in `omitting` are left out (a detail screen shows the display name as its title).
    public static func sections<Draft: EditableDraft>(of draft: Draft, omitting: Set<Field> = []) -> [DetailSection] {
        FieldSection.allCases.compactMap { section in
            let rows = Draft.fields.filter { $0.section == section && !omitting.contains($0.field) }
                .flatMap { DetailRow.rows(of: $0, in: draft) }
            return rows.isEmpty ? nil : DetailSection(section: section, rows: rows)
        }
    }
}
