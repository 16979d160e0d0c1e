import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

/// A group as `--json` prints it.
struct GroupJSON: Encodable {
    struct Member: Encodable {
        var id: Int64?
        var uid: String
        var name: String?
    }

    var id: Int64
    var uid: String
    var name: String
    var form: String?
    var members: [Member]

    init(_ group: Contact) {
        id = group.id
        uid = group.uid
        name = group.name
        form = group.draft.groupForm?.rawValue
        members = group.draft.members.map { Member(id: nil, uid: $0, name: nil) }
    }

    init(_ detail: ContactGroup) {
        self.init(detail.contact)
        let found = Dictionary(detail.members.map { (GroupMember.uid(of: $0.uid), $0) }, uniquingKeysWith: { a, _ in a })
        members = detail.contact.draft.members.map { uid in Member(id: found[uid]?.id, uid: uid, name: found[uid]?.name) }
    }
}

enum GroupRendering {
    /// "1 member", "3 members".
    static func members(_ count: Int) -> String { "\(count) member\(count == 1 ? "" : "s")" }

    /// What deleting a group leaves: "its 2 members stay", "it has no members".
    static func membersStay(_ count: Int) -> String {
        count == 0 ? "it has no members" : "its \(members(count)) \(count == 1 ? "stays" : "stay")"
    }

    /// The group's name, id and UID, then a line per member (the ones not in the file by
    /// UID); an empty group says `noMembers`, how to add some where it is shown.
    static func detail(_ detail: ContactGroup, terminal: Terminal, noMembers: String? = nil) -> String {
        let group = detail.contact
        var lines = [terminal.bold(group.name.shown) + "  (group \(group.id), uid \(group.uid.shown))"]
        let found = Dictionary(detail.members.map { (GroupMember.uid(of: $0.uid), $0) }, uniquingKeysWith: { a, _ in a })
        if group.draft.members.isEmpty { lines.append("  no members (\(noMembers ?? "carnet group add-member \(group.id) ID…"))") }
        for uid in group.draft.members {
            if let member = found[uid] {
                let email = member.draft.email.isEmpty ? "" : "  <\(member.draft.email.shown)>"
                lines.append("  \(member.id)\t\(member.name.shown)\(email)")
            } else {
                lines.append("  -\t(not in this file: uid \(uid.shown))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// What an add or an import says of a contact it added that looks like one already there.
enum LikelyDuplicateNote {
    /// `contact 5 (Ada Lovelace) looks like contact 2 (Ada King): same email ada@example.com;
    /// carnet merge 2 5 if they are one person`.
    static func line(_ likely: DuplicatesViewModel.LikelyDuplicate) -> String {
        let others = likely.existing.map { "contact \($0.id) (\($0.name.shown))" }.joined(separator: ", ")
        let ids = (likely.existing.map(\.id) + [likely.added.id]).map(String.init).joined(separator: " ")
        return "contact \(likely.added.id) (\(likely.added.name.shown)) looks like \(others): \(likely.reasons.joined(separator: "; ").shown); "
            + "carnet merge \(ids) if they are one person"
    }
}
