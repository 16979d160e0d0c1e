import CarnetModels
import CarnetState
import Observation

/// The groups screen: every group card by name, with how many members each has; adds, renames,
/// deletes and membership changes, each one action in the history (a group is a card, saved
/// as any contact is).
@MainActor
@Observable
public final class GroupsViewModel {
    /// The groups the screen shows, by name: read when it appears and after each change made
    /// through it.
    public private(set) var rows: [Contact] = []

    @ObservationIgnored private let state: StateController
    @ObservationIgnored private var hasAppeared = false

    public init(state: StateController) {
        self.state = state
    }

    /// The screen appears: picks up changes made elsewhere and reads the groups.
    public func onAppear() throws(CarnetError) {
        try state.refresh()
        rows = try state.groups()
        hasAppeared = true
    }

    /// Every group, by name.
    public func groups() throws(CarnetError) -> [Contact] {
        try state.groups()
    }

    /// The screen of one group (passed forward, the state injected).
    public func detailScreen(for group: Contact) -> GroupDetailViewModel {
        GroupDetailViewModel(state: state, group: group, groups: self)
    }

    /// The group named by `text`: its id, or its name (ignoring A-Z case). Several groups of
    /// that name throw `CarnetModels/CarnetError/ambiguousGroup(_:ids:)`; none,
    /// `CarnetModels/CarnetError/noSuchGroup(_:)`.
    public func group(_ text: String) throws(CarnetError) -> Contact {
        let all = try state.groups()
        if let id = Int64(text), let found = all.first(where: { $0.id == id }) { return found }
        let wanted = Rules.trimmed(text).asciiLowercased
        let named = all.filter { $0.name.asciiLowercased == wanted }
        if named.count > 1 { throw .ambiguousGroup(text, ids: named.map(\.id)) }
        guard let found = named.first else {
            if let id = Int64(text), (try? state.contact(id: id)) != nil {
                throw .refused("contact \(id) is not a group (carnet group list shows the groups)")
            }
            throw .noSuchGroup(text)
        }
        return found
    }

    /// The groups whose name `search` finds (every word starting a word of the name, ignoring
    /// case and accents, as a contacts search reads it), each with its members: what a mail
    /// client's query expands to the members' addresses.
    public func groups(matching search: String) throws(CarnetError) -> [ContactGroup] {
        guard let query = try? SearchQuery(search), !query.isEmpty else { return [] }
        // Nearly every file has few groups or none: the one read finds them on their own index.
        guard try state.groupCount() > 0 else { return [] }
        return try state.groups().filter { query.matches(ContactDraft(name: $0.name)) }.map { group throws(CarnetError) in
            try state.resolved(group: group)
        }
    }

    /// The group screen: its card and its members, resolved by UID.
    public func detail(_ group: Contact) throws(CarnetError) -> ContactGroup {
        try state.resolved(group: group)
    }

    /// Adds an empty group named `name`. It takes the form of the file or server it goes to.
    @discardableResult
    public func add(name: String) throws(CarnetError) -> Contact {
        try refuseTaken(name, except: nil)
        var draft = ContactDraft(name: name)
        draft.kind = .group
        let group = try state.addContact(draft)
        try reloadRows()
        return group
    }

    /// Renames `group`; its members and UID stay.
    @discardableResult
    public func rename(_ group: Contact, to name: String) throws(CarnetError) -> Contact {
        try refuseTaken(name, except: group.id)
        var draft = group.draft
        draft.name = name
        return try save(group, draft)
    }

    /// Deletes the group card; its members stay (they are cards of their own).
    public func delete(_ group: Contact) throws(CarnetError) {
        try state.deleteContact(group)
        rows.removeAll { $0.id == group.id }
    }

    /// Adds the contacts with `ids` to `group`, after its members, in the order given; one
    /// already there stays where it is. Every id must be a contact's.
    @discardableResult
    public func addMembers(_ group: Contact, ids: [Int64]) throws(CarnetError) -> Contact {
        var draft = group.draft
        for id in ids {
            let member = try state.contact(id: id)
            if member.id == group.id { throw .refused("a group cannot be a member of itself") }
            let uid = GroupMember.uid(of: member.uid)
            if !draft.members.contains(uid) { draft.members.append(uid) }
        }
        return try save(group, draft)
    }

