import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation

/// `CarnetBenchmarks --books`: listing one address book of `n` contacts in a file of `books`
/// books of `n` each, against listing a file of `n` contacts in one book (what every file was
/// before books), in the same run on the same contacts. The "raw" column is the one-book file.
/// Two workloads, as the screens read: a ContactList's first page (50 rows, the contacts tab),
/// and the whole list by summaries a page of 1,000 at a time (`carnet list` into a pipe).
enum BooksBenchmark {
    static let target = 1.1

    @MainActor static func main(n: Int = 10_000, books: Int = 10) -> Int32 {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-bench-books-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            print(renderTable(try run(n: n, books: books, in: directory)))
            return 0
        } catch {
            progress("CarnetBenchmarks --books: \(error)")
            return 1
        }
    }

    @MainActor static func run(n: Int, books: Int, in directory: String) throws -> [ReportRow] {
        let listed = books / 2  // a book in the middle of the file, neither first nor last
        let seeds = (0..<books).map { UInt64(0xB00C + $0) }

        progress("[books] \(books) books of \(formatCount(n)), and one of \(formatCount(n))")
        let many = try StorageController(path: "\(directory)/books.sqlite")
        var listedID: Int64 = AddressBook.defaultID
        for (index, seed) in seeds.enumerated() {
            let book = index == 0 ? try many.addressBook(named: AddressBook.defaultName) : try many.addAddressBook(named: "Book \(index)")
            if index == listed { listedID = book.id }
            var drafts = ContactData.drafts(count: n, seed: seed)[...]
            _ = try many.importContacts(source: "book \(index)", options: ImportOptions(bookID: book.id)) { drafts.popFirst().map { InterchangeRecord(draft: $0) } }
        }
        let one = try StorageController(path: "\(directory)/one.sqlite")
        var drafts = ContactData.drafts(count: n, seed: seeds[listed])[...]
        _ = try one.importContacts(source: "one book") { drafts.popFirst().map { InterchangeRecord(draft: $0) } }

        let manyState = try StateController(storage: many)
        let oneState = try StateController(storage: one)
        let bookQuery = ContactQuery(bookID: listedID)
        let allQuery = ContactQuery()

        // The same rows either way, or the comparison means nothing.
        func firstPage(_ state: StateController, _ query: ContactQuery) throws -> [String] {
            let list = state.makeContactList(query: query, pageSize: 50, maxRows: 500)
            try list.loadNextPage()
            return list.rows.map(\.name)
        }
        guard try firstPage(manyState, bookQuery) == firstPage(oneState, allQuery) else { throw BenchError("books: the first pages differ") }

        var rows: [ReportRow] = []
        progress("[books] first page ×400")
        let first = try alternating(
            reps: 400,
            carnet: { _ in try timed { _ = try firstPage(manyState, bookQuery) } },
            raw: { _ in try timed { _ = try firstPage(oneState, allQuery) } })
        rows.append(row("list one book: first page (50)", n, first))

        func wholeList(_ state: StateController, _ book: AddressBook?, _ query: ContactQuery) throws -> Double {
            var count = 0
            let seconds = try timed {
                try ContactsViewModel(state: state, book: book).forEachSummaryRow(query: query, pageSize: 1000) { _ in count += 1 }
            }
            guard count == n else { throw BenchError("books: the whole list had \(count) rows") }
            return seconds
        }
        let listedBook = AddressBook(id: listedID, name: "Book \(listed)")
        progress("[books] whole list ×15")
        let whole = try alternating(
            reps: 15,
            carnet: { _ in try wholeList(manyState, listedBook, bookQuery) },
            raw: { _ in try wholeList(oneState, nil, allQuery) })
        rows.append(row("list one book: whole list", n, whole))
        try many.close()
        try one.close()
        return rows
    }

    private static func row(_ workload: String, _ n: Int, _ samples: (carnet: [Double], raw: [Double])) -> ReportRow {
        let (c, r) = (median(samples.carnet), median(samples.raw))
        return ReportRow(
            workload: workload + " (10 books vs 1)", n: formatCount(n), carnet: formatSeconds(c), raw: formatSeconds(r),
            ratio: formatRatio(c / r), target: "≤ " + formatRatio(target), verdict: Verdict.mark(c / r <= target))
    }
}
