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
    /// Where a text field's value is in the draft (see `storedValue(of:_:at:)`).
    @usableFromInline let textOffset: Int?
    /// The column of the record's table a text field is stored in (`name_prefix`); nil for a
    /// field stored elsewhere (a list's child table, a quote's own record).
    public let column: String?
    /// The vCard property a text field is written as and read from; nil when the vCard reader
    /// and writer handle it by hand (`FN`, `N`, `ORG`, `NOTE`) or it has none.
    public let vCard: VCardMapping?
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
        rule: (@Sendable (String) -> String?)? = nil, canonical: (@Sendable (String) -> String)? = nil
    ) {
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
    /// offset rather than through the key path (see `storedValue(of:_:at:)`).
    public func string(of draft: Draft) -> String {
        switch value {
        case let .text(keyPath), let .multiline(keyPath): return storedValue(of: draft, keyPath, at: textOffset)
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
            return storedValue(of: a, keyPath, at: textOffset) != storedValue(of: b, keyPath, at: textOffset)
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
            let text = storedValue(of: draft, keyPath, at: textOffset)
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
            let value = storedValue(of: draft, keyPath, at: textOffset)
            var trimmed = Rules.trimmed(value)
            if let canonical, !trimmed.isEmpty { trimmed = canonical(trimmed) }
            if trimmed != value { draft[keyPath: keyPath] = trimmed }
        case let .multiline(keyPath):
            let value = storedValue(of: draft, keyPath, at: textOffset)
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
            let value = storedValue(of: draft, keyPath, at: textOffset)
            Rules.checkLine(value, field, max: maxLength, into: &issues)
            if let rule, !value.isEmpty, let message = rule(value) { issues.append(FieldIssue(field, message)) }
        case let .multiline(keyPath): Rules.checkText(storedValue(of: draft, keyPath, at: textOffset), field, max: maxLength, into: &issues)
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

/// A list field of a draft, seen through the one-line text of its entries, so flags, the
/// editor template, CSV cells, prompts and the interactive screen handle every list alike.
public final class EntryList<Draft>: Sendable {
    public let kind: EntryKind
    /// The entries' one-line texts, in order.
    public let entries: @Sendable (Draft) -> [String]
    /// How many entries there are.
    public let count: @Sendable (Draft) -> Int
    /// Reads one entry's text; nil and a message when it cannot be read.
    public let parse: @Sendable (String) -> EntryError?
    /// Appends one entry read from its text; a message when it cannot be read.
    public let add: @Sendable (inout Draft, String) -> EntryError?
    /// Replaces every entry with those read from `texts`; the messages of those that could not be.
    public let replace: @Sendable (inout Draft, [String]) -> [EntryError]
    /// Removes the entries whose value (or whole text) is `text`, ignoring case; how many.
    public let remove: @Sendable (inout Draft, String) -> Int
    /// Removes the entry at an index (0-based), if there is one.
    public let removeAt: @Sendable (inout Draft, Int) -> Bool
    /// Moves an entry (0-based indexes).
    public let move: @Sendable (inout Draft, Int, Int) -> Void
    /// Marks the entry at an index preferred, for lists that have a preferred entry.
    public let makePreferred: (@Sendable (inout Draft, Int) -> Void)?
    /// The entries as (label, value) for a detail screen: `("work, preferred", "ada@example.com")`.
    public let display: @Sendable (Draft) -> [(label: String, value: String)]
    /// Writes the list as a JSON array of its entries (objects, or strings for plain lists).
    public let encode: @Sendable (Draft, inout KeyedEncodingContainer<FieldCodingKey>, FieldCodingKey) throws -> Void
    /// Reads the list from a JSON array; a missing key leaves it empty.
    public let decode: @Sendable (inout Draft, KeyedDecodingContainer<FieldCodingKey>, FieldCodingKey) throws -> Void
    let matchTexts: @Sendable (Draft) -> [String]
    /// Each entry's text as the search index holds it (an address's parts, space-separated).
    let searchTexts: @Sendable (Draft) -> [String]
    @usableFromInline let differs: @Sendable (Draft, Draft) -> Bool
    let copy: @Sendable (Draft, inout Draft) -> Void
    /// Merges the list of `base`, `theirs` and `mine` entry by entry into the draft (see
    /// `ListMerge`), phones known by their form in `phones`; whether an entry clashed.
    let merge: @Sendable (_ base: Draft, _ theirs: Draft, _ mine: Draft, _ preferTheirs: Bool, _ phones: PhoneNormalForm, _ into: inout Draft) -> Bool
    let normalize: @Sendable (inout Draft) -> Void
    let check: @Sendable (Draft, Field, Int, inout [FieldIssue]) -> Void

    // A class, not a struct: a field description is read on every validation, and copying
    // nineteen closures out of it each time cost more than the checks themselves.
    init(
        kind: EntryKind,
        entries: @escaping @Sendable (Draft) -> [String],
        count: @escaping @Sendable (Draft) -> Int,
        parse: @escaping @Sendable (String) -> EntryError?,
        add: @escaping @Sendable (inout Draft, String) -> EntryError?,
        replace: @escaping @Sendable (inout Draft, [String]) -> [EntryError],
        remove: @escaping @Sendable (inout Draft, String) -> Int,
        removeAt: @escaping @Sendable (inout Draft, Int) -> Bool,
        move: @escaping @Sendable (inout Draft, Int, Int) -> Void,
        makePreferred: (@Sendable (inout Draft, Int) -> Void)?,
        display: @escaping @Sendable (Draft) -> [(label: String, value: String)],
        encode: @escaping @Sendable (Draft, inout KeyedEncodingContainer<FieldCodingKey>, FieldCodingKey) throws -> Void,
        decode: @escaping @Sendable (inout Draft, KeyedDecodingContainer<FieldCodingKey>, FieldCodingKey) throws -> Void,
        matchTexts: @escaping @Sendable (Draft) -> [String],
        searchTexts: @escaping @Sendable (Draft) -> [String],
        differs: @escaping @Sendable (Draft, Draft) -> Bool,
        copy: @escaping @Sendable (Draft, inout Draft) -> Void,
        merge: @escaping @Sendable (Draft, Draft, Draft, Bool, PhoneNormalForm, inout Draft) -> Bool,
        normalize: @escaping @Sendable (inout Draft) -> Void,
        check: @escaping @Sendable (Draft, Field, Int, inout [FieldIssue]) -> Void
    ) {
        self.kind = kind
        self.entries = entries
        self.count = count
        self.parse = parse
        self.add = add
        self.replace = replace
        self.remove = remove
        self.removeAt = removeAt
        self.move = move
        self.makePreferred = makePreferred
        self.display = display
        self.encode = encode
        self.decode = decode
        self.matchTexts = matchTexts
        self.searchTexts = searchTexts
        self.differs = differs
        self.copy = copy
        self.merge = merge
        self.normalize = normalize
        self.check = check
    }

    /// A list of entries of type `E`, read and written through `codec`, with `rule` judging each
    /// normalized entry.
    static func of<E: Sendable & Equatable & Codable>(
        _ keyPath: WritableKeyPath<Draft, [E]> & Sendable, kind: EntryKind, codec: EntryCodec<E>,
        rule: @escaping @Sendable (E, Int) -> [String]
    ) -> EntryList {
        // Reads go through the list's offset in the draft (see ``storedValue(of:_:at:)``).
        let offset = MemoryLayout<Draft>.offset(of: keyPath)
        let read: @Sendable (Draft) -> [E] = { storedValue(of: $0, keyPath, at: offset) }
        var makePreferred: (@Sendable (inout Draft, Int) -> Void)?
        if let setPreferred = codec.setPreferred {
            makePreferred = { (draft: inout Draft, index: Int) in
                guard draft[keyPath: keyPath].indices.contains(index) else { return }
                for i in draft[keyPath: keyPath].indices { setPreferred(&draft[keyPath: keyPath][i], i == index) }
            }
        }
        return EntryList(
            kind: kind,
            entries: { (draft: Draft) -> [String] in read(draft).map { codec.entryText($0) } },
            count: { read($0).count },
            parse: { text in
                if case let .failure(error) = codec.parse(text, kind) { return error }
                return nil
            },
            add: { draft, text in
                switch codec.parse(text, kind) {
                case let .success(entry):
                    draft[keyPath: keyPath].append(entry)
                    return nil
                case let .failure(error): return error
                }
            },
            replace: { draft, texts in
                var entries: [E] = []
                var errors: [EntryError] = []
                for text in texts {
                    switch codec.parse(text, kind) {
                    case let .success(entry): entries.append(entry)
                    case let .failure(error): errors.append(error)
                    }
                }
                if errors.isEmpty { draft[keyPath: keyPath] = entries }
                return errors
            },
            remove: { draft, text in
                let wanted = text.lowercased()
                let before = draft[keyPath: keyPath].count
                draft[keyPath: keyPath].removeAll {
                    codec.matchText($0).lowercased() == wanted || codec.entryText($0).lowercased() == wanted
                }
                return before - draft[keyPath: keyPath].count
            },
            removeAt: { draft, index in
                guard draft[keyPath: keyPath].indices.contains(index) else { return false }
                draft[keyPath: keyPath].remove(at: index)
                return true
            },
            move: { draft, from, to in draft[keyPath: keyPath].moveEntry(from: from, to: to) },
            makePreferred: makePreferred,
            display: { (draft: Draft) -> [(label: String, value: String)] in
                read(draft).map { (label: codec.displayLabel($0), value: codec.displayText($0)) }
            },
            encode: { draft, container, key in try container.encode(draft[keyPath: keyPath], forKey: key) },
            decode: { draft, container, key in draft[keyPath: keyPath] = try container.decodeIfPresent([E].self, forKey: key) ?? [] },
            matchTexts: { (draft: Draft) -> [String] in read(draft).map { codec.matchText($0) } },
            searchTexts: { (draft: Draft) -> [String] in read(draft).map { codec.searchText($0) } },
            differs: { read($0) != read($1) },
            copy: { source, draft in draft[keyPath: keyPath] = source[keyPath: keyPath] },
            merge: { base, theirs, mine, preferTheirs, phones, draft in
                // A phone is known by its E.164 form where it can be told: a number a phone
                // reformatted is the same entry, changed (no clash), and never two entries united.
                let matchText = codec.matchText, displayLabel = codec.displayLabel
                let key: (E) -> String
                var same: (E, E) -> Bool = { $0 == $1 }
                if kind == .phone {
                    key = { (entry: E) -> String in phones.entryKey(matchText(entry)) }
                    same = { a, b in a == b || (displayLabel(a) == displayLabel(b) && key(a) == key(b)) }
                } else {
                    key = matchText
                }
                let (entries, clash) = ListMerge.merge(
                    base: read(base), theirs: read(theirs), mine: read(mine), preferTheirs: preferTheirs, key: key,
                    preferred: codec.preferred, setPreferred: codec.setPreferred, same: same)
                draft[keyPath: keyPath] = entries
                return clash
            },
            normalize: { draft in
                // Most drafts are normalized already: the list is rewritten only from the first
                // entry that changes, so a bulk import does not copy every list of every card.
                let entries = read(draft)
                var rewritten: [E]?
                for (index, entry) in entries.enumerated() {
                    let normal = codec.normalized(entry, kind)
                    let kept = !codec.matchText(normal).isEmpty
                    if rewritten == nil {
                        guard !kept || normal != entry else { continue }
                        rewritten = Array(entries[..<index])
                    }
                    if kept { rewritten?.append(normal) }
                }
                if let rewritten { draft[keyPath: keyPath] = rewritten }
            },
            check: { draft, field, max, issues in
                let entries = read(draft)
                for (i, entry) in entries.enumerated() {
                    for message in rule(entry, max) {
                        issues.append(FieldIssue(field, "\(i + 1) (\(codec.matchText(entry).shownBriefly)) \(message)"))
                    }
                }
                if entries.filter({ codec.preferred($0) }).count > 1 {
                    issues.append(FieldIssue(field, "may have only one preferred entry"))
                }
            })
    }
}

/// The groups a detail screen shows a contact's fields in, in this order.
public enum FieldSection: String, Sendable, CaseIterable {
    case name = "Name"
    case work = "Work"
    case reach = "Contact"
    case dates = "Dates"
    case note = "Note"
    case categories = "Categories"
    case photo = "Photo"
    case other = "Other properties"
}

/// How a text field is a vCard property.
public struct VCardMapping: Sendable {
    /// The property's name in vCard 4.0 (`PRONOUNS`).
    public let name: String
    /// Its name in 3.0 and 2.1 when those versions have no such property (`X-PRONOUNS`); the
    /// reader takes either name in every version.
    public let olderName: String?
    /// How many `;`-separated components the value has: 1 for plain text; more for a structured
    /// value, which the field holds as its components joined by `;`, the last one taking the rest
    /// (`GENDER:O;non-binary` is `O;non-binary`).
    public let components: Int

    public init(_ name: String, olderName: String? = nil, components: Int = 1) {
        self.name = name
        self.olderName = olderName
        self.components = components
    }

    /// Both names, the 4.0 one first.
    public var names: [String] { [name] + (olderName.map { [$0] } ?? []) }

    /// The name written in `version` (`"4.0"`, `"3.0"`, `"2.1"`).
    public func name(forVersion version: String) -> String { version == "4.0" ? name : olderName ?? name }

    /// The field's text as the property's components (unescaped), for a structured value.
    public func components(of text: String) -> [String] {
        guard components > 1 else { return [text] }
        var parts: [String] = []
        var rest = Substring(text)
        while parts.count < components - 1, let semicolon = rest.firstIndex(of: ";") {
            parts.append(String(rest[..<semicolon]))
            rest = rest[rest.index(after: semicolon)...]
        }
        parts.append(String(rest))
        return parts
    }

    /// The field's text from the property's components (unescaped): joined by `;`, empty
    /// components at the end dropped.
    public func text(of components: [String]) -> String {
        var parts = components
        while parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
        return parts.joined(separator: ";")
    }
}

/// A JSON key: a field's `DraftField/key` or one of a record's own keys.
public struct FieldCodingKey: CodingKey, Sendable {
    public let stringValue: String
    public init(_ string: String) { stringValue = string }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public var intValue: Int? { nil }
    public init?(intValue: Int) { nil }
}

/// How one kind of list entry is read from and written as its one-line text.
public struct EntryCodec<E>: Sendable {
    let entryText: @Sendable (E) -> String
    let matchText: @Sendable (E) -> String
    let searchText: @Sendable (E) -> String
    let preferred: @Sendable (E) -> Bool
    let displayLabel: @Sendable (E) -> String
    let displayText: @Sendable (E) -> String
    let parse: @Sendable (String, EntryKind) -> Result<E, EntryError>
    let normalized: @Sendable (E, EntryKind) -> E
    let setPreferred: (@Sendable (inout E, Bool) -> Void)?
}

extension EntryCodec where E: ContactEntry {
    /// The codec of a `ContactEntry` type; `setPreferred` for types with a preferred flag.
    static func entry(setPreferred: (@Sendable (inout E, Bool) -> Void)? = nil) -> EntryCodec {
        EntryCodec(
            entryText: \.entryText, matchText: \.matchText, searchText: \.searchText, preferred: \.preferred,
            displayLabel: { entry in
                var words: [String] = []
                if !entry.label.isEmpty { words.append(entry.label) }
                if entry.preferred { words.append("preferred") }
                return words.joined(separator: ", ")
            },
            displayText: \.displayText,
            parse: { E.parse(entry: $0, kind: $1) }, normalized: { $0.normalized(kind: $1) }, setPreferred: setPreferred)
    }
}

extension EntryCodec where E: PreferableEntry {
    /// The codec of an entry type with a preferred flag, which `EntryList/makePreferred` sets.
    static var preferable: EntryCodec { .entry { $0.preferred = $1 } }
}

extension EntryCodec where E == String {
    /// Plain text entries: categories (trimmed) and unmodelled property lines (verbatim).
    static let plain = EntryCodec(
        entryText: { $0 }, matchText: { $0 }, searchText: { $0 }, preferred: { _ in false }, displayLabel: { _ in "" }, displayText: { $0 },
        parse: { text, kind in .success(kind == .extra ? text : Rules.trimmed(text)) },
        normalized: { text, kind in kind == .extra ? text : Rules.trimmed(text) }, setPreferred: nil)
}

extension String {
    /// The first 40 characters, for naming a value in a message.
    package var shownBriefly: String {
        let escaped = TextRules.escapedForDisplay(self)
        return escaped.count <= 40 ? escaped : String(escaped.prefix(39)) + "…"
    }
}

/// The value of a stored property of `root`: read at its byte offset (`MemoryLayout.offset(of:)`,
/// computed once per field) when it has one, through the key path otherwise. A key path applied
/// at run time looks up the types of its components by name on every application: that was a
/// sixth of a contact's validation, which a bulk import runs for every card.
@inlinable
func storedValue<Root, Value>(of root: Root, _ keyPath: KeyPath<Root, Value>, at offset: Int?) -> Value {
    guard let offset else { return root[keyPath: keyPath] }
    return withUnsafeBytes(of: root) { $0.load(fromByteOffset: offset, as: Value.self) }
}

/// A contact's field description.
public typealias ContactFieldSpec = DraftField<ContactDraft>

/// The editable fields of a contact, in the order screens and files show them.
public enum ContactFields {
    /// A one-line text field stored in its own column of `contacts` (the field's name unless
    /// `column` says otherwise).
    private static func line(
        _ field: Field, _ label: String, _ keyPath: WritableKeyPath<ContactDraft, String> & Sendable, max: Int, search: SearchColumn? = nil,
        section: FieldSection = .name, column: String? = nil, vCard: VCardMapping? = nil, csv: [String] = [], ldif: String? = nil,
        rule: (@Sendable (String) -> String?)? = nil, canonical: (@Sendable (String) -> String)? = nil, _ help: String
    ) -> ContactFieldSpec {
        ContactFieldSpec(
            field: field, label: label, value: .text(keyPath), help: help, maxLength: max, search: search, section: section,
            column: column ?? field.rawValue, vCard: vCard, csvColumns: csv, ldif: ldif, rule: rule, canonical: canonical)
    }

    private static func labeled(_ field: Field, _ label: String, key: String, _ keyPath: WritableKeyPath<ContactDraft, [LabeledValue]> & Sendable, kind: EntryKind, max: Int, search: SearchColumn, _ help: String, rule: @escaping @Sendable (String) -> String?) -> ContactFieldSpec {
        let list = EntryList<ContactDraft>.of(keyPath, kind: kind, codec: .preferable) { entry, max in
            var messages = Rules.lineMessages(entry.value, max: max)
            if messages.isEmpty, let broken = rule(entry.value) { messages.append(broken) }
            messages += Rules.lineMessages(entry.label, max: Limits.labelLength).map { "label " + $0 }
            return messages
        }
        return ContactFieldSpec(field: field, label: label, value: .list(list), help: help, key: key, maxLength: max, search: search, section: .reach)
    }

    public static let all: [ContactFieldSpec] = [
        line(.name, "Name", \.name, max: Limits.nameLength, search: .names, "The name as shown (required unless --given or --family is given)."),
        line(.prefix, "Prefix", \.nameParts.prefix, max: Limits.namePartLength, search: .names, column: "name_prefix", csv: ["nameprefix"], "Honorific prefix, e.g. \"Dr.\"."),
        line(.given, "Given name", \.nameParts.given, max: Limits.namePartLength, search: .names, column: "given_name", csv: ["givenname", "firstname"], "Given (first) name."),
        line(.additional, "Additional names", \.nameParts.additional, max: Limits.namePartLength, search: .names, column: "additional_names", csv: ["additionalname", "middlename"], "Middle names or initials."),
        line(.family, "Family name", \.nameParts.family, max: Limits.namePartLength, search: .names, column: "family_name", csv: ["familyname", "lastname"], "Family (last) name."),
        line(.suffix, "Suffix", \.nameParts.suffix, max: Limits.namePartLength, search: .names, column: "name_suffix", csv: ["namesuffix", "suffix"], "Honorific suffix, e.g. \"Jr.\"."),
        line(.nickname, "Nickname", \.nickname, max: Limits.nameLength, search: .names, vCard: VCardMapping("NICKNAME"), csv: ["nickname"], ldif: "mozillaNickname", "A nickname."),
        line(.pronouns, "Pronouns", \.pronouns, max: 100, vCard: VCardMapping("PRONOUNS", olderName: "X-PRONOUNS"), csv: ["pronouns"],
             "The pronouns to use, e.g. she/her or they/them."),
        line(.gender, "Gender", \.gender, max: 200, vCard: VCardMapping("GENDER", components: 2),
             rule: Gender.rule, canonical: Gender.canonical,
             "Sex and gender identity: M, F, O (other), N (none), U (unknown), optionally then ;IDENTITY, e.g. F, O;non-binary, or ;agender (an identity alone)."),
        line(.organization, "Organization", \.organization, max: Limits.positionLength, search: .work, section: .work, csv: ["company", "organizationname"], "The organization (company)."),
        line(.department, "Department", \.department, max: Limits.positionLength, search: .work, section: .work, csv: ["department", "organizationdepartment"], "The department or unit."),
        line(.title, "Title", \.title, max: Limits.positionLength, search: .work, section: .work, vCard: VCardMapping("TITLE"), csv: ["jobtitle", "organizationtitle"], "The job title."),
        line(.role, "Role", \.role, max: Limits.positionLength, search: .work, section: .work, vCard: VCardMapping("ROLE"), "The role or function."),
        labeled(.email, "Emails", key: "emails", \.emails, kind: .email, max: Limits.emailLength, search: .emails,
                "An email, optionally typed: work:ada@example.com (types: home, work, other or a label; add ,pref for the preferred one).") {
            EmailRule.isValid($0) ? nil : "must look like name@example.com (no spaces or invisible characters)"
        },
        labeled(.phone, "Phones", key: "phones", \.phones, kind: .phone, max: Limits.phoneLength, search: .phones,
                "A phone, optionally typed: cell:+44 20 7946 0000 (cell, home, work, fax, pager, other or a label).") {
            PhoneRule.isValid($0) ? nil : "may hold only digits, spaces and + - ( ) . and must have a digit"
        },
        ContactFieldSpec(
            field: .address, label: "Addresses",
            value: .list(.of(\.addresses, kind: .address, codec: .preferable) { address, max in
                let parts = [address.poBox, address.extended, address.street, address.locality, address.region, address.postalCode, address.country]
                return parts.flatMap { Rules.lineMessages($0, max: max) }
                    + Rules.lineMessages(address.label, max: Limits.labelLength).map { "label " + $0 }
            }),
            help: "An address: [TYPE:]street; locality; region; postal code; country[; extended[; PO box]], e.g. home:12 Main St; Springfield; IL; 62701; USA.",
            key: "addresses", maxLength: Limits.addressPartLength, search: .addresses, section: .reach),
        labeled(.url, "URLs", key: "urls", \.urls, kind: .url, max: Limits.urlLength, search: .web, "A web address, optionally typed: work:https://example.com.") { _ in nil },
        labeled(.handle, "Handles", key: "handles", \.handles, kind: .handle, max: Limits.handleLength, search: .web,
                "An instant-messaging or social handle, SERVICE:NAME, e.g. mastodon:@ada@example.social.") { _ in nil },
        ContactFieldSpec(
            field: .date, label: "Dates",
            value: .list(.of(\.dates, kind: .date, codec: .entry()) { date, _ in
                var messages: [String] = []
                if !date.isRealDate { messages.append("is not a real calendar date") }
                messages += Rules.lineMessages(date.label, max: Limits.labelLength).map { "label " + $0 }
                return messages
            }),
            help: "A date: birthday:1815-12-10, anniversary:--06-01 (no year) or LABEL:YYYY-MM-DD.",
            key: "dates", section: .dates),
        ContactFieldSpec(
            field: .note, label: "Note", value: .multiline(\.note), help: "A note (line breaks allowed).",
            maxLength: Limits.noteLength, search: .note, section: .note, column: "note", csvColumns: ["notes", "note"]),
        ContactFieldSpec(
            field: .category, label: "Categories",
            value: .list(.of(\.categories, kind: .category, codec: .plain) { name, max in Rules.lineMessages(name, max: max) }),
            help: "A category (group) the contact is in, e.g. friends.", key: "categories", maxLength: Limits.categoryLength,
            search: .categories, section: .categories),
        ContactFieldSpec(
            field: .photo, label: "Photo", value: .photo(\.photo), help: "An image: JPEG, PNG, GIF or WebP, at most 1 MiB.",
            section: .photo),
        ContactFieldSpec(
            field: .extra, label: "Other properties",
            value: .list(.of(\.extras, kind: .extra, codec: .plain) { line, max in Rules.extraMessages(line, max: max) }),
            help: "A vCard property Carnet does not model, kept verbatim (e.g. X-ABLabel:Work).", key: "extras",
            maxLength: Limits.extraLength, section: .other),
    ]

    /// The fields that are one line of text, with their key paths.
    public static let text: [(spec: ContactFieldSpec, keyPath: WritableKeyPath<ContactDraft, String> & Sendable)] =
        all.compactMap { spec in spec.text.map { (spec, $0) } }

    /// The one-line and multi-line fields stored in a column of `contacts`, in `all` order.
    public static let columns: [ContactFieldSpec] = all.filter { $0.column != nil }

    /// The text fields written as a vCard property of their own, in `all` order.
    public static let vCardText: [(spec: ContactFieldSpec, keyPath: WritableKeyPath<ContactDraft, String> & Sendable, vCard: VCardMapping)] =
        text.compactMap { spec, keyPath in spec.vCard.map { (spec, keyPath, $0) } }

    /// The list fields.
    public static let lists: [(spec: ContactFieldSpec, list: EntryList<ContactDraft>)] =
        all.compactMap { spec in spec.list.map { (spec, $0) } }

    /// The field whose `ContactFieldSpec.key` or `ContactFieldSpec.flag` is `key`, ignoring case.
    public static func named(_ key: String) -> ContactFieldSpec? {
        let wanted = key.lowercased()
        return all.first { $0.key == wanted || $0.flag == wanted }
    }

    /// The spec of `field`.
    public static func spec(_ field: Field) -> ContactFieldSpec? { all.first { $0.field == field } }
}

/// How the gender field is written: vCard's sex letter, then `;` and the identity if any.
private enum Gender {
    static let sexes: Set<String> = ["M", "F", "O", "N", "U"]
    static let words = ["male": "M", "female": "F", "other": "O", "none": "N", "unknown": "U"]

    /// The value as saved: the sex in capitals (`f` → `F`, `female` → `F`), the identity trimmed,
    /// a text with no sex letter taken as an identity (`agender` → `;agender`). A value whose sex
    /// is not one of the letters is left for `rule(_:)` to name.
    @Sendable static func canonical(_ text: String) -> String {
        guard let semicolon = text.firstIndex(of: ";") else {
            if sexes.contains(text.uppercased()) { return text.uppercased() }
            return words[text.lowercased()] ?? ";" + text
        }
        let sex = Rules.trimmed(String(text[..<semicolon])).uppercased()
        let identity = Rules.trimmed(String(text[text.index(after: semicolon)...]))
        guard sex.isEmpty || sexes.contains(sex) else { return text }
        return identity.isEmpty ? sex : sex + ";" + identity
    }

    @Sendable static func rule(_ text: String) -> String? {
        let parts = text.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let sexOK = parts.count == 1 ? sexes.contains(String(parts[0])) : (parts[0].isEmpty || sexes.contains(String(parts[0]))) && !parts[1].isEmpty
        return sexOK ? nil : "must be M, F, O, N or U (the sex), optionally followed by ;IDENTITY, e.g. F, O;non-binary or ;agender"
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
