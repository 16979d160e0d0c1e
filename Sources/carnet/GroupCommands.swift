import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels

/// `carnet group …`: group cards (vCard 4.0 `KIND:group`, Apple's group cards), each a card of
/// its own with members by UID. Every change is one action in the history (`carnet undo`).
struct GroupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group",
        abstract: "Groups: cards of their own (vCard 4.0 KIND:group, Apple Contacts' groups) with members.",
        discussion: """
            A GROUP is named by its id or its name (ignoring case). A group is not a contact: it is \
            not in carnet list, search or birthdays; carnet query NAME expands it to its members' \
            emails. Members are kept by UID, so a member whose card is not in the file (yet) stays. \
            Categories are something else: tags on a contact (carnet add --category).

            Exit status: 66 when no group (or contact) has that name or id; 64 when several groups \
            have that name (give the id); 65 when a change is refused (a name already taken, a \
            member that is not in the group).

            EXAMPLES:
              carnet group add "Climbing club"
              carnet group add-member "Climbing club" 3 7
              carnet group show "climbing club"
              carnet group remove-member 12 7
              carnet group rename 12 Climbers
              carnet group delete Climbers
              carnet query climbers         # the members' emails, for mutt or aerc
            """,
        subcommands: [
            GroupList.self, GroupShow.self, GroupAdd.self, GroupRename.self, GroupDelete.self, GroupAddMember.self,
            GroupRemoveMember.self,
        ])
}

/// The GROUP argument every group command takes.
struct GroupName: ParsableArguments {
    @Argument(help: ArgumentHelp("The group's id or name (see carnet group list).", valueName: "group"))
    var group: String

    func validate() throws {
        if Rules.trimmed(group).isEmpty { throw ValidationError("a group is named by its id or name, not blank") }
    }
}

struct GroupList: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the groups by name: id, name, number of members.")

    @OptionGroup var database: DatabaseOption
    @Flag(help: "Print a JSON array.") var json = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let groups = try GroupsViewModel(state: state).groups()
        if json {
            terminal.print(try JSONOutput.string(groups.map(GroupJSON.init)))
            return
        }
        if groups.isEmpty {
            terminal.print("no groups (carnet group add NAME, or import a file with group cards)")
            return
        }
        for group in groups {
            terminal.print("\(group.id)\t\(group.name.shown)\t\(group.draft.members.count) member\(group.draft.members.count == 1 ? "" : "s")")
        }
    }
}

struct GroupShow: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a group and its members (and the member UIDs not in this file).")

    @OptionGroup var database: DatabaseOption
    @OptionGroup var name: GroupName
    @Flag(help: "Print a JSON object.") var json = false

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = GroupsViewModel(state: state)
        let detail = try screen.detail(try screen.group(name.group))
        if json {
            terminal.print(try JSONOutput.string(GroupJSON(detail)))
            return
        }
        terminal.print(GroupRendering.detail(detail, terminal: terminal), terminator: "")
    }
}

struct GroupAdd: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add an empty group and print its id.",
        discussion: """
            It goes out as a vCard 4.0 group (KIND:group) in a 4.0 export or to a server that takes \
            4.0, else in Apple's form (X-ADDRESSBOOKSERVER-KIND:group), which 3.0 servers and \
            Apple's programs keep.
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @Argument(help: ArgumentHelp("The group's name.", valueName: "name")) var groupName: String

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let group = try GroupsViewModel(state: state).add(name: groupName)
        terminal.print("saved group \(group.id)")
    }
}

struct GroupRename: StateCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Rename a group; its members stay.")

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var name: GroupName
    @Argument(help: ArgumentHelp("The new name.", valueName: "new-name")) var newName: String

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = GroupsViewModel(state: state)
        let group = try screen.rename(try screen.group(name.group), to: newName)
        terminal.print("saved group \(group.id)")
    }
}

struct GroupDelete: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a group card; its members stay (carnet undo brings it back).")

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var name: GroupName

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = GroupsViewModel(state: state)
        let group = try screen.group(name.group)
        try screen.delete(group)
        terminal.print("deleted group \(group.id) (\(group.name.shown))")
    }
}

struct GroupAddMember: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-member", abstract: "Add contacts (by id) to a group, after its members.",
        discussion: """
            EXAMPLES:
              carnet group add-member "Climbing club" 3 7
            """)

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var name: GroupName
    @Argument(help: ArgumentHelp("The contacts' ids (see carnet list).", valueName: "id")) var ids: [Int64]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one contact id to add") }
        if let bad = ids.first(where: { $0 <= 0 }) { throw ValidationError("a contact id is a positive whole number (got \(bad))") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = GroupsViewModel(state: state)
        let group = try screen.addMembers(try screen.group(name.group), ids: ids)
        terminal.print("saved group \(group.id): \(group.draft.members.count) member\(group.draft.members.count == 1 ? "" : "s")")
    }
}

struct GroupRemoveMember: StateCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove-member", abstract: "Take members out of a group: by contact id, or by UID for one not in this file.")

    @OptionGroup var database: DatabaseOption
    var writes: Bool { true }
    @OptionGroup var name: GroupName
    @Argument(help: ArgumentHelp("Contact ids, or member UIDs (see carnet group show).", valueName: "member"))
    var members: [String]

    func validate() throws {
        if members.isEmpty { throw ValidationError("give at least one member to remove") }
    }

    @MainActor func run(state: StateController, terminal: Terminal) throws {
        let screen = GroupsViewModel(state: state)
        let group = try screen.removeMembers(try screen.group(name.group), members)
        terminal.print("saved group \(group.id): \(group.draft.members.count) member\(group.draft.members.count == 1 ? "" : "s")")
    }
}

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
    static func detail(_ detail: ContactGroup, terminal: Terminal) -> String {
        let group = detail.contact
        var lines = [terminal.bold(group.name.shown) + "  (group \(group.id), uid \(group.uid.shown))"]
        let found = Dictionary(detail.members.map { (GroupMember.uid(of: $0.uid), $0) }, uniquingKeysWith: { a, _ in a })
        if group.draft.members.isEmpty { lines.append("  no members (carnet group add-member \(group.id) ID…)") }
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
