import Foundation
import Testing
@testable import carnet

/// Rich contacts on the command line: every field of a rich contact through flags, the editor,
/// `show`, `list --sort/--category`, `birthdays` and `sample`.
@Suite struct ContactFieldCommandTests {
    let box = Sandbox()

    func shown(_ id: Int) throws -> [String: Any] {
        let run = box.carnetInProcess(["show", String(id), "--json"])
        return try #require(box.json(run.stdout) as? [String: Any], "\(run)")
    }

    func values(_ json: [String: Any], _ key: String) -> [String] {
        (json[key] as? [[String: Any]])?.compactMap { ($0["value"] ?? $0["date"]) as? String } ?? []
    }

    func labels(_ json: [String: Any], _ key: String) -> [String] {
        (json[key] as? [[String: Any]])?.compactMap { $0["label"] as? String } ?? []
    }

    func preferred(_ json: [String: Any], _ key: String) -> [Bool] {
        (json[key] as? [[String: Any]])?.map { $0["preferred"] as? Bool ?? false } ?? []
    }

    // MARK: Flags

    @Test func everyFieldHasAFlagAndEveryListARemoval() {
        // Only the unmodelled vCard lines have none: an import brings them, no one types them.
        #expect(ContactFieldOptions.fieldsWithoutFlags() == ["extras"])
        #expect(ContactRemovalOptions.listsWithoutRemoval() == ["extras"])
        let help = box.carnetInProcess(["edit", "--help"], environment: ["COLUMNS": "200"], useDB: false).stdout
        for flag in ["name", "prefix", "given", "additional", "family", "suffix", "nickname", "organization", "department", "title",
                     "role", "position", "email", "phone", "address", "url", "handle", "date", "note", "category", "photo",
                     "remove-email", "remove-phone", "remove-address", "remove-url", "remove-handle", "remove-date", "remove-category"] {
            #expect(help.contains("  --\(flag) <"), "--\(flag)")
        }
    }

