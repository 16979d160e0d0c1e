import CarnetInterchange
import CarnetModels
import Foundation
import Testing

@Suite struct InterchangeCSVTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46])
    /// 2026-11-23T08:55:07.123Z
    static let updated = Date(timeIntervalSince1970: 1_795_424_107_123 / 1000)

    static let records = [
        InterchangeRecord(
            uid: "0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11",
            draft: ContactDraft(
                name: "Rebecca Rogers", position: "Head of HR, Globaviations", email: "rebecca@example.com",
                phone: "+1 (555) 010-0199", photo: jpeg),
            updatedAt: updated, line: 2),
        InterchangeRecord(
            uid: nil, draft: ContactDraft(name: "Dwayne \"The Rock\" Johnson", position: "Actor\nProducer"),
            updatedAt: nil, line: 3),
        InterchangeRecord(uid: "x", draft: ContactDraft(name: "Zoë"), updatedAt: updated, line: 5),
    ]

    static let header = """
        uid,name,prefix,given,additional,family,suffix,nickname,pronouns,gender,organization,department,title,role,emails,phones,\
        addresses,urls,handles,dates,note,categories,expertise,hobbies,interests,photo,extras,updated_at\r\n
        """

    @Test func theHeaderIsTheFieldKeys() {
        #expect(CSVWriter.header == Self.header)
        #expect(CSVColumn.all.dropFirst().dropLast().map(\.name) == ContactFields.all.map(\.key))
    }

    @Test func writesDeterministicallyQuotingOnlyWhenNeeded() {
        let text = Self.records.map(CSVWriter.row).joined()
        #expect(text == """
            0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11,Rebecca Rogers,,,,,,,,,Globaviations,,Head of HR,,pref:rebecca@example.com,pref:+1 (555) 010-0199,,,,,,,,,,/9j/4AAQSkZJRg==,,2026-11-23T08:55:07.123Z\r
            ,"Dwayne ""The Rock"" Johnson",,,,,,,,,,,"Actor
            Producer",,,,,,,,,,,,,,,\r
            x,Zoë,,,,,,,,,,,,,,,,,,,,,,,,,,2026-11-23T08:55:07.123Z\r

            """)
    }

    @Test func roundTripsByteForByte() throws {
        let text = CSVWriter.header + Self.records.map(CSVWriter.row).joined()
        let parsed = try CSVReader.parse(text)
        #expect(parsed == Self.records)
        #expect(CSVWriter.header + parsed.map(CSVWriter.row).joined() == text)
    }

    @Test func writesEveryFieldOfARichContactOneListEntryPerLine() throws {
        let row = CSVWriter.row(RichContact.record)
        #expect(row == """
            0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11,"Dr. Augusta Ada King, Countess of Lovelace",Dr.,Augusta Ada,,King,\
            Countess of Lovelace,Ada,,,"Analytical Engines, Ltd.",Research;Notes,Mathematician,Author,"work,pref:ada@example.com
            home:ada@home.example
            Lab,old:countess@example.org
            plain@example.org","cell,pref:+44 20 7946 0000
            home,fax:+44 20 7946 0001
            Assistant line:+44 20 7946 0002","home,pref:12 St James's Square; London; ; SW1Y 4JH; United Kingdom
            Summer house:Ockham Park; Ockham; Surrey; GU23 6NP; UK; Flat 2\\; rear; PO Box 7","work:https://example.com/ada?a=1,b=2
            https://ada.example","skype,pref:ada
            mastodon:@ada@example.social
            xmpp:ada@jabber.example","birthday:1815-12-10
            anniversary:--07-08
            graduation:1833-06-05","First line
            Second; with, punctuation \\ and a backslash","friends
            Mathematicians, famous",,,,/9j/4AAQSkZJRg==,"item1.X-ABRELATEDNAMES:William King
            item1.X-ABLabel:_$!<Spouse>!$_
            X-SOMETHING;X-PARAM=""a:b"":value",2026-11-23T08:55:07.000Z\r\n
            """)
        let file = CSVWriter.header + row
        let records = try CSVReader.parse(file)
        #expect(records == [InterchangeRecord(uid: RichContact.uid, draft: RichContact.draft, updatedAt: RichContact.updated, line: 2)])
        #expect(CSVWriter.header + records.map(CSVWriter.row).joined() == file)
    }

    @Test func readsFilesOfTheFirstSchema() throws {
        let text = """
            uid,name,position,email,phone,photo,updated_at\r
            u1,Rebecca Rogers,"Head of HR, Globaviations",rebecca@example.com,+1 (555) 010-0199,,2026-11-23T08:55:07.123Z\r
            ,Tyler Porter,Software developer,,,,\r

            """
        let records = try CSVReader.parse(text)
        #expect(records.map(\.draft) == [
            ContactDraft(
                name: "Rebecca Rogers", organization: "Globaviations", title: "Head of HR",
                emails: [LabeledValue("rebecca@example.com", preferred: true)],
                phones: [LabeledValue("+1 (555) 010-0199", preferred: true)]),
            ContactDraft(name: "Tyler Porter", title: "Software developer"),
        ])
        #expect(records.map(\.uid) == ["u1", nil])
    }

    @Test func readsHandWrittenListCellsAndNamesFromParts() throws {
        let text = """
            given,family,emails,phones,dates,categories
            Ada,Lovelace,"work,pref:ada@example.com
            ada@home.example",cell:+44 20 7946 0000,"birthday:1815-12-10
            anniversary:--07-08",friends

            """
        let record = try #require(try CSVReader.parse(text).first)
        #expect(record.draft.nameParts == PersonName(given: "Ada", family: "Lovelace"))
        #expect(record.draft.normalized().name == "Ada Lovelace")
        #expect(record.draft.emails == [LabeledValue("ada@example.com", label: "work", preferred: true), LabeledValue("ada@home.example")])
        #expect(record.draft.phones == [LabeledValue("+44 20 7946 0000", label: "cell")])
        #expect(record.draft.dates == [ContactDate(label: "birthday", year: 1815, month: 12, day: 10), ContactDate(label: "anniversary", month: 7, day: 8)])
        #expect(record.draft.categories == ["friends"])
        #expect(record.draft.issues().isEmpty)
    }

    @Test func reportsAnEntryThatCannotBeReadWithItsColumn() {
        #expect(throws: InterchangeError(line: 2, message: "dates: \"soon\" is not a date like 1815-12-10, or --12-10 without a year")) {
            try CSVReader.parse("name,dates\nA,birthday:soon\n")
        }
        #expect(throws: InterchangeError.self) { try CSVReader.parse("name,addresses\nA,1;2;3;4;5;6;7;8\n") }
    }

    @Test func writesAContact() {
        let contact = Contact(
            id: 1, uid: "u", name: "A, B", position: "", email: "", phone: "", photo: nil,
            createdAt: Self.updated, updatedAt: Self.updated, version: 1)
        #expect(CSVWriter.row(contact: contact) == "u,\"A, B\",,,,,,,,,,,,,,,,,,,,,,,,,,2026-11-23T08:55:07.123Z\r\n")
    }

    @Test func readsEmbeddedCommasQuotesAndLineBreaksTrackingTheStartLine() throws {
        let text = """
            name,position
            "Smith, John","He said ""hi""
            and left"
            Plain,"multi

            blank"
            "",""
            """
        let records = try CSVReader.parse(text)
        #expect(records.map(\.draft.name) == ["Smith, John", "Plain", ""])
        #expect(records.map(\.draft.position) == ["He said \"hi\"\nand left", "multi\n\nblank", ""])
        #expect(records.map(\.line) == [2, 4, 7])
    }

    @Test func matchesColumnsByNameInAnyCaseAndOrderIgnoringUnknownOnes() throws {
        let text = "\u{FEFF}Email, Name ,Notes,UpdatedAt,UID\r\nann@example.com,Ann,likes tea,2026-11-23T08:55:07.123+00:00,\r\n"
        #expect(try CSVReader.parse(text) == [
            InterchangeRecord(draft: ContactDraft(name: "Ann", email: "ann@example.com"), updatedAt: Self.updated, line: 2),
        ])
    }

    @Test func streamsLineByLine() throws {
        let lines = ["name,phone", "A,1", "\"B", "still B\",2", "", "C,3"]
        var reader = CSVReader()
        var yielded: [Int?] = []
        for line in lines { yielded.append(try reader.feed(line: line)?.line) }
        try reader.finish()
        #expect(yielded == [nil, 2, nil, 3, nil, 6])
    }

    @Test func chunksMayEndAnywhere() throws {
        let data = Data((CSVWriter.header + Self.records.map(CSVWriter.row).joined()).utf8)
        for size in [1, 5, 33] {
            #expect(try recordsRead(CSVReader.self, data, inChunksOf: size) == Self.records, "chunk size \(size)")
        }
    }

    @Test func readsWindows1252WhenTheFileIsNotUTF8() throws {
        let data = Data("name\n".utf8) + Data([0x52, 0x65, 0x6E, 0xE9, 0x20, 0x80, 0x0A])
        #expect(try CSVReader.parse(data).map(\.draft.name) == ["René €"])
    }

    @Test func requiresANameColumn() {
        #expect(throws: InterchangeError(
            line: 1,
            message: #"the header has no "name" column (Carnet's columns are "# + Self.header.dropLast() + ")")
        ) {
            try CSVReader.parse("uid,email\nx,a@b.c\n")
        }
        #expect(throws: InterchangeError(line: 2, message: #"the header names the column "name" twice"#)) {
            try CSVReader.parse("\nname,NAME\n")
        }
        #expect(throws: InterchangeError.self) { try CSVReader.parse("") }
    }

    /// A row that breaks the syntax is refused with its line and what is wrong.
    @Test(arguments: [
        ("name,position\nA,B\nC,\"D\nE,F\nG,H\n", 3, "a quoted field opened here is never closed (missing \")"),
        ("name,email\nA,a@b.c\nB,b@c.d,extra\n", 3, "expected 2 fields as in the header, found 3"),
        ("name,email\nA\n", 2, "expected 2 fields as in the header, found 1"),
        ("name\n\"A\"B\n", 2, "unexpected text after a closing quote (a quote inside a quoted field is written \"\")"),
        ("name,photo\nA,not base64!\n", 2, "photo is not valid base64"),
        ("name,updated_at\nA,last tuesday\n", 2, #"updated_at "last tuesday" is not a date (write it like 2026-11-23T08:55:07.123Z)"#),
    ])
    func refusesABadRowWithItsLineAndReason(text: String, line: Int, message: String) {
        #expect(throws: InterchangeError(line: line, message: message)) { try CSVReader.parse(text) }
    }

    @Test func goesOnAfterABadRow() throws {
        let results = try resultsGoingOnAfterTheFirst(CSVReader.self, "name,email\nA\nB,b@c.d\n")
        #expect(try results[1].get().draft.name == "B")
    }
}
