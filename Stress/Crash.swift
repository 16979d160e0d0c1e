import Foundation
import GRDB
import SeededRandom

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
