import Foundation

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
        // Reads go through the list's offset in the draft (see ``keyPathReadAtOffset(of:_:at:)``).
        let offset = MemoryLayout<Draft>.offset(of: keyPath)
        let read: @Sendable (Draft) -> [E] = { keyPathReadAtOffset(of: $0, keyPath, at: offset) }
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
