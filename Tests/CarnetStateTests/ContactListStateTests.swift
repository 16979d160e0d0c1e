import CarnetModels
import CarnetState
import CarnetStorage
import Foundation
import Observation
import Testing

/// Rich contacts through the state controller: a contact's lists (emails, phones, addresses, dates,
/// categories…) are written through to the file before any screen hears of the save, reach every
/// list window and the favorites, arrive from other processes on `refresh()`, and an edit of a
/// list made elsewhere meanwhile is a conflict, not an overwrite.
@MainActor
@Suite struct ContactListStateTests {
    let dir = TempDirectory()

    static var katherine: ContactDraft {
        var draft = ContactDraft(name: "Katherine Price", position: "Marketing, Golden Roads")
        draft.emails = [
            LabeledValue("katherine@example.com", label: "work"), LabeledValue("kate@home.example", label: "home", preferred: true),
        ]
        draft.phones = [LabeledValue("555 0103", label: "work"), LabeledValue("+1 555 0199", label: "cell", preferred: true)]
        draft.addresses = [PostalAddress(label: "work", street: "1 Golden Road", locality: "Springfield", country: "USA")]
        draft.dates = [ContactDate(label: "birthday", year: 1990, month: 2, day: 28), ContactDate(label: "anniversary", month: 6, day: 1)]
        draft.categories = ["clients", "golf"]
        draft.note = "Met at the fair.\nLikes tea."
        return draft.normalized()
    }

    @Test func listsSavedThroughTheStateAreInTheFileAndOnEveryScreen() throws {
        let (state, _) = try makeState(dir.database)
        _ = try seed(state)
        let list = try state.loadedContactList()
        let clients = try state.loadedContactList(search: "clients")  // a category
        let other = try otherConnection(dir.database)

        let seen = Recorder<[String]>()
        withObservationTracking { _ = list.rows } onChange: {
            seen.record((try? other.contacts(limit: 10, matching: "kate@home").contacts.map(\.email)) ?? [])
        }
        let kate = try state.addContact(Self.katherine)
        #expect(seen.all == [["kate@home.example"]])  // in the file before the list heard of it
        #expect(kate.draft == Self.katherine && kate.version == 1)
        #expect(try other.contact(id: kate.id) == kate)
        #expect(list.rows.first { $0.id == kate.id } == kate)
        #expect(clients.rows == [kate])
        try state.favorite(kate.id)
        #expect(state.favorites.map(\.contact) == [kate])

        // Reorder, re-prefer, remove and add, as an edit screen's list controls do.
        var draft = kate.draft
        draft.emails.moveEntry(from: 1, to: 0)
        draft.emails.makePreferred(at: 1)
        draft.phones.remove(at: 0)
        draft.addresses[0].preferred = true
        draft.dates.removeAll { $0.label == "anniversary" }
        draft.categories = ["golf", "friends"]
        let saved = try state.updateContact(kate, with: draft)
        #expect(saved.version == 2)
        #expect(saved.emails.map(\.value) == ["kate@home.example", "katherine@example.com"] && saved.email == "katherine@example.com")
        #expect(saved.phones.map(\.value) == ["+1 555 0199"] && saved.dates.count == 1)
        #expect(try other.contact(id: kate.id) == saved)
        #expect(list.rows.first { $0.id == kate.id } == saved)
        #expect(state.favorites.map(\.contact) == [saved])
        #expect(state.latest(kate) == saved)
        #expect(clients.rows.isEmpty)  // no longer in the category it was found by
        #expect(try state.contactCount(matching: "friends") == 1)
    }

    @Test func anotherProcesssListEditArrivesOnRefresh() throws {
        let (state, _) = try makeState(dir.database)
        let people = try seed(state)
        let kate = try state.addContact(Self.katherine)
        try state.favorite(kate.id)
        let list = try state.loadedContactList()
        let golfers = try state.loadedContactList(search: "golf")
        #expect(golfers.rows == [kate])

        let other = try otherConnection(dir.database)
        var draft = try other.contact(id: kate.id).draft
        draft.categories = ["clients"]
        draft.phones.insert(LabeledValue("555 0000", label: "fax"), at: 0)
        let theirs = try other.updateContact(kate, with: draft)
        var madison = people[0].draft
        madison.categories = ["golf"]
        let golfer = try other.updateContact(people[0], with: madison)

        #expect(list.rows.first { $0.id == kate.id } == kate)  // not seen before the screen appears again
        #expect(try state.refresh())
        #expect(list.rows.first { $0.id == kate.id } == theirs)
        #expect(list.rows.first { $0.id == golfer.id } == golfer)
        #expect(state.favorites.map(\.contact) == [theirs])
        #expect(golfers.rows == [golfer])
        #expect(theirs.phones.first?.label == "fax" && theirs.phone == "+1 555 0199")  // the preferred one is kept, not the first
    }

    @Test func aStaleEditOfAListIsAConflictNamingIt() throws {
        let (state, storage) = try makeState(dir.database)
        let kate = try state.addContact(Self.katherine)
        let other = try otherConnection(dir.database)
        var their = kate.draft
        their.dates.append(ContactDate(label: "first met", year: 2024, month: 2, day: 29))
        let saved = try other.updateContact(kate, with: their)

        var mine = kate.draft
        mine.emails.append(LabeledValue("price@example.org", label: "other"))
        let error = carnetError { try state.updateContact(kate, with: mine) }
        guard case let .conflict(conflict) = error else {
            Issue.record("expected a conflict, got \(String(describing: error))")
            return
        }
        #expect(conflict.changedFields == [.date])
        #expect(try storage.contact(id: kate.id) == saved)
        // Overwriting knowingly: last writer wins, their date goes.
        let forced = try state.updateContact(kate, with: mine, force: true)
        #expect(forced.version == 3 && forced.dates == kate.dates && forced.emails.count == 3)
        #expect(try other.contact(id: kate.id) == forced)
    }

    @Test func anInvalidEntryChangesNothingAndTellsNoOne() throws {
        let (state, storage) = try makeState(dir.database)
        let kate = try state.addContact(Self.katherine)
        let list = try state.loadedContactList()
        let changed = observeChange { _ = list.rows; _ = state.contactCount }

        var badEmail = kate.draft
        badEmail.emails.append(LabeledValue("not an address"))
        var twoPreferred = kate.draft
        twoPreferred.phones.makePreferred(at: 0)
        twoPreferred.phones[1].preferred = true
        var noSuchDay = kate.draft
        noSuchDay.dates = [ContactDate(label: "birthday", year: 2023, month: 2, day: 29)]
        var multiLineCategory = kate.draft
        multiLineCategory.categories.append("a\nb")
        for (draft, field) in [(badEmail, Field.email), (twoPreferred, .phone), (noSuchDay, .date), (multiLineCategory, .category)] {
            guard case let .invalid(issues) = carnetError({ try state.updateContact(kate, with: draft) }) else {
                Issue.record("expected \(field) to be refused")
                continue
            }
            #expect(issues.map(\.field) == [field], "\(issues)")
            #expect(throws: CarnetError.self) { try state.addContact(draft) }
        }
        #expect(!changed.isSet)
        #expect(try storage.contact(id: kate.id) == kate)
        #expect(try storage.contactCount() == 1)
        #expect(list.rows == [kate])
    }
}
