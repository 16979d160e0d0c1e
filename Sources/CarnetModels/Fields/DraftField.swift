import Foundation

/// One field of a draft that a person edits (a contact's or a quote's), described once. The lists
/// `ContactFields/all` and `QuoteFields/all` drive every place that names those fields: the
/// CSV columns and JSON keys (`key`), the CLI's flags (`flag`), the editor template and the
/// interactive edit commands, prompts and detail screens (`label`), change summaries and
/// conflicts (`EditableDraft/differences(from:)`), search (`searchColumn`), validation and
/// merges. A text field's entry also names its column in `contacts` (`column`), its vCard
/// property (`vCard`), the other programs' CSV columns it reads from (`csvColumns`) and its
/// LDIF attribute (`ldif`): the row's SELECT, INSERT and UPDATE, the vCard reader and writer,
/// the CSV dialects and LDIF take a new text field from its entry. Adding one means the draft's
/// property, a migration that adds the column, and one entry in its list.
public final class DraftField<Draft>: Sendable {
    /// How the field's value is held in the draft.
    public enum Value: Sendable {
        /// One line of text.
        case text(WritableKeyPath<Draft, String> & Sendable)
        /// Text that may span lines (a note, a quote).
        case multiline(WritableKeyPath<Draft, String> & Sendable)
        /// Image bytes, or none.
        case photo(WritableKeyPath<Draft, Data?> & Sendable)
        /// An ordered list of entries, each with a one-line text form.
        case list(EntryList<Draft>)
    }

    /// The field, as error messages and conflicts name it.
    public let field: Field
    /// What prompts and detail screens call it: `Name`, `Emails`.
    public let label: String
    public let value: Value
    /// One line of help for a prompt or a flag.
    public let help: String
    /// The name of the field in files: the JSON key, the CSV column and the editor template's
    /// key (`name`, `emails`).
    public let key: String
    /// The CLI flag and interactive verb that set (or, for a list, add to) it: `email` for
    /// `--email` and `--remove-email`.
    public let flag: String
    /// The most characters a one-line or multi-line value may have.
    public let maxLength: Int
    /// The column of the search index its texts go in; nil when a search does not look in it.
    public let searchColumn: SearchColumn?
    /// Whether a search looks in it.
    public var searchable: Bool { searchColumn != nil }
    /// The group a detail screen shows it in.
    public let section: FieldSection
    /// Where a text field's value is in the draft (see `keyPathReadAtOffset(of:_:at:)`).
    @usableFromInline let textOffset: Int?
    /// The column of the record's table a text field is stored in (`name_prefix`); nil for a
    /// field stored elsewhere (a list's child table, a quote's own record).
    public let column: String?
    /// The vCard property a text field, or each entry of a list of labelled values, is written
    /// as and read from; nil when the vCard reader and writer handle it by hand (`FN`, `N`,
    /// `ORG`, `NOTE`, `EMAIL`, …) or it has none.
    public let vCard: VCardMapping?
    /// The child table a list of labelled values is stored in (`contact_emails`: `contact_id`,
    /// `position`, `label`, `value`, `preferred`); nil for other fields.
    public let table: String?
    /// Where a list of labelled values is in the draft; nil for other fields.
    public let labeledValues: (WritableKeyPath<Draft, [LabeledValue]> & Sendable)?
    /// The columns of other programs' CSV files (Google, Outlook, Thunderbird) it is read from,
    /// written as the CSV reader compares names: lower case, letters and digits only (`jobtitle`
    /// for `Job Title`). Carnet's own CSV uses `key`.
    public let csvColumns: [String]
    /// The LDIF attribute (Thunderbird's schema) it is written as and read from; nil when LDIF
    /// has none, and an export says it was not written.
    public let ldif: String?
    /// A rule of the field's own, beyond the length and characters of every line: the message
    /// (`must be …`) when a normalized value breaks it.
    public let rule: (@Sendable (String) -> String?)?
    /// How a value is written once trimmed (`f` → `F`), for a field with one way of saying a thing.
    public let canonical: (@Sendable (String) -> String)?

    public init(
        field: Field, label: String, value: Value, help: String, key: String? = nil, flag: String? = nil,
        maxLength: Int = 200, search: SearchColumn? = nil, section: FieldSection = .name, column: String? = nil,
        vCard: VCardMapping? = nil, csvColumns: [String] = [], ldif: String? = nil,
        rule: (@Sendable (String) -> String?)? = nil, canonical: (@Sendable (String) -> String)? = nil,
        table: String? = nil, labeledValues: (WritableKeyPath<Draft, [LabeledValue]> & Sendable)? = nil
    ) {
        self.table = table
        self.labeledValues = labeledValues
        self.column = column
        self.vCard = vCard
        self.csvColumns = csvColumns
        self.ldif = ldif
        self.rule = rule
        self.canonical = canonical
        self.section = section
        self.field = field
        self.label = label
        self.value = value
        self.help = help
        self.key = key ?? field.rawValue
        self.flag = flag ?? field.rawValue
        self.maxLength = maxLength
        searchColumn = search
        switch value {
        case let .text(keyPath), let .multiline(keyPath): textOffset = MemoryLayout<Draft>.offset(of: keyPath)
        case .photo, .list: textOffset = nil
        }
    }

