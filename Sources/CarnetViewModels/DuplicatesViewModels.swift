import CarnetModels
import CarnetState
import Observation

/// The duplicates screen: the groups of contacts likely to be one person, strongest first, each
/// with its reasons. From a group the screen opens the merge screen (`mergeScreen(for:)`) or
/// says two of its contacts are different people (`markDifferent(_:_:)`).
@MainActor
@Observable
public final class DuplicatesViewModel {
    /// One group as the screen shows it.
    public struct Row: Sendable, Equatable, Identifiable {
        /// A contact of the group, as the list shows it.
        public struct Member: Sendable, Equatable {
            public let id: Int64
            public let name: String
        }

        /// The group's contacts, in id order (the first is the one a merge keeps).
        public let members: [Member]
        /// "same email ada@example.com", strongest first.
        public let reasons: [String]
        public let group: DuplicateGroup
        public var id: [Int64] { group.contactIDs }
    }

    public private(set) var rows: [Row] = []
    /// The contacts looked at, and the pairs compared to find the rows.
    public private(set) var contactCount = 0
    public private(set) var pairsCompared = 0
    /// Which contacts are looked at (`DuplicateScope`): all by default.
    public var scope: DuplicateScope

    @ObservationIgnored private let state: StateController

    public init(state: StateController, scope: DuplicateScope = DuplicateScope()) {
        self.state = state
        self.scope = scope
    }

    /// Finds the groups again (on appear, and after a merge or an undo).
    public func refresh() throws(CarnetError) {
        let search = try state.duplicates(scope: scope)
        var rows: [Row] = []
        for group in search.groups {
            let members = group.contactIDs.map { Row.Member(id: $0, name: search.names[$0] ?? "") }
            rows.append(Row(members: members, reasons: group.reasons.map(\.description), group: group))
        }
        self.rows = rows
        contactCount = search.contacts
        pairsCompared = search.pairsCompared
    }

    /// A contact just added that looks like one already there: what an add or an import says.
    public struct LikelyDuplicate: Sendable, Equatable {
        /// The contact added.
        public let added: Row.Member
        /// The contacts already there it looks like, in id order.
        public let existing: [Row.Member]
        /// "same email ada@example.com", strongest first.
        public let reasons: [String]
    }

