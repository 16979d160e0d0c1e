import Foundation
import Testing
@testable import carnet

/// Group cards on the command line: an Apple group card and a vCard 4.0 one are groups, not
/// people; `carnet group …` keeps them; `carnet query` expands them; export writes them back in
/// the form they came in.
@Suite struct GroupTests {
    let box = Sandbox()

    /// The issue's file: two people, an Apple group card (3.0) naming one of them and someone not
    /// in the file, and a 4.0 group card naming both.
    static let groupsFile = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:ada-1\r
        FN:Ada Lovelace\r
        N:Lovelace;Ada;;;\r
        EMAIL;TYPE=INTERNET:ada@example.com\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:urn:uuid:b8767877-b4a1-4c70-9acc-505d3819e519\r
        FN:Grace Hopper\r
        EMAIL;PREF=1:grace@example.org\r
        EMAIL:hopper@example.net\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:climbing-club\r
        FN:Climbing club\r
        N:Climbing club;;;;\r
        X-ADDRESSBOOKSERVER-KIND:group\r
        X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ada-1\r
        X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:not-here-yet\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:4.0\r
        UID:urn:uuid:family\r
        KIND:group\r
        FN:Family\r
        MEMBER:urn:uuid:ada-1\r
        MEMBER:urn:uuid:b8767877-b4a1-4c70-9acc-505d3819e519\r
        END:VCARD\r

