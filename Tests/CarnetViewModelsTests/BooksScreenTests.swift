import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation
import Testing

/// The address books screen and a book's own contact list, driven as a screen would: the book
/// is passed forward from the books screen to its list, and from the list to a new contact.
@MainActor
@Suite struct BooksScreenTests {
    let dir = TempDirectory()

    @Test func theBooksScreenAddsRenamesAndDeletesAfterAsking() throws {
        let state = try makeState(dir.database)
        let screen = BooksViewModel(state: state)
        try screen.onAppear()
        #expect(screen.books.map(\.name) == ["Contacts"] && !screen.hasSeveral)
        let work = try screen.add(named: "Work")
        #expect(screen.books.map(\.name) == ["Contacts", "Work"] && screen.hasSeveral)
        #expect(state.undoTitle == "Undo Add Book Work")
        try state.addContact(ContactDraft(name: "Grace Hopper"), bookID: work.id)
        try screen.onAppear()
        #expect(screen.books.map(\.contactCount) == [0, 1])

        let renamed = try screen.rename(work, to: "Office")
        #expect(renamed.id == work.id && screen.books.map(\.name) == ["Contacts", "Office"])
        // A book with contacts waits for the screen to ask; then it goes with them.
        #expect(try screen.delete(renamed) == .needsConfirmation(AddressBook(id: work.id, name: "Office", contactCount: 1)))
        #expect(screen.books.count == 2)
        guard case .deleted = try screen.delete(renamed, confirmed: true) else { Issue.record("not deleted"); return }
        #expect(screen.books.map(\.name) == ["Contacts"])
        #expect(state.contactCount == 0)
        // Undo brings both back; the screen sees it when it appears again.
        try state.undo()
        try screen.onAppear()
        #expect(screen.books.map(\.name) == ["Contacts", "Office"] && screen.books[1].contactCount == 1)
        let first = screen.books[0]
        guard case .refused? = carnetError({ try screen.delete(first, confirmed: true) }) else { Issue.record("deleted the default book"); return }
    }

    @Test func aBooksListShowsOnlyItsContactsAndAddsToItsBook() throws {
        let (state, people) = try seededState(dir.database)
        let screen = BooksViewModel(state: state)
        try screen.onAppear()
        let work = try screen.add(named: "Work")
        let list = screen.contacts(of: work)
        try list.onAppear()
        #expect(list.book == work && list.rows.isEmpty && list.matchCount == 0)

        // Added from the book's list: the new contact is in that book, and the list shows it.
        let edit = list.add()
        edit.draft.name = "Grace Hopper"
        let saved = try edit.save()
        #expect(saved.bookID == work.id)
        #expect(list.rows.map(\.contact.name) == ["Grace Hopper"])

        // A contact moved in from another book appears; one moved out goes.
        try state.moveContact(id: people[0].id, toBook: "Work")
        #expect(list.rows.map(\.id).contains(people[0].id))
        try state.moveContact(id: saved.id, toBook: "Contacts")
        #expect(!list.rows.map(\.id).contains(saved.id))
        try list.onAppear()
        #expect(list.matchCount == 1)
        try list.setSearch(people[0].name.components(separatedBy: " ")[0])
        #expect(list.rows.map(\.id) == [people[0].id])

        // The list of every book still holds everyone.
        let all = ContactsViewModel(state: state)
        try all.onAppear()
        #expect(all.rows.count == people.count + 1)
        // A copy is a new contact in the other book.
        let copy = try state.copyContact(id: people[1].id, toBook: "Work")
        #expect(copy.uid != people[1].uid && copy.bookID == work.id)
        try list.setSearch("")
        #expect(list.rows.map(\.id).contains(copy.id))
    }

    @Test func theCoordinatorPassesTheBookForward() throws {
        let state = try makeState(dir.database)
        let app = AppCoordinator(state: state)
        try app.start()
        try app.showBooks()
        guard case let .books(books) = app.current else { Issue.record("not on the books screen"); return }
        let work = try books.add(named: "Work")
        try app.showBook(work)
        guard case let .contacts(list) = app.current else { Issue.record("not on the book's list"); return }
        #expect(list.book == work)

        try app.addContact()
        guard case let .editContact(edit) = app.current else { Issue.record("not editing"); return }
        edit.draft.name = "Grace Hopper"
        try edit.save()
        guard case let .contactDetail(detail) = app.current else { Issue.record("not on the new contact"); return }
        #expect(detail.contact.bookID == work.id)
        try app.back()
        guard case let .contacts(back) = app.current else { Issue.record("not back on the book's list"); return }
        #expect(back.book == work && back.rows.map(\.contact.name) == ["Grace Hopper"])
        try app.back()
        guard case let .books(again) = app.current else { Issue.record("not back on the books screen"); return }
        #expect(again.books.map(\.contactCount) == [0, 1])
        // The contacts tab's own list holds every book's contacts.
        try app.back()
        #expect(app.contacts.book == nil && app.contacts.rows.map(\.contact.name) == ["Grace Hopper"])
    }
}
