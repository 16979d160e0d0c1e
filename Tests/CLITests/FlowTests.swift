import Foundation
import Testing

/// The prompt, editor and interactive flows, driven through stdin and scripted editors.
@Suite struct FlowTests {
    let box = Sandbox()

    /// The contact prompts' answers in the order they are asked: the one-line fields (name, its
    /// five parts, nickname, organization, department, title, role), then each list entry by
    /// entry (an empty answer ends a list), the note, the categories, and the expertise, hobbies
    /// and interests (ended at once).
    static func answers(
        name: String = "", parts: [String] = [], nickname: String = "", pronouns: String = "", gender: String = "",
        work: [String] = [], emails: [String] = [],
        phones: [String] = [], addresses: [String] = [], urls: [String] = [], handles: [String] = [], dates: [String] = [],
        note: String = "", categories: [String] = [], then more: [String] = []
    ) -> String {
        func padded(_ values: [String], _ count: Int) -> [String] { values + Array(repeating: "", count: max(0, count - values.count)) }
        let lines = [name] + padded(parts, 5) + [nickname, pronouns, gender] + padded(work, 4)
            + emails + [""] + phones + [""] + addresses + [""] + urls + [""] + handles + [""] + dates + [""]
            + [note] + categories + [""] + ["", "", ""] + more
        return lines.joined(separator: "\n") + "\n"
    }