        """

    func importIssueFile() {
        let file = box.write("groups.vcf", Self.groupsFile)
        let run = box.carnetInProcess(["import", file])
        #expect(run.status == 0, "\(run)")
    }

    func listedNames() -> [String] {
        box.carnetInProcess(["list"]).lines.dropFirst().map { String($0.split(separator: "\t")[1]) }
    }

    @Test func theIssuesReproduction() throws {
        let file = box.write("groups.vcf", Self.groupsFile)
        let imported = box.carnetInProcess(["import", file])
        #expect(imported.status == 0, "\(imported)")
        // Counted apart in the import report.
        #expect((imported.stdout + imported.stderr).contains("added 2") && (imported.stdout + imported.stderr).contains("groups: added 2"), "\(imported)")
        // Not listed as people.
        #expect(listedNames() == ["Ada Lovelace", "Grace Hopper"])
        // Not name-parsed, no KIND/MEMBER as raw lines.
        let groups = box.carnetInProcess(["group", "list"])
        #expect(groups.status == 0, "\(groups)")
        #expect(groups.lines.map { String($0.split(separator: "\t")[1]) } == ["Climbing club", "Family"])
        let clubID = String(groups.lines[0].split(separator: "\t")[0])
        let shown = box.carnetInProcess(["show", clubID])
        #expect(shown.status == 0, "\(shown)")
        #expect(!shown.stdout.contains("Given") && !shown.stdout.contains("X-ADDRESSBOOKSERVER") && !shown.stdout.contains("MEMBER"), "\(shown)")
        #expect(shown.stdout.contains("Ada Lovelace") && shown.stdout.contains("not-here-yet"), "\(shown)")
        // The query gives the group as one entry, then its members' emails (the member not here has none).
        let query = box.carnetInProcess(["query", "club"])
        #expect(query.status == 0, "\(query)")
        #expect(Array(query.lines.dropFirst()) == ["Ada Lovelace <ada@example.com>\tClimbing club\tgroup of 1 member", "ada@example.com\tAda Lovelace\tClimbing club"], "\(query)")
        // Counted apart in db info.
        let info = box.carnetInProcess(["db", "info"])
        #expect(info.stdout.contains("contacts:     2") && info.stdout.contains("groups:       2"), "\(info)")
        let home = box.carnetInProcess([])
        #expect(home.stdout.contains("2 contacts") && home.stdout.contains("2 groups"), "\(home)")
    }

    @Test func queryExpandsAGroupToPreferredEmails() {
        importIssueFile()
        let run = box.carnetInProcess(["query", "family", "--format", "aerc"])
        #expect(run.status == 0, "\(run)")
        #expect(run.lines == ["ada@example.com\tAda Lovelace", "grace@example.org\tGrace Hopper"], "\(run)")
        // A person's own search is unchanged, and categories stay tags.
        #expect(box.carnetInProcess(["query", "grace", "--format", "aerc"]).lines == ["grace@example.org\tGrace Hopper", "hopper@example.net\tGrace Hopper"])
    }

    @Test func showListsAContactsGroups() throws {
        importIssueFile()
        let id = String(box.carnetInProcess(["list", "--search", "ada"]).lines[1].split(separator: "\t")[0])
        let shown = box.carnetInProcess(["show", id])
        #expect(shown.stdout.contains("Groups") && shown.stdout.contains("Climbing club") && shown.stdout.contains("Family"), "\(shown)")
        let json = box.json(box.carnetInProcess(["show", id, "--json"]).stdout) as? [String: Any]
        #expect(json?["groups"] as? [String] == ["Climbing club", "Family"])
    }

    @Test func groupCommandsAndTheirUndo() throws {
        importIssueFile()
        let ada = String(box.carnetInProcess(["list", "--search", "ada"]).lines[1].split(separator: "\t")[0])
        let grace = String(box.carnetInProcess(["list", "--search", "grace"]).lines[1].split(separator: "\t")[0])
        let added = box.carnetInProcess(["group", "add", "Choir"])
        #expect(added.status == 0 && added.stdout.hasPrefix("saved group "), "\(added)")
        let choir = String(added.stdout.split(separator: " ")[2].prefix { $0.isNumber })
        #expect(box.carnetInProcess(["group", "add-member", "choir", ada, grace]).status == 0)
        var detail = box.json(box.carnetInProcess(["group", "show", choir, "--json"]).stdout) as? [String: Any]
        #expect((detail?["members"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Ada Lovelace", "Grace Hopper"])
        #expect(box.carnetInProcess(["group", "remove-member", "Choir", ada]).status == 0)
        detail = box.json(box.carnetInProcess(["group", "show", "Choir", "--json"]).stdout) as? [String: Any]
        #expect((detail?["members"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Grace Hopper"])
        // Undo brings the member back; redo takes it out again.
        #expect(box.carnetInProcess(["undo"]).status == 0)
        detail = box.json(box.carnetInProcess(["group", "show", "Choir", "--json"]).stdout) as? [String: Any]
        #expect((detail?["members"] as? [[String: Any]])?.count == 2)
        #expect(box.carnetInProcess(["redo"]).status == 0)
        detail = box.json(box.carnetInProcess(["group", "show", "Choir", "--json"]).stdout) as? [String: Any]
        #expect((detail?["members"] as? [[String: Any]])?.count == 1)
        // Rename, then delete, each undoable.
        #expect(box.carnetInProcess(["group", "rename", "choir", "Singers"]).status == 0)
        #expect(box.carnetInProcess(["group", "show", "Singers"]).status == 0)
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["group", "show", "Choir"]).status == 0)
        #expect(box.carnetInProcess(["group", "delete", "Choir"]).status == 0)
        #expect(box.carnetInProcess(["group", "show", "Choir"]).status == 66)
        #expect(listedNames() == ["Ada Lovelace", "Grace Hopper"])  // the members stay
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["group", "show", "Choir"]).status == 0)
        // The member not in the file is kept by UID, and can be taken out by it.
        #expect(box.carnetInProcess(["group", "remove-member", "Climbing club", "not-here-yet"]).status == 0)
        #expect(box.carnetInProcess(["undo"]).status == 0)
        #expect(box.carnetInProcess(["group", "show", "Climbing club"]).stdout.contains("not-here-yet"))
    }

    /// Thunderbird's own LDIF export (Tests/Fixtures/Thunderbird) names its mailing list's
    /// members by DN, the list first: they are the contacts of the same file, so the query
    /// expands the list to them, and the LDIF export names them by the DN each gets in it.
    @Test func thunderbirdsMailingListKeepsItsMembersThroughLDIF() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Thunderbird/thunderbird.ldif").path
        let imported = box.carnetInProcess(["import", fixture])
        #expect(imported.status == 0, "\(imported)")
        let members = ["zoe@example.org\tZoë Ångström-Łukasiewicz", "john.doe@example.com\tDoe, John", "renee@example.ie\tRenée O'Brien"]
        let query = box.carnetInProcess(["query", "Projekt", "--format", "aerc"])
        #expect(query.status == 0 && query.lines == members, "\(query)")
        // Exported as LDIF: the members as `member` DNs, nothing said to be left out, and read
        // back into a new file the same list.
        let out = box.path("out.ldif")
        let exported = box.carnetInProcess(["export", "--output", out, "--verbose"])
        #expect(exported.status == 0 && exported.stderr == "", "\(exported)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("\nmember: cn=Doe\\, John,mail=john.doe@example.com\n"), "\(text)")
        let other = Sandbox()
        #expect(other.carnetInProcess(["import", out]).status == 0)
        let again = other.carnetInProcess(["query", "Projekt", "--format", "aerc"])
        #expect(again.lines == members, "\(again)")
        // A list made by hand goes out with its members too.
        #expect(box.carnetInProcess(["group", "add", "Choir"]).status == 0)
        let zoe = String(box.carnetInProcess(["list", "--search", "zoe@example.org"]).lines[1].split(separator: "\t")[0])
        #expect(box.carnetInProcess(["group", "add-member", "Choir", zoe]).status == 0)
        let choir = box.carnetInProcess(["export", "--format", "ldif", "--verbose"])
        #expect(choir.status == 0 && !choir.stderr.contains("member"), "\(choir)")
        #expect(choir.stdout.contains("cn: Choir\nmember:: "), "\(choir)")
    }

    @Test func groupErrorsHaveTheirOwnExitCodes() {
        importIssueFile()
        box.expectRefused(["group", "show", "Nobody"], 66, mentioning: "no group is named Nobody")
        box.expectRefused(["group", "add", "family"], 65, mentioning: "already exists")
        box.expectRefused(["group", "add-member", "Family", "999"], 66, mentioning: "999")
        box.expectRefused(["group", "remove-member", "Family", "nobody-uid"], 65, mentioning: "not a member")
        box.expectRefused(["group", "add-member", "Family"], 64, mentioning: "Missing expected argument")
        let ada = String(box.carnetInProcess(["list", "--search", "ada"]).lines[1].split(separator: "\t")[0])
        box.expectRefused(["group", "show", ada], 65, mentioning: "not a group")
        // Two groups of one name: the name is ambiguous, the id is not.
        #expect(box.sqlite("UPDATE contacts SET name = 'Family' WHERE uid = 'climbing-club'").status == 0)
        let ambiguous = box.carnetInProcess(["group", "show", "family"])
        #expect(ambiguous.status == 80 && ambiguous.stderr.contains("give one of their ids"), "\(ambiguous)")
        #expect(box.carnetInProcess(["group", "--help"]).stdout.contains("add-member"))
    }

    @Test func exportWritesEachGroupInTheFormItCameIn() throws {
        importIssueFile()
        _ = box.carnetInProcess(["group", "add", "New in Carnet"])
        let v3 = box.carnetInProcess(["export", "--vcard-version", "3.0"])
        #expect(v3.status == 0, "\(v3)")
        #expect(v3.stdout.contains("X-ADDRESSBOOKSERVER-KIND:group\r\n") && v3.stdout.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:not-here-yet\r\n"))
        #expect(v3.stdout.contains("KIND:group\r\nFN:Family") && v3.stdout.contains("MEMBER:urn:uuid:b8767877-b4a1-4c70-9acc-505d3819e519\r\n"))
        #expect(v3.stdout.contains("X-ADDRESSBOOKSERVER-KIND:group\r\nFN:New in Carnet"), "\(v3.stdout)")
        let v4 = box.carnetInProcess(["export"])
        #expect(v4.stdout.contains("KIND:group\r\nFN:New in Carnet"), "\(v4.stdout)")
        // Round trip: the export imports into a new file as the same groups.
        let again = Sandbox()
        let file = again.write("export.vcf", v3.stdout)
        #expect(again.carnetInProcess(["import", file]).status == 0)
        let first = box.carnetInProcess(["group", "show", "Climbing club", "--json"]).stdout
        let second = again.carnetInProcess(["group", "show", "Climbing club", "--json"]).stdout
        let strip = { (text: String) in (self.box.json(text) as? [String: Any]).map { ($0["uid"] as? String, $0["form"] as? String, ($0["members"] as? [[String: Any]])?.map { $0["uid"] as? String }) } }
        #expect(strip(first).map { "\($0)" } == strip(second).map { "\($0)" })
        #expect(again.carnetInProcess(["export", "--vcard-version", "3.0"]).stdout == v3.stdout)
    }
}
