import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

/// How much of each workload to run. `--quick` keeps N = 10k and 100k and fewer repetitions.
struct Plan {
    let quick: Bool
    /// `--sizes`: these N instead of 10k, 100k (and 1M).
    var chosenSizes: [Int]? = nil
    var sizes: [Int] { chosenSizes ?? (quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000]) }
    var largest: Int { sizes.last! }
    var smallest: Int { sizes.first! }
    /// The largest N, then the smallest: the CLI rows run at both ends (once when `--sizes` gives one N).
    var ends: [Int] { largest == smallest ? [largest] : [largest, smallest] }

    func importReps(_ n: Int) -> Int { quick ? 3 : (n >= 1_000_000 ? 3 : 5) }
    func loadReps(_ n: Int) -> Int { quick ? 3 : (n >= 1_000_000 ? 3 : n >= 100_000 ? 5 : 9) }
    var firstPageCalls: Int { quick ? 101 : 301 }
    // A 10k walk takes ~20 ms, so more repetitions there steady the baseline of the scaling target.
    func walkReps(_ n: Int) -> Int { quick ? (n <= 10_000 ? 9 : 3) : (n >= 1_000_000 ? 3 : n >= 100_000 ? 5 : 15) }
    var editReps: Int { quick ? 3 : 5 }
    let editsPerRep = 1_000
    var observationReps: Int { quick ? 11 : 21 }
    let observers = 100
    var cliRuns: Int { quick ? 5 : 10 }
    /// Runs of the short processes (`carnet --version`, `carnet query`, a few milliseconds each),
    /// enough for a steady median on a shared machine.
    var queryRuns: Int { quick ? 21 : 41 }
    let pageSize = 50
}

/// The targets docs/performance.md lists with the current figures (import 1.3×: a contact is its
/// row and four or five child rows, each validated).
enum Target {
    static let importRatio = 1.3
    static let loadAllRatio = 1.3
    static let scaling = 1.2  // first page and page walk per page, largest N against 10k
    static let editRatio = 1.3
    /// With the history recorded in the same transaction, against raw without one.
    static let historyImportRatio = 1.5
    static let historyEditRatio = 1.5
    /// Undoing one edit, against the edit itself.
    static let undoRatio = 2.0
    static let cliRatio = 1.0
    static let cliListAllRatio = 2.0  // every contact into a pipe, against sqlite3 printing the same
    static let peakMiB = 64.0
    // Search through the FTS5 index.
    static let searchRatio = 1.5  // first 20 results at the largest N, against the same FTS query run raw
    static let indexImportCost = 1.3  // import with the index ÷ without
    static let indexFileCost = 1.5  // file size with the index ÷ without
    static let queryRatio = 1.5  // carnet query at 10k ÷ abook --mutt-query
}

/// Runs every workload, Carnet and raw side by side, and prints the report.
@MainActor
final class Benchmark {
    /// A part of the benchmark run alone (`--only`).
    enum Part: String, CaseIterable {
        /// The search rows: import against raw (both indexing), what the index costs an import and
        /// the file, the first 20 results of a search, and `carnet query` against abook.
        case search
        /// The history rows: import with the history, edit/save with the history, undo of one edit.
        case history
        /// The history's edit/save and undo rows only (the book is made untimed, history off).
        case historyEdits = "history-edits"
        /// The live layer: commit-to-screen latency, the idle cost of observing, the pool stall.
        case live
        /// The full screen on a pseudo-terminal: first frame, a key while scrolling, a commit elsewhere.
        case screen
    }

    let plan: Plan
    let only: Part?
    let carnetBinary: String?
    let helloBinary: String?
    let tempDirectory: String
    let schemaSQL: String
    /// The schema without the search index (migrations 6, 8 and 10), for what the index costs.
    let schemaWithoutIndexSQL: String

    /// Report rows, sorted by (section, N) when printed.
    var rows: [(section: Int, n: Int, row: ReportRow)] = []
    var notes: [String] = []
    /// Medians kept for the scaling targets: N → (Carnet, raw) seconds.
    var firstPage: [Int: (Double, Double)] = [:]
    var perPage: [Int: (Double, Double)] = [:]

