import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// Sections 2 and 3: load all, the first page, the page walk.
extension Benchmark {
    /// Both sides read the same file: Carnet through a `StorageController`, raw through its own
    /// connection.
    func runReads(n: Int, book: String) throws {
        let storage = try StorageController(path: book)
        defer { try? storage.close() }
        let db = try RawConnection(path: book)
        let pager = try RawPager(db, limit: plan.pageSize)

        // Load all.
        let reps = plan.loadReps(n)
        progress("[\(formatCount(n))] load all ×\(reps)")
        var carnetAll: [Contact] = []
        var rawAll: [Contact] = []
        let load = try alternating(
            reps: reps,
            carnet: { rep in
                var result: [Contact] = []
                let seconds = try timed { result = try storage.allContacts() }
                if rep == 0 { carnetAll = result }  // released after the loop, untimed
                return seconds
            },
            raw: { rep in
                var result: [Contact] = []
                let seconds = try timed { result = try rawAllContacts(db) }
                if rep == 0 { rawAll = result }
                return seconds
            })
        guard carnetAll.count == n, carnetAll == rawAll else {
            throw BenchError("load all: Carnet and raw read different contacts (\(carnetAll.count) vs \(rawAll.count))")
        }
        carnetAll = []
        rawAll = []
        addRatioRow(2, "load all into [Contact]", n, load, target: Target.loadAllRatio)
        try runSearch(n: n, storage: storage, db: db)

        // First page: many single calls, each timed on its own.
        progress("[\(formatCount(n))] first page ×\(plan.firstPageCalls)")
        let limit = plan.pageSize
        guard try storage.contacts(after: nil, limit: limit) == pager.page(after: nil) else {
            throw BenchError("first page: Carnet and raw differ")
        }
        let first = try alternating(
            reps: plan.firstPageCalls,
            carnet: { _ in try timed { _ = try storage.contacts(after: nil, limit: limit) } },
            raw: { _ in try timed { _ = try pager.page(after: nil) } })
        firstPage[n] = (median(first.carnet), median(first.raw))
        addRatioRow(3, "first page (50 by name)", n, first, target: nil)

        // Page walk: the whole table by keyset pages.
        let walkReps = plan.walkReps(n)
        progress("[\(formatCount(n))] page walk ×\(walkReps)")
        let expectedPages = n / limit + (n % limit == 0 ? 0 : 1)
        /// Seconds to read every page in name order, each page starting after the last key.
        func walkAll(_ side: String, _ page: (ContactSortKey?) throws -> ContactPage) throws -> Double {
            var rowsSeen = 0
            var pages = 0
            let seconds = try timed {
                var key: ContactSortKey?
                var more = true
                while more {
                    let next = try page(key)
                    rowsSeen += next.contacts.count
                    pages += 1
                    key = next.contacts.last?.sortKey
                    more = next.hasMore
                }
            }
            guard rowsSeen == n, pages == expectedPages else { throw BenchError("\(side) walk saw \(rowsSeen) rows") }
            return seconds
        }
        let walk = try alternating(
            reps: walkReps,
            carnet: { _ in try walkAll("Carnet") { key in try storage.contacts(after: key, limit: limit) } },
            raw: { _ in try walkAll("raw") { key in try pager.page(after: key) } })
        addRatioRow(4, "page walk, whole table", n, walk, target: nil)
        let pageSamples = (walk.carnet.map { $0 / Double(expectedPages) }, walk.raw.map { $0 / Double(expectedPages) })
        perPage[n] = (median(pageSamples.0), median(pageSamples.1))
        addRatioRow(5, "page walk, per page", n, pageSamples, target: nil)
    }
}
