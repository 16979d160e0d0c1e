@testable import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// LDIF as Thunderbird exports its address book: read, written, read back.
@Suite struct InterchangeLDIFTests {
    /// Written by hand in the layout Thunderbird's "Export → LDIF" uses (attribute names and
    /// order as it writes them), with a base64 value and a continuation line.
    static let thunderbird = """
        version: 1

        dn: cn=Ada Lovelace,mail=ada@example.com
        objectclass: top
        objectclass: person
        objectclass: organizationalPerson
        objectclass: inetOrgPerson
        objectclass: mozillaAbPersonAlpha
        givenName: Ada
        sn: Lovelace
        cn: Ada Lovelace
        mozillaNickname: Ada
        mail: ada@example.com
        mozillaSecondEmail: countess@example.org
        modifytimestamp: 1700000000
        telephoneNumber: +44 20 7946 0000
        homePhone: +44 20 7946 0001
        mobile: +44 7700 900000
        mozillaHomeStreet: 12 St James's Square
        mozillaHomeLocalityName: London
        mozillaHomePostalCode: SW1Y 4JH
        mozillaHomeCountryName: United Kingdom
        title: Mathematician
        ou: Research
        o: Analytical Engines
        mozillaWorkUrl: https://example.com/ada
        birthyear: 1815
        birthmonth: 12
        birthday: 10
        description:: Rmlyc3QgbGluZQpTZWNvbmQgbGluZQ==
        custom1: Engine
         s

        dn: cn=Zoë
        objectclass: top
        cn:: Wm/Dqw==
        mail: zoe@example.org

        """

