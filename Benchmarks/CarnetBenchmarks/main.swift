// `make bench`: Carnet's layers against the raw SQLite C API, in the same run, on the same data.
//
//   CarnetBenchmarks --carnet .build/release/carnet --hello .build/release/Hello [--quick]
//
// Prints the machine, then one table: workload, N, Carnet median, raw median, Carnet/raw,
// target, ✓/✗. Progress goes to stderr. Temporary databases live in a fresh directory under
// $TMPDIR that is removed at the end.
import Foundation

let usage = """
    usage: CarnetBenchmarks [--quick] [--carnet PATH] [--hello PATH]

      --quick         N = 10k and 100k only, fewer repetitions (for development)
      --carnet PATH   the release `carnet` binary, for the CLI workload (default: next to this binary)
      --hello PATH    the release `Hello` binary, the startup floor (default: next to this binary)
    """

enum Mode {
    case benchmark(Plan, carnet: String?, hello: String?)
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
        case "-h", "--help": return .help
        default: throw BenchError("unknown argument \(argument)\n\(usage)")
        }
    }
    // Checked now rather than after minutes of other workloads.
    for case let path? in [carnet, hello] where access(path, X_OK) != 0 {
        throw BenchError("\(path) is not an executable file (build it first: swift build -c release --product ...)")
    }
    return .benchmark(Plan(quick: quick), carnet: carnet ?? sibling("carnet"), hello: hello ?? sibling("Hello"))
}

// The view models and the state controller are @MainActor; top-level code runs on the main thread.
let status: Int32 = MainActor.assumeIsolated {
    do {
        switch try parseArguments(Array(CommandLine.arguments.dropFirst())) {
        case let .benchmark(plan, carnet, hello):
            try SyncCounter.install()  // before any connection opens
            try Benchmark(plan: plan, carnetBinary: carnet, helloBinary: hello).run()
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
