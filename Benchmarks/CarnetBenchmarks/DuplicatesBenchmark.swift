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
            let (measured, note) = try measure(n: n, in: directory)
            rows += measured
            notes.append(note)
        }
        print(renderTable(rows))
        for note in notes { print("  - \(note)") }
    }

    /// The finder's median time over three runs, and its last answer.
    static func find(_ storage: StorageController, n: Int, _ what: String) throws -> (seconds: Double, cpu: Double, search: DuplicateSearch) {
        var times: [Double] = []
        var cpu: [Double] = []
        var search: DuplicateSearch?
        for rep in 1...3 {
            progress("duplicates: finding them among \(n)\(what) (\(rep)/3)…")
            let (start, startCPU) = (nowNanos(), cpuSeconds())
            search = try storage.duplicates()
            times.append(Double(nowNanos() - start) / 1e9)
            cpu.append(cpuSeconds() - startCPU)
        }
        guard let search else { throw BenchError("duplicates: no run") }
        return (times.sorted()[1], cpu.sorted()[1], search)
    }

    /// The finder with the file's phone region set (so every number written without its country
    /// code is read into E.164 too) against the same file without one, and how many planted
    /// copies it found each way: the copies carry the number in its national form.
    static func measure(n: Int, in directory: String) throws -> ([ReportRow], String) {
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
        try storage.setPhoneRegion(nil)
        let plain = try find(storage, n: n, ", no phone region")
        try storage.setPhoneRegion("FR")
        let (median, cpu, search) = try find(storage, n: n, ", phone region FR")
        // The planted copies are the last ids; each should share a group with its original.
        let ids = try storage.allContacts().map(\.id).sorted()
        var groupsOf: [Int64: Set<Int>] = [:]
        for (index, group) in search.groups.enumerated() { for id in group.contactIDs { groupsOf[id, default: []].insert(index) } }
        var found = 0
        var byPhone = 0
        for i in 0..<planted {
            let original = ids[i * 97 % (n - planted)], copy = ids[n - planted + i]
            let shared = (groupsOf[original] ?? []).intersection(groupsOf[copy] ?? [])
            if !shared.isEmpty { found += 1 }
            if shared.contains(where: { search.groups[$0].reasons.contains { $0.kind == .phone && $0.contactIDs.contains(original) && $0.contactIDs.contains(copy) } }) {
                byPhone += 1
            }
        }
        let ratio = Double(search.pairsCompared) / Double(max(search.allPairs, 1))
        let row = ReportRow(
            workload: "duplicates (find)", n: formatCount(n), carnet: formatSeconds(median),
            raw: "\(search.pairsCompared) of \(search.allPairs) pairs", ratio: String(format: "%.5f%%", ratio * 100),
            target: "seconds", verdict: Verdict.mark(median < 10))
        let regionRatio = median / max(plain.seconds, 1e-9)
        let regionRow = ReportRow(
            workload: "duplicates, phone region set ÷ none", n: formatCount(n), carnet: formatSeconds(median),
            raw: formatSeconds(plain.seconds), ratio: String(format: "%.2fx", regionRatio),
            target: "≤ 1.5x", verdict: Verdict.mark(regionRatio <= 1.5))
        // Then every group merged into its first contact, the first's values kept where they
        // differ, as one action (`carnet duplicates --merge-all --keep-first`): once, since it
        // changes the file.
        progress("duplicates: merging all \(search.groups.count) groups as one action…")
        let phones = try storage.phoneRegionSetting().normalForm
        let (mergeStart, mergeCPUStart) = (nowNanos(), cpuSeconds())
        var merges: [(contacts: [Contact], draft: ContactDraft)] = []
        var taken = Set<Int64>()
        // A group that shares a contact with one merged before it waits for the next search.
        for group in search.groups where !group.contactIDs.contains(where: taken.contains) {
            taken.formUnion(group.contactIDs)
            let contacts = try group.contactIDs.map { id throws(CarnetError) in try storage.contact(id: id) }
            merges.append((contacts, ContactMerge.merge(contacts.map(\.draft), phones: phones).draft))
        }
        let writeStart = nowNanos()
        let merged = try storage.mergeContactGroups(merges)
        let writeSeconds = Double(nowNanos() - writeStart) / 1e9
        let mergeSeconds = Double(nowNanos() - mergeStart) / 1e9
        let mergeCPU = cpuSeconds() - mergeCPUStart
        let mergeRatio = mergeSeconds / max(median, 1e-9)
        let mergeRow = ReportRow(
            workload: "merge every group, one action ÷ finding them", n: formatCount(n), carnet: formatSeconds(mergeSeconds),
            raw: formatSeconds(median), ratio: String(format: "%.2fx", mergeRatio),
            target: "≤ 2x", verdict: Verdict.mark(mergeRatio <= 2))
        let note = "duplicates at \(formatCount(n)): merging all \(merged.count) groups (\(merges.reduce(0) { $0 + $1.contacts.count }) contacts) "
            + "as one action took \(formatSeconds(mergeSeconds)) (\(formatSeconds(mergeCPU)) of CPU; the write \(formatSeconds(writeSeconds)), "
            + "reading the groups' contacts and merging their drafts the rest). "
            + "Phone region FR: \(formatSeconds(cpu)) of CPU (median; \(formatSeconds(plain.cpu)) without a region); \(search.groups.count) groups, "
            + "the largest of \(search.groups.map(\.contactIDs.count).max() ?? 0); \(found) of \(planted) planted duplicates found, \(byPhone) of them by their number "
            + "(without a region: \(plain.search.groups.count) groups); pairs compared \(search.pairsCompared) against n(n-1)/2 = \(search.allPairs)"
        return ([row, regionRow, mergeRow], note)
    }
}
