import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import TestNeeds
import Testing

/// Two state controllers on one file stand for two processes (each has its own connections).
@MainActor
@Suite struct ConflictAndRefreshTests {
    let dir = TempDirectory()

    /// Both sides start editing `record`, mine through `state`, theirs through another state
    /// controller on the file (returned as `other`); each makes its change, theirs saves first, and
    /// my save is refused as a conflict.
    func conflict<Record: DraftSaving>(
        over record: Record, in state: StateController,
        mine myChange: (inout Record.Draft) -> Void, theirs theirChange: (inout Record.Draft) -> Void
    ) throws -> (mine: DraftEditor<Record>, theirs: Record, other: StateController) {
        let other = try makeState(dir.database)
        let mine = DraftEditor(state: state, editing: record)
        myChange(&mine.draft)
        let theirEdit = DraftEditor(state: other, editing: record)
        theirChange(&theirEdit.draft)
        let theirs = try theirEdit.save()
        #expect(throws: CarnetError.self) { try mine.save() }
        return (mine, theirs, other)
    }

    /// Both sides start editing Gary; the other side saves first.
    func conflictingEdits() throws -> (mine: EditContactViewModel, theirs: Contact, state: StateController) {
        let state = try makeState(dir.database)
        let gary = try seed(state)[3]
        let (mine, theirs, _) = try conflict(
            over: gary, in: state, mine: { $0.phone = "555 9999" }, theirs: { $0.email = "gary@bluewares.example.com" })
        let conflict = try #require(mine.conflict)
        #expect(conflict.current == theirs)
        #expect(conflict.base == gary)
        #expect(conflict.mine.phone == "555 9999")
        #expect(conflict.changedFields == [.email])
        #expect(try state.contact(id: gary.id) == theirs)  // nothing of mine was written
        return (mine, theirs, state)
    }

    @Test func reloadMergesFieldsOnlyOneSideChanged() throws {
        let (mine, theirs, state) = try conflictingEdits()
        #expect(try mine.resolve(.reload) == nil)
        #expect(mine.conflict == nil)
        #expect(mine.clashes.isEmpty)
        #expect(mine.original == theirs)
        // Their email (only they changed it), my phone (only I did): nothing to ask.
        #expect(mine.draft.email == "gary@bluewares.example.com")
        #expect(mine.draft.phone == "555 9999")
        #expect(mine.draft.name == theirs.name)
        #expect(try state.contact(id: theirs.id) == theirs)  // a reload writes nothing
        let saved = try mine.save()
        #expect(saved.email == "gary@bluewares.example.com" && saved.phone == "555 9999")
        #expect(try state.contact(id: saved.id).version == 3)
    }

    @Test func reloadAsksOnlyAboutFieldsBothChanged() throws {
        let state = try makeState(dir.database)
        let gary = try seed(state)[3]
        let (mine, theirs, _) = try conflict(
            over: gary, in: state,
            mine: { draft in
                draft.phone = "555 9999"
                draft.position = "Lead Web Developer, Bluewares"
                draft.email = "gary@bluewares.example.com"  // the same change as theirs: no clash
            },
            theirs: { draft in
                draft.phone = "555 1234"
                draft.position = "CTO, Bluewares"
                draft.email = "gary@bluewares.example.com"
                draft.name = "Gary R. Edwards"
            })
        try mine.resolve(.reload)
        // Position is title and organization; only the title differs.
        #expect(mine.clashes == [.title, .phone])
        #expect(mine.draft.name == "Gary R. Edwards")          // only theirs changed it
        #expect(mine.draft.email == "gary@bluewares.example.com")
        #expect(mine.draft.position == "Lead Web Developer, Bluewares")  // mine until settled
        mine.takeTheirs(.phone)
        mine.keepMine(.title)
        #expect(mine.clashes.isEmpty)
        let saved = try mine.save()
        #expect(saved.phone == "555 1234" && saved.position == "Lead Web Developer, Bluewares" && saved.name == "Gary R. Edwards")
        #expect(saved.version == theirs.version + 1)
    }

    @Test func quoteReloadMergesTheSameWay() throws {
        let state = try makeState(dir.database)
        let quote = try #require(state.currentQuote)
        let (mine, theirs, other) = try conflict(
            over: quote, in: state, mine: { $0.author = "A. Einstein" }, theirs: { $0.text = "Two things are infinite." })
        try mine.resolve(.reload)
        #expect(mine.clashes.isEmpty)
        #expect(mine.draft == QuoteDraft(text: "Two things are infinite.", author: "A. Einstein"))
        #expect(mine.original == theirs)
        // Both change the text: the one field to ask about.
        let again = EditQuoteViewModel(state: other, quote: other.currentQuote)
        again.draft.text = "Theirs."
        try again.save()
        mine.draft.text = "Mine."
        #expect(throws: CarnetError.self) { try mine.save() }
        try mine.resolve(.reload)
        #expect(mine.clashes == [.text])
        mine.takeTheirs(.text)
        #expect(mine.draft == QuoteDraft(text: "Theirs.", author: "A. Einstein"))
    }

    @Test func overwriteSavesMineKnowingly() throws {
        let (mine, theirs, state) = try conflictingEdits()
        var saved: Contact?
        mine.onSave = { saved = $0 }
        let result = try mine.resolve(.overwrite)
        #expect(result == saved)
        #expect(saved?.phone == "555 9999")
        #expect(saved?.email == "gary@example.com")  // my draft, whole
        #expect(saved?.version == theirs.version + 1)
        #expect(try state.contact(id: theirs.id) == saved)
    }