    /// `carnet add`'s answers: the name, emails and phones, then (a name left empty asked again
    /// as `nameAgain`) `y` to the other fields, asked in `answers`' order.
    static func addAnswers(
        name: String = "", emails: [String] = [], phones: [String] = [], nameAgain: String? = nil, more: Bool = true,
        parts: [String] = [], work: [String] = [], dates: [String] = [], note: String = "", categories: [String] = []
    ) -> String {
        func padded(_ values: [String], _ count: Int) -> [String] { values + Array(repeating: "", count: max(0, count - values.count)) }
        var lines = [name] + emails + [""] + phones + [""]
        if let nameAgain { lines.append(nameAgain) }
        lines.append(more ? "y" : "")
        if more {
            lines += padded(parts, 5) + ["", "", ""] + padded(work, 4) + [""] + [""] + [""] + dates + [""] + [note] + categories + [""]
                + ["", "", ""]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func addAsksTheFieldsPeopleFillThenOffersTheRest() throws {
        let run = box.carnet(["add", "--prompt"], stdin: Self.addAnswers(name: "Ada Lovelace", emails: ["ada@example.com"], more: false))
        #expect(run.status == 0 && run.stdout == "saved contact 1\n", "\(run)")
        // The name, the emails and the phones, then the offer: not every field of a card.
        #expect(run.stderr.contains("Name: ") && run.stderr.contains("  email 2: ") && run.stderr.contains("  phone 1: "), "\(run)")
        for field in ["Nickname", "Organization", "Addresses", "Dates", "Note"] { #expect(!run.stderr.contains(field), "\(field): \(run)") }
        #expect(run.stderr.contains("More fields (organization, title, address, birthday, note and the rest)? [y/N] "), "\(run)")
        #expect(!run.stderr.contains("Given name"), "\(run)")
        #expect(box.carnetInProcess(["list"]).stdout.contains("Ada Lovelace\t\tada@example.com"))
    }

    @Test func addByPromptsSaves() throws {
        let input = Self.addAnswers(
            name: "Rebecca Rogers", emails: ["rebecca@example.com", "home:becky@home.example"], phones: ["555 0105"],
            work: ["Globaviations", "", "HR"], dates: ["birthday:1985-09-09"], note: "Likes hiking", categories: ["work"])
        let run = box.carnet(["add", "--prompt"], stdin: input)
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "saved contact 1\n")
        // The parts read from the name are offered, and kept by Enter.
        #expect(run.stderr.contains("Given name [Rebecca]: ") && run.stderr.contains("Family name [Rogers]: "), "\(run)")
        #expect(run.stderr.contains("  email 1: ") && run.stderr.contains("  email 3: "), "\(run)")
        #expect(box.carnetInProcess(["list"]).stdout.contains("Rebecca Rogers\tHR, Globaviations\trebecca@example.com\t555 0105"))
        let json = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect((json["emails"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == ["rebecca@example.com", "becky@home.example"])
        #expect((json["dates"] as? [[String: Any]])?.first?["date"] as? String == "1985-09-09")
        #expect(json["note"] as? String == "Likes hiking" && json["categories"] as? [String] == ["work"])
    }

    @Test func promptsAskAgainForABrokenEntryAtOnceAndForABrokenFieldAtTheEnd() throws {
        // A bad email is asked again at once; an empty name at the end of the round.
        let input = Self.addAnswers(
            emails: ["not-an-email", "ada@example.com"], nameAgain: "Ada", dates: ["birthday:tomorrow", "birthday:2023-02-29", "birthday:1815-12-10"])
        let run = box.carnet(["add", "--prompt"], stdin: input)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("  email 1 (not-an-email) must look like name@example.com"), "\(run)")
        #expect(run.stderr.contains("  date 1: \"tomorrow\" is not a date like 1815-12-10"), "\(run)")
        #expect(run.stderr.contains("  date 1 (2023-02-29) is not a real calendar date"), "\(run)")
        #expect(run.stderr.contains("  name is required and must not be blank\nName: "), "\(run)")
        let json = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect(json["name"] as? String == "Ada")
        #expect((json["emails"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == ["ada@example.com"])
        #expect((json["dates"] as? [[String: Any]])?.compactMap { $0["date"] as? String } == ["1815-12-10"])
    }

    @Test func editByPromptsKeepsWhatYouSkipAndSavesOnYes() throws {
        box.carnetInProcess(["add", "--name", "Gary Edwards", "--position", "Web Developer", "--email", "gary@example.com",
                             "--phone", "555 0101", "--phone", "555 0102"])
        // Enter keeps the email, - removes the first phone, text replaces the second, a new one is added.
        let input = Self.answers(work: ["", "", "Lead Web Developer"], emails: [""], phones: ["-", "work,pref:555 0199", "cell:555 0100"], then: ["y"])
        let run = box.carnet(["edit", "1", "--prompt"], stdin: input)
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("[Gary Edwards]"))
        #expect(run.stderr.contains("  phone 1 [555 0101]: "), "\(run)")
        #expect(box.carnetInProcess(["list"]).lines[1] == "1\tGary Edwards\tLead Web Developer\tgary@example.com\t555 0199\t0")
        let json = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        let phones = try #require(json["phones"] as? [[String: Any]])
        #expect(phones.compactMap { $0["value"] as? String } == ["555 0199", "555 0100"])
        #expect(phones.compactMap { $0["label"] as? String } == ["work", "cell"])
        #expect(phones.map { $0["preferred"] as? Bool } == [true, false])
    }

    @Test func editByPromptsCancelledLeavesNoTrace() {
        box.carnetInProcess(["add", "--name", "Gary Edwards"])
        let before = box.snapshot()
        let no = box.carnet(["edit", "1", "--prompt"], stdin: Self.answers(name: "Someone Else", emails: ["someone@example.com"], then: ["n"]))
        #expect(no.status == 1, "\(no)")
        #expect(no.stderr.contains("cancelled"))
        let eof = box.carnet(["edit", "1", "--prompt"], stdin: "Someone")
        #expect(eof.status == 1)
        #expect(box.snapshot() == before)
    }

    @Test func promptsAndInteractiveSavesThatChangeNothingSayUnchanged() {
        box.carnetInProcess(["add", "--name", "Gary Edwards", "--email", "gary@example.com"])
        let before = box.snapshot()
        // Enter everywhere, or the same values typed again (an entry replaced by itself).
        for answers in [Self.answers(emails: [""]), Self.answers(name: "Gary Edwards", emails: ["gary@example.com"])] {
            let run = box.carnet(["edit", "1", "--prompt"], stdin: answers)
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout == "contact 1 unchanged (nothing to save)\n", "\(run)")
        }
        let quote = box.carnet(["quote", "edit", "--prompt"], stdin: "\n\n")
        #expect(quote.status == 0, "\(quote)")
        #expect(quote.stdout == "quote 1 unchanged (nothing to save)\n", "\(quote)")
        let session = box.carnet(["interactive"], stdin: "open 1\nedit\nname Gary Edwards\nsave\nquote\nedit\nsave\nquit\n")
        #expect(session.status == 0, "\(session)")
        #expect(session.stdout.contains("contact 1 unchanged (nothing to save)"), "\(session)")
        #expect(session.stdout.contains("quote 1 unchanged (nothing to save)"), "\(session)")
        #expect(!session.stdout.contains("saved"), "\(session)")
        #expect(box.snapshot() == before)
    }

    @Test func editorFlowReopensWithErrorsUntilFixed() {
        box.carnetInProcess(["add", "--name", "Tyler Porter", "--email", "tyler@example.com"])
        let counter = box.path("passes")
        let editor = box.script("editor.sh", """
            n=$(cat "\(counter)" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "\(counter)"
            if [ $n = 1 ]; then
              sed -i 's/^  - tyler@example.com$/  - tyler-at-prophecy/; s/^title:.*/title: Software developer/; s/^organization:.*/organization: Prophecy/' "$1"
            elif grep -q '^# ERROR email: 1 (tyler-at-prophecy) must look like' "$1"; then
              sed -i 's/tyler-at-prophecy/tyler@prophecy.example.com/' "$1"
            fi
            """)
        let run = box.carnet(["edit", "1", "--editor"], environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "saved contact 1\n")
        #expect((try? String(contentsOfFile: counter, encoding: .utf8)) == "2\n")
        #expect(box.carnetInProcess(["list"]).lines[1] == "1\tTyler Porter\tSoftware developer, Prophecy\ttyler@prophecy.example.com\t\t0")
    }

    @Test func editorClosedUnchangedOrEmptiedCancelsWithExit1() {
        box.carnetInProcess(["add", "--name", "Tyler Porter", "--email", "tyler@example.com"])
        let before = box.snapshot()
        let editors = [
            "true",                                                    // closed unchanged
            box.script("empty.sh", ": > \"$1\"\n"),                     // emptied
            box.script("comments.sh", "sed -i '/^#/!d' \"$1\"\n"),  // every field line deleted, the comments left
        ]
        for editor in editors {
            let run = box.carnet(["edit", "1", "--editor"], environment: ["EDITOR": editor, "VISUAL": ""])
            #expect(run.status == 1, "\(editor): \(run)")
            #expect(run.stderr == "carnet: cancelled; contact 1 unchanged\n", "\(editor): \(run)")
            #expect(run.stdout.isEmpty, "\(editor): \(run)")
        }
        let failing = box.carnet(["edit", "1", "--editor"], environment: ["EDITOR": "false"])
        #expect(failing.status == 1)
        #expect(box.snapshot() == before)
    }

    @Test func editorDeletingAFieldLineClearsThatField() throws {
        box.carnetInProcess(["add", "--name", "Tyler Porter", "--email", "tyler@example.com", "--phone", "555 0102", "--title", "Developer"])
        let editor = box.script("editor.sh", "sed -i '/^emails:/d; /^  - tyler@example.com$/d; /^title:/d' \"$1\"\n")
        let run = box.carnet(["edit", "1", "--editor"], environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "saved contact 1\n", "\(run)")
        #expect(box.carnetInProcess(["list"]).lines[1] == "1\tTyler Porter\t\t\t555 0102\t0")
    }

    @Test func editorConflictKeepsTheEditedTextInAPrivateFile() throws {
        box.carnetInProcess(["add", "--name", "Katherine Price", "--email", "katherine@example.com"])
        let tmp = box.path("tmp")
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let editor = box.script("editor.sh", """
            "\(Sandbox.binary)" edit 1 --email kate@golden.example.com --db "\(box.db)" >/dev/null
            sed -i 's/^phones:.*/phones: 555 0103/' "$1"
            """)
        let run = box.carnet(["edit", "1", "--editor"], environment: ["EDITOR": editor, "VISUAL": "", "TMPDIR": tmp])
        #expect(run.status == 67, "\(run)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run)")
        #expect(run.stderr.hasPrefix("carnet: contact 1 was changed by someone else"), "\(run)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: tmp).filter { $0.hasPrefix("carnet-contact-1-edit-") && $0.hasSuffix(".txt") }
        try #require(kept.count == 1, "\(kept)")
        let path = tmp + "/" + kept[0]
        #expect(run.stderr.contains("your edit is kept in \(path)"), "\(run)")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("phones: 555 0103") && text.contains("emails:\n  - katherine@example.com\n"), "\(text)")
    }

    @Test func conflictBetweenTwoProcessesNamesTheFieldsUnlessForced() {
        box.carnetInProcess(["add", "--name", "Katherine Price", "--email", "katherine@example.com"])
        // While this edit's editor is open, another carnet process saves the same contact.
        let editor = box.script("editor.sh", """
            "\(Sandbox.binary)" edit 1 --email kate@golden.example.com --position Marketing --db "\(box.db)" >/dev/null
            sed -i 's/^phones:.*/phones: 555 0103/' "$1"
            """)
        let before = box.carnetInProcess(["show", "1", "--json"]).stdout
        let run = box.carnet(["edit", "1", "--editor"], environment: ["EDITOR": editor, "TMPDIR": box.dir.path])
        #expect(run.status == 67, "\(run)")
        #expect(run.stderr.contains("title, email"), "\(run)")
        let after = box.carnetInProcess(["show", "1", "--json"]).stdout
        #expect(before != after)
        #expect(after.contains("kate@golden.example.com"))  // theirs kept, mine not written
        #expect(!after.contains("555 0103"))
        let forced = box.carnet(["edit", "1", "--editor", "--force"], environment: ["EDITOR": editor])
        #expect(forced.status == 0, "\(forced)")
        #expect(box.carnetInProcess(["show", "1", "--json"]).stdout.contains("555 0103"))
    }

    @Test func quoteEditByPrompts() {
        let run = box.carnet(["quote", "edit", "--prompt"], stdin: "Stay hungry, stay foolish.\nStewart Brand\ny\n")
        #expect(run.status == 0, "\(run)")
        #expect(box.carnetInProcess(["quote"]).stdout.contains("Stewart Brand"))
    }

    @Test func interactiveSessionScriptedEndToEnd() {
        box.carnetInProcess(["add", "--name", "Madison Thompson", "--position", "Sales, Gale Foods"])
        box.carnetInProcess(["add", "--name", "Tyler Porter"])
        let script = """
            help
            2
            fav
            favorites
            contacts
            open 1
            edit
            email madison@galefoods.example.com
            save
            back
            quote
            edit
            text Simplicity is the ultimate sophistication.
            author Leonardo da Vinci
            save
            quit
            """
        let run = box.carnet(["interactive"], stdin: script + "\n")
        #expect(run.status == 0, "\(run)")
        let out = run.stdout
        // Favorite in the contacts tab (detail of contact 2), seen in the favorites tab.
        let favoritesScreen = out.components(separatedBy: "── Favorites (1) ──")
        #expect(favoritesScreen.count == 2)
        #expect(favoritesScreen.last?.contains("1. Tyler Porter  [2]") == true)
        #expect(out.contains("saved contact 1"))
        // Edit quote, seen on the quote screen.
        #expect(out.contains("saved quote 1"))
        #expect(out.components(separatedBy: "── Quote ──").last?.contains("Leonardo da Vinci") == true)
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("madison@galefoods.example.com"))
    }

    @Test func interactiveSeesAnotherProcessesChangeWhenAScreenAppears() {
        box.carnetInProcess(["add", "--name", "Madison Thompson"])
        let other = box.script("other.sh", "\"\(Sandbox.binary)\" add --name 'Zoe Added Elsewhere' --db \"\(box.db)\" >/dev/null\n")
        // The session reads its next line only after the other process has run.
        let feeder = box.script("feed.sh", "echo contacts; sleep 0.3; \"\(other)\"; echo contacts; echo quit\n")
        let run = box.run("/bin/sh", ["-c", "\"\(feeder)\" | \"\(Sandbox.binary)\" interactive --db \"\(box.db)\""])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.components(separatedBy: "── Contacts (2) ──").last?.contains("Zoe Added Elsewhere") == true)
    }
}
