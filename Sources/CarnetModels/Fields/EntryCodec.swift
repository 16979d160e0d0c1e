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
