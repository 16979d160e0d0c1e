import Foundation
import Testing

/// The commands and answers a khard or abook user reaches for first: every address and number
/// with its owner, dates a person reads, and a slip of the keyboard that gets a suggestion.
@Suite struct EverydayCommandTests {
    let box = Sandbox()

    func seed() {
        // Numbers written without a country code are American here, whatever the machine's locale.
        box.carnetInProcess(["db", "phone-region", "US"])
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
        (["add", "--nmae", "X"], "Unknown option '--nmae'. Did you mean '--name'? (see carnet add --help)"),
        (["list", "--serach", "x"], "Did you mean '--search'? (see carnet list --help)"),
        (["edit", "1", "--emial", "a@b.c"], "Did you mean '--email'? (see carnet edit --help)"),
        (["list", "--limit", "0"], "--limit must be 1 or more (got 0) (see carnet list --help)"),
        (["frobnicate"], "unknown command 'frobnicate' for carnet (see carnet --help)"),
        // The file named before the command is the option's value, not a command.
        (["--db", "/nonexistent/book.sqlite", "merge", "1"], "(see carnet merge --help)"),
        (["--db", "/nonexistent/book.sqlite", "db", "phone-region", "uk"], "the United Kingdom is GB (see carnet db phone-region --help)"),
    ])
    func aSlipGetsASuggestionAndTheCommandsOwnHelp(arguments: [String], says: String) {
        let run = box.carnetInProcess(arguments)
        #expect(run.status == 64 && run.stderr.contains(says), "\(run)")
    }

    /// Adding someone already here (the same email or number) says who, and how to merge.
    @Test func addingSomeoneAlreadyHereNamesTheLikelyDuplicate() {
        seed()
        let add = box.carnetInProcess(["add", "--name", "A. Lovelace", "--email", "ada@example.com"])
        #expect(add.status == 0 && add.stdout == "saved contact 3\n", "\(add)")
        #expect(add.stderr.contains("contact 3 (A. Lovelace) looks like contact 1 (Ada Lovelace): same email ada@example.com"), "\(add)")
        #expect(add.stderr.contains("carnet merge 1 3 if they are one person"), "\(add)")
        #expect(box.carnetInProcess(["add", "--name", "Someone New", "--email", "new@example.net"]).stderr.isEmpty)
        let file = box.write("more.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Amazing Grace\r\nTEL:+1 555 0199\r\nEND:VCARD\r\n")
        let imported = box.carnetInProcess(["import", file])
        #expect(imported.status == 0 && imported.stdout.contains("1 imported contact looks like duplicates"), "\(imported)")
        #expect(imported.stderr.contains("(Amazing Grace) looks like contact 2 (Grace Hopper): same phone"), "\(imported)")
    }

    /// The handles other programs write as properties of their own (Gmail's export through
    /// ez-vcard, Evolution, KDE's Kontact: real files) are handles, and go back out as they came.
    @Test func vendorMessagingPropertiesAreHandlesWrittenBackAsTheyCame() throws {
        for file in ["ezvcard-gmail-allfields-3.0.vcf", "cardme-evolution-3.0.vcf", "ical4j-kde-kontact-3.0-photo.vcf"] {
            #expect(box.carnetInProcess(["import", Sandbox.realExport(file)]).status == 0, "\(file)")
        }
        let handles = box.carnetInProcess(["export", "--format", "json"]).stdout
        for (service, value) in [("xmpp", "IM9"), ("aim", "IM3"), ("ymsgr", "IM4"), ("skype", "IM5"), ("msnim", "IM7"), ("icq", "IM8"),
                                 ("aim", "johnny5@aol.com"), ("gadugadu", "452342"), ("skype", "antoni-kde-skype"), ("xmpp", "antoni-kde@kde-jabber.org")] {
            #expect(handles.contains("{\"label\":\"\(service)\",\"preferred\":false,\"value\":\"\(value)\"}"), "\(service):\(value)")
        }
        #expect(box.carnetInProcess(["list", "--search", "antoni-kde"]).stdout.contains("\t"), "a handle is searched")
        // Unfolded; in 4.0, KDE's names with a / are written as Carnet writes every such name.
        let vcf = box.carnetInProcess(["export"]).stdout.replacingOccurrences(of: "\r\n ", with: "")
        for line in ["X-JABBER:IM9", "X-AIM:IM3", "X-YAHOO:IM4", "X-SKYPE:IM5", "X-MSN:IM7", "X-ICQ:IM8",
                     "X-AIM;TYPE=HOME;X-COUCHDB-UUID=\"cb9e11fc-bb97-4222-9cd8-99820c1de454\":johnny5@aol.com",
                     "X-messaging-gadu-All;X-CARNET-NAME=X-messaging/gadu-All:452342",
                     "X-messaging-xmpp-All;X-CARNET-NAME=X-messaging/xmpp-All:antoni-kde@kde-jabber.org"] {
            #expect(vcf.contains(line + "\r\n"), "\(line)")
        }
        #expect(!vcf.contains("IMPP") && !vcf.contains("X-CARNET-FORM"), "no handle is written twice, and the kept forms stay inside")
        // A handle changed goes out in Carnet's form; the old line is not written.
        let id = try #require(box.carnetInProcess(["list", "--search", "IM9"]).lines.dropFirst().first?.split(separator: "\t").first.map(String.init))
        #expect(box.carnetInProcess(["edit", id, "--remove-handle", "IM9", "--handle", "xmpp:im9@jabber.example"]).status == 0)
        let changed = box.carnetInProcess(["export"]).stdout
        #expect(changed.contains("IMPP;X-SERVICE-TYPE=Jabber:xmpp:im9@jabber.example") && !changed.contains("X-JABBER:IM9"), "\(changed)")
    }
}