    @Test func readsThunderbirdsLDIF() throws {
        let records = try LDIFReader.parse(Self.thunderbird)
        #expect(records.count == 2)
        let ada = records[0].draft
        #expect(ada.name == "Ada Lovelace" && ada.nameParts.given == "Ada" && ada.nameParts.family == "Lovelace" && ada.nickname == "Ada")
        #expect(ada.emails.map(\.value) == ["ada@example.com", "countess@example.org"])
        #expect(ada.phones == [
            LabeledValue("+44 20 7946 0000", label: "work"), LabeledValue("+44 20 7946 0001", label: "home"),
            LabeledValue("+44 7700 900000", label: "cell"),
        ])
        #expect(ada.addresses == [
            PostalAddress(label: "home", street: "12 St James's Square", locality: "London", postalCode: "SW1Y 4JH", country: "United Kingdom")
        ])
        #expect(ada.title == "Mathematician" && ada.department == "Research" && ada.organization == "Analytical Engines")
        #expect(ada.urls == [LabeledValue("https://example.com/ada", label: "work")])
        #expect(ada.dates == [ContactDate(label: ContactDate.birthday, year: 1815, month: 12, day: 10)])
        #expect(ada.note == "First line\nSecond line")
        #expect(ada.extras == ["X-LDIF;X-ATTRIBUTE=modifytimestamp:1700000000", "X-LDIF;X-ATTRIBUTE=custom1:Engines"])
        #expect(records[0].notes.allSatisfy { $0.kind == .unmodelled } && records[0].notes.count == 2)
        #expect(records[1].draft.name == "Zoë" && records[1].line == 34)
        for record in records { #expect(record.draft.issues().isEmpty, "\(record.draft.issues())") }
    }

    @Test func writesLDIFThatReadsBackTheSame() throws {
        let records = try LDIFReader.parse(Self.thunderbird)
        let text = LDIFWriter.header + records.map { LDIFWriter.entry($0.draft) }.joined()
        #expect(text.contains("\ndescription:: Rmlyc3QgbGluZQpTZWNvbmQgbGluZQ==\n"), "\(text)")
        #expect(text.contains("\ncn:: Wm/Dqw==\n"))
        #expect(text.contains("\ncustom1: Engines\n"))
        let again = try LDIFReader.parse(text)
        #expect(again.map(\.draft) == records.map(\.draft))
        #expect(LDIFWriter.header + again.map { LDIFWriter.entry($0.draft) }.joined() == text)
        // A long value is folded, and read back whole.
        let long = ContactDraft(name: "L", note: String(repeating: "abcdefghij", count: 20))
        let entry = LDIFWriter.entry(long)
        #expect(entry.split(separator: "\n").allSatisfy { $0.count <= 76 })
        #expect(try LDIFReader.parse(entry).first?.draft.note == long.note)
    }

    @Test func namesWhatAnLDIFEntryHasNoRoomFor() {
        let left = LDIFWriter.left(RichContact.draft)
        #expect(left.contains("categories") && left.contains("photo") && left.contains { $0.hasPrefix("handle") })
        #expect(LDIFWriter.left(ContactDraft(name: "Plain", emails: [LabeledValue("a@example.com")])).isEmpty)
    }

    /// A change record (RFC 2849's `changetype: delete`, `modify`, `modrdn`) says what to do to
    /// a directory, not who someone is: it is named, with its line, as a record Carnet does not
    /// read, and the records around it still read.
    @Test func namesAChangeRecordItDoesNotRead() {
        let text = """
            version: 1

            dn: cn=Ada Lovelace,mail=ada@example.com
            cn: Ada Lovelace

            dn: cn=Old Friend,mail=old@example.com
            changetype: delete

            dn: cn=Ada Lovelace,mail=ada@example.com
            changetype: modify
            replace: mail
            mail: ada@example.org
            -
            add: telephoneNumber
            telephoneNumber: +44 20 7946 0000
            -

            dn: cn=Zoë
            cn: Zoë

            """
        var reader = LDIFReader()
        var results = reader.feed(text: text)
        if let rest = try? reader.finishAll() { results += rest.map { .success($0) } }
        let names = results.compactMap { try? $0.get().draft.name }
        let errors = results.compactMap { result -> InterchangeError? in
            if case let .failure(error) = result { return error }
            return nil
        }
        #expect(names == ["Ada Lovelace", "Zoë"])
        #expect(errors.map(\.line) == [6, 9])
        for (error, kind) in zip(errors, ["delete", "modify"]) {
            #expect(error.message.contains("change record (changetype: \(kind))") && error.message.contains("Carnet does not read"), "\(error)")
        }
    }

    /// Told the DNs the lists name (read ahead by `LDIFMemberScan`), the reader keeps only
    /// those entries' UIDs and reads the same records: a list before its members or after,
    /// a member in base64, folded over two lines, or in another case than its entry's DN.
    @Test func aScanOfTheMembersReadsTheSameAsKeepingEveryDN() throws {
        let text = """
            version: 1

            dn: cn=Early,mail=early@example.com
            objectclass: groupOfNames
            cn: Early
            member: CN=Ada Lovelace,mail=ada@example.com
            member:: Y249WmnDqw==

            dn: cn=Ada Lovelace,mail=ada@example.com
            cn: Ada Lovelace
            mail: ada@example.com

            dn: cn=Grace Hopper,mail=grace@example.com
            cn: Grace Hopper
            mail: grace@example.com

            dn: cn=Zoë
            cn: Zoë

            dn: cn=Late
            objectclass: groupOfNames
            cn: Late
            member: cn=Grace Hopper,mail=gr
             ace@example.com
            member: cn=Nobody

            """
        var scan = LDIFMemberScan()
        for part in [text.prefix(100), text.dropFirst(100)] { scan.feed(Data(part.utf8)) }
        let dns = scan.finish()
        #expect(dns == ["cn=ada lovelace,mail=ada@example.com", "cn=zië", "cn=grace hopper,mail=grace@example.com", "cn=nobody"])
        func read(_ reader: LDIFReader) throws -> [InterchangeRecord] {
            var reader = reader
            var records = try reader.feed(text: text).map { try $0.get() }
            records += try reader.finishAll()
            return records
        }
        let told = try read(LDIFReader(memberDNs: dns))
        let all = try read(LDIFReader())
        #expect(told == all)
        let early = try #require(told.first { $0.draft.name == "Early" })
        let late = try #require(told.first { $0.draft.name == "Late" })
        #expect(early.draft.members.count == 1 && late.draft.members.count == 1, "\(early.draft.members) \(late.draft.members)")
    }

    /// A `changetype: add` record holds the whole entry it adds: it reads as that entry.
    @Test func readsAnAddChangeRecordAsTheEntryItAdds() throws {
        let records = try LDIFReader.parse("""
            dn: cn=Ada Lovelace,mail=ada@example.com
            changetype: add
            objectclass: inetOrgPerson
            cn: Ada Lovelace
            mail: ada@example.com

            """)
        #expect(records.map(\.draft.name) == ["Ada Lovelace"])
        #expect(records.first?.draft.emails == [LabeledValue("ada@example.com")])
        #expect(records.first?.draft.extras == [])
    }

    @Test func reportsABrokenLineWithItsNumber() {
        #expect(throws: InterchangeError(line: 3, message: "a continuation line with no attribute before it")) {
            try LDIFReader.parse("version: 1\n\n continued\n")
        }
    }
}
