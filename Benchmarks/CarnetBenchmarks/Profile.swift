import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation

/// `--profile WORKLOAD [--n N] [--reps R] [--raw | --both] [--book PATH]`: one side of one workload,
/// repeated, for a profiler (`perf record -g .build/release/CarnetBenchmarks --profile load`).
/// The book is made first, untimed (or kept at PATH and reused); each repetition's time goes to
/// stderr; with --both the two sides alternate and their medians are compared. Workloads: import, load, page
/// (a whole page walk), first (the first page, 1,000 times), search (the first 20 of a one-word
/// search by relevance, 1,000 times, as the benchmark's search row), edit (1,000 edit/saves), undo (1,000
/// edits each undone, the undos timed; its "raw" side times the edits instead, so --both
/// compares an undo with the edit it takes back), unindexed (raw only: the raw import on a file
/// without the search index, what `--profile import --raw` is measured against for the index's
/// cost).
@MainActor
enum Profile {
    static let workloads = ["import", "load", "page", "first", "search", "edit", "undo", "unindexed"]

    static func run(workload: String, n: Int, reps: Int, raw: Bool, both: Bool, book given: String?) throws {
        var template = Array((NSTemporaryDirectory() + "carnet-profile-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp failed") }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let drafts = ContactData.drafts(count: n)
        // A book named with --book is made once and kept, so that a profile of a read is not
        // mostly the import that made its book.
        let book = given ?? directory + "/book.sqlite"
        if workload != "import" && !FileManager.default.fileExists(atPath: book) {
            let storage = try StorageController(path: book)
            try storage.insertContacts(drafts)
            try storage.close()
        }
        var samples: [Bool: [Double]] = [:]
        var cpu: [Bool: [Double]] = [:]
        for rep in 0..<reps {
            // With --both, the sides alternate as in the benchmark, and the medians are compared.
            for raw in both ? (rep % 2 == 0 ? [false, true] : [true, false]) : [raw] {
                let (seconds, used) = try once(workload: workload, drafts: drafts, book: book, directory: directory, n: n, rep: rep, raw: raw)
                samples[raw, default: []].append(seconds)
                cpu[raw, default: []].append(used)
                progress("\(workload)\(raw ? " (raw)" : "") \(formatCount(n)) rep \(rep + 1): \(formatSeconds(seconds)), CPU \(formatSeconds(used))")
            }
        }
        if both, let carnet = samples[false], let raw = samples[true], let carnetCPU = cpu[false], let rawCPU = cpu[true] {
            progress("\(workload) \(formatCount(n)): Carnet \(formatSeconds(median(carnet))), raw \(formatSeconds(median(raw))), "
                + "Carnet/raw \(formatRatio(median(carnet) / median(raw))); CPU (user + system, less disturbed by other "
                + "processes) \(formatSeconds(median(carnetCPU))) / \(formatSeconds(median(rawCPU))) = \(formatRatio(median(carnetCPU) / median(rawCPU)))")
        }
    }

