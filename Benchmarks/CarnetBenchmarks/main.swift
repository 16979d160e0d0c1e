// `make bench`: Carnet's layers against the raw SQLite C API, in the same run, on the same data.
//
//   CarnetBenchmarks --carnet .build/release/carnet --hello .build/release/Hello [--quick]
//
// Prints the machine, then one table: workload, N, Carnet median, raw median, Carnet/raw,
// target, ✓/✗. Progress goes to stderr. Temporary databases live in a fresh directory under
// $TMPDIR that is removed at the end.
import Foundation

let usage = """
    usage: CarnetBenchmarks [--quick] [--only PART] [--sizes N,N...] [--carnet PATH] [--hello PATH]
           CarnetBenchmarks --profile WORKLOAD [--n N] [--reps R] [--raw | --both] [--book PATH]
           CarnetBenchmarks --sync [--n N]
           CarnetBenchmarks --books
           CarnetBenchmarks --import-baseline PATH [--carnet PATH] [--n N] [--reps R]

      --quick         N = 10k and 100k only, fewer repetitions (for development)
      --only PART     only one part: search (issue 16's rows: import with and without the index, file
                      size, the first 20 search results, carnet --version, carnet query against abook),
                      history (issue 15's: import and edit/save with the history, undo of one edit)
                      or history-edits (its edit/save and undo rows)
      --sizes N,N     these numbers of contacts instead of 10k, 100k and 1M (e.g. --sizes 1000000)
      --carnet PATH   the release `carnet` binary, for the CLI workload (default: next to this binary)
      --hello PATH    the release `Hello` binary, the startup floor (default: next to this binary)
      --profile W     only workload W (import, load, page, first, edit, undo) on one side, repeated, for a
                      profiler such as `perf record -g`; N contacts (default 100000), R times (default 3),
                      Carnet's side unless --raw (--both: alternate, compare medians); --book PATH makes
                      the book there once and reuses it; unindexed --raw is the raw import on a file
                      without the search index (against import --raw: what the index costs)
      --sync          only the sync rows (issue 17): first sync of N contacts (default 10000) up and
                      down, and incremental syncs of one change, with Radicale on loopback
      --import-baseline PATH
                      only issue 14's rows: `carnet import FILE.vcf` of N cards (default 100000) by
                      --carnet against the baseline `carnet` at PATH, R times each (default 3)
                      (`make bench-import-baseline` builds the baseline and runs this)
    """

enum Mode {
    case benchmark(Plan, only: Benchmark.Part?, carnet: String?, hello: String?)
    case profile(String, n: Int, reps: Int, raw: Bool, both: Bool, book: String?)
    case sync(n: Int)
    case importBaseline(String, carnet: String?, n: Int, reps: Int)
    case carnetChild(String)
    case rawChild(String)
    case help
}

func parseArguments(_ arguments: [String]) throws -> Mode {
    var quick = false
    let sibling = { (name: String) -> String? in
        let path = URL(fileURLWithPath: selfExecutablePath()).deletingLastPathComponent().appendingPathComponent(name).path
        return access(path, X_OK) == 0 ? path : nil
    }
    var carnet: String?
    var hello: String?
    var profile: String?
    var n = 100_000
    var reps = 3
    var raw = false
    var both = false
    var book: String?
    var sync = false
    var baseline: String?
    var only: Benchmark.Part?
    var sizes: [Int]?
    var rest = arguments[...]
    func value(for flag: String) throws -> String {
        guard let value = rest.popFirst() else { throw BenchError("\(flag) needs a value\n\(usage)") }
        return value
    }
    while let argument = rest.popFirst() {
        switch argument {
        case "--quick": quick = true
        case "--carnet": carnet = try value(for: argument)
        case "--hello": hello = try value(for: argument)
        case PageWalkChild.carnetFlag: return .carnetChild(try value(for: argument))
        case PageWalkChild.rawFlag: return .rawChild(try value(for: argument))
        case "--profile": profile = try value(for: argument)
        case "--n": n = Int(try value(for: argument)) ?? n
        case "--reps": reps = Int(try value(for: argument)) ?? reps
        case "--raw": raw = true
        case "--both": both = true
        case "--book": book = try value(for: argument)
        case "--sync": sync = true
        case DuplicatesBenchmark.flag: try DuplicatesBenchmark.main(Array(rest)); exit(0)
        case "--import-baseline": baseline = try value(for: argument)
        case "--only":
            let part = try value(for: argument)
            guard let known = Benchmark.Part(rawValue: part) else { throw BenchError("--only \(part): not a part (\(Benchmark.Part.allCases.map(\.rawValue).joined(separator: ", ")))\n\(usage)") }
            only = known
        case "--sizes":
            let list = try value(for: argument)
            let parsed = list.split(separator: ",").compactMap { Int($0) }
            guard !parsed.isEmpty, parsed.count == list.split(separator: ",").count, parsed.allSatisfy({ $0 >= 1_000 }) else {
                throw BenchError("--sizes wants numbers of contacts of at least 1000, separated by commas (got \(list))\n\(usage)")
            }
            sizes = parsed
        case "-h", "--help": return .help
        default: throw BenchError("unknown argument \(argument)\n\(usage)")
        }
    }
    if sync { return .sync(n: arguments.contains("--n") ? n : 10_000) }
    if let baseline { return .importBaseline(baseline, carnet: carnet ?? sibling("carnet"), n: n, reps: reps) }
    if let profile { return .profile(profile, n: n, reps: reps, raw: raw, both: both, book: book) }
    // Checked now rather than after minutes of other workloads.
    for case let path? in [carnet, hello] where access(path, X_OK) != 0 {
        throw BenchError("\(path) is not an executable file (build it first: swift build -c release --product ...)")
    }
    return .benchmark(Plan(quick: quick, chosenSizes: sizes), only: only, carnet: carnet ?? sibling("carnet"), hello: hello ?? sibling("Hello"))
}

// The view models and the state controller are @MainActor; top-level code runs on the main thread.
if CommandLine.arguments.dropFirst().first == "--books" { exit(MainActor.assumeIsolated { BooksBenchmark.main() }) }
let status: Int32 = MainActor.assumeIsolated {
    do {
        switch try parseArguments(Array(CommandLine.arguments.dropFirst())) {
        case let .benchmark(plan, only, carnet, hello):
            try SyncCounter.install()  // before any connection opens
            try Benchmark(plan: plan, only: only, carnetBinary: carnet, helloBinary: hello).run()
        case let .profile(workload, n, reps, raw, both, book):
            try Profile.run(workload: workload, n: n, reps: reps, raw: raw, both: both, book: book)
        case let .sync(n):
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-bench-sync-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let result = try SyncBench.run(n: n, in: directory)
            print(renderTable(result.rows))
            for note in result.notes { print("  - \(note)") }
        case let .importBaseline(baseline, carnet, n, reps):
            guard let carnet else { throw BenchError("no carnet binary: pass --carnet PATH") }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-bench-import-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            print("Issue 14: carnet import FILE.vcf, \(carnet) against the baseline \(baseline) (the \"raw\" column)")
            print(renderTable(try ImportBaseline.run(n: n, reps: reps, carnet: carnet, baseline: baseline, in: directory)))
        case let .carnetChild(path):
            try PageWalkChild.carnet(path: path)
        case let .rawChild(path):
            try PageWalkChild.raw(path: path)
        case .help:
            print(usage)
        }
        return 0
    } catch {
        progress("CarnetBenchmarks: \(error)")
        return 1
    }
}
exit(status)
