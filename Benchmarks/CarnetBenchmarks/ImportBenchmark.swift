import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// Section 1: import of N contacts, Carnet against raw, what the search index costs, and the check
// that both sides made the same file.
extension Benchmark {
    /// Inserts N contacts in one transaction on each side. Returns the last Carnet file, kept as
    /// the N-contact "book" that the read workloads share.
    func runImport(n: Int, withHistory: Bool = true) throws -> String {
        progress("[\(formatCount(n))] generating \(n) contacts")
        let drafts = ContactData.drafts(count: n)
        // The raw side writes the drafts as they are; Carnet writes them normalized. They must agree.
        guard drafts.prefix(10_000).allSatisfy({ $0.normalized() == $0 && $0.issues().isEmpty }) else {
            throw BenchError("generated drafts are not as Carnet saves them")
        }
        let reps = plan.importReps(n)
        var keptCarnet: String?
        var keptRaw: String?
        var syncs = SyncTally()
        progress("[\(formatCount(n))] import ×\(reps)")
        let samples = try alternating(
            reps: reps,
            carnet: { rep in
                let path = dbPath("import-carnet-\(n)-\(rep)")
                let storage = try StorageController(path: path)  // creates the file, applies the schema: untimed
                try storage.setHistoryKeep(0)  // this row is the layer alone; the next one adds the history
                let seconds = try syncs.carnet { try timed { _ = try storage.insertContacts(drafts) } }
                try storage.close()
                if rep == reps - 1 { keptCarnet = path } else { removeDatabase(path) }
                return seconds
            },
            raw: { rep in
                let path = dbPath("import-raw-\(n)-\(rep)")
                let db = try rawCreate(path: path)
                let seconds = try syncs.raw { try rawImport(db, drafts: drafts) }
                if rep == reps - 1 { keptRaw = path } else { removeDatabase(path) }
                return seconds
            })
        guard let book = keptCarnet, let rawFile = keptRaw else { throw BenchError("import kept no file") }
        try verifySameSchema(carnet: book, raw: rawFile, drafts: drafts)
        try runIndexCost(n: n, drafts: drafts, reps: reps, withIndex: samples.raw, indexedFile: rawFile)
        removeDatabase(rawFile)
        try settle(book)
        addRatioRow(1, "import (1 transaction), history off", n, samples, target: Target.importRatio)
        checkDurability(section: 1, n: n, syncs, perRep: 1, what: "import")
        guard withHistory else { return book }

        try runHistoryImport(n: n, drafts: drafts, reps: reps)
        if n == plan.largest {
            let rows = ContactData.childRows(drafts)
            let total = rows.values.reduce(0, +)
            notes.append("data: \(formatCount(n)) contacts with \(total) child rows (" + rows.sorted { $0.key < $1.key }
                .map { "\($0.key.replacingOccurrences(of: "contact_", with: "")) \(String(format: "%.2f", Double($0.value) / Double(n)))" }
                .joined(separator: ", ") + " per contact); both sides write and read them all.")
        }
        return book
    }

    /// What the search index costs an import, in time and in file size: the raw import on a
    /// file without migrations 6, 8 and 10 against the raw import with them (which indexes as Carnet does).
    func runIndexCost(n: Int, drafts: [ContactDraft], reps: Int, withIndex: [Double], indexedFile: String) throws {
        progress("[\(formatCount(n))] import without the index ×\(reps)")
        var plainFile = ""
        var without: [Double] = []
        for rep in 0..<reps {
            let path = dbPath("import-plain-\(n)-\(rep)")
            let db = try rawCreate(path: path, withIndex: false)
            without.append(try rawImport(db, drafts: drafts))
            if rep == reps - 1 { plainFile = path } else { removeDatabase(path) }
        }
        defer { removeDatabase(plainFile) }
        addRatioRow(10, "import: with the search index ÷ without (raw)", n, (withIndex, without), target: Target.indexImportCost)
        func bytes(_ path: String) throws -> Int {
            let db = try RawConnection(path: path)
            return try rawCount(db, "PRAGMA page_count") * rawCount(db, "PRAGMA page_size")
        }
        let (indexed, plain) = (try bytes(indexedFile), try bytes(plainFile))
        let ratio = Double(indexed) / Double(plain)
        let mib = { (b: Int) in String(format: "%.1f MiB", Double(b) / 1_048_576) }
        rows.append((10, n, ReportRow(
            workload: "file size: with the search index ÷ without", n: formatCount(n), carnet: mib(indexed), raw: mib(plain),
            ratio: formatRatio(ratio), target: "≤ " + formatRatio(Target.indexFileCost), verdict: Verdict.mark(ratio <= Target.indexFileCost))))
    }