    /// One repetition: its wall-clock and CPU seconds (the timed part only).
    private static func once(
        workload: String, drafts: [ContactDraft], book: String, directory: String, n: Int, rep: Int, raw: Bool
    ) throws -> (Double, Double) {
        do {
            func measure(_ body: () throws -> Void) rethrows -> (Double, Double) {
                let before = cpuSeconds()
                let seconds = try timed(body)
                return (seconds, cpuSeconds() - before)
            }
            let measured: (Double, Double)
            switch (workload, raw) {
            case ("import", false):
                let path = directory + "/import-\(rep).sqlite"
                let storage = try StorageController(path: path)
                measured = try measure { try storage.insertContacts(drafts) }
                try storage.close()
            case ("import", true), ("unindexed", true):
                let path = directory + "/import-raw-\(rep).sqlite"
                let db = try RawConnection(path: path)
                try db.exec(try Benchmark.loadSchemaSQL(excluding: workload == "unindexed" ? Benchmark.searchIndexMigrations : []))
                measured = try measure {
                    let writer = try RawContactWriter(db)
                    let stamp = Timestamp.string(Timestamp.now())
                    try db.exec("BEGIN IMMEDIATE")
                        for draft in drafts { _ = try writer.insert(draft, uid: UUID().uuidString.lowercased(), stamp: stamp) }
                        try db.exec("COMMIT")
                }
            case ("load", false):
                let storage = try StorageController(path: book)
                measured = try measure { _ = try storage.allContacts() }
            case ("load", true):
                let db = try RawConnection(path: book)
                measured = try measure { _ = try rawAllContacts(db) }
            case ("page", false), ("first", false):
                let storage = try StorageController(path: book)
                measured = try measure {
                    if workload == "first" {
                        for _ in 0..<1_000 { _ = try storage.contacts(after: nil, limit: 50) }
                        return
                    }
                    var key: ContactSortKey?
                    while true {
                        let page = try storage.contacts(after: key, limit: 50)
                        guard page.hasMore, let last = page.contacts.last else { break }
                        key = last.sortKey
                    }
                }
            case ("page", true), ("first", true):
                let pager = try RawPager(try RawConnection(path: book), limit: 50)
                measured = try measure {
                    if workload == "first" {
                        for _ in 0..<1_000 { _ = try pager.page(after: nil) }
                        return
                    }
                    var key: ContactSortKey?
                    while true {
                        let page = try pager.page(after: key)
                        guard page.hasMore, let last = page.contacts.last else { break }
                        key = last.sortKey
                    }
                }
            case ("search", false):
                let storage = try StorageController(path: book)
                let query = ContactQuery(search: "grace", order: .relevance)
                measured = try measure {
                    for _ in 0..<1_000 { _ = try storage.contacts(after: nil, limit: 20, query: query) }
                }
            case ("search", true):
                let search = try RawSearch(try RawConnection(path: book), limit: 20)
                measured = try measure {
                    for _ in 0..<1_000 { _ = try search.first(["grace"]) }
                }
            case ("edit", false):
                let storage = try StorageController(path: book)
                let state = try StateController(storage: storage)
                let ids = ContactData.distinctIDs(count: 1_000, upTo: n, seed: UInt64(rep))
                let bases = try ids.map { id throws(CarnetError) in try state.contact(id: id) }
                measured = try measure {
                    for (k, base) in bases.enumerated() {
                        let edit = EditContactViewModel(state: state, contact: base)
                        // New values on every run, so that no save finds its draft already stored.
                        edit.draft.position = "Edited \(k) \(getpid()), Gale Foods"
                        edit.draft.email = "edited.\(k).\(getpid())@example.com"
                        try edit.save()
                    }
                }
            case ("edit", true):
                // The benchmark's raw edit: the row, and the emails list it changed.
                let db = try RawConnection(path: book)
                let writer = try RawContactWriter(db)
                let reader = try RawPager(db, limit: 1)
                let emails = RawChildTable.all.firstIndex { $0.name == "contact_emails" }!
                let ids = ContactData.distinctIDs(count: 1_000, upTo: n, seed: UInt64(rep) &+ 1_000)
                let bases = try ids.map { try reader.contact(id: $0) }
                measured = try measure {
                    for (k, base) in bases.enumerated() {
                        var draft = base.draft
                        draft.title = "Edited \(k) \(getpid())"
                        draft.organization = "Gale Foods"
                        draft.emails[draft.emails.firstIndex(where: \.preferred) ?? 0].value = "edited.\(k).\(getpid())@example.com"
                        try db.exec("BEGIN IMMEDIATE")
                        try writer.saveEdit(draft, over: base, list: emails)
                        try db.exec("COMMIT")
                    }
                }
            case ("undo", _):
                let storage = try StorageController(path: book)
                let state = try StateController(storage: storage)
                let ids = ContactData.distinctIDs(count: 1_000, upTo: n, seed: UInt64(rep) &+ 2_000)
                var total = (0.0, 0.0)
                for (k, id) in ids.enumerated() {
                    let edit = EditContactViewModel(state: state, contact: try state.contact(id: id))
                    edit.draft.position = "Undone \(k) \(getpid()), Gale Foods"
                    edit.draft.email = "undone.\(k).\(getpid())@example.com"
                    let saved = try measure { try edit.save() }
                    let undone = try measure { _ = try state.undo() }
                    let timed = raw ? saved : undone
                    total = (total.0 + timed.0, total.1 + timed.1)
                }
                measured = total
            default:
                throw BenchError("--profile: no workload \(workload) (\(workloads.joined(separator: ", ")))\(raw ? " on the raw side" : "")")
            }
            return measured
        }
    }
}
