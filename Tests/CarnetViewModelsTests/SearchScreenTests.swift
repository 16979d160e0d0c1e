import CarnetModels
import CarnetState
import CarnetViewModels
import Testing

/// Search on the screens: the contacts list searches through the index with paging, best
/// matches first when sorted by relevance, and the favorites tab decides the same way.
@MainActor
@Suite struct SearchScreenTests {
    let dir = TempDirectory()

    @Test func theListSearchesAccentsWordsAndPhonesAPageAtATime() throws {
        let state = try makeState(dir.database)
        _ = try seed(state)
        for i in 0..<7 { try state.addContact(ContactDraft(name: "Élodie \(i) Martin", phone: "+1 555 123 456\(i)")) }
        let list = ContactsViewModel(state: state, pageSize: 2, maxRows: 4)
        try list.onAppear()
        try list.setSearch("martin elodie")
        #expect(list.matchCount == 7 && list.rows.count == 2 && list.hasMore)
        while list.hasMore { try list.loadNextPage() }
        #expect(list.rows.map(\.contact.name) == ["Élodie 3 Martin", "Élodie 4 Martin", "Élodie 5 Martin", "Élodie 6 Martin"])
        #expect(list.hasEarlier)
        while list.hasEarlier { try list.loadPreviousPage() }
        #expect(list.rows.first?.contact.name == "Élodie 0 Martin")
        try list.setSearch("555-123-4563")
        #expect(list.rows.map(\.contact.name) == ["Élodie 3 Martin"])
        var seen: [String] = []
        try list.forEachRow(query: ContactQuery(search: "ÉLODIE"), pageSize: 3) { seen.append($0.contact.name) }
        #expect(seen.count == 7)
    }

    @Test func byRelevanceNameHitsComeFirstAndASaveMovesARow() throws {
        let state = try makeState(dir.database)
        var noted = ContactDraft(name: "Aaron Note")
        noted.note = "met ada at the conference"
        let aaron = try state.addContact(noted)
        try state.addContact(ContactDraft(name: "Ada Lovelace"))
        try state.addContact(ContactDraft(name: "Zed Adams"))
        let list = ContactsViewModel(state: state, pageSize: 10)
        try list.onAppear()
        try list.setSearch("ada")
        #expect(list.rows.map(\.contact.name) == ["Aaron Note", "Ada Lovelace", "Zed Adams"])
        try list.setOrder(.relevance)
        #expect(list.rows.map(\.contact.name) == ["Ada Lovelace", "Zed Adams", "Aaron Note"])
        // Renamed so the name holds the word: the row moves up among the name hits.
        var renamed = aaron.draft
        renamed.setNameParts(PersonName(given: "Adalbert", family: "Note"))
        try state.updateContact(aaron, with: renamed)
        #expect(list.rows.map(\.contact.name) == ["Ada Lovelace", "Adalbert Note", "Zed Adams"])
        // …and one that no longer matches leaves the list.
        try state.updateContact(try state.contact(id: aaron.id), with: ContactDraft(name: "Someone Else"))
        #expect(list.rows.map(\.contact.name) == ["Ada Lovelace", "Zed Adams"])
    }

    @Test func theFavoritesTabMatchesAsTheIndexDoes() throws {
        let state = try makeState(dir.database)
        let zoe = try state.addContact(ContactDraft(name: "Zoë Ångström", phone: "020 7946 0000"))
        let ada = try state.addContact(ContactDraft(name: "Ada Lovelace"))
        try state.favorite(zoe.id)
        try state.favorite(ada.id)
        let favorites = ContactsViewModel(state: state, favoritesOnly: true)
        try favorites.onAppear()
        for search in ["angstrom", "ZOE ång", "+44 20 7946 0000"] {
            try favorites.setSearch(search)
            #expect(favorites.rows.map(\.contact.name) == ["Zoë Ångström"], "\(search)")
        }
        #expect(throws: CarnetError.self) { try favorites.setSearch("\"*\"") }
        #expect(favorites.search == "+44 20 7946 0000")
    }
}
