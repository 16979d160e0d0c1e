import CarnetModels
import CarnetStorage
import Foundation

/// The import-against-an-earlier-release row: `carnet import FILE.vcf` of this build against the `carnet` of an earlier
/// commit (the baseline, built by `make bench-import-baseline`), whole processes, the same vCard
/// file, alternating in the same run. The file is the benchmark's N contacts exported by the
/// baseline, so both sides read what the baseline itself writes.
///
/// Three rows: this build as shipped (history and search index on), this build with the history
/// off (`carnet history --keep 0`; the index cannot be turned off), each ÷ the baseline; wall
/// time and, less disturbed by other processes, the children's CPU time.
enum ImportBaseline {
    static func run(n: Int, reps: Int, carnet: String, baseline: String, in directory: String) throws -> [ReportRow] {
        let stderrFile = directory + "/import.stderr"
        let book = directory + "/book.sqlite"
        let seed = directory + "/seed.sqlite"
        let storage = try StorageController(path: book)
        try storage.insertContacts(ContactData.drafts(count: n))
        try storage.close()
        // The baseline's export: a file made by the newer build would not be the baseline's.
        let cards = directory + "/cards.vcf"
        try spawnAndWait(carnet, ["--db", book, "export", "--output", directory + "/current.vcf"], stderrPath: stderrFile)
        try spawnAndWait(baseline, ["--db", seed, "import", directory + "/current.vcf"], stderrPath: stderrFile)
        try spawnAndWait(baseline, ["--db", seed, "export", "--output", cards], stderrPath: stderrFile)

        func importing(_ binary: String, historyOff: Bool, rep: Int) throws -> (wall: Double, cpu: Double) {
            let path = "\(directory)/import-\(rep).sqlite"
            defer { for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) } }
            if historyOff { try spawnAndWait(binary, ["--db", path, "history", "--keep", "0"], stderrPath: stderrFile) }
            let before = cpuSeconds(children: true)
            let wall = try spawnAndWait(binary, ["--db", path, "import", cards], stderrPath: stderrFile)
            let cpu = cpuSeconds(children: true) - before
            let db = try RawConnection(path: path)
            let count = try rawCount(db, "SELECT count(*) FROM contacts")
            guard count == n else { throw BenchError("\(binary) import of \(cards) kept \(count) of \(n) contacts") }
            return (wall, cpu)
        }

        var rows: [ReportRow] = []
        for historyOff in [false, true] {
            var cpu: (carnet: [Double], raw: [Double]) = ([], [])
            let wall = try alternating(
                reps: reps,
                carnet: { rep in
                    let (wall, used) = try importing(carnet, historyOff: historyOff, rep: rep)
                    cpu.carnet.append(used)
                    return wall
                },
                raw: { rep in
                    let (wall, used) = try importing(baseline, historyOff: false, rep: rep)
                    cpu.raw.append(used)
                    return wall
                })
            let side = historyOff ? "history off" : "as shipped"
            for (measure, samples) in [("wall", wall), ("CPU", cpu)] {
                let ratio = median(samples.carnet) / median(samples.raw)
                rows.append(ReportRow(
                    workload: "CLI import FILE.vcf, \(side) ÷ baseline (\(measure))", n: formatCount(n),
                    carnet: String(format: "%.1f µs/card", median(samples.carnet) / Double(n) * 1e6),
                    raw: String(format: "%.1f µs/card", median(samples.raw) / Double(n) * 1e6),
                    ratio: formatRatio(ratio), target: "≤ 1.30×", verdict: Verdict.mark(ratio <= 1.3)))
            }
        }
        return rows
    }
}
