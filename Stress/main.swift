import CarnetModels
import CarnetStorage
import Foundation
import GRDB
import SeededRandom

// carnet-stress: proves that a printed "saved" survives, and that nothing is lost or corrupted,
// by attacking a real `carnet` binary the way the world does: SIGKILL at random moments, and
// several processes writing the same contacts at once.
//
//   carnet-stress crash      --carnet PATH [--kills 1000] [--seed N]
//   carnet-stress concurrent --carnet PATH [--processes 8] [--edits 200] [--seed N]
//
// Exits 0 when every check held, 1 otherwise; prints the counts either way.

struct Options {
    var mode = ""
    var carnet = ""
    var kills = 1000
    var processes = 8
    var edits = 200
    var seed: UInt64 = UInt64(Date().timeIntervalSince1970)

    init(_ arguments: [String]) {
        var rest = arguments[...]
        mode = rest.popFirst() ?? ""
        while let flag = rest.popFirst() {
            let value = rest.popFirst() ?? ""
            switch flag {
            case "--carnet": carnet = value
            case "--kills": kills = Int(value) ?? kills
            case "--processes": processes = Int(value) ?? processes
            case "--edits": edits = Int(value) ?? edits
            case "--seed": seed = UInt64(value) ?? seed
            default: fail("unknown option \(flag)")
            }
        }
        if carnet.isEmpty || !["crash", "concurrent"].contains(mode) {
            fail("usage: carnet-stress crash|concurrent --carnet PATH [--kills N] [--processes N] [--edits M] [--seed N]")
        }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("carnet-stress: \(message)\n".utf8))
    exit(2)
}

/// A seeded generator (SplitMix64), so a failing run can be replayed with --seed.
typealias SplitMix = SplitMix64

/// A running `carnet` with a pipe on stdin and a pipe on stdout.
final class Child: @unchecked Sendable {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()

    init(_ carnet: String, _ arguments: [String]) {
        process.executableURL = URL(fileURLWithPath: carnet)
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        do { try process.run() } catch { fail("cannot start \(carnet): \(error)") }
    }

