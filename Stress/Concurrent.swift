import Foundation
import GRDB
import SeededRandom

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
