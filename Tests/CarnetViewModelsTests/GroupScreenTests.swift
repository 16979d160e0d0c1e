import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation
import Testing

/// The groups screen, a group's screen and the detail screen's groups, driven as a screen would.
@MainActor
@Suite struct GroupScreenTests {
    let dir = TempDirectory()

    @Test func groupsScreenAddsMembersAndTheDetailScreenShowsThem() throws {
        let state = try makeState(dir.database)
        let ada = try state.addContact(ContactDraft(name: "Ada Lovelace", email: "ada@example.com"))
        let grace = try state.addContact(ContactDraft(name: "Grace Hopper"))
        let screen = GroupsViewModel(state: state)
        let club = try screen.add(name: "Climbing club")
        // A group is not a person: the contacts list and its count do not change.
        #expect(state.contactCount == 2 && ContactsViewModel(state: state).totalCount == 2)
        try screen.addMembers(club, ids: [ada.id, grace.id])
        let group = try screen.group("climbing CLUB")
        #expect(try screen.detail(group).members.map(\.name) == ["Ada Lovelace", "Grace Hopper"])
        #expect(try screen.groups().map(\.name) == ["Climbing club"])
        let detail = ContactsViewModel(state: state).detail(for: ada)
        #expect(try detail.groups().map(\.name) == ["Climbing club"])
        // The query screen expands it to the members with an address (Grace has none).
        let query = MailQueryViewModel(state: state)
        #expect(try query.groups(matching: "club").map { $0.members.map(\.name) } == [["Ada Lovelace"]])
        #expect(try query.entries(matching: "ada", limit: 10).map(\.emails) == [[LabeledValue("ada@example.com", preferred: true)]])
        // Undo takes the members out again.
        _ = try state.undo()
        #expect(try screen.detail(try screen.group("Climbing club")).members.isEmpty)
        #expect(throws: CarnetError.noSuchGroup("Choir")) { try screen.group("Choir") }
        #expect(throws: CarnetError.self) { try screen.add(name: "climbing club") }
    }

    /// An id names a contact or a group (they share one id space): the contacts list opens the
    /// screen of what it is, and the contact screens refuse a group rather than show it as a
    /// person.
    @Test func anIdOpensTheScreenOfWhatItNames() throws {
        let state = try makeState(dir.database)
        let ada = try state.addContact(ContactDraft(name: "Ada Lovelace"))
        let club = try GroupsViewModel(state: state).add(name: "Climbing club")
        let list = ContactsViewModel(state: state)
        guard case let .contact(detail) = try list.card(forID: ada.id) else { Issue.record("not a contact screen"); return }
        #expect(detail.contact.name == "Ada Lovelace")
        guard case let .group(group) = try list.card(forID: club.id) else { Issue.record("not a group screen"); return }
        #expect(group.group.name == "Climbing club")
        let refusal = #expect(throws: CarnetError.self) { try list.detail(forID: club.id) }
        #expect(refusal?.description.hasPrefix("\(club.id) is a group (Climbing club), not a contact") == true, "\(String(describing: refusal))")
        #expect(throws: CarnetError.notFound(.contact, id: 99)) { try list.card(forID: 99) }
        // Adding a sender's address to a group, or copying one, is not done to it as to a person.
        let sender = AddSenderViewModel(state: state, sender: MailSender(name: "Linus", email: "linus@example.com"))
        #expect(throws: CarnetError.self) { try sender.add(toContact: club.id) }
        #expect(try state.contact(id: club.id).draft.emails.isEmpty)
        _ = try state.addAddressBook(named: "Work")
        let copy = try BooksViewModel(state: state).copy(contactID: club.id, to: "Work")
        #expect(copy.contact.kind == .group && state.contactCount == 1)
    }

    /// A group's screen, as the interactive mode drives it: its members, renamed, members added
    /// and taken out, deleted; each change one step of the history, and the groups screen shows
    /// each as it appears again.
    @Test func aGroupsScreenChangesItAndTheGroupsScreenFollows() throws {
        let state = try makeState(dir.database)
        let ada = try state.addContact(ContactDraft(name: "Ada Lovelace"))
        let grace = try state.addContact(ContactDraft(name: "Grace Hopper"))
        let groups = GroupsViewModel(state: state)
        try groups.onAppear()
        #expect(groups.rows.isEmpty)
        let club = try groups.add(name: "Climbing club")
        #expect(groups.rows.map(\.name) == ["Climbing club"])
        let screen = groups.detailScreen(for: club)
        try screen.onAppear()
        #expect(try screen.members().members.isEmpty)
        try screen.addMembers(ids: [grace.id, ada.id])
        #expect(try screen.members().members.map(\.name) == ["Grace Hopper", "Ada Lovelace"])
        try screen.removeMembers([String(grace.id)])
        try screen.rename(to: "Climbers")
        #expect(screen.group.name == "Climbers" && screen.group.draft.members.count == 1)
        try groups.onAppear()
        #expect(groups.rows.map(\.name) == ["Climbers"])
        #expect(throws: CarnetError.self) { try screen.addMembers(ids: [club.id]) }
        try screen.delete()
        #expect(screen.isDeleted)
        try groups.onAppear()
        #expect(groups.rows.isEmpty && state.contactCount == 2)
        _ = try state.undo()
        try screen.onAppear()
        #expect(!screen.isDeleted && screen.group.name == "Climbers")
    }

    @Test func theCoordinatorOpensGroupsAndAGroupsIdFromTheList() throws {
        let state = try makeState(dir.database)
        let ada = try state.addContact(ContactDraft(name: "Ada Lovelace"))
        let club = try GroupsViewModel(state: state).add(name: "Climbing club")
        let app = AppCoordinator(state: state)
        try app.start()
        try app.showContact(id: club.id)
        guard case let .groupDetail(group) = app.current else { Issue.record("a group's id did not open its screen"); return }
        #expect(group.group.id == club.id)
        try app.back()
        try app.showGroups()
        guard case let .groups(groups) = app.current else { Issue.record("not on the groups screen"); return }
        #expect(groups.rows.map(\.id) == [club.id])
        try app.showGroup(club)
        guard case let .groupDetail(detail) = app.current else { Issue.record("not on the group's screen"); return }
        try detail.addMembers(ids: [ada.id])
        // From a member, its contact screen.
        try app.showContact(id: ada.id)
        guard case .contactDetail = app.current else { Issue.record("a member did not open as a contact"); return }
        try app.back()
        try detail.delete()
        try app.back()
        guard case let .groups(again) = app.current else { Issue.record("not back on the groups screen"); return }
        #expect(again.rows.isEmpty)
    }
}
