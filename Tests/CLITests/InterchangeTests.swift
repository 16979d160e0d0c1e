import Foundation
import Testing

/// Import, export and sample data, through the binary.
@Suite struct InterchangeTests {
    let box = Sandbox()

    /// Apple-style 3.0 and khard-style 4.0 cards: groups, folding, escaping, photos, two cards.
    static let fixture = [
        "BEGIN:VCARD",
        "VERSION:3.0",
        "PRODID:-//Apple Inc.//macOS 14.0//EN",
        "N:Thompson;Madison;;;",
        "FN:Madison Thompson",
        "ORG:Gale Foods;",
        "TITLE:Sales",
        "item1.EMAIL;type=INTERNET;type=pref:madison@example.com",
        "item1.X-ABLabel:_$!<Other>!$_",
        "TEL;type=CELL;type=VOICE;type=pref:+1 555 0101",
        "TEL;type=WORK:+1 555 0199",
        "NOTE:Met at the fair\\, loves \\;semicolons\\; and a very long note that has to be folded bec",
        " ause it is longer than seventy-five octets",
        "PHOTO;ENCODING=b;TYPE=PNG:iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4",
        " 2mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
        "X-ABUID:5B7A1C2D-0000-4000-8000-000000000001:ABPerson",
        "END:VCARD",
        "BEGIN:VCARD",
        "VERSION:4.0",
        "UID:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1",
        "FN:Tyler Porter",
        "TITLE:Software developer",
        "ORG:Prophecy",
        "EMAIL;PREF=1:tyler@example.com",
        "TEL;VALUE=uri:tel:+1-555-0102",
        "REV:20261101T120000Z",
        "END:VCARD",
        "",
    ].joined(separator: "\r\n")