    func send(_ text: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    func finishInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Waits for the exit; returns stdout and stderr.
    func collect() -> (String, String) {
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

func run(_ carnet: String, _ arguments: [String]) -> (Int32, String, String) {
    let child = Child(carnet, arguments)
    child.finishInput()
    let (out, err) = child.collect()
    return (child.process.terminationStatus, out, err)
}

/// Checks a file the way `carnet db check` and a careful person with sqlite3 would.
func checkFile(_ path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
        var problems: [String] = []
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        if integrity != ["ok"] { problems.append("integrity_check: \(integrity.joined(separator: "; "))") }
        if try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil { problems.append("foreign_key_check failed") }
        let names = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master"))
        for name in ["contacts", "favorites", "quotes", "schema_migrations", "contacts_by_name", "quotes_one_current"]
        where !names.contains(name) {
            problems.append("schema lost \(name)")
        }
        if try Int.fetchOne(db, sql: "PRAGMA user_version") != Int.fetchOne(db, sql: "SELECT max(version) FROM schema_migrations") {
            problems.append("user_version is not the last migration applied")
        }
        if try Int.fetchOne(db, sql: "SELECT count(*) FROM quotes WHERE is_current") != 1 { problems.append("not exactly one current quote") }
        return problems
    }
}

// MARK: - The history accounts for the file

/// What a person sees in the file, row by row: every column of every table an action changes,
/// but a contact's or quote's version and updated_at (an undo saves anew, with a higher version).
/// The search index's tables are left out: their bytes depend on the order of the writes that made
/// them, not only on what they index (`carnet db check` checks the index against the contacts).
func userState(_ path: String) throws -> [String] {
    let queue = try DatabaseQueue(path: path)
    defer { try? queue.close() }
    return try queue.read { db in
        var rows: [String] = []
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'contact%' OR name IN ('favorites', 'quotes'))
              AND name NOT LIKE 'contact_search%' ORDER BY name
            """)
        for table in tables {
            let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?) WHERE name NOT IN ('version', 'updated_at')", arguments: [table])
            let list = columns.joined(separator: ", ")
            rows += try Row.fetchAll(db, sql: "SELECT \(list) FROM \(table) ORDER BY \(list)").map { "\(table): \($0)" }
        }
        return rows
    }
}

/// Checks that the history accounts for every change since `baseline` (the state when the
/// history was last emptied): on a copy, undoing every action not undone gives `baseline` back,
/// and redoing them gives the file back. A change without its history entry, or an entry without
/// its change, makes one of the two fail. Returns the problems.
func checkHistory(_ path: String, baseline: [String], scratch: URL) -> [String] {
    let copy = scratch.appendingPathComponent("check-\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy + suffix) } }
    do {
        try StorageController(path: path).backup(to: copy)
        let now = try userState(copy)
        let storage = try StorageController(path: copy)
        let done = try storage.history(limit: 1_000_000).filter { !$0.isUndone }
        guard let first = done.last else {
            return now == baseline ? [] : ["the file changed, but its history holds no action"]
        }
        try storage.undo(to: first.id)
        var problems: [String] = []
        if try userState(copy) != baseline { problems.append("undoing the \(done.count) actions of the history does not give the state before them") }
        for _ in done { try storage.redo() }
        if try userState(copy) != now { problems.append("redoing the \(done.count) actions of the history does not give the file back") }
        try storage.close()
        return problems
    } catch {
        return ["history check: \(error)"]
    }
}

/// Empties the history (so undo cannot reach before this point) and keeps every action from now
/// on; returns the state it starts from.
func restartHistory(_ path: String) throws -> [String] {
    let storage = try StorageController(path: path)
    try storage.setHistoryKeep(0)
    try storage.setHistoryKeep(1_000_000)
    try storage.close()
    return try userState(path)
}

// MARK: - Crash safety

/// What a killed writer said it saved; each must be in the file.
enum Saved {
    case contact(id: Int64, version: Int, phone: String?)
    case favorite(id: Int64, on: Bool)
    case quote(id: Int64, version: Int, text: String)
}

func crash(_ options: Options) -> Int32 {
    var random = SplitMix(seed: options.seed)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-stress-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let db = dir.appendingPathComponent("book.sqlite").path
    for i in 1...10 { _ = run(options.carnet, ["add", "--name", "Seed \(i)", "--db", db]) }

    var contacts: Int64 = 10
    var existing: [Int64] = Array(1...10)
    var savedLines = 0, verified = 0, lost = 0, integrityFailures = 0, killedMidWrite = 0
    var historyChecks = 0, historyFailures = 0, undoLines = 0, inFlightToggles = 0
    var baseline = (try? restartHistory(db)) ?? []
    // Every contact's favorite state as the file must hold it after the last round (none at start).
    var favorite: [Int64: Bool] = [:]
    for round in 1...options.kills {
        // A burst of adds, edits, favorites and quote edits, killed at a random moment.
        var script = ""
        var expectedPhones: [String] = []
        var expectedTexts: [String] = []
        var favoriteSteps: [(id: Int64, on: Bool)] = []
        // Every other round also undoes and redoes: its saves may then be taken back, so that
        // round is checked by the history (below) and by what undo and redo printed.
        let undoes = round % 2 == 0
        for step in 0..<40 {
            // A contact that exists (an undo of an add removes one; a step on a missing id would
            // answer with an error line the favorite steps below are not counted by).
            let target = existing.isEmpty ? Int64.random(in: 1...contacts, using: &random) : existing[Int.random(in: 0..<existing.count, using: &random)]
            if undoes && Int.random(in: 0..<3, using: &random) == 0 {
                script += Bool.random(using: &random) ? "undo\n" : "redo\n"
                continue
            }
            switch Int.random(in: 0..<4, using: &random) {
            case 0: script += "add\nname Added \(round)-\(step)\nsave\ncontacts\n"
            case 1:
                let phone = "555 \(round) \(step)"
                expectedPhones.append(phone)
                script += "open \(target)\nedit\ntitle \(phone)\nsave\ncontacts\n"
            case 2:
                let on = Bool.random(using: &random)
                favoriteSteps.append((target, on))
                script += (on ? "fav" : "unfav") + " \(target)\n"
            default:
                let text = "Quote \(round)-\(step)"
                expectedTexts.append(text)
                script += "quote\nedit\ntext \(text)\nsave\ncontacts\n"
            }
        }
        let child = Child(options.carnet, ["interactive", "--db", db])
        child.send(script)
        child.finishInput()
        usleep(UInt32.random(in: 2_000...120_000, using: &random))
        kill(child.process.processIdentifier, SIGKILL)
        let (out, _) = child.collect()
        if child.process.terminationReason == .uncaughtSignal { killedMidWrite += 1 }

        // Parse what it said it saved, in order.
        var saved: [Saved] = []
        var phones = expectedPhones[...], texts = expectedTexts[...]
        // Each favorite step answers with exactly one line: `saved favorite|unfavorite ID`, or
        // `error: no favorite has id ID` for an unfav of a contact that was not one (a no-op).
        // So the answered ones are the first steps of `favoriteSteps`, in order; the next one may
        // have committed without answering (killed in flight); the later ones never ran.
        var favoritesAnswered = 0
        for line in out.split(separator: "\n") {
            if line.hasPrefix("saved favorite ") || line.hasPrefix("saved unfavorite ") || line.hasPrefix("error: no favorite has id ") {
                favoritesAnswered += 1
            }
            let words = line.split(separator: " ")
            guard words.first == "saved", words.count >= 3 else { continue }
            let id = Int64(words[2]) ?? -1
            switch words[1] {
            case "contact" where words.count >= 5:
                let version = Int(words[4]) ?? 0
                // Version 1 is an add; a higher one is the next phone edit of the script.
                saved.append(.contact(id: id, version: version, phone: version > 1 ? phones.popFirst() : nil))
                contacts = max(contacts, id)
            case "favorite": saved.append(.favorite(id: id, on: true))
            case "unfavorite": saved.append(.favorite(id: id, on: false))
            case "quote" where words.count >= 5: saved.append(.quote(id: id, version: Int(words[4]) ?? 0, text: texts.popFirst() ?? ""))
            default: break
            }
        }
        // What undo and redo printed: the last word on each action must be what the file says,
        // except for the one action the command killed before it answered may have toggled.
        var toggled: [Int64: Bool] = [:]
        for line in out.split(separator: "\n") where line.hasPrefix("undone ") || line.hasPrefix("redone ") {
            let words = line.split(separator: " ")
            guard words.count >= 2, let id = Int64(words[1].dropLast()) else { continue }
            toggled[id] = line.hasPrefix("undone")
            undoLines += 1
        }
        if undoes {
            do {
                let queue = try DatabaseQueue(path: db)
                try queue.read { db in
                    var mismatched: [(id: Int64, printedUndone: Bool, stored: Bool?)] = []
                    for (id, undone) in toggled {
                        // An undone action a new action then cleared from the redo list is gone.
                        let stored = try Bool.fetchOne(db, sql: "SELECT undone FROM history WHERE id = ?", arguments: [id])
                        if stored.map({ $0 != undone }) ?? !undone { mismatched.append((id, undone, stored)) }
                    }
                    // Output leaves after each command, so only the command killed between its
                    // commit and its answer is unaccounted for: one undo, or one redo, of the
                    // action it would take. An undo takes the newest done action (none newer is
                    // done after it); a redo the oldest undone one (none older is undone after it).
                    if mismatched.count == 1, let stored = mismatched[0].stored {
                        let id = mismatched[0].id
                        let sql = stored
                            ? "SELECT count(*) FROM history WHERE id > ? AND undone = 0"
                            : "SELECT count(*) FROM history WHERE id < ? AND undone = 1"
                        if try Int.fetchOne(db, sql: sql, arguments: [id]) == 0 { mismatched = []; inFlightToggles += 1 }
                    }
                    for (id, undone, _) in mismatched {
                        lost += 1
                        print("kill \(round): action \(id) was printed \(undone ? "undone" : "redone") but the file says otherwise")
                    }
                    // Favorites and ids as the file now holds them: the next round checks from there.
                    favorite = Dictionary(uniqueKeysWithValues: try Int64.fetchAll(db, sql: "SELECT contact_id FROM favorites").map { ($0, true) })
                    contacts = max(contacts, try Int64.fetchOne(db, sql: "SELECT max(id) FROM contacts") ?? contacts)
                }
                try queue.close()
            } catch {
                integrityFailures += 1
                print("kill \(round): cannot read the file: \(error)")
            }
        }
        savedLines += saved.count
        // An undo may have taken any of this round's saves back: the history check below covers them.
        if undoes { saved = [] }
        let inFlight = favoritesAnswered < favoriteSteps.count ? favoriteSteps[favoritesAnswered] : nil
        if !undoes { for step in favoriteSteps.prefix(favoritesAnswered) { favorite[step.id] = step.on } }

        // The file: sound, and holding every printed save.
        do {
            let problems = try checkFile(db)
            if !problems.isEmpty {
                integrityFailures += 1
                print("kill \(round): \(problems.joined(separator: "; "))")
            }
            let queue = try DatabaseQueue(path: db)
            try queue.read { db in
                for entry in saved {
                    var ok = true
                    switch entry {
                    case let .contact(id, version, phone):
                        let row = try Row.fetchOne(db, sql: "SELECT version, title FROM contacts WHERE id = ?", arguments: [id])
                        let stored: Int = row?["version"] ?? 0
                        ok = stored >= version && (stored != version || phone == nil || row?["title"] == phone)
                    case let .quote(id, version, text):
                        let row = try Row.fetchOne(db, sql: "SELECT version, text FROM quotes WHERE id = ?", arguments: [id])
                        let stored: Int = row?["version"] ?? 0
                        ok = stored >= version && (stored != version || row?["text"] == text)
                    case let .favorite(id, _):
                        // The state every answered step leads to, or the in-flight step's.
                        let stored = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM favorites WHERE contact_id = ?", arguments: [id]) ?? false
                        ok = stored == (favorite[id] ?? false) || (inFlight?.id == id && stored == inFlight?.on)
                    }
                    if ok { verified += 1 } else { lost += 1; print("kill \(round): lost \(entry)") }
                }
                // Every contact's state, printed this round or not: nothing else may have changed it.
                let stored = Set(try Int64.fetchAll(db, sql: "SELECT contact_id FROM favorites"))
                for id in Set(favorite.keys).union(stored) {
                    let expected = favorite[id] ?? false
                    if stored.contains(id) != expected {
                        if let inFlight, inFlight.id == id, stored.contains(id) == inFlight.on {
                            favorite[id] = inFlight.on  // the killed step committed before its answer
                        } else {
                            lost += 1
                            print("kill \(round): favorite \(id) is \(stored.contains(id)), expected \(expected)")
                        }
                    }
                }
            }
            try queue.close()
        } catch {
            integrityFailures += 1
            print("kill \(round): cannot read the file: \(error)")
        }
        if let queue = try? DatabaseQueue(path: db) {
            existing = (try? queue.read { db in try Int64.fetchAll(db, sql: "SELECT id FROM contacts ORDER BY id") }) ?? existing
            try? queue.close()
        }
        // The history accounts for the file: nothing changed without its entry, no entry without its change.
        let problems = checkHistory(db, baseline: baseline, scratch: dir)
        historyChecks += 1
        if !problems.isEmpty {
            historyFailures += 1
            print("kill \(round): \(problems.joined(separator: "; "))")
        }
        if round % 10 == 0, let restarted = try? restartHistory(db) { baseline = restarted }
        if round % 100 == 0 { print("… \(round) kills, \(savedLines) saved lines, \(lost) lost") }
    }
    let (status, out, _) = run(options.carnet, ["db", "check", "--db", db])
    print("""
        crash: \(options.kills) kills (\(killedMidWrite) by SIGKILL mid-run), \(savedLines) "saved" lines printed before a kill, \
        \(verified) verified present, lost writes: \(lost), integrity failures: \(integrityFailures), \
        \(undoLines) undo/redo lines printed (\(inFlightToggles) more killed before answering), history checks: \(historyChecks) (failed: \(historyFailures)), \
        final carnet db check: \(out.trimmingCharacters(in: .whitespacesAndNewlines)) (exit \(status)), seed \(options.seed)
        """)
    return lost == 0 && integrityFailures == 0 && historyFailures == 0 && status == 0 ? 0 : 1
}

// MARK: - Concurrent processes

func concurrent(_ options: Options) -> Int32 {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-stress-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let db = dir.appendingPathComponent("book.sqlite").path
    let contactCount: Int64 = 6  // few contacts, so processes edit the same ones
    for i in 1...contactCount { _ = run(options.carnet, ["add", "--name", "Shared \(i)", "--db", db]) }

    // Each interactive process: M edits, each a unique phone, with a pause between opening the
    // edit screen (the draft's base version) and saving, so others save in between.
    let started = Date()
    let children = (0..<options.processes).map { _ in Child(options.carnet, ["interactive", "--db", db]) }
    var plans: [[(Int64, String)]] = []
    for p in 0..<options.processes {
        var random = SplitMix(seed: options.seed &+ UInt64(p))
        plans.append((0..<options.edits).map { m in (Int64.random(in: 1...contactCount, using: &random), "\(p + 1)0\(m)") })
    }
    let feeders = zip(children, plans).enumerated().map { index, pair in
        let (child, plan) = pair
        let thread = Thread {
            var random = SplitMix(seed: options.seed &+ 1000 &+ UInt64(index))
            for (id, phone) in plan {
                child.send("contacts\nopen \(id)\nedit\ntitle \(phone)\n")
                usleep(UInt32.random(in: 0...3000, using: &random))
                child.send("save\ncancel\n")
            }
            child.send("quit\n")
            child.finishInput()
        }
        thread.start()
        return thread
    }
    // And one script of plain `carnet edit` commands on the same contacts, meanwhile.
    var scriptSaves: [Int64: Int] = [:], scriptConflicts = 0, scriptFailures: [String] = []
    for m in 0..<max(1, options.edits / 10) {
        let id = Int64(m % Int(contactCount)) + 1
        let (status, _, err) = run(options.carnet, ["edit", "\(id)", "--position", "Script \(m)", "--db", db])
        switch status {
        case 0: scriptSaves[id, default: 0] += 1
        case 67: scriptConflicts += 1
        default: scriptFailures.append("exit \(status): \(err)")
        }
    }
    _ = feeders
    var saves = 0, conflicts = 0
    var failures = scriptFailures
    var versions: [Int64: [Int: String]] = [:]  // contact → version → phone that saved it
    for (index, child) in children.enumerated() {
        let (out, err) = child.collect()
        if child.process.terminationStatus != 0 { failures.append("process \(index) exited \(child.process.terminationStatus): \(err)") }
        if out.contains("locked") || out.contains("busy") || err.contains("locked") || err.contains("busy") {
            failures.append("process \(index) reported a busy/locked database")
        }
        var plan = plans[index][...]
        for line in out.split(separator: "\n") {
            if line.hasPrefix("saved contact ") {
                let words = line.split(separator: " ")
                guard let (id, phone) = plan.popFirst(), Int64(words[2]) == id, let version = Int(words[4]) else {
                    failures.append("process \(index): unexpected line \(line)")
                    continue
                }
                if versions[id, default: [:]][version] != nil { failures.append("contact \(id) version \(version) saved twice: a lost update") }
                versions[id, default: [:]][version] = phone
                saves += 1
            } else if line.hasPrefix("conflict:") {
                _ = plan.popFirst()
                conflicts += 1
            } else if line.hasPrefix("error:") {
                failures.append("process \(index): \(line)")
            }
        }
        if !plan.isEmpty { failures.append("process \(index): \(plan.count) edits had no outcome") }
    }
    let elapsed = Date().timeIntervalSince(started)
    // The file: every save is a distinct version, and the last one is what is stored.
    do {
        failures += try checkFile(db)
        let queue = try DatabaseQueue(path: db)
        try queue.read { db in
            for id in 1...contactCount {
                let row = try Row.fetchOne(db, sql: "SELECT version, title FROM contacts WHERE id = ?", arguments: [id])!
                let version: Int = row["version"]
                let interactive = versions[id] ?? [:]
                let expected = 1 + interactive.count + (scriptSaves[id] ?? 0)
                if version != expected {
                    failures.append("contact \(id): version \(version) but \(expected - 1) saves were reported")
                }
                if let phone = interactive[version], row["title"] != phone {
                    failures.append("contact \(id): the last save's phone \(phone) is not stored")
                }
            }
        }
        try queue.close()
    } catch {
        failures.append("cannot read the file: \(error)")
    }
    print("""
        concurrent: \(options.processes) interactive processes × \(options.edits) edits on \(contactCount) shared contacts, \
        plus \(max(1, options.edits / 10)) scripted edits, in \(String(format: "%.1f", elapsed)) s: \
        \(saves + scriptSaves.values.reduce(0, +)) saved, \(conflicts + scriptConflicts) stale edits reported as conflicts, \
        busy/locked errors: \(failures.filter { $0.contains("busy") }.count), lost updates: \
        \(failures.filter { $0.contains("lost") || $0.contains("is not stored") || $0.contains("version") }.count), \
        integrity: \(failures.contains { $0.contains("integrity") } ? "FAILED" : "ok"), seed \(options.seed)
        """)
    for failure in failures.prefix(20) { print("  \(failure)") }
    return failures.isEmpty ? 0 : 1
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
signal(SIGPIPE, SIG_IGN)
exit(options.mode == "crash" ? crash(options) : concurrent(options))
