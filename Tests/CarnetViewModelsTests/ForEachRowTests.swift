import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import Testing

/// `forEachRow`: the rows a screen would show, handed over one by one and not kept, the way
/// `carnet list` prints them.
@MainActor
@Suite struct ForEachRowTests {
    let dir = TempDirectory()

    func rows(_ list: ContactsViewModel, matching search: String = "", limit: Int = .max, pageSize: Int = 2) throws -> [ContactRow] {
        var rows: [ContactRow] = []
        try list.forEachRow(matching: search, limit: limit, pageSize: pageSize) { rows.append($0) }
        return rows
    }

    @Test func theSameRowsAsTheScreenShows() throws {
        let (state, people) = try seededState(dir.database)
        try state.favorite(people[4].id)
        try state.favorite(people[1].id)
        let all = ContactsViewModel(state: state)
        try all.onAppear()
        #expect(try rows(all) == all.rows)
        #expect(try rows(all).filter(\.isFavorite).map(\.favoritePosition) == [1, 2])  // Rebecca, then Tyler
        #expect(try rows(all, limit: 3) == Array(all.rows.prefix(3)))
        #expect(try rows(all, matching: "EXAMPLE.com", pageSize: 1).count == 5)
        #expect(try rows(all, matching: "bluewares").map(\.contact) == [people[3]])

        let favorites = ContactsViewModel(state: state, favoritesOnly: true)
        #expect(try rows(favorites) == favorites.rows)
        #expect(try rows(favorites).map(\.contact.id) == [people[4].id, people[1].id])
        #expect(try rows(favorites, matching: "prophecy").map(\.contact.id) == [people[1].id])
        #expect(try rows(favorites, limit: 1).map(\.contact.id) == [people[4].id])
        #expect(throws: CarnetError.self) { try rows(all, matching: String(repeating: "x", count: Limits.searchLength + 1)) }
    }

    /// `forEachSummaryRow` (what `carnet list` prints from): the rows' summaries, favorites marked.
    @Test func summaryRowsSummarizeTheRows() throws {
        let (state, people) = try seededState(dir.database)
        try state.favorite(people[4].id)
        try state.favorite(people[1].id)
        func summarized(_ rows: [ContactRow]) -> [ContactSummaryRow] {
            rows.map { ContactSummaryRow(summary: ContactSummary($0.contact), isFavorite: $0.isFavorite, favoritePosition: $0.favoritePosition) }
        }
        for favoritesOnly in [false, true] {
            let list = ContactsViewModel(state: state, favoritesOnly: favoritesOnly)
            for query in [ContactQuery(), ContactQuery(search: "example.com"), ContactQuery(search: "prophecy"), ContactQuery(order: .family)] {
                var whole: [ContactRow] = []
                try list.forEachRow(query: query, pageSize: 2) { whole.append($0) }
                var lines: [ContactSummaryRow] = []
                try list.forEachSummaryRow(query: query, pageSize: 2) { lines.append($0) }
                #expect(lines == summarized(whole), "\(query), favorites only: \(favoritesOnly)")
            }
        }
        #expect(throws: CarnetError.self) {
            try ContactsViewModel(state: state).forEachSummaryRow(query: ContactQuery(search: String(repeating: "x", count: Limits.searchLength + 1))) { _ in }
        }
    }

    @Test func itPicksUpOthersChangesAsOnAppearDoes() throws {
        let (state, people) = try seededState(dir.database)
        let all = ContactsViewModel(state: state, pageSize: 2, maxRows: 4)
        try all.onAppear()
        let shown = all.rows
        let other = try makeState(dir.database)
        let added = try other.addContact(ContactDraft(name: "Aaron Abbott"))
        try other.favorite(added.id)
        let streamed = try rows(all, pageSize: 3)
        #expect(streamed.first?.contact == added && streamed.first?.isFavorite == true)
        #expect(streamed.count == people.count + 1)
        #expect(all.rows.count <= 4)
        #expect(all.rows.map(\.id) != shown.map(\.id))  // refreshed, as onAppear would
        #expect(all.rows.first?.contact == added)
    }
}
