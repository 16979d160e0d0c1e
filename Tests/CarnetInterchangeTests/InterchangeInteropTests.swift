import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// What Carnet writes, read by a parser Carnet did not write (Python's vobject): every value
/// comes out as Carnet meant it, in every version another program reads as a modern vCard.
@Suite(.enabled(if: VObjectReader.isAvailable, "needs python3 with python3-vobject on PATH (make deps installs it)"))
struct InterchangeInteropTests {
    @Test(arguments: [VCardVersion.v3, .v4]) func everyComponentOfAStructuredValueIsEscaped(version: VCardVersion) throws {
        let draft = ContactDraft(
            name: "T", nameParts: PersonName(prefix: "Dr; h.c.", given: "Ann, Marie", family: "Smith; Jones", suffix: "a\\b"),
            organization: "Smith; Jones LLP", department: "Sales; EMEA",
            addresses: [
                PostalAddress(
                    label: "work", poBox: "Box 1; 2", extended: "c/o A, B", street: "1 Main St; Rear", locality: "Town\\ship",
                    region: "R", postalCode: "1", country: "X; Y")
            ])
        let text = VCardWriter.card(uid: "u1", draft: draft, updatedAt: nil, version: version)
        #expect(text.contains("\r\nORG:Smith\\; Jones LLP;Sales\\; EMEA\r\n"), "\(text)")
        let card = try #require(try VObjectReader.cards(text).first)
        #expect(card.named("ORG").map(\.values) == [["Smith; Jones LLP", "Sales; EMEA"]])
        #expect(card.named("N").map(\.values) == [["Smith; Jones", "Ann, Marie", "", "Dr; h.c.", "a\\b"]])
        #expect(card.named("ADR").map(\.values) == [["Box 1; 2", "c/o A, B", "1 Main St; Rear", "Town\\ship", "R", "1", "X; Y"]])
        // And Carnet reads its own output back as the same contact.
        #expect(try VCardReader.parse(text).first?.draft == draft)
    }

    /// A 2.1 card whose kept lines are in 2.1's own syntax, as an old phone writes them.
    static let card21 = """
        BEGIN:VCARD\r
        VERSION:2.1\r
        N:A;B\r
        FN:B A\r
        ORG:First\r
        ORG;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=91=C3=91;Dept=0D=0Aline\r
        LABEL;WORK;ENCODING=QUOTED-PRINTABLE:1 Main St=0D=0ATown\r
        X-messaging/gadu-All:4523\r
        NOTE:first\r
        NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9=C3=A9\r
        LOGO;ENCODING=BASE64;JPEG:\(RichContact.jpeg.base64EncodedString())\r
        \r
        END:VCARD\r

        """

    @Test(arguments: [VCardVersion.v3, .v4]) func linesKeptFromA21CardAreWrittenInTheSyntaxOfTheVersion(version: VCardVersion) throws {
        let record = try #require(try VCardReader.parse(Self.card21).first)
        let text = VCardWriter.card(record, version: version)
        let logo = RichContact.jpeg.base64EncodedString()
        for line in [
            "ORG:\u{D1}\u{D1};Dept\\nline", "LABEL;TYPE=WORK:1 Main St\\nTown", "X-messaging-gadu-All;X-CARNET-NAME=X-messaging/gadu-All:4523",
            "NOTE:" + String(repeating: "\u{E9}", count: 19),
            version == .v3 ? "LOGO;ENCODING=b;TYPE=JPEG:" + logo : "LOGO:data:image/jpeg;base64," + logo,
        ] {
            #expect(text.contains("\r\n" + line + "\r\n"), "\(line) in \(text)")
        }
        #expect(!text.contains("QUOTED-PRINTABLE") && !text.contains("CHARSET"))
        let card = try #require(try VObjectReader.cards(text).first)
        #expect(card.named("ORG").map(\.values) == [["First"], ["\u{D1}\u{D1}", "Dept\nline"]])
        #expect(card.named("LABEL").map(\.value) == ["1 Main St\nTown"])
        #expect(card.named("X-MESSAGING-GADU-ALL").map(\.parameters) == [["X-CARNET-NAME": ["X-messaging/gadu-All"]]])
        // Read again, exported again: the same bytes.
        let again = try #require(try VCardReader.parse(text).first)
        #expect(VCardWriter.card(again, version: version) == text)
    }

