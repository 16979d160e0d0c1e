import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// `carnet query` as mutt runs it, against abook.
extension Benchmark {
    /// `carnet query` as mutt runs it on every completion, against abook (a C program reading a
    /// flat file) answering the same query on the same contacts, whole processes both.
    func runMailQuery(book: String?, n: Int, carnet: String, stderrFile: String) throws {
        let abook = "/usr/bin/abook"
        guard let book, access(abook, X_OK) == 0 else {
            notes.append("carnet query ÷ abook: skipped, \(abook) not found (make bench installs it)")
            return
        }
        let data = tempDirectory + "/abook.data"
        try writeAbookFile(ContactData.drafts(count: n), to: data)
        let text = "grace ka"
        let query = { try spawnAndWait(carnet, ["query", text, "--limit", "100000", "--db", book], stderrPath: stderrFile) }
        let other = { try spawnAndWait(abook, ["--config", "/dev/null", "--datafile", data, "--mutt-query", text], stderrPath: stderrFile) }
        for command in [query, other] { _ = try command() }
        progress("[\(formatCount(n))] carnet query ÷ abook ×\(plan.queryRuns)")
        let samples = try alternating(reps: plan.queryRuns, carnet: { _ in try query() }, raw: { _ in try other() })
        addRatioRow(12, "CLI: carnet query \"\(text)\" ÷ abook --mutt-query", n, samples, target: Target.queryRatio)
    }
}
