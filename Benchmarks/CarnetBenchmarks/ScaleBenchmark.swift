import CarnetInterchange
import CarnetModels
import CarnetStorage
import Foundation
import SeededRandom

/// `CarnetBenchmarks --scale [N,N…]` (default 10,000 and 100,000; add 1,000,000 for the
/// table's largest column): the commands that walk every contact, as processes of the `carnet`
/// given, on a vCard file of N cards made here from a fixed seed.
///
/// Each card holds UID, FN, N, one work EMAIL, one cell TEL, ORG, TITLE and BDAY; one card in a
/// hundred shares an earlier card's email (a planted duplicate). For each N: `carnet import`
/// (time and peak RSS, from /usr/bin/time) against the library's import of the same cards
/// through `StorageController` in this process (history on both); the file's bytes per
/// contact; `carnet duplicates --json` (time, peak RSS, the planted pairs found) against
/// `sqlite3` grouping the same file's emails; `carnet undo` of the import and `carnet redo`,
/// with the file's tables equal before the undo and after the redo; and the other commands that
/// walk the book: `carnet export` in each format, `carnet import` of the CSV, JSON and LDIF
/// exports into new files, `carnet db reindex`. Peak RSS at each N is divided by that at the
/// smallest.
enum ScaleBenchmark {
    static let flag = "--scale"

    static func main(_ arguments: [String], carnet: String) throws {
        let sizes = arguments.first.map { $0.split(separator: ",").compactMap { Int($0) } } ?? [10_000, 100_000]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-bench-scale-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var rows: [ReportRow] = []
        var notes: [String] = []
        var smallest: Measured?
        for n in sizes.sorted() {
            let measured = try measure(n: n, carnet: carnet, in: directory)
            if smallest == nil { smallest = measured }
            rows += measured.rows(against: smallest!)
            notes.append(measured.note)
        }
        print(renderTable(rows))
        for note in notes { print("  - \(note)") }
    }

    struct Run {
        var seconds: Double
        var peakKiB: Int
    }

    struct Measured {
        var n: Int
        var cliImport: Run
        var libraryImport: Double
        var bytesPerContact: Double
        var duplicates: Run
        var sqliteGrouping: Double
        var plantedFound: Int
        var planted: Int
        var undo: Run
        var redo: Run
        var exact: Bool
        /// The other commands that walk every contact, by what they do: their peak RSS.
        var walks: [(what: String, run: Run)]

        func rows(against base: Measured) -> [ReportRow] {
            let count = formatCount(n)
            func rss(_ what: String, _ run: Run, _ baseRun: Run) -> ReportRow {
                let ratio = Double(run.peakKiB) / Double(max(baseRun.peakKiB, 1))
                return ReportRow(
                    workload: "peak RSS, \(what), ÷ at \(formatCount(base.n))", n: count, carnet: "\(run.peakKiB / 1024) MiB",
                    raw: "\(baseRun.peakKiB / 1024) MiB", ratio: String(format: "%.2fx", ratio), target: "≤ 1.5x", verdict: Verdict.mark(ratio <= 1.5))
            }
            let perCard = cliImport.seconds / libraryImport
            let grouping = duplicates.seconds / max(sqliteGrouping, 1e-9)
            return [
                rss("carnet import", cliImport, base.cliImport),
                rss("carnet duplicates", duplicates, base.duplicates),
                rss("carnet undo of the import", undo, base.undo),
                ReportRow(
                    workload: "carnet import ÷ library import, per card", n: count, carnet: formatSeconds(cliImport.seconds),
                    raw: formatSeconds(libraryImport), ratio: String(format: "%.2fx", perCard), target: "≤ 1.5x", verdict: Verdict.mark(perCard <= 1.5)),
                ReportRow(
                    workload: "bytes a contact (file after the import)", n: count, carnet: String(format: "%.0f", bytesPerContact),
                    raw: "—", ratio: "—", target: "≤ 450", verdict: Verdict.mark(bytesPerContact <= 450)),
                ReportRow(
                    workload: "carnet duplicates ÷ sqlite3 grouping emails (\(plantedFound) of \(planted) planted found)", n: count,
                    carnet: formatSeconds(duplicates.seconds), raw: formatSeconds(sqliteGrouping), ratio: String(format: "%.2fx", grouping),
                    target: "≤ 10x", verdict: Verdict.mark(grouping <= 10 && plantedFound == planted)),
            ] + walks.compactMap { walk in
                base.walks.first { $0.what == walk.what }.map { rss(walk.what, walk.run, $0.run) }
            }
        }

        var note: String {
            "at \(formatCount(n)): carnet import \(formatSeconds(cliImport.seconds)), \(cliImport.peakKiB / 1024) MiB; duplicates \(duplicates.peakKiB / 1024) MiB; "
                + "undo \(formatSeconds(undo.seconds)), \(undo.peakKiB / 1024) MiB; redo \(formatSeconds(redo.seconds)), \(redo.peakKiB / 1024) MiB; "
                + "tables after undo and redo \(exact ? "equal to" : "DIFFERENT from") those after the import"
        }
    }

