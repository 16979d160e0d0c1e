import Foundation
import TestNeeds
import Testing

/// Undo on the command line: `carnet undo`, `redo`, `undo --to`, `history`, in one process
/// and across processes, with the conflict exit code.
@Suite struct UndoCommandTests {
    let box = Sandbox()

    @Test func undoRedoAndHistory() throws {
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--phone", "555 0100"])
        box.carnetInProcess(["edit", "1", "--title", "Countess"])
        box.carnetInProcess(["favorite", "1"])
        box.carnetInProcess(["delete", "1", "--yes"])
        let history = box.carnetInProcess(["history"])
        #expect(history.lines.count == 5, "\(history)")
        #expect(history.lines[0] == "id\ttime\tsummary\tundone")
        #expect(history.lines[1].hasPrefix("4\t") && history.lines[1].hasSuffix("\tdeleted Ada Lovelace\t"))
        #expect(history.lines[2].hasSuffix("\tfavorited Ada Lovelace at 1\t"))
        #expect(history.lines[3].hasSuffix("\tedited Ada Lovelace: title\t"))

        let undo = box.carnetInProcess(["undo"])
        #expect(undo.status == 0)
        #expect(undo.stdout == "undone 4: deleted Ada Lovelace\n")
        let shown = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect(shown["title"] as? String == "Countess")
        #expect(shown["favorite"] as? Bool == true)

        let back = box.carnetInProcess(["undo", "--to", "2"])
        #expect(back.stdout == "undone 3: favorited Ada Lovelace at 1\nundone 2: edited Ada Lovelace: title\n")
        #expect(box.carnetInProcess(["favorites"]).lines.count == 1)  // the header only
        let redo = box.carnetInProcess(["redo"])
        #expect(redo.stdout == "redone 2: edited Ada Lovelace: title\n")

        let json = try #require(box.json(box.carnetInProcess(["history", "--json", "--limit", "2"]).stdout) as? [[String: Any]])
        #expect(json.map { $0["id"] as? Int } == [4, 3])
        #expect(json.map { $0["undone"] as? Bool } == [true, true])
        #expect(json.allSatisfy { ($0["bytes"] as? Int ?? 0) > 0 })

        // A new change clears what there was to redo.
        box.carnetInProcess(["add", "--name", "Grace Hopper"])
        let nothing = box.carnetInProcess(["redo"])
        #expect(nothing.status == 66)
        #expect(nothing.stderr == "carnet: nothing to redo\n")
        #expect(box.carnetInProcess(["undo", "--to", "99"]).status == 66)
        #expect(box.carnetInProcess(["undo", "--to", "0"]).status == 64)
    }

    @Test func aChangeOutsideTheHistoryIsAConflictExit67AndNothingChanges() {
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--email", "ada@example.com"])
        box.carnetInProcess(["edit", "1", "--remove-email", "ada@example.com", "--email", "ada@analytical.example"])
        let edited = box.run(TestTool.path("sqlite3"), [box.db, "UPDATE contact_emails SET value = 'countess@example.com' WHERE contact_id = 1"])
        #expect(edited.status == 0)
        // The next carnet brings the search index up to date with what sqlite3 wrote; from then
        // on the refused undo writes nothing.
        #expect(box.carnetInProcess(["db", "check"]).stdout == "ok\n")
        let before = box.snapshot()
        let undo = box.carnetInProcess(["undo"])
        #expect(undo.status == 67)
        #expect(undo.stderr == "carnet: cannot undo action 2 (edited Ada Lovelace: email): contact 1's emails were changed outside Carnet's history since; nothing was written\n")
        #expect(box.snapshot().first == before.first)  // the file (carnet leaves an empty -wal beside it)
    }

    @Test func keepTrimsAndIsKeptInTheFile() {
        for name in ["A", "B", "C"] { box.carnetInProcess(["add", "--name", name]) }
        #expect(box.carnetInProcess(["history", "--keep", "2"]).stdout == "saved history keep 2\n")
        #expect(box.carnetInProcess(["history"]).lines.count == 3)
        box.carnetInProcess(["add", "--name", "D"])
        #expect(box.carnetInProcess(["history"]).lines.dropFirst().map { $0.split(separator: "\t")[2] } == ["added D", "added C"])
        #expect(box.run(TestTool.path("sqlite3"), [box.db, "SELECT keep FROM history_settings"]).stdout == "2\n")
        #expect(box.carnetInProcess(["history", "--keep", "-1"]).status == 64)
    }

    /// One process edits, another undoes: the history is in the file, not in a process.
    @Test func oneProcessEditsAnotherUndoes() throws {
        #expect(box.carnet(["add", "--name", "Ada Lovelace", "--title", "Analyst"]).status == 0)
        #expect(box.carnet(["edit", "1", "--title", "Countess"]).status == 0)
        let undo = box.carnet(["undo"])
        #expect(undo.status == 0, "\(undo)")
        #expect(undo.stdout == "undone 2: edited Ada Lovelace: title\n")
        let shown = try #require(box.json(box.carnet(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect(shown["title"] as? String == "Analyst")
        #expect(shown["version"] as? Int == 3)
        #expect(box.carnet(["redo"]).stdout == "redone 2: edited Ada Lovelace: title\n")
        #expect(box.carnet(["undo"]).status == 0)
        #expect(box.carnet(["undo"]).stdout == "undone 1: added Ada Lovelace\n")
        #expect(box.carnet(["undo"]).status == 66)
        #expect(box.carnet(["list"]).lines.count == 1)
    }

    @Test func interactiveUndoAndRedo() {
        box.carnetInProcess(["sample"])
        let run = box.carnetInProcess(["interactive"], stdin: "open 3\ndelete --yes\nu\nopen 3\nedit\nundo\ncancel\nredo\nquit\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("deleted contact 3, "), "\(run)")
        #expect(run.stdout.contains("(undo: u)"), "\(run)")
        #expect(run.stdout.contains("undone 2: deleted "), "\(run)")
        #expect(run.stdout.contains("error: undo and redo take back saved changes; save or cancel this edit first"), "\(run)")
        #expect(run.stdout.contains("redone 2: deleted "), "\(run)")
        #expect(box.carnetInProcess(["show", "3"]).status == 66)
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["show", "3"]).status == 0)
    }
}
