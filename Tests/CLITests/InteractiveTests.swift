import Foundation
import Testing

/// `carnet interactive` as a new user meets it: unsaved drafts, deletes, ids, counts, conflicts,
/// from a script (piped stdin) and on a terminal (a pseudo-terminal from `script`).
@Suite struct InteractiveTests {
    let box = Sandbox()

    init() {
        box.carnetInProcess(["sample"])
    }

    func session(_ lines: String) -> Run {
        box.carnet(["interactive"], stdin: lines)
    }

    /// Types each step into a pseudo-terminal after a pause, as a person would (a control
    /// character sent with the text before it could reach the terminal before carnet reads).
    func terminalSession(_ steps: [String]) -> Run {
        let typing = steps.map { "sleep 0.3; printf '\($0)'" }.joined(separator: "; ")
        let feeder = box.script("type.sh", typing + "; sleep 1\n")
        let command = "\"\(Sandbox.binary)\" interactive --db \"\(box.db)\""
        let run = box.run("/bin/sh", ["-c", "\"\(feeder)\" | /usr/bin/script -qec '\(command)' /dev/null"])
        return Run(status: run.status, stdout: run.stdout.replacingOccurrences(of: "\r\n", with: "\n"), stderr: run.stderr)
    }

    @Test func theFirstScreenSaysHowToGetHelp() {
        let run = session("quit\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("type help for the commands of this screen, quit to leave"), "\(run)")
    }

    @Test func aScriptCannotLeaveAnUnsavedDraftByBackOrTabAndIsToldAtQuit() {
        let before = box.snapshot()
        let run = session("open 2\nedit\nphone 555 9999\nback\ncontacts\nfavorites\nquote\nquit\n")
        #expect(run.status == 0, "\(run)")
        let refusals = run.lines.filter { $0 == "error: unsaved changes to contact 2: save them, or cancel to drop them, first" }
        #expect(refusals.count == 4, "\(run)")
        #expect(!run.stdout.contains("── Contacts (5) ──\n    4", after: "phone 555 9999"), "\(run)")
        #expect(run.lines.last == "discarded the unsaved changes to contact 2", "\(run)")
        // The end of input says the same; a clean session ends without a word.
        let eof = session("add\nname Ada\n")
        #expect(eof.lines.last == "discarded the unsaved changes to a new contact", "\(eof)")
        #expect(!session("open 2\nedit\nback\nquote\n").stdout.contains("discarded"))
        #expect(box.snapshot() == before)
    }

    @Test func deleteOnTheDetailScreenNeedsYesFromAScript() {
        let run = session("open 3\ndelete\n")
        #expect(run.stdout.contains("error: not deleting contact 3 without --yes (standard input is not a terminal): type delete --yes"), "\(run)")
        #expect(box.carnetInProcess(["show", "3"]).status == 0)
        let yes = session("open 3\ndelete --yes\n")
        #expect(yes.stdout.contains("deleted contact 3"), "\(yes)")
        #expect(box.carnetInProcess(["show", "3"]).status == 66)
    }

    @Test func favOnADetailScreenActsOnThatContactOnly() {
        let run = session("open 5\nfav 4\nunfav\nfav 5\nfav\n")
        #expect(run.stdout.contains("error: this screen shows contact 5; for contact 4, type back, then fav 4"), "\(run)")
        #expect(run.stdout.contains("contact 5 is not a favorite"), "\(run)")  // unfav never makes one
        #expect(run.stdout.contains("saved favorite 5"), "\(run)")
        #expect(run.stdout.contains("contact 5 is already a favorite"), "\(run)")
        #expect(box.carnetInProcess(["favorites"]).lines.dropFirst().map { $0.split(separator: "\t")[0] } == ["5"])
    }

    @Test func aSearchHeaderCountsTheMatches() {
        let run = session("search gale\nfavorites\nsearch x\n")
        #expect(run.stdout.contains("── Contacts (1 of 5) ──  search: gale"), "\(run)")
        #expect(run.stdout.contains("── Favorites (0 of 0) ──  search: x"), "\(run)")
    }

    @Test func reloadAfterAConflictMergesAndTheConflictNamesTheCommandsNotFlags() throws {
        // Another carnet changes the email while this session's edit of the phone is open.
        let other = box.script("other.sh", "\"\(Sandbox.binary)\" edit 2 --email tyler@prophecy.example.com --db \"\(box.db)\" >/dev/null\n")
        let feeder = box.script("feed.sh", """
            printf 'open 2\\nedit\\nphone 555 9999\\n'; sleep 0.3; "\(other)"
            printf 'save\\nreload\\nsave\\nquit\\n'
            """)
        let run = box.run("/bin/sh", ["-c", "\"\(feeder)\" | \"\(Sandbox.binary)\" interactive --db \"\(box.db)\""])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("conflict: contact 2 was changed by someone else since this edit started (changed: email)"), "\(run)")
        #expect(run.stdout.contains("type reload (merge their changes into yours), overwrite (save yours over theirs) or cancel"), "\(run)")
        #expect(!run.stdout.contains("--force"), "\(run)")
        #expect(run.stdout.contains("reloaded: their email taken, your changes kept"), "\(run)")
        #expect(run.stdout.contains("saved contact 2 version 3"), "\(run)")
        let shown = try #require(box.json(box.carnetInProcess(["show", "2", "--json"]).stdout) as? [String: Any])
        #expect(shown["email"] as? String == "tyler@prophecy.example.com")
        #expect(shown["phone"] as? String == "555 9999")
    }

