import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import Observation
import Testing

/// The view models driven the way screens drive them, against a real SQLite file.
@MainActor
@Suite struct ScreenFlowTests {
    let dir = TempDirectory()

    @Test func dataPassesForwardThroughInitializers() throws {
        let (state, people) = try seededState(dir.database)
        let list = ContactsViewModel(state: state)
        try list.onAppear()
        #expect(list.rows.map(\.contact.name) == ["Gary Edwards", "Katherine Price", "Madison Thompson", "Rebecca Rogers", "Tyler Porter"])
        let madison = try #require(list.rows.first { $0.contact.name == "Madison Thompson" })
        let detail = list.detail(for: madison.contact)
        #expect(detail.contact == people[0])
        let edit = detail.edit()
        #expect(edit.draft == people[0].draft)
        #expect(!edit.isNew && !edit.isDirty)
    }

    @Test func editSavesBackThroughClosureAndDetailTellsListThroughDelegate() throws {
        let (state, people) = try seededState(dir.database)
        let list = ContactsViewModel(state: state)
        try list.onAppear()
        let detail = list.detail(for: people[1])
        let edit = detail.edit()
        var closureSaw: Contact?
        let detailsOwnCallback = edit.onSave
        edit.onSave = { saved in
            closureSaw = saved
            detailsOwnCallback?(saved)
        }
        edit.draft.name = "Tyler J. Porter"
        #expect(edit.isDirty)
        let saved = try edit.save()
        #expect(closureSaw == saved)                       // closure: edit → detail
        #expect(detail.contact.name == "Tyler J. Porter")    // the detail shows it
        #expect(list.highlightedID == people[1].id)         // delegate: detail → list
        #expect(list.rows.contains { $0.contact == saved })  // shared state: the list row moved
        #expect(!edit.isDirty)
    }

    @Test func renamingKeepsIdentityAndFavorite() throws {
        let (state, people) = try seededState(dir.database)
        let favorites = ContactsViewModel(state: state, favoritesOnly: true)
        try state.favorite(people[2].id)
        let edit = EditContactViewModel(state: state, contact: people[2])
        edit.draft.name = "Kate Price-Walker"
        let saved = try edit.save()
        #expect(saved.id == people[2].id && saved.uid == people[2].uid)
        #expect(favorites.rows.map(\.contact) == [saved])
        let all = ContactsViewModel(state: state)
        try all.onAppear()
        #expect(all.rows.map(\.contact.name).firstIndex(of: "Kate Price-Walker") == 1)
    }

    @Test func twoListsSharingStateStayInStep() throws {
        let (state, people) = try seededState(dir.database)
        let (all, favorites) = try shownTabs(state)
        #expect(favorites.rows.isEmpty)

        let favoritesTabChanged = observeChange { _ = favorites.rows }
        try all.toggleFavorite(people[3].id)
        #expect(favoritesTabChanged.isSet)  // observation told the other tab, no polling, no broadcast
        #expect(favorites.rows.map(\.contact.id) == [people[3].id])
        #expect(all.rows.first { $0.id == people[3].id }?.isFavorite == true)

        try favorites.unfavorite(people[3].id)
        #expect(all.rows.allSatisfy { !$0.isFavorite })
        #expect(favorites.rows.isEmpty)
    }

    @Test func theContactCountIsObservedAndKeptCurrent() throws {
        let (state, people) = try seededState(dir.database)
        let list = ContactsViewModel(state: state)
        #expect(list.totalCount == 5)
        let changed = observeChange { _ = list.totalCount }
        try state.deleteContact(id: people[0].id)
        #expect(changed.isSet)
        #expect(list.totalCount == 4)
    }

    @Test func aNewProcessOnTheSameFileSeesTheFavorite() throws {
        let people: [Contact]
        do {
            let state = try makeState(dir.database)
            people = try seed(state)
            let all = ContactsViewModel(state: state)
            try all.onAppear()
            try all.favorite(people[4].id)
        }
        let later = try makeState(dir.database)
        let favorites = ContactsViewModel(state: later, favoritesOnly: true)
        try favorites.onAppear()
        #expect(favorites.rows.map(\.contact.name) == ["Rebecca Rogers"])
    }

