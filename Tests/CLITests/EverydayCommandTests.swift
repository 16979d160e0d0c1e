import Foundation
import Testing

/// The commands and answers a khard or abook user reaches for first: every address and number
/// with its owner, dates a person reads, and a slip of the keyboard that gets a suggestion.
@Suite struct EverydayCommandTests {
    let box = Sandbox()

    func seed() {
        box.carnetInProcess(["add", "--name", "Ada Lovelace", "--email", "work,pref:ada@example.com", "--email", "home:ada@home.example",
                             "--phone", "cell:+44 20 7946 0000", "--date", "birthday:--12-10"])
        box.carnetInProcess(["add", "--name", "Grace Hopper", "--email", "grace@example.org", "--phone", "work:+1 555 0100", "--phone", "home:555 0199"])
    }

    @Test func emailListsEveryAddressWithItsTypeAndOwner() {
        seed()
        // Piped, or --parsable on a terminal: address, name, type, as khard email --parsable.
        #expect(box.carnetInProcess(["email"]).stdout == """
            ada@example.com\tAda Lovelace\twork
            ada@home.example\tAda Lovelace\thome
            grace@example.org\tGrace Hopper\t

            """)
        #expect(box.carnetInProcess(["email", "lovelace"]).stdout.split(separator: "\n").count == 2)
        let table = box.carnetOnTerminal(["email", "ada"]).stdout
        #expect(table.contains("NAME") && table.contains("Ada Lovelace  work  ada@example.com (preferred)"), "\(table)")
        #expect(box.carnetOnTerminal(["email", "--parsable", "ada"]).stdout.hasPrefix("ada@example.com\tAda Lovelace\twork\n"))
        let json = box.json(box.carnetInProcess(["email", "--json", "hopper"]).stdout) as? [[String: Any]]
        #expect(json?.first?["value"] as? String == "grace@example.org" && json?.first?["id"] as? Int == 2)
    }

    @Test func phoneListsEveryNumberAndFindsDigitsHoweverWritten() {
        seed()
        #expect(box.carnetInProcess(["phone", "hopper"]).stdout == "+1 555 0100\tGrace Hopper\twork\n555 0199\tGrace Hopper\thome\n")
        #expect(box.carnetInProcess(["phone", "5550100"]).stdout.contains("Grace Hopper"))
        #expect(box.carnetInProcess(["phone", "02079460000"]).stdout == "+44 20 7946 0000\tAda Lovelace\tcell\n")
        let none = box.carnetOnTerminal(["phone", "nobody"])
        #expect(none.status == 0 && none.stdout.contains("No phone numbers for \"nobody\"."), "\(none)")
    }

    @Test func aDateWithoutAYearReadsAsADate() {
        seed()
        let shown = box.carnetInProcess(["show", "ada"]).stdout
        #expect(shown.contains("Birthday         December 10") && !shown.contains("--12-10"), "\(shown)")
        // What a script or another program reads keeps vCard's form.
        #expect(box.carnetInProcess(["show", "ada", "--json"]).stdout.contains("--12-10"))
        #expect(box.carnetInProcess(["export"]).stdout.contains("BDAY:--1210"))
    }

    @Test func showAndHistorySayWhenInOneForm() throws {
        seed()
        let updated = try #require(box.carnetInProcess(["show", "1"]).stdout.firstMatch(of: /Updated +(.*)\n/)?.output.1)
        let history = box.carnetOnTerminal(["history"]).stdout
        #expect(updated.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}/) != nil, "\(updated)")
        #expect(history.contains(String(updated.prefix(13))), "\(history)")
    }

    @Test(arguments: [
        (["lsit"], "unknown command 'lsit' for carnet. Did you mean 'list'? (see carnet --help)"),
        (["group", "lst"], "unknown command 'lst' for carnet group. Did you mean 'list'? (see carnet group --help)"),
        (["sync", "stauts"], "Did you mean 'status'? (see carnet sync --help)"),
        (["add", "--nmae", "X"], "unknown option '--nmae'. Did you mean '--name'? (see carnet add --help)"),
        (["list", "--serach", "x"], "Did you mean '--search'? (see carnet list --help)"),
        (["edit", "1", "--emial", "a@b.c"], "Did you mean '--email'? (see carnet edit --help)"),
        (["list", "--limit", "0"], "--limit must be 1 or more (got 0) (see carnet list --help)"),
        (["frobnicate"], "unknown command 'frobnicate' for carnet (see carnet --help)"),
    ])
    func aSlipGetsASuggestionAndTheCommandsOwnHelp(arguments: [String], says: String) {
        let run = box.carnetInProcess(arguments)
        #expect(run.status == 64 && run.stderr.contains(says), "\(run)")
    }
}
