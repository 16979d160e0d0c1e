import CarnetModels
import CarnetState
import CarnetStorage
import Foundation
import Observation
import Testing

/// The state controller over a real file: every change is committed before anyone hears of it,
/// other connections' commits arrive through `refresh()`, and what it holds in memory (count,
/// favorites, list windows) stays what the file says.
@MainActor
@Suite struct StateControllerTests {
    let dir = TempDirectory()

    @Test func aChangeIsCommittedBeforeObserversHearOfIt() throws {
        let (state, _) = try makeState(dir.database)
        let people = try seed(state)
        let list = try state.loadedContactList()
        let other = try otherConnection(dir.database)

        // An observer that looks at the file when it hears of the change already finds it there.
        let seen = Recorder<String?>()
        withObservationTracking { _ = list.rows } onChange: {
            seen.record((try? other.contacts(limit: 10).contacts.map(\.name))?.joined(separator: ","))
        }
        let ada = try state.addContact(ContactDraft(name: "Ada Lovelace", email: "ada@example.com"))
        #expect(seen.all.count == 1)
        #expect(seen.all.first??.hasPrefix("Ada Lovelace,") == true)
        #expect(list.rows.first == ada)

        let renamed = Recorder<String?>()
        withObservationTracking { _ = state.favorites } onChange: {
            renamed.record(try? other.favorites().map(\.contact.name).joined(separator: ","))
        }
        try state.favorite(people[0].id)
        #expect(renamed.all == ["Madison Thompson"])
        #expect(state.favorites.map(\.contact.id) == [people[0].id])
    }

    @Test func aFailedWriteChangesNothingAndTellsNoOne() throws {
        let (state, storage) = try makeState(dir.database)
        let people = try seed(state)
        let list = try state.loadedContactList()
        let before = list.rows
        let changed = observeChange { _ = list.rows; _ = state.favorites; _ = state.contactCount }
        #expect(throws: CarnetError.self) { try state.addContact(ContactDraft(name: "  ")) }
        #expect(throws: CarnetError.self) { try state.favorite(9_999) }
        var broken = people[1].draft
        broken.email = "not an address"
        #expect(throws: CarnetError.self) { try state.updateContact(people[1], with: broken) }
        #expect(!changed.isSet)
        #expect(list.rows == before)
        #expect(try storage.contactCount() == 5)
        #expect(try storage.favorites().isEmpty)
    }

    @Test func refreshSeesAnotherConnectionsCommit() throws {
        let (state, _) = try makeState(dir.database)
        let people = try seed(state)
        let list = try state.loadedContactList()
        #expect(state.contactCount == 5)
        let quotesBefore = state.quoteCount
        #expect(try state.refresh() == false)  // nothing changed elsewhere: one pragma, no reload

        let other = try otherConnection(dir.database)
        let bob = try other.insertContact(ContactDraft(name: "Bob Bemer", email: "bob@example.com"))
        try other.addFavorite(contactID: bob.id)
        try other.addFavorite(contactID: people[2].id, at: 1)
        _ = try other.addQuote(QuoteDraft(text: "Simplicity is prerequisite for reliability.", author: "Edsger Dijkstra"), makeCurrent: true)

        // Not seen until the screen appears again.
        #expect(!list.rows.contains { $0.id == bob.id })
        #expect(state.favorites.isEmpty)

        let changed = observeChange { _ = list.rows; _ = state.favorites; _ = state.currentQuote }
        #expect(try state.refresh() == true)
        #expect(changed.isSet)
        #expect(list.rows.map(\.name) == ["Bob Bemer", "Gary Edwards", "Katherine Price", "Madison Thompson", "Rebecca Rogers", "Tyler Porter"])
        #expect(state.favorites.map(\.contact.id) == [people[2].id, bob.id])
        #expect(state.favorites.map(\.position) == [1, 2])
        #expect(state.isFavorite(bob.id))
        #expect(state.contactCount == 6)
        #expect(state.currentQuote?.author == "Edsger Dijkstra")
        #expect(state.quoteCount == quotesBefore + 1)
        #expect(try state.refresh() == false)  // seen once, not again

        // An edit elsewhere reaches the rows too, in name order.
        var draft = people[4].draft
        draft.name = "Becky Rogers"
        _ = try other.updateContact(people[4], with: draft)
        try state.refresh()
        #expect(list.rows.map(\.name).prefix(3) == ["Becky Rogers", "Bob Bemer", "Gary Edwards"])
    }

    @Test func theContactCountIsKeptUpToDate() throws {
        let (state, _) = try makeState(dir.database)
        #expect(state.contactCount == 0)
        let people = try seed(state)
        #expect(state.contactCount == 5)

        let changed = observeChange { _ = state.contactCount }
        try state.deleteContact(id: people[0].id)
        #expect(changed.isSet)
        #expect(state.contactCount == 4)
        try state.deleteContact(people[1])
        #expect(state.contactCount == 3)
        // An edit is not an addition.
        var draft = people[2].draft
        draft.phone = "555 7777"
        try state.updateContact(people[2], with: draft)
        #expect(state.contactCount == 3)

        // Others' additions count once refresh() has seen them.
        let other = try otherConnection(dir.database)
        try other.insertContacts([ContactDraft(name: "Grace Hopper"), ContactDraft(name: "Alan Turing")])
        #expect(state.contactCount == 3)
        let recount = observeChange { _ = state.contactCount }
        try state.refresh()
        #expect(recount.isSet)
        #expect(state.contactCount == 5)
        #expect(try state.contactCount(matching: "gale") == 0)  // Madison was deleted
        #expect(try state.contactCount(matching: "example.com") == 3)
    }

