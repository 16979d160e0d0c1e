import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import Observation
import TestNeeds
import Testing

/// Undo at the screens: undo and redo availability and titles follow every change, and every
/// screen sharing the state shows the result of an undo at once, as with any change.
@MainActor
@Suite struct UndoTests {
    let dir = TempDirectory()

    @Test func canUndoAndTheTitlesFollowEveryChange() throws {
        let state = try makeState(dir.database)
        let history = HistoryViewModel(state: state)
        #expect(!history.canUndo && !history.canRedo)
        #expect(history.undoTitle == nil)

        let add = EditContactViewModel(state: state)
        add.draft = ContactDraft(name: "Ada Lovelace")
        let ada = try add.save()
        #expect(history.canUndo)
        #expect(history.undoTitle == "Undo Add Ada Lovelace")

        let edit = EditContactViewModel(state: state, contact: ada)
        try edit.addEntry("work:555 0101", to: .phone)
        try edit.save()
        #expect(history.undoTitle == "Undo Edit Ada Lovelace")

        try history.undo()
        #expect(history.undoTitle == "Undo Add Ada Lovelace")
        #expect(history.redoTitle == "Redo Edit Ada Lovelace")
        #expect(history.canRedo)
        try history.redo()
        #expect(!history.canRedo)
        #expect(history.undoTitle == "Undo Edit Ada Lovelace")
        try history.onAppear()
        #expect(history.entries.map(\.summary) == ["edited Ada Lovelace: phone", "added Ada Lovelace"])
    }

    @Test func observersOfTheTitleAreToldOfAChange() throws {
        let state = try makeState(dir.database)
        let history = HistoryViewModel(state: state)
        let told = TestFlag()
        withObservationTracking { _ = history.undoTitle } onChange: { told.set() }
        try state.addContact(ContactDraft(name: "Grace Hopper"))
        #expect(told.value)
    }

    @Test func everyScreenSeesAnUndoAtOnce() throws {
        let (state, people) = try seededState(dir.database)
        let (contacts, favorites) = try shownTabs(state)
        let gary = people[3]
        try contacts.favorite(gary.id)
        let detail = contacts.detail(for: gary)
        try detail.delete()
        #expect(!contacts.rows.contains { $0.contact.id == gary.id })
        #expect(favorites.rows.isEmpty)

        let coordinator = AppCoordinator(state: state)
        try coordinator.start()
        try coordinator.undo()
        #expect(contacts.rows.contains { $0.contact.id == gary.id })
        #expect(favorites.rows.map(\.contact.id) == [gary.id])
        #expect(state.contactCount == people.count)
        let home = HomeViewModel(state: state)
        #expect(home.favorites.map(\.contact.name) == [gary.name])
        #expect(coordinator.history.undoTitle == "Undo Favorite \(gary.name)")
    }

    @Test func anUndoInAnotherProcessIsSeenOnRefreshAndADetailShowsTheRestoredContact() throws {
        let state = try makeState(dir.database)
        let ada = try state.addContact(ContactDraft(name: "Ada Lovelace", email: "ada@example.com"))
        let detail = ContactDetailViewModel(state: state, contact: ada)
        let edit = detail.edit()
        edit.draft.email = "ada@analytical.example"
        try edit.save()
        #expect(detail.contact.email == "ada@analytical.example")

        // Another process undoes the edit.
        let other = try makeState(dir.database)
        #expect(other.undoTitle == "Undo Edit Ada Lovelace")
        try other.undo()

        let history = HistoryViewModel(state: state)
        try detail.onAppear()
        #expect(detail.contact.email == "ada@example.com")
        #expect(history.redoTitle == "Redo Edit Ada Lovelace")
        // Undone here too: this process's undo of "add" removes Ada from its screens.
        try history.undo()
        try detail.onAppear()
        #expect(detail.isDeleted)
    }

    @Test(.needs("sqlite3")) func aConflictingUndoChangesNothingOnScreen() throws {
        let state = try makeState(dir.database)
        let ada = try state.addContact(ContactDraft(name: "Ada Lovelace"))
        let contacts = ContactsViewModel(state: state)
        try contacts.onAppear()
        // A hand edit with sqlite3, outside the history.
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: TestTool.path("sqlite3"))
        sqlite.arguments = [dir.database, "UPDATE contacts SET nickname = 'Enchantress' WHERE id = \(ada.id)"]
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)

        let history = HistoryViewModel(state: state)
        #expect(history.undoTitle == "Undo Add Ada Lovelace")
        guard case .historyConflict? = carnetError({ try history.undo() }) else {
            Issue.record("expected a conflict")
            return
        }
        try contacts.onAppear()
        #expect(contacts.rows.map(\.contact.nickname) == ["Enchantress"])
        #expect(history.undoTitle == "Undo Add Ada Lovelace")
    }
}

/// A flag an observation callback (which may run anywhere) sets.
final class TestFlag: @unchecked Sendable {
    private var flag = false
    func set() { flag = true }
    var value: Bool { flag }
}
