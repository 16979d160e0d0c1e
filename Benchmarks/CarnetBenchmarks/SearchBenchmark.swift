import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// Section 11: the first results of a search through the FTS5 index.
extension Benchmark {
    /// The first 20 results of a one-word and a two-word search, best first, through Carnet
    /// (`contacts(after:limit:query:)` with `.relevance`) and through the same FTS5 query raw.
    func runSearch(n: Int, storage: StorageController, db: RawConnection) throws {
        let raw = try RawSearch(db, limit: 20)
        for words in [["grace"], ["grace", "sales"]] {
            let query = ContactQuery(search: words.joined(separator: " "), order: .relevance)
            let carnetPage = try storage.contacts(after: nil, limit: 20, query: query)
            guard carnetPage == (try raw.first(words)), carnetPage.contacts.count == 20 else {
                throw BenchError("search \(words): Carnet and raw differ, or found fewer than 20")
            }
            progress("[\(formatCount(n))] search \(words.joined(separator: " ")) ×\(plan.firstPageCalls)")
            let samples = try alternating(
                reps: plan.firstPageCalls,
                carnet: { _ in try timed { _ = try storage.contacts(after: nil, limit: 20, query: query) } },
                raw: { _ in try timed { _ = try raw.first(words) } })
            addRatioRow(11, "search: first 20 of \"\(words.joined(separator: " "))\" (\(words.count) word\(words.count == 1 ? "" : "s"))", n, samples,
                        target: n == plan.largest ? Target.searchRatio : nil)
        }
    }
}
