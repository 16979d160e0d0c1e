import CarnetModels
import Foundation
import GRDB

/// Finding duplicates, merging them, and the UIDs merged contacts leave behind.
extension StorageController {
    // MARK: UIDs of merged contacts

    /// The contact a UID names: the contact with that UID, else the one a contact with that UID
    /// was merged into (`contact_uid_aliases`). Whatever finds a contact by another program's
    /// UID (an import, a sync, a group's members) asks here, so a merged-away card lands on the
    /// contact it became.
    static func resolveContactID(_ db: Database, uid: String) throws -> (id: Int64, merged: Bool)? {
        if let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM contacts WHERE uid = ?"), arguments: [uid]) {
            return (id, false)
        }
        return try mergedInto(db, uid: uid).map { ($0, true) }
    }

    /// The contact a contact with that UID was merged into, if one was.
    static func mergedInto(_ db: Database, uid: String) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT contact_id FROM contact_uid_aliases WHERE uid = ?"), arguments: [uid])
    }

    /// The contact with that UID, or the one it was merged into; nil when neither is in the file.
    public func contact(resolvingUID uid: String) throws(CarnetError) -> Contact? {
        try read { db in
            guard let found = try Self.resolveContactID(db, uid: uid) else { return nil }
            return try Self.fetchContact(db, id: found.id)
        }
    }

    /// `draft` with each member UID a merge took away named by the contact it was merged into
    /// (once: a group that names both keeps the first): a group card from a program that never
    /// heard of the merge (an old export, a phone, a CardDAV server) lists the contact that is
    /// in the file. A member UID of a contact in the file, or unknown here, stays as it is.
    static func resolvingMergedMembers(_ db: Database, _ draft: ContactDraft) throws -> ContactDraft {
        guard draft.kind == .group, !draft.members.isEmpty else { return draft }
        let exists = try db.cachedStatement(sql: "SELECT 1 FROM contacts WHERE uid = ?")
        var members: [String] = []
        var seen: Set<String> = []
        for member in draft.members {
            var resolved = member
            let candidates = GroupMember.candidateUIDs(member)
            if try !candidates.contains(where: { try Bool.fetchOne(exists, arguments: [$0]) != nil }),
               let survivor = try candidates.lazy.compactMap({ try mergedInto(db, uid: $0) }).first,
               let uid = try String.fetchOne(db.cachedStatement(sql: "SELECT uid FROM contacts WHERE id = ?"), arguments: [survivor]) {
                resolved = GroupMember.uid(of: uid)
            }
            if seen.insert(resolved).inserted { members.append(resolved) }
        }
        var resolvedDraft = draft
        resolvedDraft.members = members
        return resolvedDraft
    }

    /// The UIDs of the contacts merged into `contactID`, in the order they were merged.
    public func mergedUIDs(of contactID: Int64) throws(CarnetError) -> [String] {
        try read { db in
            try String.fetchAll(db.cachedStatement(sql: "SELECT uid FROM contact_uid_aliases WHERE contact_id = ? ORDER BY merged_at, uid"), arguments: [contactID])
        }
    }

    // MARK: Finding

    /// The groups of contacts likely to be one person (see `CarnetModels/DuplicateFinder`),
    /// never two the user said are different people.
    public func duplicates(scope: DuplicateScope = DuplicateScope()) throws(CarnetError) -> DuplicateSearch {
        let environment = options.environment
        return try read { db in
            let different = try Self.differentPeople(db)
            let phones = try Self.phoneRegionSetting(db, environment: environment).normalForm
            // A few contacts (an add's neighbours) are compared in memory; a book, off disk.
            if let ids = scope.contactIDs, ids.count <= 1000 {
                return DuplicateFinder.find(
                    try Self.duplicateCandidates(db, scope: scope), differentPeople: different, involving: scope.involving, phones: phones)
            }
            return try DuplicateBlocks.find(db, scope: scope, differentPeople: different, phones: phones)
        }
    }

    /// What the finder compares of each contact in `scope`: one pass over `contacts` and over each
    /// list it compares, not whole contacts.
    static func duplicateCandidates(_ db: Database, scope: DuplicateScope) throws -> [DuplicateCandidate] {
        var candidates: [DuplicateCandidate] = []
        var index: [Int64: Int] = [:]
        // A few contacts (an add's neighbours) are read by their ids; many, by one pass over
        // each table, keeping those wanted.
        let few = scope.contactIDs.flatMap { $0.count <= 1000 ? "[" + $0.sorted().map(String.init).joined(separator: ",") + "]" : nil }
        let only = few == nil ? "" : " AND id IN (SELECT value FROM json_each(?2))"
        let rows = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT id, name, given_name, family_name FROM contacts WHERE kind = 'individual' AND (?1 IS NULL OR book_id = ?1)\(only) ORDER BY id"),
            arguments: few.map { [scope.bookID, $0] } ?? [scope.bookID])
        while let row = try rows.next() {
            let id: Int64 = row["id"]
            if let wanted = scope.contactIDs, !wanted.contains(id) { continue }
            index[id] = candidates.count
            candidates.append(DuplicateCandidate(id: id, name: row["name"], given: row["given_name"], family: row["family_name"]))
        }
        func each(_ columns: String, from table: String, _ body: (Int, Row) -> Void) throws {
            let filter = few == nil ? "" : " WHERE contact_id IN (SELECT value FROM json_each(?))"
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT contact_id, \(columns) FROM \(table)\(filter) ORDER BY contact_id, position"),
                arguments: few.map { [$0] } ?? [])
            while let row = try rows.next() {
                guard let i = index[row["contact_id"]] else { continue }
                body(i, row)
            }
        }
        try each("value", from: "contact_emails") { candidates[$0].emails.append($1["value"]) }
        try each("value", from: "contact_phones") { candidates[$0].phones.append($1["value"]) }
        try each("po_box, extended, street, locality, region, postal_code, country", from: "contact_addresses") { i, row in
            let address = PostalAddress(
                poBox: row["po_box"], extended: row["extended"], street: row["street"], locality: row["locality"], region: row["region"],
                postalCode: row["postal_code"], country: row["country"])
            candidates[i].addresses.append(address.matchText)
        }
        return candidates
    }

    static func differentPeople(_ db: Database) throws -> Set<ContactPair> {
        var pairs: Set<ContactPair> = []
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT contact_id, other_id FROM different_people"))
        while let row = try rows.next() { pairs.insert(ContactPair(row["contact_id"], row["other_id"])) }
        return pairs
    }

    // MARK: Different people

    /// Records that contacts `a` and `b` are different people: no search for duplicates
    /// proposes them together again. An action of the history (undo takes it back).
    public func markDifferentPeople(_ a: Int64, _ b: Int64) throws(CarnetError) {
        guard a != b else { throw CarnetError.refused("a contact cannot be a different person from itself: give two different ids") }
        let hasGroups = self.hasGroups
        try recordedWrite { db, history in
            var names: [String] = []
            for id in [a, b] {
                guard let name = try Self.contactName(db, id) else { throw CarnetError.notFound(.contact, id: id) }
                if hasGroups { try Self.refuseGroup(db, id: id, name: name, "only contacts are told apart as different people") }
                names.append(name)
            }
            history.note = HistoryNote(.markDifferent, subject: names[0], "marked \(names[0]) and \(names[1]) as different people")
            let pair = ContactPair(a, b)
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO different_people (contact_id, other_id, marked_at) VALUES (?, ?, ?)")
                .execute(arguments: [pair.first, pair.second, Timestamp.string(Timestamp.now())])
        }
    }

    // MARK: Merging

    /// Merges `contacts` into the first, as one action of the history: the first is saved with
    /// `draft` (see `CarnetModels/ContactMerge`), the others are deleted and their UIDs stay
    /// known as the first's (`contact(resolvingUID:)`). The first keeps its favorite place, or
    /// takes the best placed of the others'. Rows of other tables that belong to a merged-away
    /// contact move to the first unless it has one already. Each contact must be as the caller
    /// read it: a contact saved meanwhile is a conflict and nothing is written.
    @discardableResult
    public func mergeContacts(_ contacts: [Contact], into draft: ContactDraft) throws(CarnetError) -> Contact {
        let checked = try Self.checkedMerge(contacts, into: draft)
        let names = contacts.map(\.name)
        return try recordedWrite { db, history in
            history.note = HistoryNote(
                .merge, subject: contacts[0].name, "merged \(names.dropFirst().joined(separator: ", ")) into \(contacts[0].name)")
            return try Self.merge(db, contacts, into: checked, at: Timestamp.now())
        }
    }

    /// Merges each group of `merges` into its first contact, as `mergeContacts(_:into:)` merges
    /// one, all as one action of the history: one undo takes every merge back. A contact may be
    /// in one group only. Each contact must be as the caller read it: a contact saved meanwhile
    /// is a conflict and nothing at all is written.
    @discardableResult
    public func mergeContactGroups(_ merges: [(contacts: [Contact], draft: ContactDraft)]) throws(CarnetError) -> [Contact] {
        guard !merges.isEmpty else { return [] }
        let checked = try merges.map { merge throws(CarnetError) in try Self.checkedMerge(merge.contacts, into: merge.draft) }
        try Self.refuseSharedContacts(merges.lazy.flatMap { $0.contacts.map(\.id) })
        let merged = merges.reduce(0) { $0 + $1.contacts.count }
        return try recordedWrite { db, history in
            history.note = Self.groupsMergedNote(groups: merges.count, contacts: merged)
            let now = Timestamp.now()
            return try zip(merges, checked).map { merge, draft in
                let merged = try Self.merge(db, merge.contacts, into: draft, at: now)
                // Thousands of merges are a long action: its changes go out in parts.
                try history.checkpoint()
                return merged
            }
        }
    }

    /// Merges groups of contacts given by their ids, each into its first contact, all as one
    /// action of the history, reading each group's contacts inside the write as they are in the
    /// file, so no merge can rest on a stale read. `merging` is given each group's contacts and
    /// returns the merged draft, or nil to leave the group as it is; `merged` is told each merge
    /// as it is made (the contacts, the kept one as saved). Neither may use this controller. One
    /// group at a time is held, and the action's changes go out in parts: memory stays flat
    /// whatever the number of groups. A contact may be in one group only; a group whose contact
    /// is gone, or that names a group card, writes nothing at all. Returns the number merged.
    @discardableResult
    public func mergeContactGroups(
        ids groups: [[Int64]], merging: @escaping ([Contact]) -> ContactDraft?, merged: @escaping ([Contact], Contact) -> Void
    ) throws(CarnetError) -> Int {
        try Self.refuseSharedContacts(groups.joined())
        return try recordedWrite { db, history in
            let now = Timestamp.now()
            var count = 0
            var contactCount = 0
            for ids in groups {
                let contacts = try ids.map { id in
                    guard let contact = try Self.fetchContact(db, id: id) else { throw CarnetError.deleted(.contact, id: id) }
                    return contact
                }
                guard let draft = merging(contacts) else { continue }
                let saved = try Self.merge(db, contacts, into: try Self.checkedMerge(contacts, into: draft), at: now)
                merged(contacts, saved)
                count += 1
                contactCount += contacts.count
                try history.checkpoint()
            }
            history.note = Self.groupsMergedNote(groups: count, contacts: contactCount)
            return count
        }
    }

    /// Refuses groups to merge that share a contact: a contact is merged once.
    private static func refuseSharedContacts(_ ids: some Sequence<Int64>) throws(CarnetError) {
        var seen = Set<Int64>()
        for id in ids where !seen.insert(id).inserted {
            throw CarnetError.refused("contact \(id) is in two of the groups to merge; a contact is merged once")
        }
    }

    /// How the history names a merge of several groups.
    private static func groupsMergedNote(groups: Int, contacts: Int) -> HistoryNote {
        let named = groups == 1 ? "1 group" : "\(groups) groups"
        return HistoryNote(.merge, subject: named, "merged \(named) of likely duplicates (\(contacts) contacts into \(groups))")
    }

    /// The merge's draft, validated, once its contacts are known to make a merge: two or more,
    /// each once, none a group.
    private static func checkedMerge(_ contacts: [Contact], into draft: ContactDraft) throws(CarnetError) -> ContactDraft {
        guard contacts.count > 1 else { throw CarnetError.refused("a merge needs at least two contacts") }
        if Set(contacts.map(\.id)).count != contacts.count {
            throw CarnetError.refused("a contact cannot be merged into itself: give each id once")
        }
        if let group = contacts.first(where: { $0.draft.kind == .group }) {
            throw CarnetError.groupIsNotAContact(id: group.id, name: group.name, "groups are not merged")
        }
        return try draft.validated()
    }

    /// One merge, inside the caller's recorded write: each contact checked as the caller read
    /// it, the others' rows, favorite place, UIDs and group memberships moved to the first, the
    /// others deleted, and the first saved with `draft`.
    private static func merge(_ db: Database, _ contacts: [Contact], into draft: ContactDraft, at now: Date) throws -> Contact {
        let survivor = contacts[0]
        let others = Array(contacts.dropFirst())
        let stamp = Timestamp.string(now)
        // Its key and version say whether each contact is as the caller read it; the whole
        // contact, every list with it, is read only to show a conflict.
        let stored = try db.cachedStatement(sql: "SELECT uid, version FROM contacts WHERE id = ?")
        for contact in contacts {
            guard let row = try Row.fetchOne(stored, arguments: [contact.id]), row["uid"] as String == contact.uid else {
                throw CarnetError.deleted(.contact, id: contact.id)
            }
            if row["version"] as Int != contact.version {
                guard let current = try fetchContact(db, id: contact.id) else { throw CarnetError.deleted(.contact, id: contact.id) }
                throw CarnetError.conflict(.contact(ContactConflict(base: contact, current: current, mine: draft)))
            }
        }
        try takeFavorite(db, into: survivor.id, from: others.map(\.id))
        for other in others {
            try moveOwnedRows(db, from: other.id, to: survivor.id)
            try db.cachedStatement(sql: "UPDATE contact_uid_aliases SET contact_id = ? WHERE contact_id = ?").execute(arguments: [survivor.id, other.id])
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO contact_uid_aliases (uid, contact_id, merged_at) VALUES (?, ?, ?)")
                .execute(arguments: [other.uid, survivor.id, stamp])
            try renameMember(db, from: other.uid, to: survivor.uid, at: stamp)
            try beforeDeleting(db, contactID: other.id)
            try db.cachedStatement(sql: "DELETE FROM contacts WHERE id = ? AND uid = ?").execute(arguments: [other.id, other.uid])
        }
        // Saved last, so it is a change whatever the draft: the next sync sends the contact
        // that now holds the others' values.
        guard try ContactRecord.update(
            db, id: survivor.id, uid: survivor.uid, expecting: survivor.version, with: draft, replacing: survivor.draft, updatedAt: stamp)
        else { throw CarnetError.deleted(.contact, id: survivor.id) }
        return Contact(
            id: survivor.id, uid: survivor.uid, draft: draft, createdAt: survivor.createdAt, updatedAt: now, version: survivor.version + 1)
    }

    /// The survivor keeps its favorite place; if it had none, it takes the best placed of the
    /// merged-away contacts' (their rows go with them).
    private static func takeFavorite(_ db: Database, into survivor: Int64, from others: [Int64]) throws {
        let isFavorite = try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM favorites WHERE contact_id = ?"), arguments: [survivor]) ?? 0
        guard isFavorite == 0, !others.isEmpty else { return }
        let list = "[" + others.map(String.init).joined(separator: ",") + "]"
        guard let best = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT contact_id FROM favorites WHERE contact_id IN (SELECT value FROM json_each(?)) ORDER BY position LIMIT 1
            """), arguments: [list])
        else { return }
        try db.cachedStatement(sql: "UPDATE favorites SET contact_id = ? WHERE contact_id = ?").execute(arguments: [survivor, best])
    }

    /// The recorded tables whose rows belong to a contact (their key starts with its id) and
    /// that the merged draft does not already carry: a merged-away contact's rows there move to
    /// the survivor, unless it has the same row (`UPDATE OR IGNORE`; the rest go with the
    /// contact). A table added to `History/contactTables` comes along without a change here.
    static var ownedTables: [String] {
        let carried = Set(ContactChildTable.all.map(\.name) + ["favorites", "contacts"])
        return History.contactTables.filter { !carried.contains($0) }
    }

    private static func moveOwnedRows(_ db: Database, from other: Int64, to survivor: Int64) throws {
        for table in ownedTables {
            guard let column = try String.fetchOne(
                db, sql: "SELECT name FROM pragma_table_info(?) WHERE pk = 1", arguments: [table])
            else { continue }
            let quoted = column.doubleQuoted
            try db.execute(sql: "UPDATE OR IGNORE \(table) SET \(quoted) = ? WHERE \(quoted) = ?", arguments: [survivor, other])
        }
    }

    /// A group that lists a merged-away contact lists the survivor instead (once: a group that
    /// lists both keeps the survivor's entry), so an export's MEMBER lines name a card that exists.
    /// Each group it changes is saved as changed (`version`, `updated_at`), as an edit would be:
    /// the next sync sends it, and an undo or redo of the merge changes it again, so the server's
    /// card never goes on naming a card the same sync deletes.
    static func renameMember(_ db: Database, from old: String, to new: String, at stamp: String) throws {
        // Members are kept as the cards say them, a `urn:uuid:` taken off.
        let (old, new) = (GroupMember.uid(of: old), GroupMember.uid(of: new))
        try db.cachedStatement(sql: """
            UPDATE contacts SET version = version + 1, updated_at = ? WHERE id IN (SELECT contact_id FROM group_members WHERE member_uid = ?)
            """).execute(arguments: [stamp, old])
        try db.cachedStatement(sql: """
            DELETE FROM group_members WHERE member_uid = ? AND contact_id IN (SELECT contact_id FROM group_members WHERE member_uid = ?)
            """).execute(arguments: [old, new])
        try db.cachedStatement(sql: "UPDATE group_members SET member_uid = ? WHERE member_uid = ?").execute(arguments: [new, old])
    }
}
