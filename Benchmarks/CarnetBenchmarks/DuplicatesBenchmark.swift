import CarnetModels
import CarnetStorage
import Foundation

/// `CarnetBenchmarks --duplicates [N,N…]`: `carnet duplicates` on a file of N contacts (default
/// 100,000) of which 1% were planted again as another export would write them ("Surname, First",
/// the email in capitals, the phone in its national form). The baseline is the work of comparing
/// every pair: the row gives the time, the pairs the finder compared against n(n-1)/2, and how
/// many planted duplicates it found.
enum DuplicatesBenchmark {
    static let flag = "--duplicates"

    static func main(_ arguments: [String]) throws {
        let sizes = arguments.first.map { $0.split(separator: ",").compactMap { Int($0) } } ?? [100_000]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-bench-duplicates-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var rows: [ReportRow] = []
        var notes: [String] = []
        for n in sizes {
            let (row, note) = try measure(n: n, in: directory)
            rows.append(row)
            notes.append(note)
        }
        print(renderTable(rows))
        for note in notes { print("  - \(note)") }
    }

    static func measure(n: Int, in directory: String) throws -> (ReportRow, String) {
        let planted = n / 100
        var drafts = ContactData.drafts(count: n - planted)
        for i in 0..<planted {
            var copy = drafts[i * 97 % drafts.count]
            copy.rename(to: "\(copy.nameParts.family), \(copy.nameParts.given)")
            copy.emails = copy.emails.prefix(1).map { LabeledValue($0.value.uppercased(), label: "other") }
            copy.phones = copy.phones.prefix(1).map { LabeledValue("0" + $0.value.dropFirst(4), label: "cell") }
            copy.addresses = []
            drafts.append(copy)
        }
        let storage = try StorageController(path: "\(directory)/duplicates-\(n).sqlite")
        progress("duplicates: adding \(n) contacts…")
        try storage.insertContacts(drafts)
        var times: [Double] = []
        var cpu: [Double] = []
        var search: DuplicateSearch?
        for rep in 1...3 {
            progress("duplicates: finding them among \(n) (\(rep)/3)…")
            let (start, startCPU) = (nowNanos(), cpuSeconds())
            search = try storage.duplicates()
            times.append(Double(nowNanos() - start) / 1e9)
            cpu.append(cpuSeconds() - startCPU)
        }
        guard let search else { throw BenchError("duplicates: no run") }
        // The planted copies are the last ids; each should share a group with its original.
        let ids = try storage.allContacts().map(\.id).sorted()
        var groupsOf: [Int64: Set<Int>] = [:]
        for (index, group) in search.groups.enumerated() { for id in group.contactIDs { groupsOf[id, default: []].insert(index) } }
        var found = 0
        for i in 0..<planted {
            let original = ids[i * 97 % (n - planted)], copy = ids[n - planted + i]
            if !(groupsOf[original] ?? []).isDisjoint(with: groupsOf[copy] ?? []) { found += 1 }
        }
        let median = times.sorted()[times.count / 2]
        let ratio = Double(search.pairsCompared) / Double(max(search.allPairs, 1))
        let row = ReportRow(
            workload: "duplicates (find)", n: formatCount(n), carnet: formatSeconds(median),
            raw: "\(search.pairsCompared) of \(search.allPairs) pairs", ratio: String(format: "%.5f%%", ratio * 100),
            target: "seconds", verdict: Verdict.mark(median < 10))
        let note = "duplicates at \(formatCount(n)): \(formatSeconds(cpu.sorted()[1])) of CPU (median); \(search.groups.count) groups, "
            + "the largest of \(search.groups.map(\.contactIDs.count).max() ?? 0); \(found) of \(planted) planted duplicates found; "
            + "pairs compared \(search.pairsCompared) against n(n-1)/2 = \(search.allPairs)"
        return (row, note)
    }
}