    @Test func cancellingADraftLeavesTheDatabaseByteForByteTheSame() throws {
        let (state, people) = try seededState(dir.database)
        let before = fileState(dir.database)
        var cancelled = false
        let edit = ContactsViewModel(state: state).detail(for: people[0]).edit()
        edit.onCancel = { cancelled = true }
        edit.draft.name = "Someone Else"
        edit.draft.email = "else@example.com"
        edit.cancel()
        let add = EditContactViewModel(state: state)
        add.draft.name = "Never Saved"
        add.cancel()
        #expect(cancelled)
        #expect(edit.draft == people[0].draft)
        #expect(fileState(dir.database) == before)
        #expect(try state.contact(id: people[0].id) == people[0])
        #expect(state.contactCount == 5)
    }

    @Test func invalidDraftShowsFieldMessagesAndWritesNothing() throws {
        let state = try makeState(dir.database)
        let add = EditContactViewModel(state: state)
        add.draft.name = "  "
        add.draft.email = "nope"
        #expect(!add.canSave)
        #expect(add.messages(for: .name) == ["is required and must not be blank"])
        // Each entry of a list is judged on its own, and named by its place and value.
        #expect(add.messages(for: .email) == ["1 (nope) must look like name@example.com (no spaces or invisible characters)"])
        var called = false
        add.onSave = { _ in called = true }
        #expect(throws: CarnetError.self) { try add.save() }
        #expect(!called)
        #expect(state.contactCount == 0)
    }

    @Test func saveThenReopenShowsTheChange() throws {
        let id: Int64
        do {
            let state = try makeState(dir.database)
            let add = EditContactViewModel(state: state)
            add.draft = ContactDraft(name: "Ada Lovelace", position: "Analyst", email: "ada@example.com")
            id = try add.save().id
        }
        let reopened = try makeState(dir.database)
        let detail = try ContactsViewModel(state: reopened).detail(forID: id)
        #expect(detail.contact.name == "Ada Lovelace")
        #expect(reopened.contactCount == 1)
    }

    @Test func quoteScreenSeesTheEditedQuote() throws {
        let state = try makeState(dir.database)
        let quote = QuoteViewModel(state: state)
        try quote.onAppear()
        #expect(quote.quote?.author == "Albert Einstein")
        let edit = quote.edit()
        edit.draft.text = "Imagination is more important than knowledge."
        try edit.save()
        #expect(quote.quote?.text == "Imagination is more important than knowledge.")
        let add = quote.add()
        add.draft = QuoteDraft(text: "Simplicity is the ultimate sophistication.", author: "Leonardo da Vinci")
        let leonardo = try add.save()
        #expect(quote.quote == leonardo)
        #expect(quote.quotes.count == 2)
        try quote.use(quote.quotes[0].id)
        #expect(quote.quote?.author == "Albert Einstein")
        try quote.delete(quote.quotes[0].id)
        #expect(quote.quote?.id == leonardo.id)
    }
}

/// The edit screen's `draft` and `original` are observed by hand (see `DraftEditor`): a screen
/// bound to them hears of a typed change, a save and a cancel, and each observer only of its own.
@MainActor
@Suite struct DraftEditorObservationTests {
    let dir = TempDirectory()

    @Test func draftAndOriginalObserversHearEveryChange() throws {
        let (state, people) = try seededState(dir.database)
        let edit = EditContactViewModel(state: state, contact: people[0])

        let typed = observeChange { _ = edit.draft }
        let originalOnTyping = observeChange { _ = edit.original }
        edit.draft.title = "Chief Counter"  // a change through the draft's modify accessor
        #expect(typed.isSet)
        #expect(!originalOnTyping.isSet)

        let draftOnSave = observeChange { _ = edit.draft.title }
        let originalOnSave = observeChange { _ = edit.original }
        let saved = try edit.save()
        #expect(draftOnSave.isSet && originalOnSave.isSet)
        #expect(edit.original == saved && edit.draft == saved.draft && saved.title == "Chief Counter")

        let replaced = observeChange { _ = edit.draft }
        edit.draft = ContactDraft(name: "Someone Else")  // a change through the setter
        #expect(replaced.isSet)
        let cancelled = observeChange { _ = edit.draft }
        edit.cancel()
        #expect(cancelled.isSet)
        #expect(edit.draft == saved.draft)
    }

    @Test func aSaveWithoutAConflictDoesNotDisturbConflictObservers() throws {
        let (state, people) = try seededState(dir.database)
        let edit = EditContactViewModel(state: state, contact: people[1])
        let conflictChanged = observeChange { _ = edit.conflict; _ = edit.clashes }
        edit.draft.nickname = "Kat"
        try edit.save()
        #expect(!conflictChanged.isSet)
    }
}
