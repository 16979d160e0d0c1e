import Foundation
import TestNeeds
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
    func terminalSession(_ steps: [String], environment: [String: String] = [:]) -> Run {
        let typing = steps.map { "sleep 0.3; printf '\($0)'" }.joined(separator: "; ")
        return box.carnetOnTerminal(["interactive", "--line"], environment: environment, feeder: box.script("type.sh", typing + "; sleep 1\n"))
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

    /// The interactive search is the index's, and a query with nothing to look for
    /// is an error line, not a damaged database.
    @Test func theSearchFoldsAccentsAndTakesWordsInAnyOrder() {
        box.carnetInProcess(["add", "--name", "Élodie Martin"])
        let run = session("search martin ELODIE\nsearch \"*\"\nsearch 555-0103\nquit\n")
        #expect(run.stdout.contains("── Contacts (1 of 6) ──  search: martin ELODIE"), "\(run)")
        #expect(run.stdout.contains("  6  Élodie Martin"), "\(run)")
        #expect(run.stdout.contains("error: search text must have a letter or digit to look for"), "\(run)")
        #expect(run.stdout.contains("  3  Katherine Price"), "\(run)")
    }

    /// Contact 2 as `show --json` prints it.
    func shown() throws -> [String: Any] {
        try #require(box.json(box.carnetInProcess(["show", "2", "--json"]).stdout) as? [String: Any])
    }

    /// The values of a list in `show --json`'s output, in order.
    func values(_ contact: [String: Any], _ key: String) -> [String] {
        (contact[key] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
    }

    /// A session (from a pipe) that types `before`, waits while another carnet runs its own
    /// interactive session typing `other` (a change under this one's open edit), then types
    /// `after`. The lines are `printf` formats: `\\n` ends one.
    func session(typing before: String, whileAnotherTypes other: String, thenTyping after: String) -> Run {
        let otherSession = box.script(
            "other.sh", "printf '\(other)' | \"\(Sandbox.binary)\" interactive --db \"\(box.db)\" >/dev/null\n")
        let feeder = box.script("feed.sh", """
            printf '\(before)'; sleep 0.3; "\(otherSession)"
            printf '\(after)'
            """)
        return box.run("/bin/sh", ["-c", "\"\(feeder)\" | \"\(Sandbox.binary)\" interactive --db \"\(box.db)\""])
    }

    @Test func reloadAfterAConflictMergesAndTheConflictNamesTheCommandsNotFlags() throws {
        // Another carnet replaces the email while this session's edit of the phone is open.
        let run = session(
            typing: "open 2\\nedit\\nphone -1\\nphone 555 9999\\n",
            whileAnotherTypes: "open 2\\nedit\\nemail -1\\nemail tyler@prophecy.example.com\\nsave\\nquit\\n",
            thenTyping: "save\\nreload\\nsave\\nquit\\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("conflict: contact 2 was changed by someone else since this edit started (changed: email)"), "\(run)")
        #expect(run.stdout.contains("  theirs: Tyler Porter | Prophecy | Software developer | tyler@prophecy.example.com | +1 555 0102\n"), "\(run)")
        #expect(run.stdout.contains("  yours:  Tyler Porter | Prophecy | Software developer | tyler.porter@example.com | 555 9999\n"), "\(run)")
        #expect(run.stdout.contains("type reload (merge their changes into yours), overwrite (save yours over theirs) or cancel"), "\(run)")
        #expect(!run.stdout.contains("--force"), "\(run)")
        #expect(run.stdout.contains("reloaded: their email taken, your changes kept"), "\(run)")
        #expect(run.stdout.contains("saved contact 2 version 3"), "\(run)")
        let contact = try shown()
        #expect(values(contact, "emails") == ["tyler@prophecy.example.com"])
        #expect(values(contact, "phones") == ["555 9999"])
    }

    @Test func reloadAsksOnlyAboutAFieldBothChanged() throws {
        let run = session(
            typing: "open 2\\nedit\\nphone -1\\nphone 555 9999\\ntitle CTO\\ncategory friends\\n",
            whileAnotherTypes: "open 2\\nedit\\nname Tyler J. Porter\\nphone -1\\nphone 555 1234\\ntitle VP\\nsave\\nquit\\n",
            thenTyping: "save\\nreload\\nsave\\ntheirs title\\nsave\\nquit\\n")
        // Renaming kept the structured name in step, so their name and middle initial come in.
        #expect(run.stdout.contains("reloaded: their name, additional, phone taken, your changes kept"), "\(run)")
        // Each side's new phone is kept (lists merge entry by entry): the title is the one clash.
        #expect(run.stdout.contains("both changed title: type theirs FIELD or mine FIELD for each (or theirs / mine for all), then save"), "\(run)")
        #expect(run.stdout.contains("  ? title: theirs \"VP\", yours \"CTO\""), "\(run)")
        #expect(run.stdout.contains("error: both edits changed title: type theirs FIELD or mine FIELD for each before saving"), "\(run)")
        #expect(run.stdout.contains("saved contact 2 version 3"), "\(run)")
        let contact = try shown()
        #expect(contact["name"] as? String == "Tyler J. Porter")
        #expect(contact["additional"] as? String == "J.")
        #expect(contact["title"] as? String == "VP" && contact["organization"] as? String == "Prophecy")
        #expect(values(contact, "phones") == ["555 9999", "555 1234"])
        #expect(contact["categories"] as? [String] == ["friends"])
    }

    @Test func theEditScreenShowsEveryFieldAndNumbersListEntries() {
        let run = session("open 2\nedit\nemail work:tyler@work.example\nnote Met at the conference.\nquit\n")
        let screen = run.stdout.components(separatedBy: "── Edit contact ──  (unsaved)\n").last ?? ""
        #expect(screen.hasPrefix("""
              name:         Tyler Porter
              prefix:
              given:        Tyler
              additional:
              family:       Porter
              suffix:
              nickname:
              pronouns:
              gender:
              organization: Prophecy
              department:
              title:        Software developer
              role:
              emails:       1. tyler.porter@example.com (preferred)
                            2. tyler@work.example (work)
              phones:       1. +1 555 0102 (preferred)
              addresses:
              urls:
              handles:
              dates:
              note:         Met at the conference.
              categories:
              expertise:
              hobbies:
              interests:
              photo:
              extras:

            """), "\(run)")
    }

    /// On a terminal narrower than the help, each line breaks between words (or after a `|` of
    /// the field names), and its rest is indented under it, instead of the terminal cutting it
    /// mid-word at the edge.
    @Test func helpOnATerminalIsWrappedToItsWidth() throws {
        let run = terminalSession(["open 2\\n", "edit\\n", "help\\n", "cancel\\n", "quit\\n"], environment: ["COLUMNS": "60"])
        #expect(run.status == 0, "\(run)")
        let lines = run.stdout.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasSuffix("edit contact> help") }, "\(run)")
        let help = lines[(start + 1)...].prefix { !$0.hasPrefix("edit contact>") }
        #expect(help.count > 6, "\(help)")
        #expect(help.allSatisfy { $0.count < 60 }, "\(help.joined(separator: "\n"))")
        #expect(help.first == "name|prefix|given|additional|family|suffix|nickname|", "\(help.joined(separator: "\n"))")
        #expect(help.contains("  pronouns|gender|organization|department|title|role|note"), "\(help.joined(separator: "\n"))")
        #expect(help.last?.hasPrefix("  ") == true && help.contains { $0.hasPrefix("anywhere: contacts (c)") }, "\(help.joined(separator: "\n"))")
    }

    @Test func helpOnTheEditScreenListsEveryFieldAndTheListCommands() {
        let run = session("open 2\nedit\nhelp\nquit\n")
        #expect(run.stdout.contains("name|prefix|given|additional|family|suffix|nickname|pronouns|gender|organization|department|title|role|note VALUE: set (no VALUE clears)"), "\(run)")
        #expect(run.stdout.contains("email|phone|address|url|handle|date|category|expertise|hobby|interest|extra ENTRY: add an entry, [label[,pref]:]value"), "\(run)")
        #expect(run.stdout.contains("LIST -N or remove LIST N|VALUE: remove · move LIST N M · set LIST N ENTRY · pref LIST N (email|phone|address|url|handle|expertise|hobby|interest)"), "\(run)")
    }

    @Test func listsAreEditedByAddRemoveMoveAndPref() throws {
        let run = session("""
            open 2
            edit
            email work:tyler@work.example
            email home,pref:tyler@home.example
            move email 3 1
            email -2
            phone cell:+1 555 0199
            pref phone 2
            set phone 1 work:+1 555 0102
            date birthday:1990-04-01
            date anniversary:--06-01
            move date 2 1
            category friends
            category prophecy
            remove category friends
            url https://tyler.example
            remove url 1
            save
            quit

            """)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("""
              emails:       1. tyler@home.example (home, preferred)
                            2. tyler.porter@example.com
                            3. tyler@work.example (work)
            """), "\(run)")
        #expect(run.stdout.contains("""
              phones:       1. +1 555 0102 (work)
                            2. +1 555 0199 (cell, preferred)
            """), "\(run)")
        #expect(!run.stdout.contains("error"), "\(run)")
        #expect(run.stdout.contains("saved contact 2 version 2"), "\(run)")
        // The detail screen after the save shows the lists grouped.
        #expect(run.stdout.contains("Contact\n  Emails           tyler@home.example  (home, preferred)\n"), "\(run)")
        let contact = try shown()
        #expect(values(contact, "emails") == ["tyler@home.example", "tyler@work.example"])
        #expect(values(contact, "phones") == ["+1 555 0102", "+1 555 0199"])
        #expect((contact["dates"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == ["--06-01", "1990-04-01"])
        #expect(contact["categories"] as? [String] == ["prophecy"])
        #expect(values(contact, "urls").isEmpty)
    }

    @Test func aBadEntryShowsTheIssueAndKeepsTheDraft() throws {
        let run = session("""
            open 2
            edit
            title CTO
            email nope
            save
            date birthday:tomorrow
            email -7
            pref date 1
            move email 1
            email -2
            save
            quit

            """)
        #expect(run.status == 0, "\(run)")
        let out = run.stdout
        // Kept and named until fixed: the draft and the other edit stay.
        #expect(out.contains("  emails:       1. tyler.porter@example.com (preferred)\n                2. nope\n"), "\(out)")
        #expect(out.contains("  ! email: 2 (nope) must look like name@example.com (no spaces or invisible characters)\n"), "\(out)")
        #expect(out.contains("error: invalid email: 2 (nope) must look like name@example.com (no spaces or invisible characters)\n"), "\(out)")
        // Refused outright, the draft as it was.
        #expect(out.contains("error: invalid date: \"tomorrow\" is not a date like 1815-12-10, or --12-10 without a year\n"), "\(out)")
        #expect(out.contains("error: invalid email: has no entry 7; it has 2\n"), "\(out)")
        #expect(out.contains("error: invalid date: has no preferred entry: its entries are kept in the order given\n"), "\(out)")
        #expect(out.contains("error: type move FIELD N M (entry N to place M)\n"), "\(out)")
        #expect(out.contains("saved contact 2 version 2"), "\(out)")
        let contact = try shown()
        #expect(contact["title"] as? String == "CTO")
        #expect(values(contact, "emails") == ["tyler.porter@example.com"])
        #expect((contact["dates"] as? [Any])?.isEmpty == true)
    }

    /// The display name and the structured name follow each other, as on every other screen;
    /// position still sets title and organization as one line.
    @Test func theNameAndItsPartsKeepInStep() throws {
        let run = session("open 2\nedit\nfamily Porter-Smith\nposition CTO, Prophecy Labs\nsave\nquit\n")
        #expect(run.stdout.contains("saved contact 2 version 2"), "\(run)")
        var contact = try shown()
        #expect(contact["name"] as? String == "Tyler Porter-Smith" && contact["family"] as? String == "Porter-Smith")
        #expect(contact["title"] as? String == "CTO" && contact["organization"] as? String == "Prophecy Labs")
        _ = session("open 2\nedit\nname Ty Porter\nsave\nquit\n")
        contact = try shown()
        #expect(contact["given"] as? String == "Ty" && contact["family"] as? String == "Porter")
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

extension InteractiveTests {
    /// Ctrl-C while editing exited at once (130), dropped the draft without a word, and libedit
    /// sent SIGINT on to the whole process group, killing the shell that ran carnet. Now it does
    /// what it does in a shell: the line being typed goes, a new prompt comes, the session and
    /// its draft stay; and nothing reaches the shell that ran carnet.
    @Test func ctrlCClearsTheLineAsInAShellAndKeepsTheDraft() {
        let steps = ["open 2\\n", "edit\\n", "nickname Zed\\n", "title Oops", "\\003", "\\003", "save\\n", "quit\\n"]
        let typing = steps.map { "sleep 0.4; printf '\($0)'" }.joined(separator: "; ")
        let feeder = box.script("type.sh", typing + "; sleep 1\n")
        // bash waits for carnet and carries on when carnet exits by itself (not by a signal).
        let command = "\(Sandbox.binary) interactive --line --db \(box.db); echo wrapper carried on after $?"
        let run = box.run("/bin/sh", ["-c", "\(Sandbox.shellQuoted(feeder)) | \(Sandbox.shellQuoted(TestTool.path("timeout"))) 120 \(Sandbox.shellQuoted(TestTool.path("script"))) -qec \(Sandbox.shellQuoted("bash -c " + Sandbox.shellQuoted(command))) /dev/null"])
        let output = run.stdout.replacingOccurrences(of: "\r\n", with: "\n")
        #expect(output.contains("Oops^C"), "\(output)")
        #expect(!output.contains("discard"), "\(output)")
        #expect(output.contains("wrapper carried on after 0"), "\(output)")
        let shown = box.carnetInProcess(["show", "2"]).stdout
        #expect(shown.contains("Zed") && !shown.contains("Oops"), "\(shown)")
    }
}

/// The books screen of `carnet interactive`: a book made there, opened, and a contact added from
/// its list goes to that book.
@Suite struct InteractiveBooksTests {
    let box = Sandbox()

    @Test func aContactAddedFromABooksListGoesToThatBook() {
        box.carnetInProcess(["sample"])
        let run = box.carnet(["interactive"], stdin: "books\nadd Work\nopen work\nadd\nname Grace Hopper\nsave\nback\nback\nquit\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("── Address books ──"), "\(run)")
        #expect(run.stdout.contains("  Work  0 contacts"), "\(run)")
        #expect(run.stdout.contains("  Work  1 contact\n"), "\(run)")
        let work = box.carnetInProcess(["list", "--book", "Work"])
        #expect(work.lines.count == 2 && work.lines[1].contains("Grace Hopper\t"), "\(work)")
    }
}

/// The groups of `carnet interactive`: listed, opened (by id or name, or by a group's id from
/// the contacts list), added, renamed, deleted, members added and taken out, each undoable, and
/// the help of each screen made from the same table of verbs.
@Suite struct InteractiveGroupsTests {
    let box = Sandbox()

    init() {
        box.carnetInProcess(["sample"])
    }

    func session(_ lines: String) -> Run {
        box.carnet(["interactive"], stdin: lines)
    }

    func groupJSON(_ group: String) -> [String: Any]? {
        box.json(box.carnetInProcess(["group", "show", group, "--json"]).stdout) as? [String: Any]
    }

    func memberNames(_ group: String) -> [String] {
        (groupJSON(group)?["members"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
    }

    @Test func aGroupIsAddedGivenMembersRenamedAndDeleted() {
        let run = session("""
            groups
            add Climbing club
            open climbing club
            add-member 2 4
            remove-member 2
            add 5
            rename Climbers
            back
            quit

            """)
        #expect(run.status == 0, "\(run)")
        #expect(!run.stdout.contains("error"), "\(run)")
        #expect(run.stdout.contains("── Groups (0) ──\n  no groups (add NAME)\n"), "\(run)")
        #expect(run.stdout.contains("saved group 6"), "\(run)")
        #expect(run.stdout.contains("── Group ──\nClimbing club  (group 6, uid "), "\(run)")
        #expect(run.stdout.contains("  4\tGary Edwards  <gary.edwards@example.com>\n"), "\(run)")
        #expect(run.stdout.contains("saved group 6: 2 members\n") && run.stdout.contains("saved group 6: 1 member\n"), "\(run)")
        #expect(run.stdout.contains("── Groups (1) ──\n    6  Climbers  2 members\n"), "\(run)")
        #expect(memberNames("Climbers") == ["Gary Edwards", "Rebecca Rogers"])
        // Each change was one action: undo takes back the rename, then the member added.
        let undo = session("groups\nundo\nundo\nquit\n")
        #expect(undo.stdout.contains("    6  Climbing club  1 member\n"), "\(undo)")
        #expect(memberNames("Climbing club") == ["Gary Edwards"])
        // Deleting asks (from a script: delete --yes); the members stay.
        let delete = session("groups\n6\ndelete\ndelete --yes\nquit\n")
        #expect(delete.stdout.contains("error: not deleting group 6 without --yes (standard input is not a terminal): type delete --yes"), "\(delete)")
        #expect(delete.stdout.contains("deleted group 6, Climbing club; its 1 member stays (undo: u)\n── Groups (0) ──"), "\(delete)")
        #expect(box.carnetInProcess(["group", "show", "6"]).status == 66)
        #expect(box.carnetInProcess(["list"]).lines.count == 6)
    }

    /// A group's id typed on the contacts list opens the group, not a contact screen that would
    /// show "Climbing" as a given name; a member's id on the group's screen opens that contact.
    @Test func aGroupsIdOnTheContactsListOpensTheGroup() {
        box.carnetInProcess(["group", "add", "Climbing club"])
        box.carnetInProcess(["group", "add-member", "6", "3"])
        let run = session("6\n3\nquit\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("── Group ──\nClimbing club  (group 6"), "\(run)")
        #expect(!run.stdout.contains("Given name       Climbing"), "\(run)")
        #expect(run.stdout.contains("── Contact ──\nKatherine Price"), "\(run)")
        // Refusals on the contacts list name the group.
        let refused = session("fav 6\nquit\n")
        #expect(refused.stdout.contains("error: 6 is a group (Climbing club), not a contact: a favorite is a contact"), "\(refused)")
    }

    @Test func helpOnTheGroupScreensComesFromTheVerbTable() {
        box.carnetInProcess(["group", "add", "Family"])
        let run = session("help\ngroups\nhelp\nopen family\nhelp\nquit\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("anywhere: contacts (c) · favorites (f) · quote · books · groups (g) · back (b)"), "\(run)")
        #expect(run.stdout.contains("ID or open GROUP · add NAME · list"), "\(run)")
        #expect(run.stdout.contains("add-member ID… · remove-member ID|UID… · rename NAME · delete (asks; delete --yes from a script) · ID or open ID: a member"), "\(run)")
        // A word no verb of the screen answers to is still unknown there.
        #expect(session("groups\nedit\nquit\n").stdout.contains("unknown command \"edit\" here; type help"))
    }

    @Test func errorsOnTheGroupScreensAreLinesAndChangeNothing() {
        box.carnetInProcess(["group", "add", "Family"])
        let before = box.snapshot()
        let run = session("groups\nadd family\nopen nobody\nopen family\nadd-member 99\nremove-member 1\nrename\nadd-member x\nquit\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("error: a group named Family already exists (id 6)"), "\(run)")
        #expect(run.stdout.contains("error: no group is named nobody (carnet group list shows them)"), "\(run)")
        #expect(run.stdout.contains("error: no contact has id 99"), "\(run)")
        #expect(run.stdout.contains("error: 1 is not a member of Family"), "\(run)")
        #expect(run.stdout.contains("error: type rename NAME"), "\(run)")
        #expect(run.stdout.contains("error: expected an id (a positive number), got \"x\""), "\(run)")
        #expect(box.snapshot() == before)
    }
}