    /// The issue's cards, card `i` of a fixed sequence; `shares` is the earlier card whose email
    /// it carries, for one card in a hundred.
    static func card(_ i: Int, rng: inout SeededGenerator, emails: inout [String]) -> (text: String, shares: Int?) {
        let first = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Ken", "Dennis", "Margaret", "John", "Frances", "Radia", "Leslie", "Niklaus", "Tony", "Butler"]
        let last = ["Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Thompson", "Ritchie", "Hamilton", "Backus", "Allen", "Perlman", "Lamport", "Wirth", "Hoare", "Lampson"]
        let given = first[Int(rng.next() % UInt64(first.count))]
        let family = last[Int(rng.next() % UInt64(last.count))] + String(i)
        var shares: Int?
        let email: String
        if i % 100 == 99 {
            let other = Int(rng.next() % UInt64(emails.count))
            shares = other
            email = emails[other]
        } else {
            email = "\(given.lowercased()).\(family.lowercased())@example\(i % 50).com"
        }
        emails.append(email)
        let phone = String(format: "+1 555 %07d", i % 10_000_000)
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:scale-\(i)\r\nFN:\(given) \(family)\r\nN:\(family);\(given);;;\r\n"
            + "EMAIL;TYPE=WORK:\(email)\r\nTEL;TYPE=CELL:\(phone)\r\nORG:Company \(i % 997)\r\nTITLE:Engineer\r\n"
            + "BDAY:19\(50 + i % 50)-0\(1 + i % 9)-1\(i % 10)\r\nEND:VCARD\r\n"
        return (text, shares)
    }

    /// Writes the N cards to `path`; returns the planted pairs (card index, the card it copies).
    static func writeCards(n: Int, to path: String) throws -> [(Int, Int)] {
        FileManager.default.createFile(atPath: path, contents: nil)
        guard let handle = FileHandle(forWritingAtPath: path) else { throw BenchError("cannot write \(path)") }
        defer { try? handle.close() }
        var rng = SeededGenerator(seed: 0x5CA1E)
        var emails: [String] = []
        emails.reserveCapacity(n)
        var planted: [(Int, Int)] = []
        var chunk = ""
        for i in 0..<n {
            let (text, shares) = card(i, rng: &rng, emails: &emails)
            if let shares { planted.append((i, shares)) }
            chunk += text
            if chunk.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        try handle.write(contentsOf: Data(chunk.utf8))
        return planted
    }

    /// A process under /usr/bin/time: its wall time and peak resident size.
    static func timed(_ executable: String, _ arguments: [String], stdout: String = "/dev/null", in directory: String) throws -> Run {
        let report = directory + "/time.txt"
        let seconds = try spawnAndWait(
            "/usr/bin/time", ["-f", "%M", "-o", report, executable] + arguments, stdoutPath: stdout, stderrPath: directory + "/stderr.txt")
        let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        guard let kib = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) else {
            throw BenchError("\(executable) \(arguments.joined(separator: " ")) failed: \(text) \((try? String(contentsOfFile: directory + "/stderr.txt", encoding: .utf8)) ?? "")")
        }
        return Run(seconds: seconds, peakKiB: kib)
    }

