import Foundation
import Testing

/// `carnet duplicates`, `carnet merge` and what `carnet import` says about duplicates.
@Suite struct DuplicatesCommandTests {
    let box = Sandbox()

    func addAdas() {
        // Numbers written without a country code are British here, whatever the machine's locale.
        box.carnetInProcess(["db", "phone-region", "GB"])
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--email", "work:ada@example.com", "--title", "Analyst"])
        box.carnetInProcess(["add", "--name", "Lovelace, Ada", "--email", "home:ADA@example.com", "--phone", "+44 20 7946 0000", "--title", "Countess"])
        box.carnetInProcess(["add", "--name", "ada lovelace", "--phone", "020 7946 0000", "--note", "Met in 1833"])
        box.carnetInProcess(["add", "--name", "Grace Hopper", "--email", "grace@navy.example"])
    }

    /// The contacts' JSON export, but for what every save moves on (version, time saved).
    func exported() -> String {
        let text = box.carnetInProcess(["export", "--format", "json"]).stdout
        return text.replacingOccurrences(of: #""updatedAt":"[^"]*""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""version":[0-9]+"#, with: "", options: .regularExpression)
    }

    /// `--book` looks for duplicates in one address book only; a book that does not exist is
    /// the unknown-book error.
    @Test func duplicatesOfOneBook() {
        addAdas()
        #expect(box.carnetInProcess(["book", "add", "Work"]).status == 0)
        #expect(box.carnetInProcess(["move", "3", "--to", "Work"]).status == 0)
        let work = box.carnetInProcess(["duplicates", "--book", "Work"])
        #expect(work.status == 0 && work.stdout == "no likely duplicates among 1 contact\n", "\(work)")
        let contacts = box.carnetInProcess(["duplicates", "--book", "Contacts"])
        #expect(contacts.stdout.contains("Ada Lovelace [1], Lovelace, Ada [2]") && !contacts.stdout.contains("[3]"), "\(contacts)")
        #expect(box.carnetInProcess(["duplicates"]).stdout.contains("[3]"))
        #expect(box.carnetInProcess(["duplicates", "--book", "Nowhere"]).status == 79)
    }

    @Test func duplicatesListsEachGroupWithItsReasonsStrongestFirst() throws {
        addAdas()
        let run = box.carnetInProcess(["duplicates"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == """
            1 group of likely duplicates (carnet merge ID ID… keeps the first; carnet merge --different ID ID if they are not one person):
            1. Ada Lovelace [1], Lovelace, Ada [2], ada lovelace [3]
               same email ada@example.com [1, 2]
               same phone +44 20 7946 0000 [2, 3]
               same name “ada lovelace”

            """)
        let json = try #require(box.json(box.carnetInProcess(["duplicates", "--json"]).stdout) as? [String: Any])
        let groups = try #require(json["groups"] as? [[String: Any]])
        #expect(groups.count == 1)
        #expect((groups[0]["contacts"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == [1, 2, 3])
        #expect((groups[0]["reasons"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } == ["email", "phone", "name"])
        #expect(json["contacts"] as? Int == 4)
    }

    /// `--merge-all` merges every group that needs no choice, as one action, and lists the
    /// groups whose contacts differ on a field; one undo takes every merge back.
    @Test func mergeAllMergesWhatNeedsNoChoiceAsOneActionAndListsTheRest() {
        addAdas()  // their titles differ: left for carnet merge
        box.carnetInProcess(["add", "--name", "Grace Hopper", "--phone", "+1 202 555 0100"])
        box.carnetInProcess(["add", "--name", "Alan Turing", "--email", "alan@example.org"])
        box.carnetInProcess(["add", "--name", "Alan Turing", "--email", "ALAN@example.org", "--category", "friends"])
        let before = exported()
        let run = box.carnet(["duplicates", "--merge-all"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == """
            merged 2 groups of likely duplicates; carnet undo takes them all back:
              Alan Turing [6]
              Grace Hopper [4]
            left 1 group whose contacts differ on a field (carnet merge ID ID… asks which value to keep; --keep-first keeps the first's):
            1. Ada Lovelace [1], Lovelace, Ada [2], ada lovelace [3]

            """, "\(run)")
        let shown = box.carnetInProcess(["show", "6", "--json"]).stdout
        #expect(shown.contains("friends") && shown.contains("alan@example.org"), "\(shown)")
        #expect(box.carnetInProcess(["list"]).lines.count == 1 + 5)
        #expect(box.carnetInProcess(["undo"]).stdout == "undone 8: merged 2 groups of likely duplicates (4 contacts into 2)\n")
        #expect(exported() == before)
        // With --keep-first the differing group is merged too, each field it settled said.
        let kept = box.carnet(["duplicates", "--merge-all", "--keep-first"])
        #expect(kept.status == 0, "\(kept)")
        #expect(kept.stdout.contains("""
              Ada Lovelace [1]
                name: kept “Ada Lovelace” of 1 (2 had “Lovelace, Ada”)
                title: kept “Analyst” of 1 (2 had “Countess”)
            """), "\(kept)")
        #expect(box.carnetInProcess(["list"]).lines.count == 1 + 3)
        #expect(box.carnetInProcess(["show", "1", "--json"]).stdout.contains("Met in 1833"), "the others' values where the first had none")
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(exported() == before)
        #expect(box.carnet(["duplicates", "--keep-first"]).status == 64)
        // Nothing to merge, and a flag that cannot go with it.
        let alone = Sandbox()
        alone.carnetInProcess(["add", "--name", "Ada"])
        #expect(alone.carnet(["duplicates", "--merge-all"]).stdout == "no likely duplicates among 1 contact; nothing merged\n")
        #expect(box.carnet(["duplicates", "--merge-all", "--json"]).status == 64)
    }

    @Test func differentPeopleAreNeverProposedAgain() {
        box.carnetInProcess(["db", "phone-region", "US"])
        box.carnetInProcess(["add", "--name", "John Smith", "--phone", "212 555 0100"])
        box.carnetInProcess(["add", "--name", "john smith", "--phone", "+1 212 555 0100"])
        let run = box.carnetInProcess(["merge", "--different", "1", "2"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "saved: contacts 1 and 2 are different people; carnet duplicates will not propose them together\n")
        #expect(box.carnetInProcess(["duplicates"]).stdout == "no likely duplicates among 2 contacts\n")
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["duplicates"]).lines.count == 4)
    }

    @Test func inAScriptTheFirstsValuesStayUnlessTakenAndEachFieldSettledIsPrinted() {
        addAdas()
        let before = exported()
        let run = box.carnetInProcess(["merge", "1", "2", "3", "--take", "title=2"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == """
            name: kept “Ada Lovelace” of 1 (2 has “Lovelace, Ada”; --take name=2)
            title: kept “Countess” of 2 (1 has “Analyst”; --take title=1)
            merged 2, 3 into contact 1 (Ada Lovelace); carnet undo takes it back

            """)
        let shown = box.carnetInProcess(["show", "1", "--json"]).stdout
        #expect(shown.contains("\"title\":\"Countess\"") || shown.contains("\"title\" : \"Countess\""))
        #expect(shown.contains("Met in 1833"))
        #expect(shown.contains("work,home"))
        #expect(box.carnetInProcess(["list"]).lines.count == 3)  // header, Ada, Grace
        #expect(box.carnetInProcess(["duplicates"]).stdout == "no likely duplicates among 2 contacts\n")

        let undo = box.carnetInProcess(["undo"])
        #expect(undo.status == 0, "\(undo)")
        #expect(exported() == before)
    }

    @Test func onATerminalEachDifferingFieldIsAsked() {
        addAdas()
        // Name: Enter keeps the first; title: 2 takes the second contact's.
        let run = box.carnetInProcess(["merge", "1", "2", "--prompt"], stdin: "\n7\n2\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("Title differs:\n  1  Analyst  (contact 1)\n  2  Countess  (contact 2)\nkeep which? [1] "))
        #expect(run.stderr.contains("answer a number from 1 to 2"))
        let shown = box.carnetInProcess(["show", "1"]).stdout
        #expect(shown.contains("Countess") && shown.contains("Ada Lovelace"))
        // End of input cancels, writing nothing.
        let before = box.snapshot()
        box.carnetInProcess(["add", "--name", "Ada L", "--email", "ada@example.com", "--title", "Poet"])
        let snapshot = box.snapshot()
        let cancelled = box.carnetInProcess(["merge", "1", "5", "--prompt"], stdin: "")
        #expect(cancelled.status == 1, "\(cancelled)")
        #expect(box.snapshot() == snapshot && snapshot != before)
    }

    @Test func theEditorOpensOnTheMergedDraft() {
        addAdas()
        let editor = box.script("editor.sh", """
            grep -q '^  - work,home:ada@example.com$' "$1" || exit 3
            sed -i 's/^title:.*/title: Countess of Lovelace/' "$1"
            """)
        let run = box.carnet(["merge", "1", "2", "--editor"], environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(run.status == 0, "\(run)")
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("Countess of Lovelace"))
        // Closed unchanged: the merged draft is saved as shown.
        let keep = box.script("keep.sh", "exit 0")
        #expect(box.carnet(["merge", "1", "3", "--editor"], environment: ["EDITOR": keep, "VISUAL": ""]).status == 0)
        #expect(box.carnetInProcess(["show", "1"]).stdout.contains("Met in 1833"))
    }

    /// A contact saved by someone else while the merge was being prepared (here, while the
    /// editor was open) is a conflict, as docs/cli.md says: exit 67, nothing merged, and the way
    /// out is the merge again, not a `--force` that merge does not have. Whichever contact it is.
    @Test func aMergeThatMeetsAConcurrentSaveIsAConflict() {
        addAdas()
        for changed in ["2", "1"] {
            let editor = box.script("editor-\(changed).sh", """
                "\(Sandbox.binary)" edit \(changed) --title "Saved meanwhile" --db "\(box.db)" >/dev/null || exit 3
                """)
            let run = box.carnet(["merge", "1", "2", "--editor"], environment: ["EDITOR": editor, "VISUAL": ""])
            #expect(run.status == 67, "\(run)")
            #expect(run.stderr.contains("contact \(changed) was changed by someone else"), "\(run)")
            #expect(run.stderr.contains("merge again") && !run.stderr.contains("--force"), "\(run)")
            #expect(box.carnetInProcess(["show", "2"]).stdout.contains("Saved meanwhile"))
        }
    }

    @Test func badMergesAreRefusedAndWriteNothing() {
        addAdas()
        box.expectRefused(["merge", "1"], 64, mentioning: "at least two contacts")
        box.expectRefused(["merge", "1", "1"], 64, mentioning: "once")
        box.expectRefused(["merge", "1", "99"], 66, mentioning: "99")
        box.expectRefused(["merge", "1", "2", "--take", "title=3"], 64, mentioning: "one of the contacts merged")
        box.expectRefused(["merge", "1", "2", "--take", "colour=2"], 64, mentioning: "FIELD=ID")
        box.expectRefused(["merge", "1", "2", "--take", "emails=2"], 64, mentioning: "lists are united")
        box.expectRefused(["merge", "--different", "1", "2", "3"], 64, mentioning: "exactly two")
    }

    @Test func importSaysHowManyNewContactsLookLikeDuplicates() {
        addAdas()
        let cards = box.write("people.vcf", """
            BEGIN:VCARD\r
            VERSION:3.0\r
            UID:grace-2\r
            FN:Hopper\\, Grace\r
            EMAIL:GRACE@navy.example\r
            END:VCARD\r
            BEGIN:VCARD\r
            VERSION:3.0\r
            UID:alan\r
            FN:Alan Turing\r
            END:VCARD\r

            """)
        let run = box.carnetInProcess(["import", cards])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.hasSuffix("1 imported contact looks like duplicates of contacts already here: see carnet duplicates\n"))
        // Merged, the card's UID stays the kept contact's: importing it again updates that one.
        #expect(box.carnetInProcess(["merge", "4", "5"]).status == 0)
        let again = box.carnetInProcess(["import", cards])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("added 0"))
        #expect(!again.stdout.contains("duplicates"))
        #expect(box.carnetInProcess(["list"]).lines.count == 6)  // header, 3 Adas, Grace, Alan
    }

    /// The same person in seven exports from seven programs (Cardme's John Doe samples, see
    /// Fixtures/RealExports/SOURCES.md): `duplicates` finds them as one group, `merge` makes one
    /// contact of them, and `undo` gives back the contacts' JSON byte for byte (but for the
    /// version and the time saved, which every save moves on).
    @Test func realExportsOfOnePersonAreFoundMergedAndTakenBack() throws {
        let files = [
            "cardme-gmail-3.0.vcf", "cardme-iphone-ios5-3.0-photo.vcf", "cardme-macos-addressbook-3.0-photo.vcf",
            "cardme-outlook-2.1.vcf", "cardme-evolution-3.0.vcf", "cardme-lotus-notes-3.0-photo.vcf", "cardme-blackberry-2.1-photo.vcf",
        ]
        for file in files {
            let run = box.carnetInProcess(["import", Sandbox.realExport(file)])
            #expect(run.status == 0, "\(file): \(run)")
        }
        box.carnetInProcess(["add", "--name", "Grace Hopper", "--email", "grace@navy.example"])
        let json = try #require(box.json(box.carnetInProcess(["duplicates", "--json"]).stdout) as? [String: Any])
        let groups = try #require(json["groups"] as? [[String: Any]])
        let ids = groups.map { ($0["contacts"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } ?? [] }
        let names = groups.flatMap { ($0["contacts"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? [] }
        // Every John Doe is in a group, and nobody else is.
        #expect(Set(ids.flatMap { $0 }) == Set(1...files.count), "\(groups)")
        #expect(names.allSatisfy { $0.contains("Doe") })
        let biggest = try #require(ids.max { $0.count < $1.count })
        #expect(ids == [Array(1...files.count)], "\(groups)")

        let before = exported()
        let merge = box.carnetInProcess(["merge"] + biggest.map(String.init))
        #expect(merge.status == 0, "\(merge)")
        #expect(box.carnetInProcess(["list"]).lines.count == 3 + files.count - biggest.count)  // header, John, Grace
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(exported() == before)
    }

    /// `--json` writes what JSONSerialization writes for the whole answer, though it writes the
    /// groups one at a time: several groups, names to escape, and a book without any.
    @Test func theJSONIsTheWholeAnswerAsJSONSerializationWritesIt() throws {
        let options: JSONSerialization.WritingOptions = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        func rewritten(_ text: String) throws -> String {
            let object = try #require(box.json(text))
            return String(decoding: try JSONSerialization.data(withJSONObject: object, options: options), as: UTF8.self) + "\n"
        }
        box.carnetInProcess(["add", "--name", "Ada \"Countess\" Lovelace", "--email", "ada@example.com"])
        let empty = box.carnetInProcess(["duplicates", "--json"]).stdout
        #expect(((box.json(empty) as? [String: Any])?["groups"] as? [Any])?.isEmpty == true)
        #expect(try rewritten(empty) == empty)
        for (name, email) in [("Lovelace, Ada", "ADA@example.com"), ("Grace Hopper", "grace@navy.example"),
                              ("G. Hopper", "grace@navy.example"), ("Alan/Turing", "alan@example.org"), ("Alan Turing", "alan@example.org")] {
            box.carnetInProcess(["add", "--name", name, "--email", email])
        }
        let text = box.carnetInProcess(["duplicates", "--json"]).stdout
        #expect(((box.json(text) as? [String: Any])?["groups"] as? [Any])?.count == 3)
        #expect(try rewritten(text) == text)
    }
}
