import Foundation
import Testing

/// vdir directories (khard's and vdirsyncer's one card per file), and what an import says about
/// what it kept, converted and read: in-process runs.
@Suite struct VDirAndReportTests {
    let box = Sandbox()

    /// The files of a directory and their bytes.
    static func files(_ directory: String) -> [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return Dictionary(uniqueKeysWithValues: names.map { ($0, FileManager.default.contents(atPath: directory + "/" + $0) ?? Data()) })
    }

    static func inode(_ path: String) -> UInt64? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.systemFileNumber] as? UInt64
    }

    /// A rich contact (every kind of field, characters to escape) and the five samples.
    func fillBook() {
        box.carnetInProcess(["sample"])
        box.carnetInProcess([
            "add", "--name", "Ada Lovelace", "--email", "work,pref:ada@example.com", "--email", "home:ada@home.example",
            "--phone", "cell:+44 20 7946 0000", "--address", "home:12 St James's Square; London; ; SW1Y 4JH; UK",
            "--url", "https://ada.example", "--handle", "mastodon:@ada@example.social", "--date", "birthday:1815-12-10",
            "--date", "anniversary:--07-08", "--category", "Mathematicians, famous", "--note", "First line\nSecond; line, \\ here",
            "--title", "Analyst", "--organization", "Analytical Engines",
        ])
    }

    @Test func vdirExportImportExportIsByteIdentical() throws {
        fillBook()
        let first = box.path("vdir")
        let exported = box.carnetInProcess(["export", "--format", "vdir", first])
        #expect(exported.status == 0, "\(exported)")
        #expect(exported.stdout == "saved export: 6 contacts to \(first) (6 written, 0 unchanged)\n")
        let files = Self.files(first)
        #expect(files.count == 6)
        // Named by UID: the samples' UIDs are safe as they are.
        #expect(files["carnet-sample-1.vcf"] != nil, "\(files.keys.sorted())")
        #expect(files.keys.allSatisfy { $0.hasSuffix(".vcf") && !$0.hasPrefix(".") })

        let other = Sandbox()
        let imported = other.carnetInProcess(["import", first])
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout == "saved import: added 6, updated 0, unchanged 0, skipped 0\n")
        let second = other.path("vdir")
        #expect(other.carnetInProcess(["export", "--format", "vdir", second]).status == 0)
        #expect(Self.files(second) == files)
        // In 3.0 and 2.1 too.
        for version in ["3.0", "2.1"] {
            let a = box.path("vdir-\(version)"), b = other.path("vdir-\(version)")
            #expect(box.carnetInProcess(["export", "--format", "vdir", "--vcard-version", version, a]).status == 0)
            let third = Sandbox()
            #expect(third.carnetInProcess(["import", a]).status == 0)
            #expect(third.carnetInProcess(["export", "--format", "vdir", "--vcard-version", version, b]).status == 0)
            #expect(Self.files(b) == Self.files(a), "\(version)")
        }
    }

    @Test func reexportRewritesOnlyWhatChangedAndDeletesOnlyWhenAsked() throws {
        fillBook()
        let vdir = box.path("vdir")
        box.carnetInProcess(["export", "--format", "vdir", vdir])
        let foreign = vdir + "/from-elsewhere.vcf"
        _ = FileManager.default.createFile(atPath: foreign, contents: Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Else\r\nEND:VCARD\r\n".utf8))
        let untouched = vdir + "/carnet-sample-2.vcf"
        let edited = vdir + "/carnet-sample-1.vcf"
        let untouchedInode = Self.inode(untouched), editedInode = Self.inode(edited)
        #expect(box.carnetInProcess(["edit", "1", "--nickname", "Maddie"]).status == 0)
        let again = box.carnetInProcess(["export", "--format", "vdir", vdir])
        #expect(again.stdout == "saved export: 6 contacts to \(vdir) (1 written, 5 unchanged; 1 other .vcf file left as it was, --delete removes them)\n")
        #expect(Self.inode(untouched) == untouchedInode)
        #expect(Self.inode(edited) != editedInode)
        #expect(String(decoding: FileManager.default.contents(atPath: edited) ?? Data(), as: UTF8.self).contains("NICKNAME:Maddie"))
        // No temporary files are left behind.
        #expect(Self.files(vdir).keys.allSatisfy { !$0.hasPrefix(".") })

        // A contact deleted in Carnet keeps its file until --delete.
        #expect(box.carnetInProcess(["delete", "2", "--yes"]).status == 0)
        let kept = box.carnetInProcess(["export", "--format", "vdir", vdir])
        #expect(kept.stdout.contains("2 other .vcf files left as they were"), "\(kept)")
        #expect(FileManager.default.fileExists(atPath: untouched))
        let deleted = box.carnetInProcess(["export", "--format", "vdir", vdir, "--delete"])
        #expect(deleted.stdout == "saved export: 5 contacts to \(vdir) (0 written, 5 unchanged, 2 other .vcf files deleted)\n", "\(deleted)")
        #expect(!FileManager.default.fileExists(atPath: untouched))
        #expect(!FileManager.default.fileExists(atPath: foreign))
        #expect(Self.files(vdir).count == 5)
    }

    @Test func vdirNeedsOneDirectory() {
        box.carnetInProcess(["add", "--name", "Existing"])
        #expect(box.carnetInProcess(["export", "--format", "vdir"]).status == 64)
        #expect(box.carnetInProcess(["export", box.path("dir")]).status == 64)
        #expect(box.carnetInProcess(["export", "--delete"]).status == 64)
        let file = box.write("plain", "x")
        let notADirectory = box.carnetInProcess(["export", "--format", "vdir", file])
        #expect(notADirectory.status == 1)
        #expect(notADirectory.stderr == "carnet: cannot write \(file): it is not a directory\n")
    }

    @Test func vdirImportNamesEachFileAndSkipsOneBrokenCard() throws {
        box.carnetInProcess(["add", "--name", "Existing"])
        let vdir = box.path("cards")
        let good = box.write("cards/a.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:a\r\nFN:Ann\r\nEND:VCARD\r\n")
        let broken = box.write("cards/b.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:b\r\nFN:Never Ends\r\n")
        let nameless = box.write("cards/c.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:c\r\nNOTE:no name at all\r\nEND:VCARD\r\n")
        box.write("cards/notes.txt", "not a card")
        box.write("cards/.hidden.vcf", "not read")
        let before = box.snapshot()
        let refused = box.carnetInProcess(["import", vdir])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.hasPrefix("carnet: \(broken):"), "\(refused)")
        #expect(box.snapshot() == before)

        let skipping = box.carnetInProcess(["import", vdir, "--skip-invalid"])
        #expect(skipping.status == 0, "\(skipping)")
        let lines = skipping.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(skipping)")
        #expect(lines[0].hasPrefix("skipped \(broken):"), "\(lines)")
        #expect(lines[1].hasPrefix("skipped \(nameless):1: invalid name"), "\(lines)")
        #expect(lines[2] == "saved import: added 1, updated 0, unchanged 0, skipped 2")
        #expect(box.carnetInProcess(["list", "--search", "Ann"]).stdout.contains("Ann"))
        _ = good
        #expect(box.carnetInProcess(["import", vdir, "--format", "csv"]).status == 66)
        #expect(box.carnetInProcess(["import", good, "--format", "vdir"]).status == 66)
    }

    @Test func importSaysTheCSVDialectItRead() throws {
        let google = Sandbox.realExport("contacts2js-google-contacts.csv")
        let run = box.carnetInProcess(["import", google])
        #expect(run.status == 0, "\(run)")
        #expect(run.stderr.hasPrefix("carnet: \(google): read as Google Contacts CSV\n"), "\(run)")
        #expect(run.stderr.contains("carnet: \(google): 3 properties kept verbatim (--verbose names each)\n"), "\(run)")
        let outlook = Sandbox.realExport("contactcsv-outlook-dos.csv")
        #expect(box.carnetInProcess(["import", outlook, "--dry-run"]).stderr.hasPrefix("carnet: \(outlook): read as Outlook CSV\n"))
        let gmail = Sandbox.realExport("blackbook-gmail-first-format.csv")
        #expect(box.carnetInProcess(["import", gmail, "--dry-run"]).stderr == "carnet: \(gmail): read as Gmail CSV (first format)\n")
        // Carnet's own CSV goes unsaid.
        let own = box.write("own.csv", "name,emails\nAda,ada@example.com\n")
        #expect(box.carnetInProcess(["import", own]).stderr == "")
    }

    @Test func importsAndExportsThunderbirdLDIF() throws {
        let ldif = """
            version: 1

            dn: cn=Ada Lovelace,mail=ada@example.com
            objectclass: top
            objectclass: mozillaAbPersonAlpha
            givenName: Ada
            sn: Lovelace
            cn: Ada Lovelace
            mail: ada@example.com
            mobile: +44 7700 900000
            custom1: Engines

            """
        let file = box.write("thunderbird.ldif", ldif)
        let imported = box.carnetInProcess(["import", file])
        #expect(imported.status == 0, "\(imported)")
        let out = box.dir.appendingPathComponent("out.ldif").path
        let run = box.carnetInProcess(["export", "--output", out, "--verbose"])
        #expect(run.status == 0, "\(run)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        for line in ["version: 1\n", "\ncn: Ada Lovelace\n", "\nmail: ada@example.com\n", "\nmobile: +44 7700 900000\n", "\ncustom1: Engines\n"] {
            #expect(text.contains(line), "\(line) in \(text)")
        }
        #expect(run.stderr == "", "\(run)")
        // The export carries each contact's UID: importing it again updates, it adds nothing.
        #expect(text.contains("\nuid: "), "\(text)")
        let again = box.carnetInProcess(["import", out])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("added 0, updated 0, unchanged 1"), "\(again)")
        // What LDIF has no attribute for is counted without --verbose, and named with it.
        #expect(box.carnetInProcess(["add", "--name", "Grace", "--category", "navy", "--handle", "skype:grace"]).status == 0)
        let lossy = box.carnetInProcess(["export", "--format", "ldif"])
        #expect(lossy.status == 0 && lossy.stderr == "carnet: 2 values not written: LDIF has no attribute for them (--verbose names each)\n", "\(lossy)")
        let named = box.carnetInProcess(["export", "--format", "ldif", "--verbose"])
        #expect(named.stderr.contains("Grace (") && named.stderr.contains(": categories not written: LDIF has no attribute for it\n"), "\(named)")
    }

    @Test func exportVerboseNamesTheKeptLinesWrittenInAnotherForm() throws {
        let card = [
            "BEGIN:VCARD", "VERSION:2.1", "UID:v1", "N:Doe;John", "FN:John Doe", "LABEL;WORK;ENCODING=QUOTED-PRINTABLE:1 Main St=0D=0ATown",
            "X-messaging/gadu-All:4523", "X-PLAIN:as it is", "END:VCARD", "",
        ].joined(separator: "\r\n")
        let file = box.write("old.vcf", card)
        #expect(box.carnetInProcess(["import", file]).status == 0)
        let run = box.carnetInProcess(["export", "--vcard-version", "3.0", "--verbose"])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("\r\nLABEL;TYPE=WORK:1 Main St\\nTown\r\n"), "\(run)")
        #expect(run.stderr == """
            carnet: John Doe (v1): LABEL;WORK;ENCODING=QUOTED-PRINTABLE:1 Main St=0D=0ATown written as LABEL;TYPE=WORK:1 Main St\\nTown
            carnet: John Doe (v1): X-messaging/gadu-All:4523 written as X-messaging-gadu-All;X-CARNET-NAME=X-messaging/gadu-All:4523

            """, "\(run)")
        // Without --verbose, nothing is said; in 2.1 only the name is mended.
        #expect(box.carnetInProcess(["export", "--vcard-version", "3.0"]).stderr == "")
        let old = box.carnetInProcess(["export", "--vcard-version", "2.1", "--verbose"])
        #expect(old.stderr == "carnet: John Doe (v1): X-messaging/gadu-All:4523 written as X-messaging-gadu-All;X-CARNET-NAME=X-messaging/gadu-All:4523\n", "\(old)")
    }

    @Test func theReportCountsWhatWasKeptAndConvertedAndVerboseNamesEach() throws {
        let card = [
            "BEGIN:VCARD", "VERSION:2.1", "N:Doe;John", "FN;ENCODING=QUOTED-PRINTABLE:John =44oe",
            "TEL;WORK;VOICE:BusinessPhone", "X-MS-ANNIVERSARY:20100601", "X-BELL:ring\u{7}bell", "X-ABUID:1234",
            "END:VCARD", "",
        ].joined(separator: "\r\n")
        box.carnetInProcess(["add", "--name", "Existing"])
        let file = box.write("john.vcf", card)
        let plain = box.carnetInProcess(["import", file, "--dry-run"])
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.stderr == """
            carnet: \(file):5: TEL;WORK;VOICE:BusinessPhone kept as an unmodelled property: phone 1 (BusinessPhone) may hold only digits, spaces and + - ( ) . and must have a digit
            carnet: \(file): 3 properties kept verbatim (1 of them a value Carnet's rules refuse), 2 converted (--verbose names each)

            """, "\(plain)")
        let verbose = box.carnetInProcess(["import", file, "--dry-run", "--verbose"])
        #expect(verbose.stderr == """
            carnet: \(file):4: FN quoted-printable decoded
            carnet: \(file):5: TEL;WORK;VOICE:BusinessPhone kept as an unmodelled property: phone 1 (BusinessPhone) may hold only digits, spaces and + - ( ) . and must have a digit
            carnet: \(file):6: X-MS-ANNIVERSARY read as the anniversary (written back as it came unless the date changes, else as ANNIVERSARY)
            carnet: \(file):7: X-BELL:ring\\u{7}bell kept verbatim: Carnet has no field for it
            carnet: \(file):8: X-ABUID:1234 kept verbatim: Carnet has no field for it
            carnet: \(file): 3 properties kept verbatim (1 of them a value Carnet's rules refuse), 2 converted

            """, "\(verbose)")
        // A file name with a control character reaches the terminal escaped, in notes and errors.
        let odd = box.write("odd\u{1B}[2J.vcf", "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Odd\r\nX-A:b\r\nEND:VCARD\r\nBEGIN:VCARD\r\n")
        let escaped = box.carnetInProcess(["import", odd, "--verbose"])
        #expect(escaped.status == 65)
        #expect(!escaped.stderr.contains("\u{1B}"), "\(escaped)")
        #expect(!verbose.stderr.contains("\u{7}"))
    }
}
