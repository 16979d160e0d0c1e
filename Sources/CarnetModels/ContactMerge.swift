import Foundation

/// What a merge asks about: a one-valued field, or a date a person has one of (a birthday, an
/// anniversary) kept in the list of dates.
public struct MergeSubject: Sendable, Hashable, CustomStringConvertible {
    public let field: Field
    /// For `.date`: the label of the one-valued date (`birthday`, `anniversary`); nil otherwise.
    public let dateLabel: String?

    public static func field(_ field: Field) -> MergeSubject { MergeSubject(field: field, dateLabel: nil) }
    public static let birthday = MergeSubject(field: .date, dateLabel: ContactDate.birthday)
    public static let anniversary = MergeSubject(field: .date, dateLabel: ContactDate.anniversary)
    /// The dates a person has one of.
    public static let singleDates: [MergeSubject] = [.birthday, .anniversary]

    /// How `--take` names it: the field's key (`name`, `title`), or `birthday`, `anniversary`.
    public var key: String { dateLabel ?? ContactFields.spec(field)?.key ?? field.rawValue }

    public var description: String { key }

    /// The subject `--take` names by `key` (any case): a one-valued field, or a single date.
    public static func named(_ key: String) -> MergeSubject? {
        if let date = singleDates.first(where: { $0.key == key.lowercased() }) { return date }
        guard let spec = ContactFields.named(key), spec.list == nil else { return nil }
        return .field(spec.field)
    }
}

/// A field whose values differ among contacts being merged: the screen (or `--take`) settles it.
public struct MergeQuestion: Sendable, Equatable {
    /// One of the values, and which contact has it (0 for the first, the one kept).
    public struct Choice: Sendable, Equatable {
        public let contactIndex: Int
        /// The value as one line (a photo as its size).
        public let value: String
    }

    public let subject: MergeSubject
    public let label: String
    /// Every different non-empty value, in the contacts' order.
    public let choices: [Choice]
    /// The contact whose value the merged draft holds.
    public let chosen: Int

    /// The field asked about (`.date` for a birthday or an anniversary).
    public var field: Field { subject.field }

    public init(subject: MergeSubject, label: String, choices: [Choice], chosen: Int) {
        self.subject = subject
        self.label = label
        self.choices = choices
        self.chosen = chosen
    }

    public init(field: Field, label: String, choices: [Choice], chosen: Int) {
        self.init(subject: .field(field), label: label, choices: choices, chosen: chosen)
    }
}