    @Test func importsHandWrittenCardsOfBothVersions() throws {
        let run = box.carnetInProcess(["import", box.write("contacts.vcf", Self.fixture)])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout == "saved import: added 2, updated 0, unchanged 0, skipped 0\n")
        let list = box.carnetInProcess(["list"]).lines
        #expect(list[1] == "1\tMadison Thompson\tSales, Gale Foods\tmadison@example.com\t+1 555 0101\t0")
        #expect(list[2] == "2\tTyler Porter\tSoftware developer, Prophecy\ttyler@example.com\t+1-555-0102\t0")
        let madison = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect((madison["photo"] as? String)?.hasPrefix("iVBORw0KGgo") == true)
        let tyler = try #require(box.json(box.carnetInProcess(["show", "2", "--json"]).stdout) as? [String: Any])
        #expect(tyler["uid"] as? String == "urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1")
    }

    /// A vdir another client syncs: exported again, each card keeps its file name and its UID
    /// line byte for byte, so the other client sees no card deleted and made anew.
    @Test func aVdirExportKeepsEachCardsUIDAndFileName() throws {
        let uuid = "4fbe8971-0bc3-424c-9c26-36c3e1eff6b1", bare = "9a1c2b3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"
        let cards = [("UID:urn:uuid:\(uuid)", "\(uuid).vcf"), ("UID:\(bare)", "\(bare).vcf"), ("UID:khard-7f3a@example.org", "khard-7f3a@example.org.vcf")]
        let text = cards.enumerated().map { index, card in
            "BEGIN:VCARD\r\nVERSION:4.0\r\n\(card.0)\r\nFN:Person \(index)\r\nEND:VCARD\r\n"
        }.joined()
        #expect(box.carnetInProcess(["import", box.write("cards.vcf", text)]).status == 0)
        for version in ["3.0", "4.0"] {
            let vdir = box.path("vdir-\(version)")
            #expect(box.carnetInProcess(["export", "--format", "vdir", "--vcard-version", version, vdir]).status == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: vdir).sorted() == cards.map(\.1).sorted())
            for (line, name) in cards {
                let card = try String(contentsOfFile: vdir + "/" + name, encoding: .utf8)
                #expect(card.contains("\r\n\(line)\r\n"), "\(version) \(name): \(card)")
            }
        }
    }

    /// A contact imported when Carnet kept a `urn:uuid:` UID without its prefix is found again
    /// by the card it came from: updated, not added twice.
    @Test func reimportFindsAContactImportedWithoutTheUrnPrefix() {
        let card = { (uid: String, title: String) in
            "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:\(uid)\r\nFN:Tyler Porter\r\nTITLE:\(title)\r\nEND:VCARD\r\n"
        }
        let uuid = "4fbe8971-0bc3-424c-9c26-36c3e1eff6b1"
        box.carnetInProcess(["import", box.write("old.vcf", card(uuid, "Developer"))])
        let again = box.carnetInProcess(["import", box.write("new.vcf", card("urn:uuid:" + uuid, "Architect"))])
        #expect(again.stdout == "saved import: added 0, updated 1, unchanged 0, skipped 0\n", "\(again)")
        #expect(box.carnetInProcess(["list"]).lines.count == 2)
    }

    @Test func reimportUpdatesInsteadOfDuplicating() {
        let file = box.write("contacts.vcf", Self.fixture)
        box.carnetInProcess(["import", file])
        let again = box.carnetInProcess(["import", file])
        #expect(again.stdout == "saved import: added 0, updated 0, unchanged 2, skipped 0\n")
        let changed = Self.fixture.replacingOccurrences(of: "tyler@example.com", with: "tyler@prophecy.example.com")
            .replacingOccurrences(of: "REV:20261101T120000Z", with: "REV:20301101T120000Z")
        box.write("contacts.vcf", changed)
        let dry = box.carnetInProcess(["import", file, "--dry-run"])
        // Madison's card has no UID: it gets one derived from its values, so it matches again.
        #expect(dry.stdout.contains("would add 0, would update 1, unchanged 1"), "\(dry)")
        let update = box.carnetInProcess(["import", file, "--skip-invalid"])
        #expect(update.status == 0)
        #expect(box.carnetInProcess(["list", "--search", "prophecy.example"]).lines.count == 2)
        #expect(box.carnetInProcess(["list", "--search", "Tyler"]).lines.count == 2)
    }

    @Test func anOlderCardIsAConflictNotAnOverwrite() {
        let card = Self.fixture.components(separatedBy: "BEGIN:VCARD").last.map { "BEGIN:VCARD" + $0 } ?? ""
        let file = box.write("tyler.vcf", card)
        box.carnetInProcess(["import", file])
        box.carnetInProcess(["edit", "1", "--phone", "555 7777"])  // edited after the card's REV
        let before = box.snapshot()
        let stale = box.carnetInProcess(["import", file])
        #expect(stale.status == 65, "\(stale)")
        #expect(stale.stderr.contains("tyler.vcf:1: conflict"), "\(stale)")
        #expect(box.snapshot() == before)
        #expect(box.carnetInProcess(["import", file, "--force"]).status == 0)
    }

    @Test func malformedFilesAreRefusedWithFileAndLineAndWriteNothing() {
        box.carnetInProcess(["add", "--name", "Existing"])
        let before = box.snapshot()
        let broken = box.write("broken.vcf", "BEGIN:VCARD\nVERSION:4.0\nFN:Ok One\nEND:VCARD\nBEGIN:VCARD\nVERSION:4.0\nFN:Never Ends\n")
        let run = box.carnetInProcess(["import", broken])
        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("carnet: \(broken):"), "\(run)")
        #expect(run.stderr.contains("nothing was imported"))
        let invalid = box.write("invalid.csv", "name,email\nFine,fine@example.com\nBad,not-an-email\n")
        let csv = box.carnetInProcess(["import", invalid])
        #expect(csv.stderr == "carnet: \(invalid):3: invalid email: 1 (not-an-email) must look like name@example.com (no spaces or invisible characters); nothing was imported\n")
        let nul = box.write("nul.csv", "name\nA\u{0}B\n")
        #expect(box.carnetInProcess(["import", nul]).status == 65)
        #expect(box.snapshot() == before)
        #expect(box.carnetInProcess(["import", box.path("missing.vcf")]).status == 66)
        // A file that is there but of no known format is a usage error; a missing one is 66.
        let text = box.write("file.txt", "hello\n")
        #expect(box.carnetInProcess(["import", text]).status == 64)
        #expect(box.carnetInProcess(["import", box.path("other.txt")]).status == 66)
    }

    /// An ordinary macOS Contacts card: two emails, two phones, an address, a note, a birthday, a
    /// URL, a nickname, ORG with a department, categories, and properties Carnet does not model.
    static let macCard = [
        "BEGIN:VCARD",
        "VERSION:3.0",
        "PRODID:-//Apple Inc.//macOS 14.1//EN",
        "N:Appleseed;John;Q.;Dr.;Jr.",
        "FN:Dr. John Q. Appleseed Jr.",
        "NICKNAME:Johnny",
        "ORG:Apple Inc.;Engineering",
        "TITLE:Engineer",
        "item1.EMAIL;type=INTERNET;type=pref:john@apple.example",
        "item1.X-ABLabel:_$!<Work>!$_",
        "EMAIL;type=INTERNET;type=HOME:john@home.example",
        "TEL;type=CELL;type=VOICE;type=pref:+1 408 555 0101",
        "TEL;type=HOME;type=VOICE:+1 408 555 0102",
        "item2.ADR;type=HOME;type=pref:;;1 Infinite Loop;Cupertino;CA;95014;USA",
        "item2.X-ABADR:us",
        "NOTE:Met at WWDC\\nLikes apples\\, pears",
        "BDAY;value=date:1980-03-22",
        "item3.URL;type=pref:https://apple.example/john",
        "item3.X-ABLabel:_$!<HomePage>!$_",
        "item4.X-ABRELATEDNAMES;type=pref:Jane",
        "item4.X-ABLabel:_$!<Spouse>!$_",
        "CATEGORIES:friends,work",
        "X-ABUID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE:ABPerson",
        "UID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE",
        "REV:2023-11-23T08:55:07Z",
        "END:VCARD",
        "",
    ].joined(separator: "\r\n")

    @Test func importsEveryFieldOfAMacOSCard() throws {
        let run = box.carnetInProcess(["import", box.write("john.vcf", Self.macCard)])
        #expect(run.status == 0, "\(run)")
        let john = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect(john["name"] as? String == "Dr. John Q. Appleseed Jr.")
        #expect(john["family"] as? String == "Appleseed" && john["suffix"] as? String == "Jr.")
        #expect(john["nickname"] as? String == "Johnny")
        #expect(john["organization"] as? String == "Apple Inc." && john["department"] as? String == "Engineering")
        #expect(john["title"] as? String == "Engineer")
        let emails = try #require(john["emails"] as? [[String: Any]])
        #expect(emails.map { $0["value"] as? String } == ["john@apple.example", "john@home.example"])
        #expect(emails.map { $0["label"] as? String } == ["work", "home"])
        #expect(emails.map { $0["preferred"] as? Bool } == [true, false])
        let phones = try #require(john["phones"] as? [[String: Any]])
        #expect(phones.map { $0["value"] as? String } == ["+1 408 555 0101", "+1 408 555 0102"])
        let addresses = try #require(john["addresses"] as? [[String: Any]])
        #expect(addresses.map { $0["street"] as? String } == ["1 Infinite Loop"])
        #expect(john["note"] as? String == "Met at WWDC\nLikes apples, pears")
        #expect((john["dates"] as? [[String: String]]) == [["label": "birthday", "date": "1980-03-22"]])
        #expect(((john["urls"] as? [[String: Any]])?.first?["value"] as? String) == "https://apple.example/john")
        #expect(john["categories"] as? [String] == ["friends", "work"])
        #expect(john["extras"] as? [String] == [
            "item2.X-ABADR:us", "item4.X-ABRELATEDNAMES;type=pref:Jane", "item4.X-ABLabel:_$!<Spouse>!$_",
            "X-ABUID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE:ABPerson",
        ])

        let exported = box.carnetInProcess(["export", "--format", "vcf"]).stdout
        #expect(exported.contains("\r\nN:Appleseed;John;Q.;Dr.;Jr.\r\n"), "N is the card's, never rebuilt from FN")
        #expect(exported.contains("\r\nORG:Apple Inc.;Engineering\r\n"))
        #expect(exported.contains("\r\nBDAY:19800322\r\n"))
        #expect(exported.contains("\r\nitem4.X-ABRELATEDNAMES;type=pref:Jane\r\nitem4.X-ABLabel:_$!<Spouse>!$_\r\n"))
    }

    @Test func importsAGoogleContactsCSV() throws {
        let header = "Name,Given Name,Family Name,Group Membership,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Gender"
        let row = "Marc Dupont,Marc,Dupont,* myContacts ::: Friends,* Home,marc@home.example ::: marc@other.example,Mobile,+33 6 12 34 56 78,male"
        let run = box.carnetInProcess(["import", box.write("google.csv", header + "\r\n" + row + "\r\n")])
        #expect(run.status == 0, "\(run)")
        let marc = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect((marc["emails"] as? [[String: Any]])?.map { $0["value"] as? String } == ["marc@home.example", "marc@other.example"])
        #expect((marc["phones"] as? [[String: Any]])?.first?["label"] as? String == "cell")
        #expect(marc["categories"] as? [String] == ["myContacts", "Friends"])
        #expect(marc["extras"] as? [String] == ["X-CSV;X-COLUMN=Gender:male"])
    }

    /// Every file of the corpus of real exports imports whole: no card refused or skipped.
    @Test func everyRealExportImports() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Sandbox.realExports.path).filter { $0.hasSuffix(".vcf") }.sorted()
        #expect(files.count == 28)
        for (index, file) in files.enumerated() {
            let db = box.path("corpus-\(index).sqlite")
            let run = box.carnetInProcess(["import", Sandbox.realExport(file), "--db", db], useDB: false)
            #expect(run.status == 0, "\(file): \(run)")
            #expect(run.stdout.hasPrefix("saved import: added "), "\(file): \(run)")
            #expect(run.stdout.contains("skipped 0"), "\(file): \(run)")
        }
    }

    /// A value Carnet's rules refuse is kept verbatim and said, with the file and line.
    @Test func whatIsKeptVerbatimIsNamedWithFileAndLine() throws {
        let file = Sandbox.realExport("ezvcard-outlook-2003-2.1.vcf")
        let run = box.carnetInProcess(["import", file])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.contains("carnet: \(file):10: TEL;WORK;VOICE:BusinessPhone kept as an unmodelled property: phone 1 (BusinessPhone) may hold only digits"), "\(run)")
        let shown = try #require(box.json(box.carnetInProcess(["show", "1", "--json"]).stdout) as? [String: Any])
        #expect((shown["extras"] as? [String])?.contains("TEL;WORK;VOICE:BusinessPhone") == true)
    }

    @Test(arguments: ["vcf", "csv", "json"]) func exportImportExportIsIdentical(format: String) throws {
        box.carnetInProcess(["sample"])
        let photo = box.path("p.png")
        _ = FileManager.default.createFile(atPath: photo, contents: tinyPNG)
        box.carnetInProcess(["edit", "2", "--photo", photo, "--name", "Tyler \"TJ\" Porter; Jr., PhD", "--position", "Lead, R&D, Prophecy"])
        box.carnetInProcess(["favorite", "3"])
        #expect(box.carnetInProcess(["import", box.write("john.vcf", Self.macCard)]).status == 0)
        let (a, b) = try exportImportExport([], fileExtension: format)
        #expect(a == b)
        #expect(a.count > 500)
    }

    @Test(arguments: ["2.1", "3.0"]) func olderVCardVersionsRoundTripToo(version: String) throws {
        box.carnetInProcess(["sample"])
        #expect(box.carnetInProcess(["import", box.write("john.vcf", Self.macCard)]).status == 0)
        let (a, b) = try exportImportExport(["--vcard-version", version], fileExtension: "vcf")
        #expect(a == b)
        #expect(String(decoding: a, as: UTF8.self).contains("VERSION:\(version)\r\n"))
    }

    /// Exports the book (the six contacts the round trips make) with `arguments` to a file of that
    /// extension, imports it into a new file and exports that the same way: both exports' bytes.
    func exportImportExport(_ arguments: [String], fileExtension: String) throws -> (first: Data, second: Data) {
        let first = box.path("first.\(fileExtension)")
        #expect(box.carnetInProcess(["export"] + arguments + ["--output", first]).status == 0)
        let copy = box.path("copy.sqlite")
        let imported = box.carnetInProcess(["import", first, "--db", copy], useDB: false)
        #expect(imported.stdout.hasPrefix("saved import: added 6"), "\(imported)")
        let second = box.path("second.\(fileExtension)")
        #expect(box.carnetInProcess(["export"] + arguments + ["--output", second, "--db", copy], useDB: false).status == 0)
        return (try #require(FileManager.default.contents(atPath: first)), try #require(FileManager.default.contents(atPath: second)))
    }

    @Test func stdinImportAndFavoritesExport() {
        box.carnetInProcess(["sample"])
        box.carnetInProcess(["favorite", "5"])
        let favorites = box.carnetInProcess(["export", "--favorites", "--format", "csv"])
        let rows = favorites.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }  // CSV lines end in CRLF
        #expect(rows.count == 2 && rows[1].contains("Rebecca Rogers"))
        let other = box.path("other.sqlite")
        let run = box.carnetInProcess(["import", "-", "--format", "csv", "--db", other], stdin: favorites.stdout, useDB: false)
        #expect(run.stdout.hasPrefix("saved import: added 1"), "\(run)")
        #expect(box.carnetInProcess(["import", "-", "--db", other], stdin: "", useDB: false).status == 64)  // needs --format
    }

    @Test func sampleLoadsTheClassicFiveOnce() {
        let run = box.carnetInProcess(["sample"])
        #expect(run.stdout == "saved sample: added 5, updated 0, unchanged 0, skipped 0\n")
        #expect(box.carnetInProcess(["sample"]).stdout.contains("unchanged 5"))
        let names = box.carnetInProcess(["list"]).lines.dropFirst().map { $0.split(separator: "\t")[1] }
        #expect(names == ["Gary Edwards", "Katherine Price", "Madison Thompson", "Rebecca Rogers", "Tyler Porter"])
        #expect(box.carnetInProcess(["list", "--search", "Globaviations"]).lines.count == 2)
    }

    @Test func sampleRunAgainNeverOverwritesAnEditAndSaysSo() {
        box.carnetInProcess(["sample"])
        #expect(box.carnetInProcess(["edit", "2", "--position", "CTO, Prophecy"]).status == 0)
        let edited = box.carnetInProcess(["show", "2", "--json"]).stdout
        let again = box.carnetInProcess(["sample"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == "saved sample: added 0, updated 0, unchanged 4, skipped 0, kept 1 edited (contact 2 left as you changed it)\n", "\(again)")
        #expect(box.carnetInProcess(["show", "2", "--json"]).stdout == edited)
        // A deleted sample comes back; the edited one still stays as it is.
        box.carnetInProcess(["delete", "3", "--yes"])
        #expect(box.carnetInProcess(["sample"]).stdout.hasPrefix("saved sample: added 1, updated 0, unchanged 3, skipped 0, kept 1 edited"))
        #expect(box.carnetInProcess(["show", "2", "--json"]).stdout == edited)
    }
}