    @Test func addTakesEveryFieldAndListJSONNestsThem() throws {
        let run = box.carnetInProcess([
            "add", "--name", "Ada Lovelace", "--nickname", "Ada", "--organization", "Analytical Engines", "--department", "Research",
            "--title", "Analyst", "--role", "Programmer",
            "--email", "work:ada@example.com", "--email", "home,pref:ada@home.example", "--email", "ADA@example.com",
            "--phone", "cell:+44 20 7946 0000", "--phone", "Mobile:+44 20 7946 0001", "--phone", "Tower:+44 20 7946 0002",
            "--address", "home:12 Main St; Springfield; IL; 62701; USA", "--address", "Suite 5\\; rear; Shelbyville",
            "--url", "https://ada.example.org", "--handle", "mastodon:@ada@example.social", "--handle", ":xmpp:ada@jabber.example",
            "--date", "birthday:1815-12-10", "--date", "anniversary:--07-08", "--date", "first program:1843-07-01",
            "--note", "First programmer.\nWrote notes on the Engine.", "--category", "friends", "--category", "Poets",
            "--category", "FRIENDS",
        ])
        #expect(run.status == 0 && run.stdout == "saved contact 1\n", "\(run)")
        let ada = try #require((box.json(box.carnetInProcess(["list", "--json"]).stdout) as? [[String: Any]])?.first)
        #expect(ada["name"] as? String == "Ada Lovelace" && ada["given"] as? String == "Ada" && ada["family"] as? String == "Lovelace")
        #expect(ada["nickname"] as? String == "Ada" && ada["department"] as? String == "Research" && ada["role"] as? String == "Programmer")
        // The same value twice (ignoring case) is one entry; a known type in any case is the type.
        #expect(values(ada, "emails") == ["ada@example.com", "ada@home.example"])
        #expect(labels(ada, "emails") == ["work", "home"] && preferred(ada, "emails") == [false, true])
        #expect(labels(ada, "phones") == ["cell", "cell", "Tower"])
        let addresses = try #require(ada["addresses"] as? [[String: Any]])
        #expect(addresses.count == 2)
        #expect(addresses[0]["street"] as? String == "12 Main St" && addresses[0]["postalCode"] as? String == "62701"
                && addresses[0]["country"] as? String == "USA" && addresses[0]["label"] as? String == "home")
        #expect(addresses[1]["street"] as? String == "Suite 5; rear" && addresses[1]["locality"] as? String == "Shelbyville")
        #expect(values(ada, "urls") == ["https://ada.example.org"] && labels(ada, "urls") == [""])
        // `:` in front keeps a value that looks typed from being read as type and value.
        #expect(values(ada, "handles") == ["@ada@example.social", "xmpp:ada@jabber.example"] && labels(ada, "handles") == ["mastodon", ""])
        #expect(values(ada, "dates") == ["1815-12-10", "--07-08", "1843-07-01"])
        #expect(labels(ada, "dates") == ["birthday", "anniversary", "first program"])
        #expect(ada["note"] as? String == "First programmer.\nWrote notes on the Engine.")
        #expect(ada["categories"] as? [String] == ["friends", "Poets"])
        // The TSV keeps its columns: position, the preferred email, the first phone.
        #expect(box.carnetInProcess(["list"]).lines[1] == "1\tAda Lovelace\tAnalyst, Analytical Engines\tada@home.example\t+44 20 7946 0000\t0")
    }

    @Test func aNameIsMadeFromItsPartsOrReadIntoThem() throws {
        #expect(box.carnetInProcess(["add", "--given", "Grace", "--family", "Hopper", "--prefix", "Adm."]).status == 0)
        let grace = try shown(1)
        #expect(grace["name"] as? String == "Adm. Grace Hopper")
        box.expectRefused(["add", "--email", "nobody@example.com"], 65, mentioning: "carnet: invalid name: is required")
        // A part given with --name is taken as given; the others are read from the name.
        #expect(box.carnetInProcess(["add", "--name", "Dr. John Q. Appleseed Jr.", "--family", "Appleseed-Smith"]).status == 0)
        let john = try shown(2)
        #expect(john["name"] as? String == "Dr. John Q. Appleseed Jr.")
        #expect([john["prefix"], john["given"], john["additional"], john["family"], john["suffix"]].compactMap { $0 as? String }
                == ["Dr.", "John", "Q.", "Appleseed-Smith", "Jr."])
        // Never guessed: two middle words that are not initials leave the parts empty.
        #expect(box.carnetInProcess(["add", "--name", "Maria José García López"]).status == 0)
        #expect(try shown(3)["family"] as? String == "")
    }

    @Test func renamingKeepsTheStructuredNameInStepAndSortsBy() throws {
        box.carnetInProcess(["add", "--name", "Ada Lovelace"])
        box.carnetInProcess(["add", "--name", "Charles Babbage"])
        #expect(box.carnetInProcess(["edit", "1", "--name", "Ada King"]).stdout == "saved contact 1\n")
        #expect(try shown(1)["family"] as? String == "King")
        #expect(box.carnetInProcess(["edit", "1", "--given", "Augusta"]).status == 0)
        let ada = try shown(1)
        #expect(ada["name"] as? String == "Augusta King" && ada["given"] as? String == "Augusta")
        let byFamily = box.carnetInProcess(["list", "--sort", "family"]).lines.dropFirst().map { $0.split(separator: "\t")[1] }
        #expect(byFamily == ["Charles Babbage", "Augusta King"])
    }

    @Test func positionIsTitleAndOrganization() throws {
        box.carnetInProcess(["add", "--name", "Madison Thompson", "--position", "Sales, Gale Foods"])
        let madison = try shown(1)
        #expect(madison["title"] as? String == "Sales" && madison["organization"] as? String == "Gale Foods")
        box.carnetInProcess(["edit", "1", "--position", "CTO"])
        let after = try shown(1)
        #expect(after["title"] as? String == "CTO" && after["organization"] as? String == "")
        box.expectRefused(["edit", "1", "--position", "A, B", "--title", "C"], 64, mentioning: "--position sets title and organization")
    }

    @Test func editAddsAValueOnceAndSetsItsTypeOrPreference() throws {
        box.carnetInProcess(["add", "--name", "Gary Edwards", "--email", "gary@example.com", "--email", "gary@home.example"])
        let before = box.snapshot()
        for again in ["gary@example.com", "GARY@EXAMPLE.COM", " gary@home.example "] {
            let run = box.carnetInProcess(["edit", "1", "--email", again])
            #expect(run.stdout == "contact 1 unchanged (nothing to save)\n", "\(again): \(run)")
        }
        #expect(box.snapshot() == before)
        #expect(box.carnetInProcess(["edit", "1", "--email", "home,pref:gary@home.example"]).stdout == "saved contact 1\n")
        var gary = try shown(1)
        #expect(values(gary, "emails") == ["gary@example.com", "gary@home.example"])
        #expect(labels(gary, "emails") == ["", "home"] && preferred(gary, "emails") == [false, true])
        #expect(box.carnetInProcess(["list"]).lines[1].contains("\tgary@home.example\t"))
        // A new preferred entry takes the preference; the last of several given wins.
        box.carnetInProcess(["edit", "1", "--email", "pref:g@one.example", "--email", "work,pref:g@two.example"])
        gary = try shown(1)
        #expect(values(gary, "emails").count == 4 && preferred(gary, "emails") == [false, false, false, true])
        // One birthday: a new one replaces it; another kind of date is added.
        box.carnetInProcess(["edit", "1", "--date", "birthday:1979-05-30", "--date", "graduation:2001-06-15"])
        box.carnetInProcess(["edit", "1", "--date", "birthday:1979-05-31"])
        gary = try shown(1)
        #expect(values(gary, "dates") == ["1979-05-31", "2001-06-15"])
    }

    @Test func removeFlagsRemoveOneValueOrSayWhatThereIs() throws {
        box.carnetInProcess([
            "add", "--name", "Katherine Price", "--email", "kate@example.com", "--email", "old@example.com", "--phone", "555 0103",
            "--address", "home:48 Elm Street; Portland; OR; 97205; USA", "--address", "work:1 Main St; Portland",
            "--url", "https://kate.example", "--handle", "github:kprice", "--date", "birthday:1991-11-02", "--category", "Friends",
        ])
        let run = box.carnetInProcess([
            "edit", "1", "--remove-email", "OLD@example.com", "--remove-phone", "555 0103",
            "--remove-address", "48 Elm Street, Portland, OR, 97205, USA", "--remove-address", "work:1 Main St; Portland",
            "--remove-url", "https://kate.example", "--remove-handle", "kprice", "--remove-date", "1991-11-02",
            "--remove-category", "friends", "--email", "new@example.com",
        ])
        #expect(run.status == 0, "\(run)")
        let kate = try shown(1)
        #expect(values(kate, "emails") == ["kate@example.com", "new@example.com"])
        for key in ["phones", "addresses", "urls", "handles", "dates"] { #expect((kate[key] as? [Any])?.isEmpty == true, "\(key)") }
        #expect((kate["categories"] as? [String]) == [])
        // A value the contact does not have is a typo, not a removal.
        box.expectRefused(
            ["edit", "1", "--remove-email", "nobody@example.com"], 64,
            mentioning: "carnet: --remove-email \"nobody@example.com\": no such email on this contact (it has \"kate@example.com\", \"new@example.com\")")
        box.expectRefused(["edit", "1", "--remove-phone", "555"], 64, mentioning: "no such phone on this contact (it has none)")
        box.expectRefused(["add", "--name", "X", "--remove-email", "a@b.example"], 64, mentioning: "--remove-email")
    }

    @Test func badEntriesAreRefusedWithTheReasonAndNothingWritten() {
        box.carnetInProcess(["add", "--name", "Ada Lovelace"])
        let cases: [([String], Int32, String)] = [
            (["--date", "birthday:tomorrow"], 64, "carnet: --date \"birthday:tomorrow\": \"tomorrow\" is not a date like 1815-12-10, or --12-10 without a year"),
            (["--date", "birthday:2023-02-29"], 65, "carnet: invalid date: 1 (2023-02-29) is not a real calendar date"),
            (["--date", "2023-13-01"], 65, "date: 1 (2023-13-01) is not a real calendar date"),
            (["--date", "--02-30"], 65, "date: 1 (--02-30) is not a real calendar date"),
            (["--address", "a; b; c; d; e; f; g; h"], 64, "has 8 parts; an address has at most 7"),
            (["--email", "work:"], 64, "carnet: --email \"work:\" has no value after the type"),
            (["--url", " "], 64, "carnet: --url \" \" is empty"),
            (["--email", "work:nope"], 65, "carnet: invalid email: 1 (nope) must look like name@example.com"),
            (["--phone", "cell:call me"], 65, "carnet: invalid phone: 1 (call me) may hold only digits"),
            (["--category", "Tab\there"], 65, "invalid category: 1 (Tab\\u{9}here) must not contain control characters"),
            (["--note", "Bell\u{7}"], 65, "invalid note: must not contain control characters"),
            (["--phone", "555 0101", "--phone", "x"], 65, "invalid phone: 2 (x)"),
        ]
        for (flags, code, message) in cases {
            box.expectRefused(["edit", "1"] + flags, code, mentioning: message)
            box.expectRefused(["add", "--name", "Someone"] + flags, code, mentioning: message)
        }
    }

    @Test func listSortsByNamePartsAndFiltersByCategory() {
        box.carnetInProcess(["add", "--name", "Grace Hopper", "--category", "navy", "--category", "Pioneers"])
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--category", "pioneers"])
        box.carnetInProcess(["add", "--name", "Alan Turing"])
        box.carnetInProcess(["add", "--name", "Prince"])  // no family name: sorted by its name
        func names(_ arguments: [String]) -> [String] {
            box.carnetInProcess(["list"] + arguments).lines.dropFirst().map { String($0.split(separator: "\t")[1]) }
        }
        #expect(names([]) == ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Prince"])
        #expect(names(["--sort", "name"]) == names([]))
        #expect(names(["--sort", "given"]) == ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Prince"])
        #expect(names(["--sort", "family"]) == ["Grace Hopper", "Ada Lovelace", "Prince", "Alan Turing"])
        #expect(names(["--category", "PIONEERS", "--sort", "family"]) == ["Grace Hopper", "Ada Lovelace"])
        #expect(names(["--category", "navy", "--search", "grace"]) == ["Grace Hopper"])
        #expect(names(["--category", "nobody"]) == [])
        box.carnetInProcess(["favorite", "2"])
        box.carnetInProcess(["favorite", "3"])
        #expect(names(["--favorites", "--category", "pioneers"]) == ["Ada Lovelace"])
        let json = box.json(box.carnetInProcess(["list", "--json", "--category", "navy"]).stdout) as? [[String: Any]]
        #expect(json?.compactMap { $0["name"] as? String } == ["Grace Hopper"])
        box.expectRefused(["list", "--favorites", "--sort", "given"], 64, mentioning: "--sort does not apply to --favorites")
        box.expectRefused(["list", "--sort", "surname"], 64, mentioning: "'name', 'given', 'family' or 'relevance'")
    }

    // MARK: Birthdays

    @Test func birthdaysListsTheComingDatesSoonestFirstWithAges() throws {
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--date", "birthday:1815-12-10", "--date", "graduation:1835-12-09"])
        box.carnetInProcess(["add", "--name", "Grace Hopper", "--date", "birthday:1906-12-09", "--date", "anniversary:1930-06-15"])
        box.carnetInProcess(["add", "--name", "Leap Day", "--date", "birthday:2000-02-29"])
        box.carnetInProcess(["add", "--name", "No Year", "--date", "anniversary:--12-20"])
        let run = box.carnetInProcess(["birthdays", "--from", "2026-12-08", "--days", "14"])
        #expect(run.status == 0, "\(run)")
        #expect(run.lines == [
            "date\tdays\tid\tname\tlabel\tyears",
            "2026-12-09\t1\t2\tGrace Hopper\tbirthday\t120",
            "2026-12-10\t2\t1\tAda Lovelace\tbirthday\t211",
            "2026-12-20\t12\t4\tNo Year\tanniversary\t",
        ])
        // 29 February falls on the 28th in a common year; the window may run into the next year.
        let leap = box.carnetInProcess(["birthdays", "--from", "2026-12-30", "--days", "62"])
        #expect(leap.lines.dropFirst() == ["2027-02-28\t60\t3\tLeap Day\tbirthday\t27"], "\(leap)")
        #expect(box.carnetInProcess(["birthdays", "--from", "2026-12-10", "--days", "0"]).lines.count == 2)
        #expect(box.carnetInProcess(["birthdays", "--from", "2026-01-01", "--days", "0"]).stdout == "date\tdays\tid\tname\tlabel\tyears\n")
        // With no --days, the year ahead (the 10 December birthday is 343 days after 1 January).
        #expect(box.carnetInProcess(["birthdays", "--from", "2026-01-01"]).stdout.contains("2026-12-10\t343\t"))
        let json = try #require(box.json(box.carnetInProcess(["birthdays", "--from", "2026-12-19", "--days", "1", "--json"]).stdout) as? [[String: Any]])
        #expect(json.count == 1)
        #expect(json[0]["name"] as? String == "No Year" && json[0]["date"] as? String == "--12-20" && json[0]["next"] as? String == "2026-12-20")
        #expect(json[0]["daysAway"] as? Int == 1 && json[0]["years"] is NSNull && json[0]["id"] as? Int == 4)
        #expect(box.json(box.carnetInProcess(["birthdays", "--from", "2026-01-01", "--days", "0", "--json"]).stdout) as? [Any] != nil)
        box.expectRefused(["birthdays", "--days", "367"], 64, mentioning: "--days must be from 0 to 366 (got 367)")
        box.expectRefused(["birthdays", "--days", "-1"], 64, mentioning: "--days must be from 0 to 366 (got -1)")
        box.expectRefused(["birthdays", "--from", "2026-02-30"], 64, mentioning: "--from takes a date like 2026-08-01 (got 2026-02-30)")
        // Today is the default start: a birthday today is in any window.
        let today = Calendar(identifier: .gregorian).dateComponents([.month, .day], from: Date())
        box.carnetInProcess(["add", "--name", "Today", "--date", String(format: "birthday:--%02d-%02d", today.month!, today.day!)])
        #expect(box.carnetInProcess(["birthdays", "--days", "0"]).lines.dropFirst().first?.contains("\t0\t5\tToday\tbirthday\t") == true)
    }

    @Test func birthdaysOnATerminalIsATable() {
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--date", "birthday:1815-12-10"])
        box.carnetInProcess(["add", "--name", "No Year", "--date", "anniversary:--12-11"])
        let table = box.carnetOnTerminal(["birthdays", "--from", "2026-12-10", "--days", "1"])
        #expect(table.lines == [
            "DATE        WHEN      ID  NAME          WHAT",
            "2026-12-10  today      1  Ada Lovelace  birthday (turns 211)",
            "2026-12-11  tomorrow   2  No Year       anniversary",
        ], "\(table)")
        let none = box.carnetOnTerminal(["birthdays", "--from", "2026-01-01", "--days", "1"])
        #expect(none.stdout.contains("No birthdays or anniversaries today or tomorrow."), "\(none)")
    }

    // MARK: show

    @Test func showGroupsEveryFieldBySection() {
        box.carnetInProcess([
            "add", "--name", "Ada Lovelace", "--nickname", "Ada", "--organization", "Analytical Engines", "--title", "Analyst",
            "--email", "work:ada@example.com", "--email", "home,pref:ada@home.example", "--phone", "cell:+44 20 7946 0000",
            "--address", "home:12 Main St; Springfield; IL; 62701; USA", "--url", "https://ada.example.org",
            "--date", "birthday:1815-12-10", "--date", "the first program:1843-07-01",
            "--note", "First programmer.\n\nWrote notes on the Engine.", "--category", "friends", "--category", "poets",
        ])
        box.carnetInProcess(["favorite", "1"])
        let run = box.carnetInProcess(["show", "1"])
        let expected = """
            Ada Lovelace  ★ favorite #1
            Name
              Given name       Ada
              Family name      Lovelace
              Nickname         Ada
            Work
              Organization     Analytical Engines
              Title            Analyst
            Contact
              Emails           ada@example.com  (work)
                               ada@home.example  (home, preferred)
              Phones           +44 20 7946 0000  (cell)
              Addresses        12 Main St, Springfield, IL, 62701, USA  (home)
              URLs             https://ada.example.org
            Dates
              Birthday         1815-12-10
              The first program 1843-07-01
            Note
              First programmer.

              Wrote notes on the Engine.
            Categories
              friends
              poets
            Record

            """
        #expect(run.stdout.hasPrefix(expected), "\(run.stdout)")
    }

    // MARK: The editor

    @Test func theEditorTemplateHoldsEveryFieldAndReadsListsBack() throws {
        box.carnetInProcess([
            "add", "--name", "Ada Lovelace", "--email", "work,pref:ada@example.com", "--email", "home:ada@home.example",
            "--phone", "cell:+44 20 7946 0000", "--date", "birthday:1815-12-10", "--note", "First programmer.\nLikes poetry.",
            "--category", "friends", "--category", "poets",
        ])
        let template = box.path("template.yaml")
        let editor = box.script("editor.sh", """
            cp "$1" "\(template)"
            sed -i 's/^  - home:ada@home.example$/  - home: ada@lovelace.example/; /^  - cell:/d; s/^phones:/phones:\\n  - work: 555 0100\\n  - "pref:555 0101"/' "$1"
            sed -i 's/^  Likes poetry.$/  Likes poetry.\\n\\n  Wrote the first algorithm./; /^  - poets$/d; s/^urls:.*/urls: https:\\/\\/ada.example.org/' "$1"
            """)
        let run = box.carnetInProcess(["edit", "1", "--editor"], environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(run.status == 0 && run.stdout == "saved contact 1\n", "\(run)")
        let text = try String(contentsOfFile: template, encoding: .utf8)
        // Every field, in the field description's order; lists as entries; the note as a block.
        let keys = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix(" ") }.map { String($0.prefix { $0 != ":" }) }
        #expect(keys == ["name", "prefix", "given", "additional", "family", "suffix", "nickname", "pronouns", "gender", "organization",
                         "department", "title", "role", "emails", "phones", "addresses", "urls", "handles", "dates", "note", "categories", "expertise",
                         "hobbies", "interests", "extras"])
        #expect(text.contains("\nname: Ada Lovelace\n") && text.contains("\ngiven: Ada\n") && text.contains("\nprefix:\n"), "\(text)")
        #expect(text.contains("\nemails:\n  - work,pref:ada@example.com\n  - home:ada@home.example\n"), "\(text)")
        #expect(text.contains("\n# Dates: A date: birthday:1815-12-10, anniversary:--06-01 (no year) or LABEL:YYYY-MM-DD.\ndates:\n  - birthday:1815-12-10\n"), "\(text)")
        #expect(text.contains("\nnote: |-\n  First programmer.\n  Likes poetry.\n"), "\(text)")
        let ada = try shown(1)
        #expect(values(ada, "emails") == ["ada@example.com", "ada@lovelace.example"] && labels(ada, "emails") == ["work", "home"])
        #expect(values(ada, "phones") == ["555 0100", "555 0101"] && preferred(ada, "phones") == [false, true])
        #expect(values(ada, "urls") == ["https://ada.example.org"])
        #expect(ada["note"] as? String == "First programmer.\nLikes poetry.\n\nWrote the first algorithm.")
        #expect(ada["categories"] as? [String] == ["friends"])
    }

    @Test func theEditorKeepsEveryValueItDoesNotChange() throws {
        box.carnetInProcess([
            "add", "--name", "Ada Lovelace", "--nickname", "@ada", "--title", "null", "--role", "yes", "--organization", "Foo: Bar #1",
            "--suffix", "'quoted'", "--handle", ":xmpp:ada@jabber.example", "--handle", "skype:ada.l",
            "--address", "Suite 5\\; rear; Shelbyville", "--url", "- dash", "--category", "[x]", "--category", "007",
            "--note", "# not a comment\n  indented\nlast: line", "--email", "\"ada\"@example.com",
        ])
        let before = try shown(1)
        let editor = box.script("editor.sh", "sed -i 's/^department:.*/department: Research/' \"$1\"\n")
        let run = box.carnetInProcess(["edit", "1", "--editor"], environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(run.status == 0, "\(run)")
        var after = try shown(1)
        #expect(after["department"] as? String == "Research")
        for key in ["department", "version", "updatedAt"] { after[key] = before[key] }
        let canonical = { (json: [String: Any]) in
            String(decoding: (try? JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
        }
        #expect(canonical(after) == canonical(before))
    }

    @Test func theEditorMarksMistakesAboveTheirLinesAndKeepsWhatYouWrote() throws {
        box.carnetInProcess(["add", "--name", "Tyler Porter", "--email", "tyler@example.com"])
        let pass2 = box.path("pass2.yaml"), pass3 = box.path("pass3.yaml"), counter = box.path("passes")
        let editor = box.script("editor.sh", """
            n=$(cat "\(counter)" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "\(counter)"
            case $n in
              1) sed -i 's/^nickname:.*/nickname: [Ty/; s/^title:.*/title: Developer/' "$1" ;;
              2) cp "$1" "\(pass2)"; sed -i 's/^nickname:.*/nickname: Ty/; s/^role:.*/position: x/; s/^  - tyler@example.com$/  - tyler@example.com\\n  - bad/; s/^dates:/dates:\\n  - birthday:someday/' "$1" ;;
              3) cp "$1" "\(pass3)"; sed -i '/^position:/d; /^  - bad$/d; s/birthday:someday/birthday:1990-04-01/' "$1" ;;
            esac
            """)
        let run = box.carnetInProcess(["edit", "1", "--editor"], environment: ["EDITOR": editor, "VISUAL": ""])
        #expect(run.status == 0 && run.stdout == "saved contact 1\n", "\(run)")
        let second = try String(contentsOfFile: pass2, encoding: .utf8)
        #expect(second.contains("\n# ERROR not valid YAML: did not find expected ',' or ']' (while parsing a flow sequence)\nnickname: [Ty\n"), "\(second)")
        #expect(second.contains("\ntitle: Developer\n"), "\(second)")  // what was written is kept
        let third = try String(contentsOfFile: pass3, encoding: .utf8)
        #expect(!third.contains("not valid YAML"), "\(third)")
        #expect(third.contains("\n# ERROR position is not a field here (the fields are name, prefix, given,"), "\(third)")
        #expect(third.contains("\n# ERROR date 1 (birthday:someday): \"someday\" is not a date like 1815-12-10, or --12-10 without a year\n  - birthday:someday\n"), "\(third)")
        #expect(third.contains("\n# ERROR email: 2 (bad) must look like name@example.com (no spaces or invisible characters)\nemails:\n"), "\(third)")
        let tyler = try shown(1)
        #expect(tyler["nickname"] as? String == "Ty" && tyler["title"] as? String == "Developer" && tyler["role"] as? String == "")
        #expect(values(tyler, "emails") == ["tyler@example.com"] && values(tyler, "dates") == ["1990-04-01"])
    }

    @Test func theEditorRenamesAsTheFlagsDo() throws {
        box.carnetInProcess(["add", "--name", "Ada Lovelace"])
        let rename = box.script("rename.sh", "sed -i 's/^name:.*/name: Ada King/' \"$1\"\n")
        #expect(box.carnetInProcess(["edit", "1", "--editor"], environment: ["EDITOR": rename, "VISUAL": ""]).status == 0)
        #expect(try shown(1)["family"] as? String == "King")
        let given = box.script("given.sh", "sed -i 's/^given:.*/given: Augusta/' \"$1\"\n")
        #expect(box.carnetInProcess(["edit", "1", "--editor"], environment: ["EDITOR": given, "VISUAL": ""]).status == 0)
        #expect(try shown(1)["name"] as? String == "Augusta King")
    }

    // MARK: sample

    @Test func sampleContactsAreRichAndASecondRunKeepsYourEdits() throws {
        #expect(box.carnetInProcess(["sample"]).stdout == "saved sample: added 5, updated 0, unchanged 0, skipped 0\n")
        let kate = try shown(3)
        #expect(kate["name"] as? String == "Katherine Price" && kate["nickname"] as? String == "Kate")
        #expect(values(kate, "emails").count == 2 && (kate["addresses"] as? [Any])?.count == 1)
        #expect(labels(kate, "dates") == ["birthday", "anniversary"] && kate["categories"] as? [String] == ["friends"])
        // The classic columns are as they always were.
        #expect(box.carnetInProcess(["list"]).lines.contains("3\tKatherine Price\tMarketing, Golden Roads\tkatherine.price@example.com\t+1 555 0103\t0"))
        #expect(box.carnetInProcess(["list", "--category", "friends"]).lines.count == 2)  // the header and Katherine
        #expect(box.carnetInProcess(["birthdays", "--from", "2026-01-01", "--days", "366"]).lines.count == 6)  // the header, four birthdays, one anniversary
        // Edited, deleted, run again: the edit stays, the deleted one comes back.
        box.carnetInProcess(["edit", "3", "--nickname", "Kat", "--remove-category", "friends"])
        box.carnetInProcess(["delete", "5", "--yes"])
        let again = box.carnetInProcess(["sample"])
        #expect(again.status == 0 && again.stdout.hasPrefix("saved sample: added 1, updated 0,"), "\(again)")
        let edited = try shown(3)
        #expect(edited["nickname"] as? String == "Kat" && edited["categories"] as? [String] == [])
        #expect(box.carnetInProcess(["list"]).lines.contains { $0.contains("Rebecca Rogers") })
    }
}