    /// Takes the members named by `members` (contact ids, or UIDs of members not in the file)
    /// out of `group`. A name that is no member of the group is refused, and nothing changes.
    @discardableResult
    public func removeMembers(_ group: Contact, _ members: [String]) throws(CarnetError) -> Contact {
        var draft = group.draft
        for text in members {
            var uid = text
            if let id = Int64(text), let contact = try? state.contact(id: id) { uid = GroupMember.uid(of: contact.uid) }
            guard let index = draft.members.firstIndex(of: uid) ?? draft.members.firstIndex(of: GroupMember.uid(of: text)) else {
                throw .refused("\(text) is not a member of \(group.name)")
            }
            draft.members.remove(at: index)
        }
        return try save(group, draft)
    }

    /// Saves a change to `group`; the rows show it (its name or its count of members).
    private func save(_ group: Contact, _ draft: ContactDraft) throws(CarnetError) -> Contact {
        let saved = try state.updateContact(group, with: draft)
        try reloadRows()
        return saved
    }

    /// Reads the rows again after a change, once the screen has shown them (a command that
    /// never shows them never reads them).
    private func reloadRows() throws(CarnetError) {
        if hasAppeared { rows = try state.groups() }
    }

    private func refuseTaken(_ name: String, except id: Int64?) throws(CarnetError) {
        let wanted = Rules.trimmed(name).asciiLowercased
        if let other = try state.groups().first(where: { $0.name.asciiLowercased == wanted && $0.id != id }) {
            throw .refused("a group named \(other.name) already exists (id \(other.id))")
        }
    }
}

/// One group's screen: its name and members (resolved by UID, the ones not in the file kept);
/// rename, add and take out members, delete. The group is passed forward by the screen that
/// opens it; each change is one action in the history, and the groups screen sees it when it
/// appears again.
@MainActor
@Observable
public final class GroupDetailViewModel {
    /// Whether the group was deleted (here or, after `onAppear()`, elsewhere).
    public private(set) var isDeleted = false

    @ObservationIgnored private let state: StateController
    @ObservationIgnored private let groups: GroupsViewModel
    private var shown: Contact

    /// - Parameters:
    ///   - state: the state shared by every screen.
    ///   - group: the group's card, passed forward by the screen that opens this one.
    ///   - groups: the groups screen whose rules (names are unique) and rows its changes go
    ///     through; a screen of its own when nil.
    public init(state: StateController, group: Contact, groups: GroupsViewModel? = nil) {
        self.state = state
        self.groups = groups ?? GroupsViewModel(state: state)
        shown = group
    }

    /// The group's card as it is now: a change made anywhere in this process shows at once.
    public var group: Contact { state.latest(shown) ?? shown }

    /// The group with its members resolved by UID, in its order (read from the file each time
    /// the screen asks, since members are other cards that change on their own).
    public func members() throws(CarnetError) -> ContactGroup {
        try state.resolved(group: group)
    }

    /// The screen appears: re-read the group, which another process may have changed.
    public func onAppear() throws(CarnetError) {
        try state.refresh()
        do {
            shown = try state.contact(id: shown.id)
            isDeleted = false
        } catch .notFound {
            isDeleted = true
        }
    }

    /// Renames the group; its members and UID stay.
    public func rename(to name: String) throws(CarnetError) {
        shown = try groups.rename(group, to: name)
    }

    /// Adds the contacts with `ids` after the members (one already there stays where it is).
    public func addMembers(ids: [Int64]) throws(CarnetError) {
        shown = try groups.addMembers(group, ids: ids)
    }

    /// Takes out the members named by contact id, or by UID for one not in the file.
    public func removeMembers(_ members: [String]) throws(CarnetError) {
        shown = try groups.removeMembers(group, members)
    }

    /// Deletes the group card; its members stay. If it was deleted meanwhile, throws
    /// `CarnetError.deleted(_:id:)`.
    public func delete() throws(CarnetError) {
        do {
            try groups.delete(group)
        } catch .deleted(let record, let id) {
            isDeleted = true
            throw .deleted(record, id: id)
        }
        isDeleted = true
    }
}