    init(plan: Plan, only: Part? = nil, carnetBinary: String?, helloBinary: String?) throws {
        self.plan = plan
        self.only = only
        self.carnetBinary = carnetBinary
        self.helloBinary = helloBinary
        schemaSQL = try Self.loadSchemaSQL()
        schemaWithoutIndexSQL = try Self.loadSchemaSQL(excluding: Self.searchIndexMigrations)
        var template = Array((NSTemporaryDirectory() + "carnet-bench-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("mkdtemp: \(String(cString: strerror(errno)))") }
        tempDirectory = String(cString: made)
    }

    /// The SQL of `migrations/*.sql`, in order: the raw side creates its file with exactly the
    /// schema Carnet applies (same CHECKs, same indexes), read from the repository next to this
    /// source file. ``verifySameSchema(carnet:raw:drafts:)`` checks the result against Carnet's file.
    /// The migrations that make the search index: without them, a file has no index at all.
    static let searchIndexMigrations: Set<String> = [
        "0006_search.sql", "0008_search_two_columns.sql", "0010_search_national_number_once.sql", "0016_search_one_definition.sql",
        "0019_search_people_only.sql", "0026_search_other_column_first.sql",
    ]

    static func loadSchemaSQL(excluding excluded: Set<String> = []) throws -> String {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") && !excluded.contains($0) }.sorted()
        guard !files.isEmpty else { throw BenchError("no migrations in \(directory.path)") }
        return try files.map { try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n;\n")
    }

    // MARK: - Driver

    func run() throws {
        let start = nowNanos()
        defer { try? FileManager.default.removeItem(atPath: tempDirectory) }

        print("Carnet benchmarks\(plan.quick ? " (--quick)" : "")\(only.map { " (--only \($0.rawValue))" } ?? "")")
        for line in MachineInfo.collect(tempDirectory: tempDirectory).lines { print(line) }
        print("""
            how:      release build; Carnet (StorageController / StateController / view models over GRDB) and the raw \
            SQLite C API do the same work in this process, on files with the same schema, WAL, foreign_keys=ON and \
            the same page cache (\(StorageController.pageCacheKiB) KiB); Carnet opened with durability .full, the raw side with synchronous=FULL, and every \
            fsync counted on both sides; wall clock (CLOCK_MONOTONIC); median of several repetitions, the sides \
            alternating; data generated before timing from a fixed seed; CLI rows are whole processes.
            """)
        print("")
        fflush(nil)  // the header shows while the workloads run (stdout may be a pipe)

        switch only {
        case nil: try runEverything()
        case .search: try runSearchRows()
        case .history, .historyEdits:
            for n in plan.sizes { try runHistoryOnly(n: n, withImport: only == .history) }
        case .live: try runLive()
        case .screen:
            // The books are made untimed: the import rows are not what this part measures.
            var books: [Int: String] = [:]
            for n in plan.ends {
                progress("[\(formatCount(n))] making a book of \(n) contacts (untimed)")
                let book = tempDirectory + "/screen-\(n).sqlite"
                let storage = try StorageController(path: book)
                try storage.setHistoryKeep(0)
                _ = try storage.insertContacts(ContactData.drafts(count: n))
                try storage.close()
                books[n] = book
            }
            try runScreen(books: books)
        }

        let table = renderTable(rows.sorted { ($0.section, $0.n) < ($1.section, $1.n) }.map(\.row))
        print(table)
        if !notes.isEmpty {
            print("notes:")
            for note in notes { print("  - \(note)") }
        }
        let missed = rows.filter { $0.row.verdict.hasPrefix("✗") }.count
        print("")
        print("\(missed == 0 ? "all targets met" : "\(missed) target\(missed == 1 ? "" : "s") missed"); "
            + "total wall time \(formatSeconds(Double(nowNanos() - start) / 1e9)); load \(MachineInfo.loadAverage()) at the end")
    }

    func runEverything() throws {
        var books: [Int: String] = [:]
        for n in plan.sizes {
            let book = try runImport(n: n)
            books[n] = book
            try runReads(n: n, book: book)
            try runEdits(n: n, book: book, observe: n == plan.largest)
            if n != plan.smallest && n != plan.largest { removeDatabase(book) }
        }
        try runCLI(books: books)
        try runScreen(books: books)
        try runMemory(book: books[plan.largest]!)
        let sync = try SyncBench.run(n: plan.smallest, in: tempDirectory)
        rows += sync.rows.map { (11, plan.smallest, $0) }
        notes += sync.notes
        try runLive()
        addScalingVerdicts()
    }

    /// `--only search`: the search rows, and the import row (Carnet and raw both keep the index),
    /// for each N; at the smallest N, `carnet query` against abook and `carnet --version`.
    func runSearchRows() throws {
        var smallBook: String?
        for n in plan.sizes {
            let book = try runImport(n: n, withHistory: false)
            do {
                let storage = try StorageController(path: book)
                defer { try? storage.close() }
                try runSearch(n: n, storage: storage, db: try RawConnection(path: book))
            }
            if n == plan.smallest { smallBook = book } else { removeDatabase(book) }
        }
        guard let carnet = carnetBinary, let hello = helloBinary else {
            notes.append("CLI: skipped (pass --carnet PATH and --hello PATH)")
            return
        }
        let stderrFile = tempDirectory + "/cli.stderr"
        try runStartup(carnet: carnet, hello: hello, stderrFile: stderrFile)
        try runMailQuery(book: smallBook, n: plan.smallest, carnet: carnet, stderrFile: stderrFile)
    }

    // MARK: - Report helpers

    func addRatioRow(
        _ section: Int, _ workload: String, _ n: Int, _ samples: (carnet: [Double], raw: [Double]), target: Double?
    ) {
        let (c, r) = (median(samples.carnet), median(samples.raw))
        let ratio = c / r
        rows.append((section, n, ReportRow(
            workload: workload, n: n == 0 ? "—" : formatCount(n), carnet: formatSeconds(c), raw: formatSeconds(r),
            ratio: formatRatio(ratio),
            target: target.map { "≤ " + formatRatio($0) } ?? "",
            verdict: target.map { Verdict.mark(ratio <= $0) } ?? "")))
    }

    /// First page and per-page walk: Carnet at the largest N against Carnet at 10k.
    func addScalingVerdicts() {
        let (small, large) = (plan.smallest, plan.largest)
        for (section, medians, label) in [(3, firstPage, "first page"), (5, perPage, "page walk per page")] {
            guard let base = medians[small], let top = medians[large] else { continue }
            let growth = top.0 / base.0
            for index in rows.indices where rows[index].section == section {
                if rows[index].n == large {
                    rows[index].row.target = "\(formatCount(large)) ≤ \(formatRatio(Target.scaling)) of \(formatCount(small))"
                    rows[index].row.verdict = "\(Verdict.mark(growth <= Target.scaling)) \(formatRatio(growth))"
                } else if rows[index].n == small {
                    rows[index].row.target = "(baseline)"
                }
            }
            var note = "\(label), \(formatCount(large)) vs \(formatCount(small)): \(formatRatio(growth)) for Carnet, "
                + "\(formatRatio(top.1 / base.1)) for raw"
            for middle in plan.sizes.dropFirst().dropLast() {
                if let m = medians[middle] {
                    note += "; \(formatCount(large)) vs \(formatCount(middle)): \(formatRatio(top.0 / m.0)) for Carnet, "
                        + "\(formatRatio(top.1 / m.1)) for raw"
                }
            }
            notes.append(note + ".")
        }
    }

    /// The edit and import targets assume both sides pay for `synchronous = FULL` (a WAL sync at
    /// every commit). If Carnet syncs less than the raw side, its time is not for the same work:
    /// the verdict says so instead of a ✓.
    func checkDurability(section: Int, n: Int, _ syncs: SyncTally, perRep commits: Int, what: String) {
        let carnet = Double(syncs.carnetSyncs) / Double(syncs.carnetReps * commits)
        let raw = Double(syncs.rawSyncs) / Double(syncs.rawReps * commits)
        let summary = String(format: "%@ at %@: %.2f fsyncs per commit for Carnet, %.2f for raw", what, formatCount(n), carnet, raw)
        guard carnet < raw * 0.9 else {
            if n == plan.largest { notes.append(summary + " (same durability).") }
            return
        }
        notes.append(summary + ": Carnet's commits are not synced (not synchronous=FULL), so its time is for "
            + "less work than the raw side's and cannot pass.")
        for index in rows.indices where rows[index].section == section && rows[index].n == n {
            rows[index].row.verdict = rows[index].row.verdict == "✓" ? "✗ no fsync" : "✗ also no fsync"
        }
    }

    // MARK: - Files

    func dbPath(_ name: String) -> String { "\(tempDirectory)/\(name).sqlite" }

    func removeDatabase(_ paths: String...) {
        for path in paths {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        }
    }

    /// Folds any WAL into the file and closes, so that copies and other processes start from one
    /// self-contained file (closing the last connection removes the WAL).
    func settle(_ path: String) throws {
        try RawConnection(path: path).checkpointTruncate()
    }
}

/// fsyncs (via ``SyncCounter``) during each side's timed repetitions.
struct SyncTally {
    var carnetSyncs = 0, carnetReps = 0, rawSyncs = 0, rawReps = 0

    mutating func carnet(_ body: () throws -> Double) rethrows -> Double {
        try Self.counting(body, syncs: &carnetSyncs, reps: &carnetReps)
    }

    mutating func raw(_ body: () throws -> Double) rethrows -> Double {
        try Self.counting(body, syncs: &rawSyncs, reps: &rawReps)
    }

    private static func counting(_ body: () throws -> Double, syncs: inout Int, reps: inout Int) rethrows -> Double {
        let before = SyncCounter.count
        let seconds = try body()
        syncs += SyncCounter.count - before
        reps += 1
        return seconds
    }
}

/// Counts `withObservationTracking` onChange calls, with the time of the first and the last.
/// onChange closures are `@Sendable`, hence the mutex.
final class ChangeProbe: Sendable {
    struct Seen { var count = 0; var first: UInt64 = 0; var last: UInt64 = 0 }
    private let seen = Mutex(Seen())

    func reset() { seen.withLock { $0 = Seen() } }

    func fired() {
        let now = nowNanos()
        seen.withLock { s in
            s.count += 1
            if s.count == 1 { s.first = now }
            s.last = now
        }
    }

    func snapshot() -> Seen { seen.withLock { $0 } }
}