    /// The text key path, for one-line text fields.
    public var text: (WritableKeyPath<Draft, String> & Sendable)? {
        if case let .text(keyPath) = value { return keyPath }
        return nil
    }

    /// The text key path, for multi-line text fields.
    public var multilineText: (WritableKeyPath<Draft, String> & Sendable)? {
        if case let .multiline(keyPath) = value { return keyPath }
        return nil
    }

    /// The value of a one-line or multi-line text field ("" for other fields), read at its
    /// offset rather than through the key path (see `keyPathReadAtOffset(of:_:at:)`).
    public func string(of draft: Draft) -> String {
        switch value {
        case let .text(keyPath), let .multiline(keyPath): return keyPathReadAtOffset(of: draft, keyPath, at: textOffset)
        case .photo, .list: return ""
        }
    }

    /// The list, for list fields.
    public var list: EntryList<Draft>? {
        if case let .list(list) = value { return list }
        return nil
    }

    /// Sets this field of `merged` to the three-way merge of its values (see `DraftMerge`);
    /// whether both sides changed it differently.
    public func merge(
        base: Draft, theirs: Draft, mine: Draft, preferTheirs: Bool, phones: PhoneNormalForm, into merged: inout Draft
    ) -> Bool {
        if case let .list(list) = value { return list.merge(base, theirs, mine, preferTheirs, phones, &merged) }
        if !differs(mine, base) {
            copy(from: theirs, into: &merged)
            return false
        }
        guard differs(theirs, base) && differs(theirs, mine) else { return false }
        if preferTheirs { copy(from: theirs, into: &merged) }
        return true
    }

    /// Whether `a` and `b` hold different values for this field.
    @inlinable
    public func differs(_ a: Draft, _ b: Draft) -> Bool {
        switch value {
        case let .text(keyPath), let .multiline(keyPath):
            return keyPathReadAtOffset(of: a, keyPath, at: textOffset) != keyPathReadAtOffset(of: b, keyPath, at: textOffset)
        case let .photo(keyPath): return a[keyPath: keyPath] != b[keyPath: keyPath]
        case let .list(list): return list.differs(a, b)
        }
    }

    /// Sets this field of `draft` to what it is in `source`.
    public func copy(from source: Draft, into draft: inout Draft) {
        switch value {
        case let .text(keyPath), let .multiline(keyPath): draft[keyPath: keyPath] = source[keyPath: keyPath]
        case let .photo(keyPath): draft[keyPath: keyPath] = source[keyPath: keyPath]
        case let .list(list): list.copy(source, &draft)
        }
    }

    /// The field's texts, as the detail screen sees them: the value of a text field (none when
    /// empty), each entry's value for a list.
    public func texts(of draft: Draft) -> [String] {
        switch value {
        case let .text(keyPath), let .multiline(keyPath):
            let text = keyPathReadAtOffset(of: draft, keyPath, at: textOffset)
            return text.isEmpty ? [] : [text]
        case .photo: return []
        case let .list(list): return list.matchTexts(draft)
        }
    }

    /// Trims the field (and drops blank entries of a list).
    package func normalize(_ draft: inout Draft) {
        switch value {
        // Written back only when trimming changed something (most values are already trimmed).
        case let .text(keyPath):
            let value = keyPathReadAtOffset(of: draft, keyPath, at: textOffset)
            var trimmed = Rules.trimmed(value)
            if let canonical, !trimmed.isEmpty { trimmed = canonical(trimmed) }
            if trimmed != value { draft[keyPath: keyPath] = trimmed }
        case let .multiline(keyPath):
            let value = keyPathReadAtOffset(of: draft, keyPath, at: textOffset)
            let trimmed = Rules.trimmedText(value)
            if trimmed != value { draft[keyPath: keyPath] = trimmed }
        case .photo: break
        case let .list(list): list.normalize(&draft)
        }
    }

    /// Appends every rule the field breaks in a normalized draft.
    package func check(_ draft: Draft, into issues: inout [FieldIssue]) {
        switch value {
        case let .text(keyPath):
            let value = keyPathReadAtOffset(of: draft, keyPath, at: textOffset)
            Rules.checkLine(value, field, max: maxLength, into: &issues)
            if let rule, !value.isEmpty, let message = rule(value) { issues.append(FieldIssue(field, message)) }
        case let .multiline(keyPath): Rules.checkText(keyPathReadAtOffset(of: draft, keyPath, at: textOffset), field, max: maxLength, into: &issues)
        case let .photo(keyPath):
            if let photo = draft[keyPath: keyPath] {
                if photo.count > Limits.photoBytes {
                    issues.append(FieldIssue(field, "must be at most \(Limits.photoBytes) bytes (got \(photo.count))"))
                }
                if ImageKind(of: photo) == nil { issues.append(FieldIssue(field, "must be a JPEG, PNG, GIF or WebP image")) }
            }
        case let .list(list): list.check(draft, field, maxLength, &issues)
        }
    }
}
