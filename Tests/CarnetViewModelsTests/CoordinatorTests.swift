import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation
import Testing

@MainActor
@Suite struct CoordinatorTests {
    let dir = TempDirectory()

    func screenName(_ screen: AppCoordinator.Screen) -> String {
        switch screen {
        case .contacts: "contacts"
        case .favorites: "favorites"
        case .contactDetail: "detail"
        case .editContact: "edit"
        case .quote: "quote"
        case .editQuote: "edit quote"
        case .books: "books"
        case .groups: "groups"
        case .groupDetail: "group"
        }
    }

    /// A coordinator started on the contacts tab, over a state holding the five classic
    /// contacts (`people`) unless `seeded` is false.
    func startedApp(seeded: Bool = true) throws -> (app: AppCoordinator, state: StateController, people: [Contact]) {
        let state = try makeState(dir.database)
        let people = try seeded ? seed(state) : []
        let app = AppCoordinator(state: state)
        try app.start()
        return (app, state, people)
    }

    @Test func listDetailEditAndBack() throws {
        let (app, _, people) = try startedApp()
        #expect(screenName(app.current) == "contacts")
        try app.showContact(people[0])
        #expect(screenName(app.current) == "detail")
        try app.editContact()
        guard case let .editContact(edit) = app.current else { Issue.record("not editing"); return }
        edit.draft.position = "Head of Sales, Gale Foods"
        try edit.save()
        guard case let .contactDetail(detail) = app.current else { Issue.record("not back on detail"); return }
        #expect(detail.contact.position == "Head of Sales, Gale Foods")
        #expect(app.contacts.highlightedID == people[0].id)
        try app.back()
        #expect(screenName(app.current) == "contacts")
        #expect(app.contacts.rows.first { $0.id == people[0].id }?.contact.position == "Head of Sales, Gale Foods")
    }

    @Test func leavingAnEditScreenCancelsIt() throws {
        let (app, state, people) = try startedApp()
        try app.showContact(people[1])
        try app.editContact()
        guard case let .editContact(edit) = app.current else { Issue.record("not editing"); return }
        edit.draft.name = "Not Saved"
        try app.back()
        #expect(screenName(app.current) == "detail")
        #expect(try state.contact(id: people[1].id) == people[1])
    }

    @Test func favoriteInContactsTabShowsInFavoritesTab() throws {
        let (app, _, people) = try startedApp()
        try app.showContact(people[2])
        guard case let .contactDetail(detail) = app.current else { Issue.record("no detail"); return }
        try detail.toggleFavorite()
        try app.select(.favorites)
        #expect(screenName(app.current) == "favorites")
        #expect(app.favorites.rows.map(\.contact.id) == [people[2].id])
    }

    @Test func addContactThenSeeItsDetail() throws {
        let (app, _, _) = try startedApp(seeded: false)
        try app.addContact()
        guard case let .editContact(add) = app.current else { Issue.record("not adding"); return }
        add.draft = ContactDraft(name: "Ada Lovelace")
        let saved = try add.save()
        guard case let .contactDetail(detail) = app.current else { Issue.record("no detail"); return }
        #expect(detail.contact == saved)
        try app.back()
        #expect(app.contacts.rows.map(\.contact) == [saved])
    }

    @Test func quoteToEditQuoteAndBack() throws {
        let (app, _, _) = try startedApp(seeded: false)
        try app.editQuote()
        guard case let .editQuote(edit) = app.current else { Issue.record("not editing the quote"); return }
        edit.draft = QuoteDraft(text: "Stay hungry, stay foolish.", author: "Stewart Brand")
        try edit.save()
        #expect(screenName(app.current) == "quote")
        #expect(app.quote.quote?.author == "Stewart Brand")
    }

    @Test func deletingFromDetailReturnsToTheList() throws {
        let (app, _, people) = try startedApp()
        try app.showContact(people[0])
        guard case let .contactDetail(detail) = app.current else { Issue.record("no detail"); return }
        try detail.delete()
        try app.back()
        #expect(screenName(app.current) == "contacts")
        #expect(!app.contacts.rows.contains { $0.id == people[0].id })
    }
}
