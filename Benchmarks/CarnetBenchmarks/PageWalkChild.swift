import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation

/// What a page-walk child prints on stdout, one line: `rows=… pages=… peak_kib=… seconds=…`.
struct PageWalkReport {
    var rows: Int
    var pages: Int
    var peakKiB: Int
    var seconds: Double

    var line: String { "rows=\(rows) pages=\(pages) peak_kib=\(peakKiB) seconds=\(seconds)" }

    init(rows: Int, pages: Int, peakKiB: Int, seconds: Double) {
        self.rows = rows
        self.pages = pages
        self.peakKiB = peakKiB
        self.seconds = seconds
    }

    init?(parsing text: String) {
        var fields: [Substring: Substring] = [:]
        for pair in text.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard let rows = fields["rows"].flatMap({ Int($0) }), let pages = fields["pages"].flatMap({ Int($0) }),
              let peak = fields["peak_kib"].flatMap({ Int($0) }), let seconds = fields["seconds"].flatMap({ Double($0) })
        else { return nil }
        self.init(rows: rows, pages: pages, peakKiB: peak, seconds: seconds)
    }
}

/// The hidden child modes of the memory workload. A fresh process, so that its peak RSS is the
/// walk's alone, not the benchmark's (which holds a million contacts at times).
enum PageWalkChild {
    static let carnetFlag = "--page-walk-child"
    static let rawFlag = "--page-walk-child-raw"

    /// Opens the file as the CLI does and scrolls a contacts screen to the end, reading each
    /// page's rows as a screen would show them.
    @MainActor
    static func carnet(path: String) throws {
        let start = nowNanos()
        let storage = try StorageController(path: path)
        let state = try StateController(storage: storage)
        let viewModel = ContactsViewModel(state: state, pageSize: 50, maxRows: 200)
        try viewModel.onAppear()
        var rowsSeen = 0
        var pages = 1
        var lastID: Int64?
        while true {
            // The rows after the last one seen: the view model keeps a window, not the table.
            let rows = viewModel.rows
            let startIndex = lastID.flatMap { id in rows.firstIndex { $0.id == id }.map { $0 + 1 } } ?? 0
            rowsSeen += rows.count - startIndex
            lastID = rows.last?.id ?? lastID
            guard viewModel.hasMore else { break }
            try viewModel.loadNextPage()
            pages += 1
        }
        try storage.close()
        let seconds = Double(nowNanos() - start) / 1e9
        print(PageWalkReport(rows: rowsSeen, pages: pages, peakKiB: peakRSSKiB() ?? 0, seconds: seconds).line)
    }

    /// The same walk with the raw C API, keeping the same 200-row window: the floor.
    static func raw(path: String) throws {
        let start = nowNanos()
        let db = try RawConnection(path: path)
        let pager = try RawPager(db, limit: 50)
        var window: [Contact] = []
        var rowsSeen = 0
        var pages = 0
        var key: ContactSortKey?
        var more = true
        while more {
            let page = try pager.page(after: key)
            pages += 1
            rowsSeen += page.contacts.count
            window += page.contacts
            if window.count > 200 { window.removeFirst(window.count - 200) }
            key = page.contacts.last?.sortKey
            more = page.hasMore
        }
        let seconds = Double(nowNanos() - start) / 1e9
        print(PageWalkReport(rows: rowsSeen, pages: pages, peakKiB: peakRSSKiB() ?? 0, seconds: seconds).line)
    }
}