    @Test func cancelLeavesTheirVersion() throws {
        let (mine, theirs, state) = try conflictingEdits()
        var cancelled = false
        mine.onCancel = { cancelled = true }
        try mine.resolve(.cancel)
        #expect(cancelled)
        #expect(try state.contact(id: theirs.id) == theirs)
    }

    @Test func refreshPicksUpAnotherConnectionsWrite() throws {
        let (state, people) = try seededState(dir.database)
        let all = ContactsViewModel(state: state)
        let favorites = ContactsViewModel(state: state, favoritesOnly: true)
        let quote = QuoteViewModel(state: state)
        try all.onAppear()
        #expect(try state.refresh() == false)  // nothing changed elsewhere: one pragma, no reads

        let elsewhere = try StorageController(path: dir.database)
        try elsewhere.addFavorite(contactID: people[0].id)
        let zoe = try elsewhere.insertContact(ContactDraft(name: "Zoe Adams"))
        try elsewhere.updateContact(people[1], with: ContactDraft(name: "Aaron Porter"))
        try elsewhere.addQuote(QuoteDraft(text: "Elsewhere.", author: "Other"), makeCurrent: true)

        #expect(favorites.rows.isEmpty)  // not yet: this screen has not appeared again
        try favorites.onAppear()
        #expect(favorites.rows.map(\.contact.id) == [people[0].id])
        #expect(all.rows.map(\.contact.name).first == "Aaron Porter")
        #expect(all.rows.contains { $0.contact == zoe })
        #expect(state.contactCount == 6)
        #expect(quote.quote?.text == "Elsewhere.")
        #expect(try state.refresh() == false)
    }

    @Test func detailNoticesDeletionElsewhere() throws {
        let (state, people) = try seededState(dir.database)
        let detail = ContactsViewModel(state: state).detail(for: people[0])
        try StorageController(path: dir.database).deleteContact(id: people[0].id)
        try detail.onAppear()
        #expect(detail.isDeleted)
    }

    @Test(.exhaustive) func pagingThroughTenThousandContactsKeepsMemoryBounded() throws {
        let state = try makeState(dir.database)
        let storage = try StorageController(path: dir.database)
        let drafts = (0..<10_000).map { ContactDraft(name: String(format: "Person %05d", ($0 * 7919) % 10_000)) }
        try storage.insertContacts(drafts)
        try state.refresh()
        let list = ContactsViewModel(state: state, pageSize: 50, maxRows: 200)
        try list.onAppear()
        var seen: [Int64] = list.rows.map(\.id)
        var largest = list.rows.count
        while list.hasMore {
            let lastID = list.rows.last?.id
            try list.loadNextPage()
            let newRows = list.rows.drop { $0.id != lastID }.dropFirst()
            seen += newRows.map(\.id)
            largest = max(largest, list.rows.count)
        }
        #expect(seen.count == 10_000)
        #expect(Set(seen).count == 10_000)
        #expect(largest <= 200)
        #expect(list.rows.last?.contact.name == "Person 09999")
        #expect(list.hasEarlier)
        // And back up again, still bounded.
        var pagesUp = 0
        while list.hasEarlier {
            try list.loadPreviousPage()
            largest = max(largest, list.rows.count)
            pagesUp += 1
        }
        #expect(list.rows.first?.contact.name == "Person 00000")
        #expect(largest <= 200)
        #expect(pagesUp == (10_000 - 200) / 50)
        #expect(list.totalCount == 10_000)
    }

    @Test func saveInsertsIntoEveryListWhoseRangeCoversIt() throws {
        let state = try makeState(dir.database)
        _ = try seed(state)
        let all = ContactsViewModel(state: state, pageSize: 2, maxRows: 4)
        try all.onAppear()
        #expect(all.rows.map(\.contact.name) == ["Gary Edwards", "Katherine Price"])
        try state.addContact(ContactDraft(name: "Aaron Aardvark"))   // before the window's end: shown
        try state.addContact(ContactDraft(name: "Zach Zimmer"))      // beyond a page not yet read: not shown yet
        #expect(all.rows.map(\.contact.name) == ["Aaron Aardvark", "Gary Edwards", "Katherine Price"])
        while all.hasMore { try all.loadNextPage() }
        #expect(all.rows.last?.contact.name == "Zach Zimmer")
        let search = ContactsViewModel(state: state)
        try search.setSearch("example.com")
        #expect(search.rows.count == 5)
        try state.addContact(ContactDraft(name: "New Person", email: "new@example.com"))
        #expect(search.rows.count == 6)
    }

    @Test func anOverlongSearchIsRefusedAndTheListKeepsItsRows() throws {
        let state = try makeState(dir.database)
        _ = try seed(state)
        for favoritesOnly in [false, true] {
            let list = ContactsViewModel(state: state, favoritesOnly: favoritesOnly)
            try list.onAppear()
            try list.setSearch("example.com")
            let rows = list.rows
            let error: CarnetError?
            do {
                try list.setSearch(String(repeating: "x", count: Limits.searchLength + 1))
                error = nil
            } catch let thrown {
                error = thrown
            }
            guard case .invalidSearch = error else {
                Issue.record("expected invalidSearch, got \(String(describing: error))")
                continue
            }
            #expect(list.search == "example.com")
            #expect(list.rows == rows)
            try list.setSearch("")  // empty is "no filter"
            #expect(list.search.isEmpty)
        }
        #expect(throws: CarnetError.self) { try state.contactCount(matching: String(repeating: "x", count: 50_000)) }
    }
}
