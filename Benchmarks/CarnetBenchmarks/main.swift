// `make bench`: Carnet's layers against the raw SQLite C API, in the same run, on the same data.
//
//   CarnetBenchmarks --carnet .build/release/carnet --hello .build/release/Hello [--quick]
//
// Prints the machine, then one table: workload, N, Carnet median, raw median, Carnet/raw,
// target, ✓/✗. Progress goes to stderr. Temporary databases live in a fresh directory under
// $TMPDIR that is removed at the end. Each workload is a file of its own (ImportBenchmark.swift,
// ReadsBenchmark.swift, …); Benchmark.swift runs them and prints the report.
import ArgumentParser
import Foundation

extension Benchmark.Part: ExpressibleByArgument {}

struct BenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "CarnetBenchmarks",
        abstract: "Carnet's layers against the raw SQLite C API, in the same run, on the same data.",
        usage: """
            CarnetBenchmarks [--quick] [--only <part>] [--sizes <n,n...>] [--carnet <path>] [--hello <path>]
            CarnetBenchmarks --profile <workload> [--n <n>] [--reps <r>] [--raw | --both] [--book <path>]
            CarnetBenchmarks --sync [--n <n>]
            CarnetBenchmarks --books
            CarnetBenchmarks --duplicates <n,n...>
            CarnetBenchmarks --scale <n,n...> [--carnet <path>]
            CarnetBenchmarks --import-baseline <path> [--carnet <path>] [--n <n>] [--reps <r>]
            """)

    @Flag(help: "N = 10k and 100k only, fewer repetitions (for development).")
    var quick = false

    @Option(
        help: ArgumentHelp(
            "Only one part of the benchmark.",
            discussion: """
                search: import with and without the index, file size, the first 20 search results, \
                carnet --version, carnet query against abook; history: import and edit/save with the \
                history, undo of one edit; history-edits: its edit/save and undo rows.
                """,
            valueName: "part"))
    var only: Benchmark.Part?

    @Option(
        help: ArgumentHelp(
            "These numbers of contacts instead of 10k, 100k and 1M (e.g. --sizes 1000000).", valueName: "n,n..."),
        transform: Self.parseSizes)
    var sizes: [Int]?

    @Option(help: ArgumentHelp("The release `carnet` binary, for the CLI workloads (default: next to this binary).", valueName: "path"))
    var carnet: String?

    @Option(help: ArgumentHelp("The release `Hello` binary, the startup floor (default: next to this binary).", valueName: "path"))
    var hello: String?

    @Option(
        help: ArgumentHelp(
            "Only this workload on one side, repeated, for a profiler such as `perf record -g`.",
            discussion: """
                import, load, page, first, search, edit or undo; Carnet's side unless --raw (--both: alternate, \
                compare medians). `unindexed --raw` is the raw import on a file without the search index.
                """,
            valueName: "workload"))
    var profile: String?

    @Option(help: "Contacts for --profile (default 100000), --sync (default 10000) and --import-baseline (default 100000).")
    var n: Int?

    @Option(help: "Repetitions for --profile and --import-baseline.")
    var reps = 3

    @Flag(help: "With --profile: the raw SQLite side.")
    var raw = false

    @Flag(help: "With --profile: alternate both sides and compare medians.")
    var both = false

    @Option(help: ArgumentHelp("With --profile: make the book there once and reuse it.", valueName: "path"))
    var book: String?

    @Flag(help: "Only the sync rows: first sync of N contacts up and down, and incremental syncs of one change, with Radicale on loopback.")
    var sync = false

    @Option(
        name: .customLong("import-baseline"),
        help: ArgumentHelp(
            "Only the rows of `carnet import FILE.vcf` of N cards by --carnet against the baseline `carnet` at this path.",
            discussion: "`make bench-import-baseline` builds the baseline and runs this.",
            valueName: "path"))
    var importBaseline: String?

    // The memory workload starts this binary again as the process whose peak it measures.
    @Flag(help: "Only the address-book rows: one book of 10k in a file of 10 books of 10k, against a file of one book.")
    var books = false

    @Option(help: ArgumentHelp(
        "Only the duplicates row: carnet duplicates on files of these numbers of contacts, against every pair.", valueName: "n,n..."))
    var duplicates: String?

    @Option(help: ArgumentHelp(
        "carnet import, duplicates, undo, redo, export and reindex as processes on N generated cards: peak memory, bytes a contact, against the library and sqlite3.",
        valueName: "n,n..."))
    var scale: String?

    @Option(name: .customLong(String(PageWalkChild.carnetFlag.dropFirst(2))), help: .hidden)
    var pageWalkChild: String?

    @Option(name: .customLong(String(PageWalkChild.rawFlag.dropFirst(2))), help: .hidden)
    var pageWalkChildRaw: String?

    // The live rows start this binary again as the other process that writes.
    @Option(name: .customLong("live-writer"), help: .hidden)
    var liveWriter: String?

    static func parseSizes(_ list: String) throws -> [Int] {
        let parsed = list.split(separator: ",").compactMap { Int($0) }
        guard !parsed.isEmpty, parsed.count == list.split(separator: ",").count, parsed.allSatisfy({ $0 >= 1_000 }) else {
            throw ValidationError("--sizes wants numbers of contacts of at least 1000, separated by commas (got \(list))")
        }
        return parsed
    }

    /// An executable beside this one, e.g. the `carnet` that `make bench` builds with it.
    static func sibling(_ name: String) -> String? {
        let path = URL(fileURLWithPath: selfExecutablePath()).deletingLastPathComponent().appendingPathComponent(name).path
        return access(path, X_OK) == 0 ? path : nil
    }

    func run() throws {
        do {
            // The view models and the state controller are @MainActor; `main()` runs on the main thread.
            try MainActor.assumeIsolated { try runOnMain() }
        } catch {
            progress("CarnetBenchmarks: \(error)")
            throw ExitCode.failure
        }
    }

    @MainActor
    func runOnMain() throws {
        if let pageWalkChild { return try PageWalkChild.carnet(path: pageWalkChild) }
        if let pageWalkChildRaw { return try PageWalkChild.raw(path: pageWalkChildRaw) }
        if let liveWriter { return try LiveWriter.run(path: liveWriter) }
        if sync {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-bench-sync-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let result = try SyncBench.run(n: n ?? 10_000, in: directory)
            print(renderTable(result.rows))
            for note in result.notes { print("  - \(note)") }
            return
        }
        if books {
            let status = BooksBenchmark.main()
            if status != 0 { throw ExitCode(status) }
            return
        }
        if let duplicates { return try DuplicatesBenchmark.main([duplicates]) }
        if let scale {
            guard let carnet = carnet ?? Self.sibling("carnet") else { throw BenchError("no carnet binary: pass --carnet PATH") }
            return try ScaleBenchmark.main([scale], carnet: carnet)
        }
        if let importBaseline {
            guard let carnet = carnet ?? Self.sibling("carnet") else { throw BenchError("no carnet binary: pass --carnet PATH") }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-bench-import-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            print("carnet import FILE.vcf, \(carnet) against the baseline \(importBaseline) (the \"raw\" column)")
            print(renderTable(try ImportBaseline.run(n: n ?? 100_000, reps: reps, carnet: carnet, baseline: importBaseline, in: directory)))
            return
        }
        if let profile {
            return try Profile.run(workload: profile, n: n ?? 100_000, reps: reps, raw: raw, both: both, book: book)
        }
        // Checked now rather than after minutes of other workloads.
        for case let path? in [carnet, hello] where access(path, X_OK) != 0 {
            throw BenchError("\(path) is not an executable file (build it first: swift build -c release --product ...)")
        }
        try SyncCounter.install()  // before any connection opens
        try Benchmark(
            plan: Plan(quick: quick, chosenSizes: sizes), only: only,
            carnetBinary: carnet ?? Self.sibling("carnet"), helloBinary: hello ?? Self.sibling("Hello")
        ).run()
    }
}

BenchmarkCommand.main()
