import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// Section 7: peak memory of a process walking every page.
extension Benchmark {
    /// Peak RSS of a fresh process that walks every page of the book through a
    /// `ContactsViewModel` (pageSize 50, maxRows 200), and of one doing the same walk raw.
    func runMemory(book: String) throws {
        try settle(book)
        let me = selfExecutablePath()
        let out = tempDirectory + "/child.out"
        let err = tempDirectory + "/child.err"
        func child(_ flag: String) throws -> PageWalkReport {
            try spawnAndWait(me, [flag, book], stdoutPath: out, stderrPath: err)
            let text = try String(contentsOfFile: out, encoding: .utf8)
            guard let report = PageWalkReport(parsing: text) else { throw BenchError("\(flag): unreadable report \(text)") }
            return report
        }
        progress("[\(formatCount(plan.largest))] memory: page walk in a child process")
        let carnet = try child(PageWalkChild.carnetFlag)
        let raw = try child(PageWalkChild.rawFlag)
        // Both walks see the whole book, which the screen rows (run before, on the same file) may
        // have added contacts to.
        guard carnet.rows == raw.rows, carnet.rows >= plan.largest else {
            throw BenchError("memory walk saw \(carnet.rows) (Carnet) and \(raw.rows) (raw) rows")
        }
        let mib = Double(carnet.peakKiB) / 1024
        rows.append((10, plan.largest, ReportRow(
            workload: "peak RSS, page walk (child process)", n: formatCount(plan.largest),
            carnet: formatMiB(carnet.peakKiB), raw: formatMiB(raw.peakKiB),
            ratio: formatRatio(Double(carnet.peakKiB) / Double(raw.peakKiB)),
            target: String(format: "< %.0f MiB", Target.peakMiB), verdict: Verdict.mark(mib < Target.peakMiB))))
        notes.append("memory: the child walks \(carnet.pages) pages (ContactsViewModel, pageSize \(plan.pageSize), "
            + "maxRows 200) in \(formatSeconds(carnet.seconds)); the raw child keeps the same 200-row window in "
            + "\(formatSeconds(raw.seconds)). Peak RSS is VmHWM read by each child from /proc/self/status.")
    }
}
