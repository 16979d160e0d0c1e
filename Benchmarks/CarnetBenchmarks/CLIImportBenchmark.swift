import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// `carnet import` as a process, and a card made to be slow to read.
extension Benchmark {
    /// `carnet import` of a vCard 4.0 file of N cards that Carnet exported (read, mapped,
    /// validated and written, history on, as a user runs it; the file is created by the command,
    /// which costs a few milliseconds) against the raw side inserting the same contacts. The peak
    /// RSS of the importing process, measured once by /usr/bin/time, shows that the file streams.
    func runCLIImport(books: [Int: String], carnet: String, stderrFile: String) throws {
        for n in plan.ends {
            guard let book = books[n] else { continue }
            let cards = tempDirectory + "/cards-\(n).vcf"
            try spawnAndWait(carnet, ["export", "--db", book, "--output", cards], stdoutPath: "/dev/null", stderrPath: stderrFile)
            let size = (try? FileManager.default.attributesOfItem(atPath: cards)[.size] as? Int) ?? 0
            let drafts = ContactData.drafts(count: n)
            let runs = plan.importReps(n)
            progress("[\(formatCount(n))] CLI import of \(formatCount(n)) cards ×\(runs)")
            var imported = 0
            let samples = try alternating(
                reps: runs,
                carnet: { rep in
                    let path = dbPath("cli-import-\(n)-\(rep)")
                    let seconds = try spawnAndWait(carnet, ["--db", path, "import", cards], stdoutPath: "/dev/null", stderrPath: stderrFile)
                    let db = try RawConnection(path: path)
                    imported = try rawCount(db, "SELECT count(*) FROM contacts")
                    removeDatabase(path)
                    return seconds
                },
                raw: { rep in try rawImportIntoScratch("cli-import-raw-\(n)-\(rep)", drafts: drafts) })
            guard imported == n else { throw BenchError("carnet import of \(cards) kept \(imported) of \(n) contacts") }
            addRatioRow(8, "CLI: carnet import FILE.vcf ÷ raw insert", n, samples, target: nil)
            let perCard = median(samples.carnet) / Double(n) * 1e6
            var note = "CLI import: \(formatCount(n)) cards (\(size / 1_048_576) MiB of vCard 4.0) at \(String(format: "%.1f", perCard)) µs per card"
            if n == plan.largest, access("/usr/bin/time", X_OK) == 0 {
                let path = dbPath("cli-import-rss-\(n)")
                let rss = tempDirectory + "/cli-import.rss"
                try spawnAndWait("/usr/bin/time", ["-f", "%M", "-o", rss, carnet, "--db", path, "import", cards], stdoutPath: "/dev/null", stderrPath: stderrFile)
                removeDatabase(path)
                if let kib = Int((try? String(contentsOfFile: rss, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") {
                    note += ", peak RSS \(kib / 1024) MiB"
                }
            }
            notes.append(note + ".")
            unlink(cards)
        }
    }

    /// A card made to be slow: one TEL with 100,000 TYPE parameters, about 1 MB. A reader that
    /// looks each value up in the ones before it is quadratic; Carnet's must import it (or refuse
    /// it), as a whole process, well within a second.
    func runManyParameters(carnet: String, stderrFile: String) throws {
        let types = (0..<100_000).map { "TYPE=x\($0)" }.joined(separator: ";")
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Many parameters\r\nUID:many-parameters\r\nTEL;\(types):+1 555 0101\r\nEND:VCARD\r\n"
        let file = tempDirectory + "/parameters.vcf"
        try card.write(toFile: file, atomically: true, encoding: .utf8)
        let book = tempDirectory + "/parameters.sqlite"
        let importing = { try spawnAndWait(carnet, ["import", file, "--db", book], stderrPath: stderrFile) }
        _ = try spawnAndWait(carnet, ["add", "--name", "First", "--db", book], stderrPath: stderrFile)
        progress("carnet import of a \(card.utf8.count / 1000) kB card with 100,000 parameters ×\(plan.cliRuns)")
        // The first run adds the contact (untimed); the others find it unchanged, parsing all of it.
        _ = try importing()
        var samples: [Double] = []
        for _ in 0..<plan.cliRuns { samples.append(try importing()) }
        let seconds = median(samples)
        rows.append((9, 0, ReportRow(
            workload: "CLI: carnet import of a \(card.utf8.count / 1000) kB card, one TEL with 100,000 parameters", n: "—",
            carnet: formatSeconds(seconds), raw: "—", ratio: "—", target: "< 1 s", verdict: Verdict.mark(seconds < 1))))
    }
}