    @Test func reloadAsksOnlyAboutAFieldBothChanged() throws {
        let other = box.script("other.sh", "\"\(Sandbox.binary)\" edit 2 --phone '555 1234' --name 'Tyler J. Porter' --db \"\(box.db)\" >/dev/null\n")
        let feeder = box.script("feed.sh", """
            printf 'open 2\\nedit\\nphone 555 9999\\nposition CTO, Prophecy\\n'; sleep 0.3; "\(other)"
            printf 'save\\nreload\\nsave\\ntheirs phone\\nsave\\nquit\\n'
            """)
        let run = box.run("/bin/sh", ["-c", "\"\(feeder)\" | \"\(Sandbox.binary)\" interactive --db \"\(box.db)\""])
        #expect(run.stdout.contains("reloaded: their name taken, your changes kept"), "\(run)")
        #expect(run.stdout.contains("both changed phone: type theirs FIELD or mine FIELD for each (or theirs / mine for all), then save"), "\(run)")
        #expect(run.stdout.contains("  ? phone: theirs \"555 1234\", yours \"555 9999\""), "\(run)")
        #expect(run.stdout.contains("error: both edits changed phone: type theirs FIELD or mine FIELD for each before saving"), "\(run)")
        let shown = try #require(box.json(box.carnetInProcess(["show", "2", "--json"]).stdout) as? [String: Any])
        #expect(shown["name"] as? String == "Tyler J. Porter")
        #expect(shown["position"] as? String == "CTO, Prophecy")
        #expect(shown["phone"] as? String == "555 1234")
    }

    @Test func onATerminalLeavingADraftOrDeletingAsksFirst() {
        let run = terminalSession([
            "open 2\\n", "edit\\n", "phone 555 9999\\n",
            "back\\n", "n\\n",          // stays on the edit screen, draft kept
            "contacts\\n", "y\\n",      // leaves, draft dropped
            "open 3\\n", "delete\\n", "n\\n", "delete\\n", "y\\n",
            "open 1\\n", "edit\\n", "name Madison T.\\n",
            "\\004", "n\\n",             // Ctrl-D asks; no: the session goes on
            "\\004", "\\004",            // Ctrl-D asks again; Ctrl-D at the question: leave
        ])
        #expect(run.status == 0, "\(run)")
        let out = run.stdout
        #expect(out.components(separatedBy: "discard unsaved changes to contact 2? [y/N]").count == 3, "\(out)")
        #expect(out.contains("delete contact 3, Katherine Price? [y/N] n\ncancelled; contact 3 kept"), "\(out)")
        #expect(out.contains("deleted contact 3"), "\(out)")
        #expect(out.components(separatedBy: "discard unsaved changes to contact 1? [y/N]").count == 3, "\(out)")
        #expect(out.hasSuffix("discarded the unsaved changes to contact 1\n"), "\(out)")
        let list = box.carnet(["list"]).stdout
        #expect(list.contains("+1 555 0102") && !list.contains("555 9999") && !list.contains("Madison T.\t"), "\(list)")
        #expect(box.carnet(["show", "3"]).status == 66)
    }

    @Test func onATerminalArrowsEditTheLineInsteadOfTypingEscapes() {
        // "ope 2", two steps left, "n": "open 2".
        let run = terminalSession(["ope 2\\033[D\\033[Dn\\n", "quit\\n"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("── Contact ──\nTyler Porter"), "\(run)")
        #expect(!run.stdout.contains("unknown command"), "\(run)")
    }
}

private extension String {
    /// Whether `text` occurs after the first occurrence of `marker`.
    func contains(_ text: String, after marker: String) -> Bool {
        guard let start = range(of: marker)?.upperBound else { return false }
        return self[start...].contains(text)
    }
}
