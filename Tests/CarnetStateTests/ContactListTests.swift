import CarnetModels
import CarnetState
import CarnetStorage
import Foundation
import Testing

/// The paged, windowed contact list over thousands of contacts in a real file: pages come by
/// keyset, the window never holds more than `maxRows`, and its rows are always exactly the
/// stored contacts between its first and last row, whatever this process changes.
@MainActor
@Suite struct ContactListTests {
    static let count = 3_000
    let dir = TempDirectory()

    /// A state controller over `count` contacts, and every contact in name order (as the file
    /// sorts them) to compare windows with.
    func book(count: Int = Self.count) throws -> (StateController, StorageController, [Contact]) {
        let (state, storage) = try makeState(dir.database)
        try seedMany(storage, count: count)
        try state.refresh()
        return (state, storage, try storage.allContacts())
    }

    /// The list's rows are a contiguous run of `all`, and its flags say what lies outside it.
    func expectWindow(_ list: ContactList, of all: [Contact], sourceLocation: SourceLocation = #_sourceLocation) {
        guard let first = list.rows.first, let start = all.firstIndex(of: first) else {
            #expect(list.rows.isEmpty && all.isEmpty, "the first row is not a stored contact", sourceLocation: sourceLocation)
            return
        }
        let end = start + list.rows.count
        #expect(end <= all.count && Array(all[start..<min(end, all.count)]) == list.rows,
                "rows are not the stored contacts from \(first.name) on", sourceLocation: sourceLocation)
        #expect(list.hasEarlier == (start > 0), sourceLocation: sourceLocation)
        #expect(list.hasMore == (end < all.count), sourceLocation: sourceLocation)
        #expect(list.rows.count <= list.maxRows, sourceLocation: sourceLocation)
    }

    @Test func walkingForwardSeesEveryContactOnceInNameOrderWithinBoundedRows() throws {
        let (state, _, all) = try book()
        #expect(all.count == Self.count)
        // Names sort ignoring ASCII case ("person 00007" between "Person 00006" and "Person 00008").
        #expect(all.prefix(9).map(\.name) == (0..<9).map { i in
            let name = String(format: "Person %05d", i)
            return i % 7 == 0 ? name.lowercased() : name
        })
        let list = state.makeContactList(pageSize: 100, maxRows: 300)
        #expect(list.rows.isEmpty && list.hasMore && !list.hasEarlier)

        var seen: [Contact] = []
        var pages = 0
        var largest = 0
        while list.hasMore {
            let last = list.rows.last
            try list.loadNextPage()
            pages += 1
            let start = last.flatMap { list.rows.firstIndex(of: $0).map { $0 + 1 } } ?? 0
            seen += list.rows[start...]
            largest = max(largest, list.rows.count)
            expectWindow(list, of: all)
        }
        #expect(pages == Self.count / 100)
        #expect(seen == all)
        #expect(largest == 300)
        #expect(list.hasEarlier)
        #expect(list.rows == Array(all.suffix(300)))
        try list.loadNextPage()  // at the end: nothing to read, nothing changes
        #expect(list.rows == Array(all.suffix(300)))
    }

    @Test func walkingBackReadsTheDroppedRowsAgain() throws {
        let (state, _, all) = try book()
        let list = state.makeContactList(pageSize: 50, maxRows: 120)
        for _ in 0..<10 { try list.loadNextPage() }  // rows 0..<500 read, the last 120 kept
        #expect(list.rows == Array(all[380..<500]))
        expectWindow(list, of: all)

        try list.loadPreviousPage()
        #expect(list.rows == Array(all[330..<450]))  // the page before, the end trimmed to maxRows
        expectWindow(list, of: all)
        var steps = 1
        while list.hasEarlier {
            try list.loadPreviousPage()
            steps += 1
            expectWindow(list, of: all)
            #expect(list.rows.count <= 120)
        }
        #expect(steps == 1 + (330 + 49) / 50)  // the first step, then back to row 0 in pages of 50
        #expect(list.rows.first == all[0])
        #expect(list.hasMore)
        try list.loadPreviousPage()  // at the start: nothing happens
        #expect(list.rows.first == all[0])

        // And forward again from there.
        try list.loadNextPage()
        expectWindow(list, of: all)
    }

    @Test func aSearchPagesOnlyTheMatches() throws {
        let (state, _, all) = try book()
        let matches = all.filter { $0.position.contains("Gale Foods") }
        #expect(matches.count == Self.count / 10)
        let list = state.makeContactList(search: "gale FOODS", pageSize: 64, maxRows: 128)
        var seen: [Contact] = []
        while list.hasMore {
            let last = list.rows.last
            try list.loadNextPage()
            let start = last.flatMap { list.rows.firstIndex(of: $0).map { $0 + 1 } } ?? 0
            seen += list.rows[start...]
            #expect(list.rows.count <= 128)
        }
        #expect(seen == matches)
        #expect(try state.contactCount(matching: "gale FOODS") == matches.count)
    }

    @Test func savesLandInsideTheWindowOnlyWhereTheyBelong() throws {
        let (state, storage, _) = try book()
        let list = state.makeContactList(pageSize: 100, maxRows: 200)
        for _ in 0..<5 { try list.loadNextPage() }  // a window in the middle: rows 300..<500
        #expect(list.hasEarlier && list.hasMore)
        #expect(list.rows.first?.name == "Person 00300" && list.rows.last?.name == "Person 00499")

        // Inside the window's range: shown at once, in order.
        let inside = try state.addContact(ContactDraft(name: "Person 00400a"))
        #expect(list.rows.firstIndex(of: inside).map { list.rows[$0 - 1].name } == "Person 00400")
        // Before or after it: not shown (the rows stay contiguous); found when scrolled to.
        let before = try state.addContact(ContactDraft(name: "Person 00001a"))
        let after = try state.addContact(ContactDraft(name: "Person 02000a"))
        #expect(!list.rows.contains(before) && !list.rows.contains(after))
        #expect(list.rows.count <= 200)
        expectWindow(list, of: try storage.allContacts())

        // Renamed out of the window: leaves it. Renamed into it: joins it.
        let leaving = list.rows[10]
        var draft = leaving.draft
        draft.name = "Zed Leaving"
        let left = try state.updateContact(leaving, with: draft)
        #expect(!list.rows.contains { $0.id == left.id })
        draft = before.draft
        draft.name = "Person 00450b"
        let joined = try state.updateContact(before, with: draft)
        #expect(list.rows.contains(joined))
        // Edited in place: the row shows the new version.
        draft = list.rows[20].draft
        draft.email = "moved@example.org"
        let edited = try state.updateContact(list.rows[20], with: draft)
        #expect(list.rows[20] == edited)
        expectWindow(list, of: try storage.allContacts())

        // Deleted: gone from the window, which still matches the file.
        let doomed = list.rows[30]
        try state.deleteContact(doomed)
        #expect(!list.rows.contains { $0.id == doomed.id })
        try state.deleteContact(id: list.rows[0].id)
        expectWindow(list, of: try storage.allContacts())
        #expect(try storage.contactCount() == Self.count + 3 - 2)
        #expect(state.contactCount == Self.count + 3 - 2)
    }

    @Test func savesReachEveryListAndSearchesKeepOnlyMatches() throws {
        let (state, storage, _) = try book(count: 300)
        let all = try state.loadedContactList(pageSize: 50, maxRows: 100)
        let sales = try state.loadedContactList(search: "gale foods", pageSize: 50, maxRows: 100)  // the 30 Gale Foods contacts: the whole result
        #expect(sales.rows.count == 30 && !sales.hasMore)

        let added = try state.addContact(ContactDraft(name: "Aaron Abbott", position: "Buyer, Gale Foods"))
        #expect(all.rows.first == added && sales.rows.first == added)
        #expect(all.rows.count == 51)

        var draft = added.draft
        draft.position = "Buyer, Acme Corp"
        let moved = try state.updateContact(added, with: draft)
        #expect(all.rows.first == moved)
        #expect(!sales.rows.contains { $0.id == added.id })  // no longer matches

        // A list nobody holds any more is not kept alive by the state controller.
        weak var dropped: ContactList?
        do {
            let temporary = try state.loadedContactList()
            dropped = temporary
        }
        #expect(dropped == nil)
        try state.deleteContact(moved)
        #expect(all.rows.first?.name == "person 00000")
        expectWindow(all, of: try storage.allContacts())
        expectWindow(sales, of: try storage.allContacts().filter { $0.matches(search: "gale foods") })
    }

    @Test func reloadKeepsTheWindowWhereItWasAfterOthersChangedTheFile() throws {
        let (state, _, _) = try book()
        let list = state.makeContactList(pageSize: 100, maxRows: 200)
        for _ in 0..<4 { try list.loadNextPage() }  // rows 200..<400
        let firstShown = try #require(list.rows.first)

        let other = try otherConnection(dir.database)
        try other.deleteContact(id: list.rows[5].id)
        try other.insertContact(ContactDraft(name: "Person 00250x"))
        try other.insertContact(ContactDraft(name: "Aardvark First"))  // before the window
        #expect(try state.refresh())
        #expect(list.rows.first == firstShown)
        #expect(list.rows.count == 200)
        #expect(list.rows.contains { $0.name == "Person 00250x" })
        expectWindow(list, of: try other.allContacts())
    }
}

