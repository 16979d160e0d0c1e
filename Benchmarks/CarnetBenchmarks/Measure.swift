import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Clock and statistics

/// Monotonic wall-clock time in nanoseconds.
@inline(__always)
func nowNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Seconds taken by `body`.
@inline(__always)
func timed(_ body: () throws -> Void) rethrows -> Double {
    let start = nowNanos()
    try body()
    return Double(nowNanos() - start) / 1e9
}

func median(_ samples: [Double]) -> Double {
    precondition(!samples.isEmpty, "median of no samples")
    let sorted = samples.sorted()
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/// Runs `carnet` and `raw` `reps` times each, alternating which goes first so that neither side
/// always runs on the caches the other warmed. Returns both sides' samples in seconds.
/// User + system CPU time so far: this process's (a child's counts only once waited for), or with
/// `children` that of the children waited for.
func cpuSeconds(children: Bool = false) -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
    #endif
    let seconds = { (t: timeval) in Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

func alternating(reps: Int, carnet: (Int) throws -> Double, raw: (Int) throws -> Double) rethrows
    -> (carnet: [Double], raw: [Double])
{
    var c: [Double] = []
    var r: [Double] = []
    for rep in 0..<reps {
        if rep % 2 == 0 {
            c.append(try carnet(rep))
            r.append(try raw(rep))
        } else {
            r.append(try raw(rep))
            c.append(try carnet(rep))
        }
    }
    return (c, r)
}

// MARK: - Formatting

func formatSeconds(_ s: Double) -> String {
    switch s {
    case ..<1e-6: return String(format: "%.0f ns", s * 1e9)
    case ..<1e-3: return String(format: "%.1f µs", s * 1e6)
    case ..<1: return String(format: "%.2f ms", s * 1e3)
    default: return String(format: "%.2f s", s)
    }
}

func formatRatio(_ r: Double) -> String { String(format: "%.2f×", r) }

func formatMiB(_ kib: Int) -> String { String(format: "%.1f MiB", Double(kib) / 1024) }

func formatCount(_ n: Int) -> String {
    switch n {
    case 1_000_000... where n % 1_000_000 == 0: return "\(n / 1_000_000)M"
    case 1_000... where n % 1_000 == 0: return "\(n / 1_000)k"
    default: return "\(n)"
    }
}

/// Progress goes to stderr so that stdout holds only the report.
func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

// MARK: - The report table

struct ReportRow {
    var workload: String
    var n: String
    var carnet: String
    var raw: String
    var ratio: String
    var target: String
    var verdict: String
}

enum Verdict {
    static func mark(_ ok: Bool) -> String { ok ? "✓" : "✗" }
}

func renderTable(_ rows: [ReportRow]) -> String {
    let header = ReportRow(
        workload: "workload", n: "N", carnet: "Carnet median", raw: "raw median", ratio: "Carnet/raw",
        target: "target", verdict: "")
    let all = [header] + rows
    func cells(_ r: ReportRow) -> [String] { [r.workload, r.n, r.carnet, r.raw, r.ratio, r.target, r.verdict] }
    var widths = [Int](repeating: 0, count: 7)
    for row in all {
        for (i, cell) in cells(row).enumerated() { widths[i] = max(widths[i], cell.count) }
    }
    // Text left-aligned, numbers right-aligned.
    let rightAligned: Set<Int> = [1, 2, 3, 4]
    func line(_ r: ReportRow) -> String {
        cells(r).enumerated().map { i, cell in
            let pad = String(repeating: " ", count: widths[i] - cell.count)
            return rightAligned.contains(i) ? pad + cell : cell + pad
        }.joined(separator: "  ")
    }
    var out = line(header) + "\n"
    out += widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ") + "\n"
    for row in rows { out += line(row) + "\n" }
    return out
}