    @Test func favoritesKeepTheUsersOrder() throws {
        let (state, storage) = try makeState(dir.database)
        let people = try seed(state)
        let (madison, tyler, katherine, gary) = (people[0].id, people[1].id, people[2].id, people[3].id)
        try state.favorite(madison)
        try state.favorite(tyler)
        try state.favorite(katherine)
        #expect(state.favorites.map(\.contact.id) == [madison, tyler, katherine])

        try state.favorite(katherine, at: 1)  // favoriting a favorite with a position moves it
        #expect(state.favorites.map(\.contact.id) == [katherine, madison, tyler])
        try state.favorite(katherine)  // without one it changes nothing
        #expect(state.favorites.map(\.contact.id) == [katherine, madison, tyler])
        try state.moveFavorite(katherine, to: 3)
        #expect(state.favorites.map(\.contact.id) == [madison, tyler, katherine])
        try state.favorite(gary, at: 2)
        #expect(state.favorites.map(\.contact.id) == [madison, gary, tyler, katherine])
        #expect(state.favorites.map(\.position) == [1, 2, 3, 4])

        // Unfavoriting and deleting close the gaps.
        try state.unfavorite(gary)
        try state.deleteContact(id: madison)
        #expect(state.favorites.map(\.contact.id) == [tyler, katherine])
        #expect(state.favorites.map(\.position) == [1, 2])
        #expect(!state.isFavorite(madison) && !state.isFavorite(gary))

        // A favorite renamed shows its new name in the favorites.
        var draft = people[2].draft
        draft.name = "Kate Price"
        let kate = try state.updateContact(people[2], with: draft)
        #expect(state.favorites.map(\.contact) == [people[1], kate])

        // Positions out of range are refused and change nothing.
        #expect(throws: CarnetError.self) { try state.moveFavorite(tyler, to: 3) }
        #expect(throws: CarnetError.self) { try state.moveFavorite(gary, to: 1) }  // not a favorite
        #expect(state.favorites.map(\.contact.id) == [tyler, katherine])

        // The order is the file's: a new state controller (a new launch) reads the same.
        #expect(try storage.favorites() == state.favorites)
        let (relaunched, _) = try makeState(dir.database)
        #expect(relaunched.favorites == state.favorites)
    }

    @Test func deletingAContactDeletedElsewhereSaysDeletedAndListsForgetIt() throws {
        let (state, storage) = try makeState(dir.database)
        let people = try seed(state)
        let gary = people[3]
        try state.favorite(gary.id)
        try state.favorite(people[0].id)
        let list = try state.loadedContactList()
        let search = try state.loadedContactList(search: "bluewares")
        #expect(search.rows == [gary])

        let other = try otherConnection(dir.database)
        try other.deleteContact(id: gary.id)
        // This process still shows Gary until it learns otherwise.
        #expect(list.rows.contains(gary))

        let changed = observeChange { _ = list.rows; _ = state.favorites }
        #expect(throws: CarnetError.deleted(.contact, id: gary.id)) { try state.deleteContact(gary) }
        #expect(changed.isSet)
        #expect(!list.rows.contains { $0.id == gary.id })
        #expect(search.rows.isEmpty)
        #expect(state.favorites.map(\.contact.id) == [people[0].id])
        #expect(state.latest(gary) == nil)
        #expect(state.contactCount == 4)
        // Nothing else was deleted.
        #expect(try storage.contactCount() == 4)
        #expect(list.rows.map(\.id).sorted() == [people[0], people[1], people[2], people[4]].map(\.id).sorted())

        // An edit of it says the same; deleting by id says it is not there.
        #expect(throws: CarnetError.deleted(.contact, id: gary.id)) { try state.updateContact(gary, with: gary.draft, force: true) }
        #expect(throws: CarnetError.notFound(.contact, id: gary.id)) { try state.deleteContact(id: gary.id) }
    }

    @Test func savedVersionsWinOverOlderCopies() throws {
        let (state, _) = try makeState(dir.database)
        let people = try seed(state)
        var draft = people[1].draft
        draft.position = "Staff engineer, Prophecy"
        let saved = try state.updateContact(people[1], with: draft)
        #expect(state.latest(people[1]) == saved)   // a screen holding the old copy shows the new one
        #expect(state.latest(saved) == saved)
        #expect(state.latest(people[0]) == people[0])
        #expect(throws: CarnetError.self) { try state.updateContact(people[1], with: people[1].draft) }  // stale base: a conflict
        #expect(try state.contact(id: people[1].id) == saved)
    }
}