    static func fileBytes(_ path: String) -> Int {
        ["", "-wal"].reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: path + $1)[.size] as? Int) ?? 0) }
    }

    /// The tables an import writes, as `sqlite3 .dump` prints them, hashed.
    static func tablesDigest(_ path: String, in directory: String) throws -> String {
        let out = directory + "/dump.txt"
        _ = try spawnAndWait(
            "/usr/bin/sqlite3", [path, "SELECT count(*), total(id), total(version), total(length(name)) FROM contacts",
                                 "SELECT count(*), total(contact_id), total(length(value)) FROM contact_emails",
                                 "SELECT count(*), total(contact_id), total(length(value)) FROM contact_phones",
                                 "SELECT count(*), total(contact_id), total(length(date)) FROM contact_dates"],
            stdoutPath: out, stderrPath: directory + "/stderr.txt")
        return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    }

    static func measure(n: Int, carnet: String, in directory: String) throws -> Measured {
        let cards = directory + "/cards-\(n).vcf"
        progress("scale: writing \(formatCount(n)) cards…")
        let planted = try writeCards(n: n, to: cards)
        let db = directory + "/scale-\(n).sqlite"

        progress("scale: carnet import of \(formatCount(n)) cards…")
        let cliImport = try timed(carnet, ["--db", db, "import", cards], in: directory)
        let bytes = Double(fileBytes(db)) / Double(n)
        let imported = try tablesDigest(db, in: directory)

        progress("scale: the library's import of the same cards…")
        let library = directory + "/library-\(n).sqlite"
        let libraryImport = try libraryImportSeconds(cards: cards, into: library)
        for suffix in ["", "-wal", "-shm"] { unlink(library + suffix) }

        progress("scale: carnet duplicates and sqlite3 grouping emails…")
        let json = directory + "/duplicates.json"
        let duplicates = try timed(carnet, ["--db", db, "duplicates", "--json"], stdout: json, in: directory)
        let grouping = try spawnAndWait(
            "/usr/bin/sqlite3", [db, "SELECT lower(value), count(*) FROM contact_emails GROUP BY lower(value) HAVING count(*) > 1"],
            stdoutPath: "/dev/null", stderrPath: directory + "/stderr.txt")
        let found = try plantedFound(json: json, planted: planted)

        progress("scale: carnet undo and redo of the import…")
        let undo = try timed(carnet, ["--db", db, "undo"], in: directory)
        let redo = try timed(carnet, ["--db", db, "redo"], in: directory)
        // Undo and redo write new versions (an undo is a new change): compare everything else,
        // and check the search index (its pages are laid out anew, so they are not compared).
        let again = try tablesDigest(db, in: directory)
        let checked = (try? spawnAndWait(carnet, ["--db", db, "db", "check"], stderrPath: directory + "/stderr.txt")) != nil
        let exact = sameIgnoringVersions(imported, again) && checked
        let walks = try otherWalks(db: db, carnet: carnet, in: directory)
        for suffix in ["", "-wal", "-shm"] { unlink(db + suffix) }
        unlink(cards)
        return Measured(
            n: n, cliImport: cliImport, libraryImport: libraryImport, bytesPerContact: bytes, duplicates: duplicates,
            sqliteGrouping: grouping, plantedFound: found, planted: planted.count, undo: undo, redo: redo, exact: exact, walks: walks)
    }

    /// Every export format of the imported book, each non-vCard export imported into a new file,
    /// and a rebuild of the search index: each one command, its peak resident size measured.
    static func otherWalks(db: String, carnet: String, in directory: String) throws -> [(what: String, run: Run)] {
        var walks: [(what: String, run: Run)] = []
        for format in ["vcf", "csv", "json", "ldif"] {
            progress("scale: carnet export --format \(format) and its import…")
            let file = directory + "/export.\(format)"
            walks.append(("carnet export --format \(format)", try timed(carnet, ["--db", db, "export", "--format", format, "--output", file], in: directory)))
            if format != "vcf" {
                let copy = directory + "/imported-\(format).sqlite"
                walks.append(("carnet import of the \(format) export", try timed(carnet, ["--db", copy, "import", file], in: directory)))
                for suffix in ["", "-wal", "-shm"] { unlink(copy + suffix) }
            }
            unlink(file)
        }
        progress("scale: carnet db reindex…")
        walks.append(("carnet db reindex", try timed(carnet, ["--db", db, "db", "reindex"], in: directory)))
        // Last: it changes the book (one card in a hundred merged into the one it copies).
        progress("scale: carnet duplicates --merge-all…")
        walks.append(("carnet duplicates --merge-all --keep-first", try timed(carnet, ["--db", db, "duplicates", "--merge-all", "--keep-first"], in: directory)))
        return walks
    }

    /// The digests' lines with the contacts' version total left out.
    static func sameIgnoringVersions(_ a: String, _ b: String) -> Bool {
        func strip(_ text: String) -> [String] {
            text.split(separator: "\n").enumerated().map { i, line in
                i == 0 ? line.split(separator: "|").enumerated().filter { $0.offset != 2 }.map(\.element).joined(separator: "|") : String(line)
            }
        }
        return strip(a) == strip(b)
    }

    /// How many planted pairs `carnet duplicates --json` put in one group (card i is contact i + 1).
    static func plantedFound(json: String, planted: [(Int, Int)]) throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: json))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any], let groups = object["groups"] as? [[String: Any]] else {
            throw BenchError("carnet duplicates --json wrote no groups")
        }
        var groupOf: [Int64: Set<Int>] = [:]
        for (index, group) in groups.enumerated() {
            for contact in group["contacts"] as? [[String: Any]] ?? [] {
                if let id = (contact["id"] as? NSNumber)?.int64Value { groupOf[id, default: []].insert(index) }
            }
        }
        return planted.filter { copy, original in
            !(groupOf[Int64(copy + 1)] ?? []).isDisjoint(with: groupOf[Int64(original + 1)] ?? [])
        }.count
    }

    /// The library's import of the same cards, read before the clock starts: records written
    /// through `StorageController`, history on, as the benchmark's import row writes its drafts.
    static func libraryImportSeconds(cards: String, into path: String) throws -> Double {
        guard let handle = FileHandle(forReadingAtPath: cards) else { throw BenchError("cannot read \(cards)") }
        defer { try? handle.close() }
        var reader = VCardReader()
        var records: [InterchangeRecord] = []
        while true {
            let chunk = handle.readData(ofLength: 1 << 20)
            let results = chunk.isEmpty ? try reader.finishAll().map { Result<InterchangeRecord, InterchangeError>.success($0) } : reader.feed(chunk)
            for result in results { records.append(try result.get()) }
            if chunk.isEmpty { break }
        }
        let storage = try StorageController(path: path)
        var next = 0
        let start = nowNanos()
        _ = try storage.importContacts(source: cards) { () throws(InterchangeError) -> InterchangeRecord? in
            defer { next += 1 }
            return next < records.count ? records[next] : nil
        }
        return Double(nowNanos() - start) / 1e9
    }
}
