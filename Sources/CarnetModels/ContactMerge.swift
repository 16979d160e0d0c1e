import Foundation

/// A field whose values differ among contacts being merged: the screen (or `--take`) settles it.
public struct MergeQuestion: Sendable, Equatable {
    /// One of the values, and which contact has it (0 for the first, the one kept).
    public struct Choice: Sendable, Equatable {
        public let contactIndex: Int
        /// The value as one line (a photo as its size).
        public let value: String
    }

    public let field: Field
    public let label: String
    /// Every different non-empty value, in the contacts' order.
    public let choices: [Choice]
    /// The contact whose value the merged draft holds.
    public let chosen: Int

    public init(field: Field, label: String, choices: [Choice], chosen: Int) {
        self.field = field
        self.label = label
        self.choices = choices
        self.chosen = chosen
    }
}

/// Merges several contacts' drafts into the first's: what `carnet merge` saves.
///
/// - A list is the union of the lists: an entry found twice (known by its text as search compares
///   it, ignoring case, as `ListMerge` knows entries) is kept once, where it first appears, with
///   the types of both (`work` and `cell` → `work,cell`); one entry stays preferred, the first
///   contact's.
/// - A one-valued field takes the first contact's value, or the first non-empty one when it is
///   empty. Where two contacts hold different non-empty values (not only in case), it is a `MergeQuestion`: its
///   value is the first contact's unless `taking` names another contact for the field.
/// - The properties Carnet does not model (`ContactDraft/extras`) of every side are kept.
public enum ContactMerge {
    public static func merge(_ drafts: [ContactDraft], taking: [Field: Int] = [:]) -> (draft: ContactDraft, questions: [MergeQuestion]) {
        guard var merged = drafts.first else { return (ContactDraft(), []) }
        // A name taken from one contact brings its parts along, as an edit of the name does,
        // unless a part is taken on its own: "Tyler Porter" is not filed under Thompson.
        var taking = taking
        if let source = taking[.name] {
            for part in Field.nameParts where taking[part] == nil { taking[part] = source }
        }
        var questions: [MergeQuestion] = []
        for spec in ContactFields.all {
            switch spec.value {
            case .list:
                uniteList(spec.field, drafts, into: &merged)
            case .text, .multiline, .photo:
                let values = drafts.enumerated().compactMap { index, draft -> (Int, String)? in
                    let texts = oneValue(spec, draft)
                    return texts.isEmpty ? nil : (index, texts)
                }
                guard let first = values.first else { continue }
                var distinct: [(Int, String)] = []
                // Values that differ only in case are one value: the first's is kept, unasked.
                for value in values where !distinct.contains(where: { $0.1.lowercased() == value.1.lowercased() && sameKind(spec, drafts[$0.0], drafts[value.0]) }) {
                    distinct.append(value)
                }
                var chosen = first.0
                if distinct.count > 1, let wanted = taking[spec.field], values.contains(where: { $0.0 == wanted }) {
                    chosen = wanted
                }
                if chosen != 0 { spec.copy(from: drafts[chosen], into: &merged) }
                if distinct.count > 1 {
                    questions.append(MergeQuestion(
                        field: spec.field, label: spec.label,
                        choices: distinct.map { MergeQuestion.Choice(contactIndex: $0.0, value: $0.1) }, chosen: chosen))
                }
            }
        }
        return (merged, questions)
    }

    /// Whether two drafts' values of a field that read the same are the same (two photos of the
    /// same size are not).
    private static func sameKind(_ spec: ContactFieldSpec, _ a: ContactDraft, _ b: ContactDraft) -> Bool {
        if case .photo = spec.value { return !spec.differs(a, b) }
        return true
    }

    /// A one-valued field as one line; empty when the field is.
    private static func oneValue(_ spec: ContactFieldSpec, _ draft: ContactDraft) -> String {
        if case let .photo(keyPath) = spec.value {
            return draft[keyPath: keyPath].map { "a photo of \($0.count) bytes" } ?? ""
        }
        return spec.texts(of: draft).first ?? ""
    }