/// `forEachContact(matching:)`: every contact once, in the list's order, one page held at a time.
@MainActor
@Suite struct StreamingContactsTests {
    let dir = TempDirectory()

    @Test func everyContactOnceInNameOrderPageByPage() throws {
        let (state, storage) = try makeState(dir.database)
        try seedMany(storage, count: 2_345)
        let all = try storage.allContacts()
        var seen: [Contact] = []
        try state.forEachContact(matching: "", pageSize: 100) { seen.append($0) }
        #expect(seen == all)

        // A limit stops early, also inside a page; a search keeps only matches.
        seen = []
        try state.forEachContact(matching: "", limit: 250, pageSize: 100) { seen.append($0) }
        #expect(seen == Array(all.prefix(250)))
        seen = []
        try state.forEachContact(matching: "GALE foods", pageSize: 7) { seen.append($0) }
        #expect(seen == all.filter { $0.matches(search: "gale foods") })
        #expect(seen.count == 235)
        seen = []
        try state.forEachContact(matching: "nobody at all") { seen.append($0) }
        #expect(seen.isEmpty)
        #expect(throws: CarnetError.self) {
            try state.forEachContact(matching: String(repeating: "x", count: Limits.searchLength + 1)) { _ in }
        }
    }

    @Test func anErrorFromTheBodyStopsTheWalk() throws {
        let (state, storage) = try makeState(dir.database)
        try seedMany(storage, count: 300)
        var count = 0
        #expect(throws: CarnetError.refused("enough")) {
            try state.forEachContact(matching: "", pageSize: 50) { _ throws(CarnetError) in
                count += 1
                if count == 120 { throw .refused("enough") }
            }
        }
        #expect(count == 120)
    }
}