    /// A new raw file with Carnet's schema (untimed, as Carnet's migration is).
    func rawCreate(path: String, withIndex: Bool = true) throws -> RawConnection {
        let db = try RawConnection(path: path)
        try db.exec(withIndex ? schemaSQL : schemaWithoutIndexSQL)
        return db
    }

    /// The raw import: one prepared INSERT per table, rebound per row (the contact's row, then
    /// each entry of its lists), inside BEGIN IMMEDIATE … COMMIT. Like Carnet it makes a
    /// lowercased UUID per contact and one timestamp string for the batch.
    /// ``rawImport(_:drafts:)`` into a new file named `name`, removed afterwards: its seconds.
    func rawImportIntoScratch(_ name: String, drafts: [ContactDraft]) throws -> Double {
        let path = dbPath(name)
        let db = try rawCreate(path: path)
        let seconds = try rawImport(db, drafts: drafts)
        removeDatabase(path)
        return seconds
    }

    func rawImport(_ db: RawConnection, drafts: [ContactDraft]) throws -> Double {
        try timed {
            let stamp = Timestamp.string(Timestamp.now())
            let writer = try RawContactWriter(db)
            try db.exec("BEGIN IMMEDIATE")
            do {
                for draft in drafts {
                    _ = try writer.insert(draft, uid: UUID().uuidString.lowercased(), stamp: stamp)
                }
            } catch {
                try? db.exec("ROLLBACK")
                throw error
            }
            try db.exec("COMMIT")
        }
    }

    /// The raw file must have Carnet's tables, indexes and CHECKs, and as many rows in each table,
    /// or "same work" is not true.
    func verifySameSchema(carnet: String, raw: String, drafts: [ContactDraft]) throws {
        func describe(_ path: String) throws -> [String] {
            let db = try RawConnection(path: path)
            let statement = try db.prepare("""
                SELECT type || ' ' || name || ': ' || ifnull(sql, '') FROM sqlite_master
                WHERE name NOT LIKE 'sqlite_%' AND name NOT IN ('schema_migrations', 'grdb_migrations') ORDER BY type, name
                """)
            defer { sqlite3_finalize(statement) }
            var lines: [String] = []
            while sqlite3_step(statement) == SQLITE_ROW { lines.append(rawColumnText(statement, 0)) }
            for table in ["contacts"] + RawChildTable.all.map(\.name) {
                let counter = try db.prepare("SELECT count(*) FROM \(table)")
                defer { sqlite3_finalize(counter) }
                _ = sqlite3_step(counter)
                lines.append("\(table) rows: \(sqlite3_column_int64(counter, 0))")
            }
            return lines
        }
        let (c, r) = (try describe(carnet), try describe(raw))
        var expected = ContactData.childRows(drafts).map { "\($0.key) rows: \($0.value)" }
        expected.append("contacts rows: \(drafts.count)")
        guard c == r, Set(expected).isSubset(of: c) else {
            throw BenchError("the raw file differs from Carnet's:\n  Carnet: \(c)\n  raw:    \(r)\n  expected: \(expected)")
        }
    }
}
