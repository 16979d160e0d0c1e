import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import TestNeeds
import Testing

/// Screens over a live state controller stay in step with the file, whoever changes it, with no
/// `refresh()` or `onAppear()` in between: what a SwiftUI-style screen observing the view models
/// sees.
@MainActor
@Suite(.startsBuiltPrograms) struct LiveScreenTests {
    /// The built `carnet`, beside this test bundle.
    static let carnet: String = {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("carnet").path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent(".build/debug/carnet").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? candidates[1]
    }()

    /// Waits, yielding the main actor as a screen's run loop would, until `condition` holds. The
    /// bound is generous: the main actor is shared with every other main-actor test running
    /// beside this one, some of which hold it for seconds, and the change is delivered on it.
    /// How fast a change arrives is the benchmark's to say (`--only live`).
    func wait(until condition: () -> Bool, seconds: Double = 60) async throws {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    func wait(for flag: Flag) async throws { try await wait { flag.isSet } }

    @Test func anotherProcessesAddReachesAnObservedListWithoutPolling() async throws {
        let dir = TempDirectory()
        let (state, _) = try seededState(dir.database)
        state.startLiveUpdates()
        let contacts = ContactsViewModel(state: state)
        try contacts.onAppear()
        let changed = observeChange { _ = contacts.rows; _ = contacts.totalCount }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.carnet)
        process.arguments = ["add", "--name", "Zoe Added Elsewhere", "--db", dir.database]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        try await wait(for: changed)
        #expect(changed.isSet)
        // Both may take more than one change to arrive; wait for the row itself.
        try await wait { contacts.rows.contains { $0.contact.name == "Zoe Added Elsewhere" } }
        #expect(contacts.rows.map(\.contact.name).contains("Zoe Added Elsewhere"))
        #expect(contacts.totalCount == classicContacts.count + 1)
        #expect(state.lastChange?.byThisProcess == false)
    }

    /// A background task writing through the same storage controller, not the state: seen too.
    @Test func aWriteThatBypassesTheStateControllerReachesTheScreens() async throws {
        let dir = TempDirectory()
        let storage = try StorageController(path: dir.database)
        let state = try StateController(storage: storage, live: true)
        let contacts = ContactsViewModel(state: state)
        try contacts.onAppear()
        let changed = observeChange { _ = contacts.rows }
        let ada = try await storage.async.insertContact(ContactDraft(name: "Ada Lovelace"))
        try await wait(for: changed)
        #expect(contacts.rows.map(\.contact.id) == [ada.id])
        #expect(state.lastChange?.byThisProcess == true)
    }

    /// A detail screen says at once that its contact was deleted elsewhere, and shows an edit
    /// made elsewhere.
    @Test func aDetailScreenSeesItsContactEditedThenDeletedElsewhere() async throws {
        let dir = TempDirectory()
        let (state, seeded) = try seededState(dir.database)
        state.startLiveUpdates()
        let detail = ContactsViewModel(state: state).detail(for: seeded[0])
        let elsewhere = try StorageController(path: dir.database)
        let edited = observeChange { _ = detail.contact }
        _ = try elsewhere.updateContact(seeded[0], with: ContactDraft(name: "Madison Thompson-Price"))
        try await wait(for: edited)
        try await wait { detail.contact.name == "Madison Thompson-Price" }
        #expect(detail.contact.name == "Madison Thompson-Price")
        let deleted = observeChange { _ = detail.isDeleted }
        try elsewhere.deleteContact(id: seeded[0].id)
        try await wait(for: deleted)
        #expect(detail.isDeleted)
    }

    /// Favorites and undo availability follow another process's changes too.
    @Test func theFavoritesTabAndUndoFollowAnotherConnection() async throws {
        let dir = TempDirectory()
        let (state, seeded) = try seededState(dir.database)
        let tabs = try shownTabs(state)
        state.startLiveUpdates()
        let elsewhere = try StorageController(path: dir.database)
        let changed = observeChange { _ = tabs.favorites.rows }
        _ = try elsewhere.addFavorite(contactID: seeded[2].id)
        try await wait(for: changed)
        try await wait { tabs.favorites.rows.map(\.contact.id) == [seeded[2].id] && state.undoTitle != nil }
        #expect(tabs.favorites.rows.map(\.contact.id) == [seeded[2].id])
        #expect(state.undoTitle?.contains("Katherine Price") == true, "\(state.undoTitle ?? "nil")")
    }

    /// Without `live`, nothing is watched: a one-shot command pays nothing.
    @Test func aStateControllerThatIsNotLiveWatchesNothing() throws {
        let dir = TempDirectory()
        let state = try makeState(dir.database)
        #expect(!state.isLive)
        state.startLiveUpdates()
        #expect(state.isLive)
        state.stopLiveUpdates()
        #expect(!state.isLive)
    }
}