    @Test func linesKeptFromA21CardGoBackOutAsTheyCameIn21() throws {
        let record = try #require(try VCardReader.parse(Self.card21).first)
        let text = VCardWriter.card(record, version: .v21)
        for line in [
            "ORG;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=91=C3=91;Dept=0D=0Aline", "LABEL;WORK;ENCODING=QUOTED-PRINTABLE:1 Main St=0D=0ATown",
            "LOGO;ENCODING=BASE64;JPEG:" + RichContact.jpeg.base64EncodedString(),
            "X-messaging-gadu-All;X-CARNET-NAME=X-messaging/gadu-All:4523",
        ] {
            #expect(text.contains("\r\n" + line + "\r\n"), "\(line) in \(text)")
        }
        // A long quoted-printable value is broken with soft line breaks, never folded after a `=`.
        #expect(!text.contains("=\r\n "), "\(text)")
        #expect(text.contains("NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=A9"))
        let again = try #require(try VCardReader.parse(text).first)
        #expect(again.draft.extras.contains("NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:" + String(repeating: "=C3=A9", count: 19)))
    }

    @Test func profileIsNotWrittenBackAndTheReportSaysSo() throws {
        let record = try #require(try VCardReader.parse("BEGIN:VCARD\r\nVERSION:3.0\r\nPROFILE:VCard\r\nFN:P\r\nEND:VCARD\r\n").first)
        #expect(record.draft.extras == ["PROFILE:VCard"])
        #expect(record.notes.map(\.message).contains { $0.contains("not written back") })
        for version in VCardVersion.allCases {
            let text = VCardWriter.card(record, version: version)
            #expect(!text.contains("PROFILE"))
            if version != .v21 { #expect(try VObjectReader.cards(text).count == 1) }
        }
    }

    @Test(arguments: VCardVersion.allCases) func labelsAreWrittenAsTheStandardTypesOrTheirOwnText(version: VCardVersion) throws {
        let draft = ContactDraft(
            name: "L", emails: [LabeledValue("o@example.org", label: "other")],
            phones: [LabeledValue("1", label: "work,voice"), LabeledValue("2", label: "AssistantPhone"), LabeledValue("3", label: "voice")])
        let text = VCardWriter.card(uid: nil, draft: draft, updatedAt: nil, version: version)
        let lines: [String] = switch version {
        case .v21: ["EMAIL;INTERNET;OTHER:o@example.org", "TEL;WORK;VOICE:1", "item1.TEL:2\r\nitem1.X-ABLabel:AssistantPhone", "TEL;VOICE:3"]
        case .v3: ["EMAIL;TYPE=other:o@example.org", "TEL;TYPE=work,voice:1", "item1.TEL:2\r\nitem1.X-ABLabel:AssistantPhone", "TEL;TYPE=voice:3"]
        case .v4:
            ["EMAIL;TYPE=other:o@example.org", "TEL;VALUE=text;TYPE=work,voice:1", "item1.TEL;VALUE=text:2\r\nitem1.X-ABLabel:AssistantPhone",
             "TEL;VALUE=text;TYPE=voice:3"]
        }
        for line in lines { #expect(text.contains("\r\n" + line + "\r\n"), "\(line) in \(text)") }
        #expect(!text.contains("_$!<"))
        #expect(try VCardReader.parse(text).first?.draft == draft)
        if version != .v21 {
            let card = try #require(try VObjectReader.cards(text).first)
            #expect(card.named("EMAIL").map { $0.parameters["TYPE"] ?? [] } == [["other"]])
            #expect(card.named("TEL").map { $0.parameters["TYPE"] ?? [] } == [["work", "voice"], [], ["voice"]])
        }
    }

    /// Cards whose values Carnet maps but whose form it has no field for.
    static let ownForms = """
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:f1\r
        FN;LANGUAGE=de:M\u{FC}ller\r
        N;LANGUAGE=de:M\u{FC}ller;Hans;;;\r
        TITLE;LANGUAGE=de:Leiter\r
        NOTE;LANGUAGE=de:Zeile  \r
        BDAY:19850128T00:00:00Z\r
        X-MS-ANNIVERSARY:2010-06-18\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:f2\r
        FN:Apple\r
        BDAY;X-APPLE-OMIT-YEAR=1604:1604-06-15\r
        X-EVOLUTION-ANNIVERSARY:2001-02-03\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:f3\r
        FN:KDE\r
        X-KADDRESSBOOK-X-ANNIVERSARY:2002-03-04\r
        END:VCARD\r
        BEGIN:VCARD\r
        VERSION:3.0\r
        UID:f4\r
        FN:Apple date\r
        item1.X-ABDATE:2003-04-05\r
        item1.X-ABLabel:_$!<Anniversary>!$_\r
        END:VCARD\r

        """

    @Test(arguments: [VCardVersion.v3, .v4]) func aValueGoesBackInTheFormItCameUnlessChanged(version: VCardVersion) throws {
        let records = try VCardReader.parse(Self.ownForms).map(InterchangeCorpusTests.saved)
        #expect(records[1].draft.dates.first == ContactDate(label: ContactDate.birthday, month: 6, day: 15))
        let text = records.map { VCardWriter.card($0, version: version) }.joined()
        for line in [
            "FN;LANGUAGE=de:M\u{FC}ller", "N;LANGUAGE=de:M\u{FC}ller;Hans;;;", "TITLE;LANGUAGE=de:Leiter", "NOTE;LANGUAGE=de:Zeile  ",
            "BDAY:19850128T00:00:00Z", "X-MS-ANNIVERSARY:2010-06-18", "BDAY;X-APPLE-OMIT-YEAR=1604:1604-06-15",
            "X-EVOLUTION-ANNIVERSARY:2001-02-03", "X-KADDRESSBOOK-X-ANNIVERSARY:2002-03-04",
            "item1.X-ABDATE:2003-04-05\r\nitem1.X-ABLabel:_$!<Anniversary>!$_",
        ] {
            #expect(text.contains("\r\n" + line + "\r\n"), "\(line) in \(text)")
        }
        #expect(!text.contains("X-CARNET") && !text.contains("ANNIVERSARY:2003"), "\(text)")
        // Each once: read back and written again, the same bytes.
        let again = try VCardReader.parse(text).map(InterchangeCorpusTests.saved)
        #expect(again.map { VCardWriter.card($0, version: version) }.joined() == text)
        let cards = try VObjectReader.cards(text)
        #expect(cards[0].named("FN").map(\.parameters) == [["LANGUAGE": ["de"]]])
        #expect(cards[0].named("NOTE").map(\.value) == ["Zeile  "])
        // A value the person changed goes out in Carnet's form, and the old form not at all.
        var changed = records[0]
        changed.draft.title = "Chef"
        changed.draft.dates = changed.draft.dates.map { var date = $0; date.day = 29; return date }
        let written = VCardWriter.card(changed, version: version)
        #expect(written.contains("\r\nTITLE:Chef\r\n") && !written.contains("Leiter"), "\(written)")
        #expect(!written.contains("19850128T") && !written.contains("X-MS-ANNIVERSARY"), "\(written)")
        #expect(written.contains("FN;LANGUAGE=de:M\u{FC}ller\r\n"))
    }
}
