import CarnetModels
import CarnetState
import CarnetStorage
import CarnetViewModels
import Foundation
import GRDBSQLite
import Observation
import Synchronization

// Section 6: whole `carnet` processes: list against sqlite3, quote against a hello-world, and
// the list of every contact into a pipe.
extension Benchmark {
    /// Whole processes, stdout to /dev/null: `carnet list` against the sqlite3 CLI running the
    /// same query, and `carnet quote` against a Swift hello-world (the startup floor).
    func runCLI(books: [Int: String]) throws {
        guard let carnet = carnetBinary, let hello = helloBinary else {
            notes.append("CLI: skipped (pass --carnet PATH and --hello PATH)")
            return
        }
        let sqlite3 = "/usr/bin/sqlite3"
        guard access(sqlite3, X_OK) == 0 else {
            notes.append("CLI: skipped, \(sqlite3) not found (make bench installs it)")
            return
        }
        let stderrFile = tempDirectory + "/cli.stderr"
        let query = "SELECT \(Self.listColumns) FROM contacts c ORDER BY c.name, c.id LIMIT 50"
        for n in plan.ends {
            guard let book = books[n] else { continue }
            try settle(book)
            let runs = plan.cliRuns
            progress("[\(formatCount(n))] CLI ×\(runs)")
            let list = { try spawnAndWait(carnet, ["list", "--limit", "50", "--db", book], stderrPath: stderrFile) }
            let sql = { try spawnAndWait(sqlite3, [book, query], stderrPath: stderrFile) }
            let quote = { try spawnAndWait(carnet, ["quote", "--db", book], stderrPath: stderrFile) }
            let floor = { try spawnAndWait(hello, [], stderrPath: stderrFile) }
            for command in [list, sql, quote, floor] { _ = try command() }  // warm-up: page cache, dynamic loader
            let listing = try alternating(reps: runs, carnet: { _ in try list() }, raw: { _ in try sql() })
            let startup = try alternating(reps: runs, carnet: { _ in try quote() }, raw: { _ in try floor() })
            // The target is for the largest file; the small one shows what does not depend on N.
            let target = n == plan.largest ? Target.cliRatio : nil
            addRatioRow(8, "CLI: carnet list --limit 50 ÷ sqlite3", n, listing, target: target)
            addRatioRow(9, "CLI: carnet quote ÷ Hello (floor)", n, startup, target: nil)
        }
        try runCLIListAll(books: books, carnet: carnet, sqlite3: sqlite3, stderrFile: stderrFile)
        try runCLIImport(books: books, carnet: carnet, stderrFile: stderrFile)
        try runStartup(carnet: carnet, hello: hello, stderrFile: stderrFile)
        try runMailQuery(book: books[plan.smallest], n: plan.smallest, carnet: carnet, stderrFile: stderrFile)
        notes.append("CLI: processes started with posix_spawn, stdout to /dev/null (so carnet prints TSV), "
            + "after one untimed warm-up run of each command.")
    }

    /// The columns of `carnet list`'s TSV in SQL: the position as "title, organization" (or
    /// whichever is there), and the preferred email and phone (the first when none is marked).
    static let listColumns = """
        c.id AS id, c.name AS name,
        c.title || CASE WHEN c.title <> '' AND c.organization <> '' THEN ', ' ELSE '' END || c.organization AS position,
        ifnull((SELECT value FROM contact_emails WHERE contact_id = c.id ORDER BY preferred DESC, position LIMIT 1), '') AS email,
        ifnull((SELECT value FROM contact_phones WHERE contact_id = c.id ORDER BY preferred DESC, position LIMIT 1), '') AS phone
        """

    /// `carnet list` of every contact into a pipe against `sqlite3` printing the same bytes: the
    /// same header and columns, tab-separated, favorites as 1/0, in the same order. Both outputs
    /// are compared once, untimed; the timed runs write into a pipe this process drains.
    func runCLIListAll(books: [Int: String], carnet: String, sqlite3: String, stderrFile: String) throws {
        let query = """
            SELECT \(Self.listColumns), (f.contact_id IS NOT NULL) AS favorite
            FROM contacts c LEFT JOIN favorites f ON f.contact_id = c.id ORDER BY c.name, c.id
            """
        for n in plan.ends {
            guard let book = books[n] else { continue }
            try settle(book)
            let listArguments = ["list", "--db", book]
            let sqlArguments = ["-header", "-separator", "\t", book, query]
            // Same output, byte for byte (and a warm-up of both).
            let (carnetOut, sqlOut) = (tempDirectory + "/list-all.carnet", tempDirectory + "/list-all.sqlite3")
            try spawnAndWait(carnet, listArguments, stdoutPath: carnetOut, stderrPath: stderrFile)
            try spawnAndWait(sqlite3, sqlArguments, stdoutPath: sqlOut, stderrPath: stderrFile)
            let same = FileManager.default.contentsEqual(atPath: carnetOut, andPath: sqlOut)
            let size = (try? FileManager.default.attributesOfItem(atPath: carnetOut)[.size] as? Int) ?? 0
            unlink(carnetOut)
            unlink(sqlOut)

            let runs = n >= 1_000_000 ? 3 : plan.cliRuns
            progress("[\(formatCount(n))] CLI list all ×\(runs)")
            let samples = try alternating(
                reps: runs,
                carnet: { _ in try spawnAndWait(carnet, listArguments, stdout: .drainedPipe, stderrPath: stderrFile).seconds },
                raw: { _ in try spawnAndWait(sqlite3, sqlArguments, stdout: .drainedPipe, stderrPath: stderrFile).seconds })
            let target = n == plan.largest ? Target.cliListAllRatio : nil
            addRatioRow(8, "CLI: carnet list (all, into a pipe) ÷ sqlite3", n, samples, target: target)
            if !same {
                rows[rows.count - 1].row.verdict = "✗ output differs"
                notes.append("CLI list all at \(formatCount(n)): carnet's output differs from sqlite3's, so the times are not for the same work.")
            } else if n == plan.largest {
                notes.append("CLI list all: carnet and sqlite3 print the same \(size) bytes at \(formatCount(n)) "
                    + "(compared once); timed runs write into a pipe this process reads to the end.")
            }
        }
    }
}
