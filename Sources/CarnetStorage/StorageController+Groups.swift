import CarnetModels
import Foundation
import GRDB

// Groups are rows of `contacts` whose kind is 'group' (see migrations/0014_groups.sql): they are
// added, edited, deleted, undone and synced as any card is. These are the reads that tell them
// apart from people.
extension StorageController {
    /// How many group cards the file holds (read off the groups' partial index).
    static func groupCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM contacts WHERE kind = 'group'")) ?? 0
    }

    /// How many group cards the file holds.
    public func groupCount() throws(CarnetError) -> Int {
        guard hasGroups else { return 0 }
        return try read { db in try Self.groupCount(db) }
    }

    /// Whether this controller's schema has groups (one made for an earlier schema, to test an
    /// upgrade, has not).
    var hasGroups: Bool { (migrations.last?.version ?? 0) >= 14 }

    /// Throws `CarnetError.groupIsNotAContact(id:name:_:)` when card `id` (named `name`) is a
    /// group: for the writes that only make sense of a person.
    static func refuseGroup(_ db: Database, id: Int64, name: String, _ reason: String) throws {
        let kind = try String.fetchOne(db.cachedStatement(sql: "SELECT kind FROM contacts WHERE id = ?"), arguments: [id])
        if kind == ContactKind.group.rawValue { throw CarnetError.groupIsNotAContact(id: id, name: name, reason) }
    }

    /// Every group card, by name.
    public func groups() throws(CarnetError) -> [Contact] {
        try read { db in
            try Self.fetchContacts(db, sql: "SELECT \(Self.contactColumns) FROM contacts WHERE kind = 'group' ORDER BY name, id")
        }
    }

    /// The groups that list `uid` as a member, by name.
    public func groups(containing uid: String) throws(CarnetError) -> [Contact] {
        let uid = GroupMember.uid(of: uid)
        return try read { db in
            try Self.fetchContacts(db, sql: """
                SELECT \(Self.contactColumns) FROM contacts
                WHERE kind = 'group' AND id IN (SELECT contact_id FROM group_members WHERE member_uid = ?)
                ORDER BY name, id
                """, arguments: [uid])
        }
    }

    /// `group` with its members resolved by UID, in the group's order; the UIDs with no card
    /// here are kept as missing.
    public func resolved(group: Contact) throws(CarnetError) -> ContactGroup {
        let uids = group.draft.members
        guard !uids.isEmpty else { return ContactGroup(contact: group, members: [], missing: []) }
        let found = try read { db in
            try Self.fetchContacts(db, sql: """
                SELECT \(Self.contactColumns) FROM contacts WHERE uid IN (SELECT value FROM json_each(?))
                """, arguments: [Self.jsonArray(uids.flatMap(GroupMember.candidateUIDs))])
        }
        let byUID = Dictionary(found.map { (GroupMember.uid(of: $0.uid), $0) }, uniquingKeysWith: { first, _ in first })
        return ContactGroup(
            contact: group, members: uids.compactMap { byUID[$0] }, missing: uids.filter { byUID[$0] == nil })
    }

    /// A JSON array of strings, for `json_each(?)`.
    static func jsonArray(_ strings: [String]) -> String {
        let data = (try? JSONEncoder().encode(strings)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
