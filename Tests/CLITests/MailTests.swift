import Foundation
import Testing
@testable import carnet

/// Search and mail clients on the command line: `list --search` as people type, `carnet query` for mutt,
/// neomutt and aerc, and `carnet add-email` for the message a mail client pipes in.
@Suite struct MailTests {
    let box = Sandbox()

    init() {
        box.carnetInProcess(["add", "--name", "Élodie Martin", "--phone", "+1 555 123 4567", "--email", "elodie@example.fr"])
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--email", "work:ada@example.com", "--email", "home,pref:ada@home.example",
                             "--organization", "Analytical Engines"])
        box.carnetInProcess(["add", "--name", "Zed Note", "--email", "zed@example.org", "--note", "Ada's friend"])
        box.carnetInProcess(["add", "--name", "Zoë Ångström"])
    }

    func names(_ run: Run) -> [String] {
        run.lines.dropFirst().map { String($0.split(separator: "\t")[1]) }
    }

    @Test func listSearchFindsWhatPeopleType() {
        for search in ["elodie", "Elodie", "ÉLODIE", "E\u{301}lodie", "Martin Élodie", "5551234567", "555-123-4567", "+1 555 123 4567"] {
            let run = box.carnetInProcess(["list", "--search", search])
            #expect(run.status == 0 && names(run) == ["Élodie Martin"], "\(search): \(run)")
        }
        #expect(names(box.carnetInProcess(["list", "--search", "angstrom"])) == ["Zoë Ångström"])
        #expect(names(box.carnetInProcess(["list", "--search", "ada lov"])) == ["Ada Lovelace"])
        #expect(names(box.carnetInProcess(["list", "--search", "ada", "--sort", "relevance"])) == ["Ada Lovelace", "Zed Note"])
        // 50,000 characters were reported as a damaged database; now a usage error, as is nothing to look for.
        for search in [String(repeating: "x", count: 50_000), "\"*\"", "-"] {
            let run = box.carnetInProcess(["list", "--search", search])
            #expect(run.status == 64 && run.stdout.isEmpty, "\(run)")
        }
        #expect(box.carnetInProcess(["list", "--search", "\" OR x:y*"]).status == 0)
    }

    @Test func queryPrintsWhatMuttReads() {
        let run = box.carnetInProcess(["query", "ada"])
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run)")
        #expect(run.stdout == """
            carnet: 2 emails of 1 contact matching ada
            ada@home.example\tAda Lovelace\thome, Analytical Engines
            ada@example.com\tAda Lovelace\twork, Analytical Engines

            """, "\(run)")
        let accents = box.carnetInProcess(["query", "elodie", "mart"])
        #expect(accents.lines == ["carnet: 1 email of 1 contact matching elodie mart", "elodie@example.fr\tÉlodie Martin\t"])
        #expect(box.carnetInProcess(["query", "ada", "--limit", "1"]).lines.count == 3)
        // Zed's note names Ada: a search finds him, a mail user typing "ada" does not mean him.
        #expect(box.carnetInProcess(["list", "--search", "ada"]).lines.count == 3)
    }

    @Test func queryGivesEachContactItsOwnEmailsWhenTheBestMatchesAreNotInIDOrder() {
        // Added last, first by name among the names that match: the answer's order is not the ids'.
        box.carnetInProcess(["add", "--name", "Ada Byron", "--email", "byron@example.org", "--email", "pref:ada@byron.example"])
        let run = box.carnetInProcess(["query", "ada"])
        #expect(run.lines == [
            "carnet: 4 emails of 2 contacts matching ada",
            "ada@byron.example\tAda Byron\t",
            "byron@example.org\tAda Byron\t",
            "ada@home.example\tAda Lovelace\thome, Analytical Engines",
            "ada@example.com\tAda Lovelace\twork, Analytical Engines",
        ], "\(run)")
    }

    /// What a mail user types: names, nicknames and addresses first; the organisation only when
    /// no one's names hold every word; a street or a note only when nothing else does.
    @Test func queryAnswersWithThePersonMeant() {
        box.carnetInProcess(["add", "--name", "Gale Ma", "--email", "gale@example.com"])
        box.carnetInProcess(["add", "--name", "Abigail Gale", "--email", "abi@example.com", "--address", "home:1 Main St; Springfield; IL; 62701; USA"])
        box.carnetInProcess(["add", "--name", "Mark Gale", "--email", "mark@mars.example", "--organization", "Mars Foods"])
        box.carnetInProcess(["add", "--name", "Robert Tables", "--nickname", "Bobby", "--email", "rt@example.com"])
        let names = { (text: [String]) in self.box.carnetInProcess(["query"] + text).lines.dropFirst().map { String($0.split(separator: "\t")[1]) } }
        #expect(names(["gale", "ma"]) == ["Gale Ma"])
        #expect(names(["mark", "ga"]) == ["Mark Gale"])
        #expect(names(["gale"]) == ["Abigail Gale", "Gale Ma", "Mark Gale"])
        #expect(names(["gale", "mars"]) == ["Mark Gale"])  // through the address mark@mars.example
        #expect(names(["gale", "foods"]) == ["Mark Gale"])  // the organisation, as no name holds "foods"
        #expect(names(["bobby"]) == ["Robert Tables"])
        #expect(names(["springfield"]) == ["Abigail Gale"])  // nothing but the address holds it
    }

    /// A group is one entry whose address is every member's, groups within expanded once.
    @Test func aGroupIsOneEntryThatAddressesEveryMember() {
        box.carnetInProcess(["add", "--name", "Hopper, Grace", "--email", "grace@example.org"])
        box.carnetInProcess(["group", "add", "Climbing club"])
        box.carnetInProcess(["group", "add", "Belayers"])
        #expect(box.carnetInProcess(["group", "add-member", "Climbing club", "ada lovelace", "Belayers"]).status == 0)
        #expect(box.carnetInProcess(["group", "add-member", "Belayers", "hopper", "Climbing club", "lovelace"]).status == 0)
        let mutt = box.carnetInProcess(["query", "climbing"])
        #expect(mutt.lines == [
            "carnet: 1 group and 2 emails of 2 contacts matching climbing",
            "Ada Lovelace <ada@home.example>, \"Hopper, Grace\" <grace@example.org>\tClimbing club\tgroup of 2 members",
            "ada@home.example\tAda Lovelace\tClimbing club",
            "grace@example.org\tHopper, Grace\tClimbing club",
        ], "\(mutt)")
        let aerc = box.carnetInProcess(["query", "--format", "aerc", "belay"])
        // aerc reads one address a line: the members, groups within expanded once.
        #expect(aerc.lines == ["grace@example.org\tHopper, Grace", "ada@home.example\tAda Lovelace"], "\(aerc)")
    }

    @Test func queryPrintsWhatAercReads() {
        let run = box.carnetInProcess(["query", "--format", "aerc", "ada"])
        #expect(run.status == 0)
        #expect(run.stdout == "ada@home.example\tAda Lovelace\nada@example.com\tAda Lovelace\n")
    }

    @Test func nothingFoundIsStatus1WithTheStatusLineMuttShows() {
        let none = box.carnetInProcess(["query", "nobody"])
        #expect(none.status == 1 && none.stdout == "carnet: no contact matches nobody\n" && none.stderr.isEmpty, "\(none)")
        let noEmail = box.carnetInProcess(["query", "angstrom"])
        #expect(noEmail.status == 1 && noEmail.stdout == "carnet: 1 contact matches angstrom, without an email\n", "\(noEmail)")
        let aerc = box.carnetInProcess(["query", "--format", "aerc", "nobody"])
        #expect(aerc.status == 1 && aerc.stdout.isEmpty && aerc.stderr.isEmpty)
        // The exit status as a mail client sees it: a whole process.
        #expect(box.carnet(["query", "nobody"]).status == 1)
    }

    @Test func anEmptyOrOverlongQueryIsAUsageError() {
        for arguments in [["query"], ["query", ""], ["query", "  "], ["query", "\"*\""], ["query", String(repeating: "a", count: 1001)]] {
            let run = box.carnetInProcess(arguments)
            #expect(run.status == 64 && run.stdout.isEmpty && !run.stderr.isEmpty, "\(arguments.map { $0.prefix(20) }): \(run)")
        }
        for syntax in ["\"ada", "ada*", "-ada", "ada OR", "name:ada", "NEAR(ada)"] {
            let run = box.carnetInProcess(["query", syntax])
            #expect([0, 1].contains(run.status) && run.stderr.isEmpty, "\(syntax): \(run)")
        }
    }

    /// `carnet query` is read without swift-argument-parser when it has only the forms mail
    /// clients use; what it reads is what the parser reads, and everything else is the parser's.
    @Test func theQuickReadingOfQueryIsTheParsers() throws {
        let quick: [[String]] = [
            ["query", "ada"], ["query", "ada", "lov"], ["query", "--format", "aerc", "ada"], ["query", "ada", "--format=aerc"],
            ["query", "--limit", "5", "ada"], ["query", "--limit=5", "ada"], ["query", "--limit", "+7", "ada"],
            ["query", "ada", "--db", "/tmp/x.sqlite"], ["query", "--db=/tmp/x y", "ada"], ["query", "--db=-odd", "ada"],
            ["query", "Élodie", "mart"], ["query", "ada", "--format", "mutt", "--limit", "1"], ["query", "a=b"],
            ["query", "\"ada", "ada*", "ada", "OR"],
        ]
        for arguments in quick {
            let read = try #require(MailQuery.parsedQuickly(arguments), "\(arguments)")
            let parsed = try #require(try Carnet.parseAsRoot(arguments) as? QueryCommand, "\(arguments)")
            #expect(read == parsed.query, "\(arguments)")
        }
        let parsers: [[String]] = [
            ["query"], ["query", "--help"], ["query", "-h"], ["query", "ada", "--", "-x"], ["query", "-x"], ["query", "-ada"],
            ["query", "ada", "--limit", "0"], ["query", "ada", "--limit", "x"], ["query", "ada", "--limit"],
            ["query", "ada", "--format", "pine"], ["query", "ada", "--limit", "1", "--limit", "2"], ["query", "ada", "--db"],
            ["query", "ada", "--db", ""], ["query", "ada", "--db", "--format"], ["query", String(repeating: "x", count: 1001)],
            ["query", "\"*\""], ["query", "ada", "--version"], ["list", "ada"], ["help", "query"], [],
        ]
        for arguments in parsers {
            #expect(MailQuery.parsedQuickly(arguments) == nil, "\(arguments)")
        }
        // The parser's answers stay its own: help, and a usage error with its message.
        #expect(box.carnetInProcess(["query", "--help"]).stdout.contains("address-book-cmd"))
        let zero = box.carnetInProcess(["query", "ada", "--limit", "0"])
        #expect(zero.status == 64 && zero.stderr.contains("--limit must be 1 or more (got 0)"), "\(zero)")
        let word = box.carnetInProcess(["query", "-ada"])
        #expect(word.status == 0 && word.lines.count == 3, "\(word)")
    }

    // MARK: add-email

    static let message = """
        Return-Path: <bounce@lists.example>
        From: =?UTF-8?Q?Gr=C3=A9goire?=
         =?ISO-8859-1?B?IEzpdnk=?= <gregoire@example.fr>
        To: me@example.com
        Subject: =?UTF-8?B?w4AgYmllbnTDtHQ=?=

        From: not-the-sender@example.com
        """

    @Test func addEmailDecodesTheSenderAndAddsANewContactWithYes() throws {
        let run = box.carnetInProcess(["add-email", "--yes", "--label", "work"], stdin: Self.message)
        #expect(run.status == 0 && run.stdout == "saved contact 5\n", "\(run)")
        let json = try #require(box.json(box.carnetInProcess(["show", "5", "--json"]).stdout) as? [String: Any])
        #expect(json["name"] as? String == "Grégoire Lévy")
        #expect((json["emails"] as? [[String: Any]])?.first?["value"] as? String == "gregoire@example.fr")
        #expect((json["emails"] as? [[String: Any]])?.first?["label"] as? String == "work")
        // Again: the address is there already, nothing is added.
        let again = box.carnetInProcess(["add-email", "--yes"], stdin: Self.message)
        #expect(again.status == 0 && again.stdout == "gregoire@example.fr is contact 5 (Grégoire Lévy) already; nothing to add\n", "\(again)")
        #expect(box.carnetInProcess(["list"]).lines.count == 6)
    }

    @Test func addEmailToAnExistingContact() throws {
        let run = box.carnetInProcess(["add-email", "--to-contact", "2"], stdin: "From: \"Lovelace, Ada\" <countess@example.org>\n\nhi\n")
        #expect(run.status == 0 && run.stdout == "saved contact 2\n", "\(run)")
        let json = try #require(box.json(box.carnetInProcess(["show", "2", "--json"]).stdout) as? [String: Any])
        #expect((json["emails"] as? [[String: Any]])?.compactMap { $0["value"] as? String } == ["ada@example.com", "ada@home.example", "countess@example.org"])
        #expect(box.carnetInProcess(["add-email", "--to-contact", "99"], stdin: "From: x@example.org\n\n").status == 66)
    }

    @Test func addEmailAsksOnTheTerminalWhileTheMessageIsOnStandardInput() throws {
        // Picks Ada among the likely contacts (the sender's name is hers).
        let pick = box.carnetInProcess(["add-email"], stdin: "From: Ada Lovelace <ada@analytical.example>\n\n", tty: "2\n")
        #expect(pick.status == 0 && pick.stdout == "saved contact 2\n", "\(pick)")
        #expect(pick.stderr.contains("Add Ada Lovelace <ada@analytical.example>\n  n  to a new contact named Ada Lovelace\n  2  to Ada Lovelace (ada@example.com, ada@home.example)\n"), "\(pick)")
        // A new contact, renamed at the prompt.
        let new = box.carnetInProcess(["add-email"], stdin: "From: =?utf-8?q?Gr=C3=A9goire?= <g@example.fr>\n\n", tty: "n\nGrégoire Lévy\n")
        #expect(new.status == 0 && new.stdout == "saved contact 5\n", "\(new)")
        #expect(box.carnetInProcess(["list", "--search", "levy"]).lines.count == 2)
        // Enter cancels; anything else is refused; nothing is written either way.
        let cancelled = box.carnetInProcess(["add-email"], stdin: "From: x@example.org\n\n", tty: "\n")
        #expect(cancelled.status == 1 && cancelled.stderr.contains("cancelled"), "\(cancelled)")
        #expect(box.carnetInProcess(["add-email"], stdin: "From: x@example.org\n\n", tty: "maybe\n").status == 64)
        #expect(box.carnetInProcess(["list"]).lines.count == 6)
    }

    @Test func addEmailWithoutATerminalOrASenderSaysWhatToDo() {
        let noTerminal = box.carnetInProcess(["add-email"], stdin: "From: x@example.org\n\n")
        #expect(noTerminal.status == 64 && noTerminal.stderr.contains("--yes (a new contact) or --to-contact ID"), "\(noTerminal)")
        let noSender = box.carnetInProcess(["add-email", "--yes"], stdin: "Subject: hi\n\nFrom: body@example.org\n")
        #expect(noSender.status == 65 && noSender.stderr.contains("no From: header"), "\(noSender)")
        #expect(box.carnetInProcess(["add-email", "--yes", "--to-contact", "1"], stdin: "").status == 64)
        let invalid = box.carnetInProcess(["add-email", "--yes"], stdin: "From: Bad <not an address@>\n\n")
        #expect([64, 65].contains(invalid.status), "\(invalid)")
        #expect(box.carnetInProcess(["list"]).lines.count == 5)
    }
}
