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
        // The query screen expands it.
        let query = MailQueryViewModel(state: state)
        #expect(try query.groups(matching: "club").map { $0.members.map(\.name) } == [["Ada Lovelace", "Grace Hopper"]])
        #expect(try query.entries(matching: "ada", limit: 10).map(\.emails) == [[LabeledValue("ada@example.com", preferred: true)]])
        // Undo takes the members out again.
        _ = try state.undo()
        #expect(try screen.detail(try screen.group("Climbing club")).members.isEmpty)
        #expect(throws: CarnetError.noSuchGroup("Choir")) { try screen.group("Choir") }
        #expect(throws: CarnetError.self) { try screen.add(name: "climbing club") }
    }
}