    /// The contacts of `added` (an add's or an import's) that look like duplicates of contacts
    /// that were there before (they are in a group with one of those), in id order.
    public func likelyDuplicates(ofAdded added: IDRanges) throws(CarnetError) -> [LikelyDuplicate] {
        guard !added.isEmpty else { return [] }
        var scope = self.scope
        scope.involving = added
        var search: DuplicateSearch
        if added.count <= neighbourhoodLimit {
            // A few new contacts (an add) are compared with the contacts the search finds by what
            // the finder blocks them by, not with the whole book; each contact a group takes in
            // brings its own neighbours, until the groups stop growing: the groups the whole book
            // would give.
            let new = Set(added)
            let wanted = scope.contactIDs
            var searched: Set<Int64> = []
            var pending = new
            var ids = new
            let phones = try state.phoneNormalForm()
            repeat {
                ids.formUnion(try neighbours(of: pending.sorted(), phones: phones))
                searched.formUnion(pending)
                scope.contactIDs = wanted.map { $0.intersection(ids) } ?? ids
                search = try state.duplicates(scope: scope)
                pending = Set(search.groups.flatMap(\.contactIDs)).subtracting(searched)
            } while !pending.isEmpty
        } else {
            search = try state.duplicates(scope: scope)
        }
        var found: [Int64: LikelyDuplicate] = [:]
        for group in search.groups {
            let existing = group.contactIDs.filter { !added.contains($0) }.map { Row.Member(id: $0, name: search.names[$0] ?? "") }
            guard !existing.isEmpty else { continue }
            for id in group.contactIDs where added.contains(id) && found[id] == nil {
                found[id] = LikelyDuplicate(
                    added: Row.Member(id: id, name: search.names[id] ?? ""), existing: existing, reasons: group.reasons.map(\.description))
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    /// Up to this many new contacts (an add, a small import) are compared with their neighbours
    /// rather than the whole book; both give the same answer, the first in time that does not grow
    /// with the book.
    @ObservationIgnored public var neighbourhoodLimit = 20

    /// `ids` and every contact the search finds by what the finder blocks them by (see
    /// `DuplicateFinder`): an email address, a phone number (by the digits duplicates compare), the
    /// whole name, and each word of the name together with an email domain, a number or an
    /// address (near names). A search finds a superset of each block, so no pair is missed.
    private func neighbours(of ids: [Int64], phones form: PhoneNormalForm) throws(CarnetError) -> Set<Int64> {
        var found = Set(ids)
        for id in ids {
            let draft = try state.contact(id: id).draft
            let emails = draft.emails.map { DuplicateKeys.email($0.value) }
            // By the number's key (its national number, for a search) and as typed.
            let keys = draft.phones.compactMap { DuplicateKeys.phone($0.value, form) }.map(DuplicateKeys.phoneSearchText)
            let phones = Array(Set(keys + draft.phones.map { SearchText.phoneDigits(Rules.trimmed($0.value)) }.filter { $0.count >= 6 })).sorted()
            let names = [draft.name, draft.nameParts.given + " " + draft.nameParts.family].map(DuplicateKeys.nameWords).filter { !$0.isEmpty }
            let contexts = emails.compactMap(DuplicateKeys.domain) + phones + draft.addresses.compactMap { DuplicateKeys.address($0.matchText) }
            var texts = emails + phones + names.map { $0.joined(separator: " ") }
            for word in Set(names.joined()).sorted() { texts += contexts.map { word + " " + $0 } }
            for text in texts where (try? SearchQuery(text))?.isEmpty == false {
                try state.forEachSummary(query: ContactQuery(search: text, bookID: scope.bookID), pageSize: 500) { found.insert($0.id) }
            }
        }
        return found
    }

    /// How many of the contacts `added` (an import's) look like duplicates of contacts that were
    /// there before: they are in a group with one of those.
    public func countDuplicatesOfExisting(added: IDRanges) throws(CarnetError) -> Int {
        try likelyDuplicates(ofAdded: added).count
    }

    /// The merge screen for a group: its contacts merged into `into` (default the first).
    public func mergeScreen(for row: Row, into survivorID: Int64? = nil) throws(CarnetError) -> MergeContactsViewModel {
        var ids = row.group.contactIDs
        if let survivorID, let i = ids.firstIndex(of: survivorID) { ids.insert(ids.remove(at: i), at: 0) }
        // Back through the shared state: this screen finds its groups again when it reappears.
        return try mergeScreen(contactIDs: ids)
    }

    /// The merge screen for any contacts (the first kept), with `taking` settling fields
    /// (see `CarnetModels/ContactMerge`).
    public func mergeScreen(contactIDs: [Int64], taking: [MergeSubject: Int] = [:]) throws(CarnetError) -> MergeContactsViewModel {
        var contacts: [Contact] = []
        for id in contactIDs {
            let contact = try state.contact(id: id)
            // Refused before any question is asked about a merge that cannot be saved.
            if contact.kind == .group { throw .groupIsNotAContact(id: id, name: contact.name, "groups are not merged") }
            contacts.append(contact)
        }
        return MergeContactsViewModel(state: state, contacts: contacts, taking: taking, phones: try state.phoneNormalForm())
    }

    /// What `mergeAll(keepingFirst:refreshing:)` did: for each merged group, the ids of the
    /// contacts merged (the first kept) and the fields settled by keeping the first's value; the
    /// groups it left.
    public struct MergeAll: Sendable, Equatable {
        /// What one merge did, without the contacts themselves: a merge of thousands of groups
        /// keeps this much of each.
        public struct Merged: Sendable, Equatable {
            /// The ids of the group's contacts, the kept one first.
            public let contactIDs: [Int64]
            /// The contact that now holds the group, and its name.
            public let id: Int64
            public let name: String
            /// Where the contacts held different values: the kept one's stayed.
            public let settled: [MergeQuestion]
        }

        public let merged: [Merged]
        /// The groups whose contacts hold different values of a one-valued field (a name, a
        /// title, a birthday): a person says which to keep, on the merge screen.
        public let left: [Row]
        /// The groups that share a contact with a group merged before them (a chain of reasons
        /// too long for one group is listed as several): the next search finds them again,
        /// with the merged contact.
        public let overlapping: [Row]
    }

    /// Merges every group into its first contact, as one action of the history. A group whose
    /// contacts hold two values of one field (a name, a title, a birthday) is left for a person
    /// to choose on the merge screen, unless `keepingFirst`: then the first contact's value
    /// stays, as a merge in a script keeps it, and the answer says each field so settled.
    /// `refreshing: false` leaves `rows` as they were found (stale once a group is merged): for a
    /// caller that ends with the answer, such as the CLI, which would otherwise search the whole
    /// book a second time for nothing.
    public func mergeAll(keepingFirst: Bool = false, refreshing: Bool = true) throws(CarnetError) -> MergeAll {
        try refresh()
        let phones = try state.phoneNormalForm()
        // The merged draft of a group's contacts, or nil when a person must choose, with the
        // fields settled by keeping the first's value.
        func merge(_ contacts: [Contact]) -> (draft: ContactDraft, settled: [MergeQuestion])? {
            guard !contacts.contains(where: { $0.kind == .group }) else { return nil }
            let merge = ContactMerge.merge(contacts.map(\.draft), phones: phones)
            return merge.questions.isEmpty || keepingFirst ? (merge.draft, merge.questions) : nil
        }
        var planned: [Row] = []
        var left: [Row] = []
        var overlapping: [Row] = []
        var taken = Set<Int64>()
        for row in rows {
            if row.group.contactIDs.contains(where: taken.contains) {
                overlapping.append(row)
                continue
            }
            // Read to decide, then let go: the write reads each group again, one at a time.
            var contacts: [Contact] = []
            for id in row.group.contactIDs { contacts.append(try state.contact(id: id)) }
            if merge(contacts) != nil {
                planned.append(row)
                taken.formUnion(row.group.contactIDs)
            } else {
                left.append(row)
            }
        }
        var merged: [MergeAll.Merged] = []
        var settled: [MergeQuestion] = []
        let count = try state.mergeContactGroups(
            ids: planned.map(\.group.contactIDs),
            merging: { contacts in
                guard let made = merge(contacts) else { return nil }
                settled = made.settled
                return made.draft
            },
            merged: { contacts, saved in
                merged.append(MergeAll.Merged(contactIDs: contacts.map(\.id), id: saved.id, name: saved.name, settled: settled))
            })
        // A group changed since it was read so that a person must now choose is left too.
        if merged.count < planned.count {
            let done = Set(merged.map(\.id))
            left += planned.filter { !done.contains($0.group.contactIDs[0]) }
        }
        // The groups are found again only when a merge changed them: a second search costs
        // as much as the first.
        if count > 0 && refreshing { try refresh() }
        return MergeAll(merged: merged, left: left, overlapping: overlapping)
    }

    /// Says contacts `a` and `b` are different people; the list is found again without them
    /// together.
    public func markDifferent(_ a: Int64, _ b: Int64) throws(CarnetError) {
        try state.markDifferentPeople(a, b)
        try refresh()
    }
}

/// The merge screen, on the draft editor: the contacts' merged draft (`editor`, edited like any
/// contact's), the fields whose values differ (`questions`) with a choice for each, then save
/// (one action of the history) or cancel (no trace).
@MainActor
@Observable
public final class MergeContactsViewModel {
    /// The contacts merged, the first kept.
    public let contacts: [Contact]
    /// The merged draft, over the first contact: the screen binds its fields to it. The merge
    /// screen's own draft editor (made and owned here), not a reference to another screen.
    public let editor: DraftEditor<Contact>
    /// The fields whose values differ, each with the contact whose value the draft holds.
    public private(set) var questions: [MergeQuestion]
    @ObservationIgnored public var onSave: ((Contact) -> Void)?
    @ObservationIgnored public var onCancel: (() -> Void)?

    @ObservationIgnored private let state: StateController

    /// `phones`: the form the file compares numbers in (`StateController/phoneNormalForm()`).
    public init(state: StateController, contacts: [Contact], taking: [MergeSubject: Int] = [:], phones: PhoneNormalForm) {
        self.state = state
        self.contacts = contacts
        let merge = ContactMerge.merge(contacts.map(\.draft), taking: taking, phones: phones)
        editor = EditContactViewModel(state: state, contact: contacts.first)
        editor.draft = merge.draft
        questions = merge.questions
    }

    /// The contact kept.
    public var survivor: Contact? { contacts.first }

    /// The field `field` takes the value of contact number `index` (0 for the first).
    /// A name brings its structured parts along, as `ContactMerge` does.
    public func choose(_ field: Field, from index: Int) {
        choose(.field(field), from: index)
    }

    /// What `subject` asks about takes the value of contact number `index`: a field, or a single
    /// date (the chosen contact's birthday replaces the one the draft holds).
    public func choose(_ subject: MergeSubject, from index: Int) {
        guard contacts.indices.contains(index), questions.contains(where: { $0.subject == subject }) else { return }
        if let label = subject.dateLabel {
            guard let date = contacts[index].draft.dates.first(where: { $0.label.lowercased() == label }) else { return }
            editor.draft.dates = ContactDate.replacing(label, in: editor.draft.dates, with: date)
            mark(subject, chosen: index)
            return
        }
        for each in subject.field == .name ? [.name] + Field.nameParts : [subject.field] {
            editor.draft.take(each, from: contacts[index].draft)
            mark(.field(each), chosen: index)
        }
    }

    private func mark(_ subject: MergeSubject, chosen index: Int) {
        guard let q = questions.firstIndex(where: { $0.subject == subject }) else { return }
        let question = questions[q]
        questions[q] = MergeQuestion(subject: subject, label: question.label, choices: question.choices, chosen: index)
    }

    public var issues: [FieldIssue] { editor.issues }
    public var canSave: Bool { contacts.count > 1 && editor.canSave }

    /// Merges: the first contact saved with the draft, the others gone, their UIDs its own.
    @discardableResult
    public func save() throws(CarnetError) -> Contact {
        let merged = try state.mergeContacts(contacts, into: editor.draft)
        onSave?(merged)
        return merged
    }

    /// Leaves without merging: nothing is written.
    public func cancel() {
        editor.cancel()
        onCancel?()
    }
}