    private static func uniteList(_ field: Field, _ drafts: [ContactDraft], into merged: inout ContactDraft) {
        switch field {
        case .email: merged.emails = unite(drafts.map(\.emails), kind: .email)
        case .phone: merged.phones = unite(drafts.map(\.phones), kind: .phone)
        case .url: merged.urls = unite(drafts.map(\.urls), kind: .url)
        case .handle: merged.handles = unite(drafts.map(\.handles), kind: .handle)
        case .address: merged.addresses = unite(drafts.map(\.addresses), kind: .address)
        case .date: merged.dates = unite(drafts.map(\.dates), kind: .date)
        case .category: merged.categories = unitePlain(drafts.map(\.categories), ignoringCase: true)
        case .extra: merged.extras = unitePlain(drafts.map(\.extras), ignoringCase: false)
        default:
            // A list added later without a rule here: the first contact's, then each other's new
            // entries, as a sync merges lists.
            guard let spec = ContactFields.spec(field) else { return }
            for draft in drafts.dropFirst() {
                _ = spec.merge(base: ContactDraft(), theirs: draft, mine: merged, preferTheirs: false, into: &merged)
            }
        }
    }

    /// The entries of every list, each once (by its match text, ignoring case), with the types of
    /// its twins merged and the first preferred entry the only one.
    static func unite<E: ContactEntry>(_ lists: [[E]], kind: EntryKind) -> [E] { uniteEntries(lists, kind: kind) }

    private static func uniteEntries<E: ContactEntry>(_ lists: [[E]], kind: EntryKind) -> [E] {
        var out: [E] = []
        var at: [String: Int] = [:]
        for list in lists {
            for entry in list {
                let key = entry.matchText.lowercased()
                if let i = at[key] {
                    out[i] = relabeled(out[i], uniting: entry.label, kind: kind)
                } else {
                    at[key] = out.count
                    out.append(entry)
                }
            }
        }
        return out
    }

    /// The same, with one preferred entry: the first one marked so.
    static func unite<E: PreferableEntry>(_ lists: [[E]], kind: EntryKind) -> [E] {
        var out: [E] = uniteEntries(lists, kind: kind)
        var seen = false
        for i in out.indices where out[i].preferred {
            if seen { out[i].preferred = false }
            seen = true
        }
        return out
    }

    /// `entry` with `label` added to its types: two lists of vCard types are united
    /// (`work` and `cell,voice` → `work,cell,voice`); a free label is kept as the first had it.
    private static func relabeled<E: ContactEntry>(_ entry: E, uniting label: String, kind: EntryKind) -> E {
        let united = uniteLabels(entry.label, label)
        guard united != entry.label else { return entry }
        if var value = entry as? LabeledValue {
            value.label = united
            return value as? E ?? entry
        }
        if var address = entry as? PostalAddress {
            address.label = united
            return address as? E ?? entry
        }
        return entry
    }

    /// Two labels as one: the other's when this one is empty; both lists of types, united; else this one.
    static func uniteLabels(_ mine: String, _ theirs: String) -> String {
        if theirs.isEmpty || mine.lowercased() == theirs.lowercased() { return mine }
        if mine.isEmpty { return theirs }
        func types(_ label: String) -> [String]? {
            let parts = label.split(separator: ",").map { Rules.trimmed(String($0)) }
            return parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0 == "-" } }) ? parts : nil
        }
        guard var united = types(mine), let other = types(theirs) else { return mine }
        for type in other where !united.contains(where: { $0.lowercased() == type.lowercased() }) { united.append(type) }
        let joined = united.joined(separator: ",")
        return joined.count <= Limits.labelLength ? joined : mine
    }

    private static func unitePlain(_ lists: [[String]], ignoringCase: Bool) -> [String] {
        var out: [String] = []
        var seen: Set<String> = []
        for list in lists {
            for entry in list where seen.insert(ignoringCase ? entry.lowercased() : entry).inserted { out.append(entry) }
        }
        return out
    }
}

extension HistoryKind {
    /// `carnet merge`: several contacts became one.
    public static let merge = HistoryKind(rawValue: "merge")
    /// `carnet merge --different`: two contacts are different people.
    public static let markDifferent = HistoryKind(rawValue: "mark different")
}