/// Merges several contacts' drafts into the first's: what `carnet merge` saves.
///
/// - A list is the union of the lists: an entry found twice (known by its text as search compares
///   it, ignoring case, as `ListMerge` knows entries; a phone number by its E.164 form where
///   `phones` can tell it, so `+44 20 7946 0000` and `020 7946 0000` meet in a file whose region is
///   GB) is kept once, where it first appears, with the types of both (`work` and `cell` →
///   `work,cell`) and, for a phone, the fuller of the two forms (the one with its country code);
///   one entry stays preferred, the first contact's.
/// - A birthday or an anniversary is one date: where two contacts hold different ones, it is a
///   `MergeQuestion` as a one-valued field is, and the merged list keeps the chosen one only.
/// - A one-valued field takes the first contact's value, or the first non-empty one when it is
///   empty. Where two contacts hold different non-empty values (not only in case), it is a `MergeQuestion`: its
///   value is the first contact's unless `taking` names another contact for the field.
/// - The properties Carnet does not model (`ContactDraft/extras`) of every side are kept.
public enum ContactMerge {
    public static func merge(
        _ drafts: [ContactDraft], taking: [MergeSubject: Int] = [:], phones: PhoneNormalForm
    ) -> (draft: ContactDraft, questions: [MergeQuestion]) {
        guard var merged = drafts.first else { return (ContactDraft(), []) }
        // A name taken from one contact brings its parts along, as an edit of the name does,
        // unless a part is taken on its own: "Tyler Porter" is not filed under Thompson.
        var taking = taking
        if let source = taking[.field(.name)] {
            for part in Field.nameParts where taking[.field(part)] == nil { taking[.field(part)] = source }
        }
        var questions: [MergeQuestion] = []
        for spec in ContactFields.all {
            switch spec.value {
            case .list:
                uniteList(spec.field, drafts, phones: phones, into: &merged)
                if spec.field == .date {
                    for subject in MergeSubject.singleDates {
                        if let question = settleDate(subject, drafts, taking: taking, into: &merged) { questions.append(question) }
                    }
                }
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
                if distinct.count > 1, let wanted = taking[.field(spec.field)], values.contains(where: { $0.0 == wanted }) {
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

    /// The one `subject` date of the merged list: where the contacts hold different ones, the
    /// chosen contact's (the first's unless `taking` says), the others' gone, and the question.
    private static func settleDate(
        _ subject: MergeSubject, _ drafts: [ContactDraft], taking: [MergeSubject: Int], into merged: inout ContactDraft
    ) -> MergeQuestion? {
        guard let label = subject.dateLabel else { return nil }
        let held = drafts.enumerated().compactMap { index, draft in
            draft.dates.first { $0.label.lowercased() == label }.map { (index: index, date: $0) }
        }
        var distinct: [(index: Int, date: ContactDate)] = []
        for each in held where !distinct.contains(where: { $0.date.matchText == each.date.matchText }) { distinct.append(each) }
        guard distinct.count > 1 else { return nil }
        var chosen = distinct[0]
        if let wanted = taking[subject], let taken = held.first(where: { $0.index == wanted }) { chosen = taken }
        merged.dates = ContactDate.replacing(label, in: merged.dates, with: chosen.date)
        return MergeQuestion(
            subject: subject, label: label.prefix(1).uppercased() + label.dropFirst(),
            choices: distinct.map { MergeQuestion.Choice(contactIndex: $0.index, value: $0.date.displayText) }, chosen: chosen.index)
    }

    private static func uniteList(_ field: Field, _ drafts: [ContactDraft], phones: PhoneNormalForm, into merged: inout ContactDraft) {
        switch field {
        case .email: merged.emails = unite(drafts.map(\.emails), kind: .email)
        case .phone: merged.phones = unitePhones(drafts.map(\.phones), phones)
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
                _ = spec.merge(base: ContactDraft(), theirs: draft, mine: merged, preferTheirs: false, phones: phones, into: &merged)
            }
        }
    }

    /// The entries of every list, each once (by its match text, ignoring case), with the types of
    /// its twins merged and the first preferred entry the only one.
    static func unite<E: ContactEntry>(_ lists: [[E]], kind: EntryKind) -> [E] { uniteEntries(lists, kind: kind) }

    /// `key`: what an entry is known by (its match text by default), ignoring case; `absorb`:
    /// what an entry takes of its twin besides the twin's types.
    private static func uniteEntries<E: ContactEntry>(
        _ lists: [[E]], kind: EntryKind, key: (E) -> String = { $0.matchText }, absorb: (inout E, E) -> Void = { _, _ in }
    ) -> [E] {
        var out: [E] = []
        var at: [String: Int] = [:]
        for list in lists {
            for entry in list {
                let key = key(entry).lowercased()
                if let i = at[key] {
                    out[i] = relabeled(out[i], uniting: entry.label, kind: kind)
                    absorb(&out[i], entry)
                } else {
                    at[key] = out.count
                    out.append(entry)
                }
            }
        }
        return out
    }

    /// Phones united as `unite` unites entries, known by their E.164 form where `phones` can tell
    /// it (else by their text): of two forms of one number the fuller is kept (with its country
    /// code, else with more digits, else the first), with the types of both. A number whose
    /// region cannot be known meets only its own text.
    static func unitePhones(_ lists: [[LabeledValue]], _ phones: PhoneNormalForm) -> [LabeledValue] {
        onePreferred(uniteEntries(lists, kind: .phone, key: { phones.entryKey($0.matchText) }) { kept, twin in
            if isFuller(twin.value, than: kept.value) { kept.value = twin.value }
        })
    }

    /// Whether `a` says more of one number than `b`: its country code, or more digits.
    private static func isFuller(_ a: String, than b: String) -> Bool {
        let aPlus = Rules.trimmed(a).hasPrefix("+"), bPlus = Rules.trimmed(b).hasPrefix("+")
        if aPlus != bPlus { return aPlus }
        func digits(_ text: String) -> Int { text.unicodeScalars.filter { ("0"..."9").contains($0) }.count }
        return digits(a) > digits(b)
    }

    /// The same, with one preferred entry: the first one marked so.
    static func unite<E: PreferableEntry>(_ lists: [[E]], kind: EntryKind) -> [E] {
        onePreferred(uniteEntries(lists, kind: kind))
    }

    /// `entries` with only the first entry marked preferred still marked so.
    private static func onePreferred<E: PreferableEntry>(_ entries: [E]) -> [E] {
        var out = entries
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
