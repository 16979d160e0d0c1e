import CarnetModels
import Foundation
import Testing

/// First bytes of a JPEG (JFIF) and a PNG: enough for `ImageKind` to recognise them.
private let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46])
private let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52])

/// `date(2026, 11, 23, 8, 55, 7)` in UTC.
private func date(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int, ms: Int = 0) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let base = calendar.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s))!
    return Date(timeIntervalSince1970: (base.timeIntervalSince1970 * 1000 + Double(ms)) / 1000)
}

private func crlf(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: "\r\n") }

@Suite struct InterchangeVCardReaderTests {
    // As macOS Contacts exports (3.0): item groups, TYPE=pref on the second address, X-AB* extras.
    static let apple3 = #"""
        BEGIN:VCARD
        VERSION:3.0
        PRODID:-//Apple Inc.//macOS 14.1//EN
        N:Rogers;Rebecca;;;
        FN:Rebecca Rogers
        ORG:Globaviations;Human Resources
        TITLE:Head of HR
        item1.EMAIL;type=INTERNET:rr@home.example
        item1.X-ABLabel:_$!<Other>!$_
        item2.EMAIL;type=INTERNET;type=pref:rebecca@globaviations.example
        TEL;type=CELL;type=VOICE:+1 555 010 0100
        TEL;type=WORK;type=VOICE;type=pref:+1 (555) 010-0199
        item3.ADR;type=HOME;type=pref:;;1 Infinite Loop;Cupertino;CA;95014;USA
        item3.X-ABADR:us
        PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRg==
        X-ABUID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE:ABPerson
        UID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE
        REV:2023-11-23T08:55:07Z
        END:VCARD

        """#

    // As iCloud writes 4.0: PREF=1, a data: URI photo, grouped labels.
    static let apple4 = #"""
        BEGIN:VCARD
        VERSION:4.0
        PRODID:-//Apple Inc.//iCloud Web Address Book 2315B28//EN
        N:Appleseed;Johnny;;Mr.;
        FN:Johnny Appleseed
        ORG:Apple Inc.;
        TITLE:Orchardist
        item1.EMAIL;TYPE=INTERNET,HOME:johnny@home.example
        item2.EMAIL;PREF=1;TYPE=INTERNET,WORK:johnny@apple.example
        item2.X-ABLabel:work
        TEL;TYPE=CELL;VALUE=uri:tel:+1-408-555-0101
        PHOTO:data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==
        UID:urn:uuid:0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11
        REV:20261123T085507Z
        END:VCARD

        """#

    // As Google Contacts exports (3.0): several EMAIL and TEL without preference, a linked photo,
    // N before FN, escaped colons and commas in properties Carnet ignores.
    static let google = #"""
        BEGIN:VCARD
        VERSION:3.0
        FN:Marc Dupont
        N:Dupont;Marc;;;
        EMAIL;TYPE=INTERNET;TYPE=HOME:marc@home.example
        EMAIL;TYPE=INTERNET;TYPE=WORK:marc@work.example
        TEL;TYPE=CELL:+33 6 12 34 56 78
        TEL;TYPE=WORK:+33 1 23 45 67 89
        ADR;TYPE=HOME:;;12 rue de la Paix;Paris;;75002;France
        ORG:Acme SARL
        TITLE:Ingénieur\, R&D
        item1.URL:https\://marc.example
        item1.X-ABLabel:
        PHOTO:https://lh3.googleusercontent.com/contacts/ABC123=s100
        NOTE:Met at the conference\, 2023\nSecond line
        CATEGORIES:myContacts,Friends
        END:VCARD
        BEGIN:VCARD
        VERSION:3.0
        FN:Zoë Müller
        N:Müller;Zoë;;;
        TEL;TYPE=CELL:+49 151 0000000
        CATEGORIES:myContacts
        END:VCARD

        """#

    // A khard / vdirsyncer single-card file (4.0, UID as urn:uuid, tel: URIs, PREF on the second).
    static let khard = #"""
        BEGIN:VCARD
        VERSION:4.0
        PRODID:-//khard//khard 0.19//EN
        UID:urn:uuid:8e2c7a6f-3b1d-4c59-9b8e-1f0a2d3c4b5e
        FN:Ada Lovelace
        N:Lovelace;Ada;Augusta;Countess;
        EMAIL;TYPE=home:ada@example.org
        EMAIL;PREF=1;TYPE=work:ada@analytical.example
        TEL;TYPE=cell;VALUE=uri:tel:+44-20-7946-0000
        TEL;PREF=2;TYPE=voice;VALUE=uri:tel:+44-20-7946-0001;ext=12
        REV:2026-11-23T08:55:07.250Z
        END:VCARD
        """#

    @Test func readsAppleContacts3() throws {
        let records = try VCardReader.parse(crlf(Self.apple3))
        #expect(records == [
            InterchangeRecord(
                uid: "5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE",
                draft: ContactDraft(
                    name: "Rebecca Rogers", position: "Head of HR, Globaviations", email: "rebecca@globaviations.example",
                    phone: "+1 (555) 010-0199", photo: jpeg),
                updatedAt: date(2023, 11, 23, 8, 55, 7), line: 1),
        ])
        #expect(records[0].draft.issues().isEmpty)
    }

    @Test func readsAppleContacts4() throws {
        let records = try VCardReader.parse(Self.apple4)
        #expect(records == [
            InterchangeRecord(
                uid: "0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11",
                draft: ContactDraft(
                    name: "Johnny Appleseed", position: "Orchardist, Apple Inc.", email: "johnny@apple.example",
                    phone: "+1-408-555-0101", photo: png),
                updatedAt: date(2026, 11, 23, 8, 55, 7), line: 1),
        ])
    }

    @Test func readsGoogleContactsKeepingTheFirstOfSeveralWithoutPreference() throws {
        let records = try VCardReader.parse(crlf(Self.google))
        #expect(records.count == 2)
        #expect(records[0] == InterchangeRecord(
            uid: nil,
            draft: ContactDraft(
                name: "Marc Dupont", position: "Ingénieur, R&D, Acme SARL", email: "marc@home.example",
                phone: "+33 6 12 34 56 78", photo: nil),
            updatedAt: nil, line: 1))
        #expect(records[1] == InterchangeRecord(draft: ContactDraft(name: "Zoë Müller", phone: "+49 151 0000000"), line: 18))
    }

    @Test func readsKhardVdirCard() throws {
        let records = try VCardReader.parse(Self.khard)
        #expect(records == [
            InterchangeRecord(
                uid: "8e2c7a6f-3b1d-4c59-9b8e-1f0a2d3c4b5e",
                draft: ContactDraft(name: "Ada Lovelace", email: "ada@analytical.example", phone: "+44-20-7946-0001"),
                updatedAt: date(2026, 11, 23, 8, 55, 7, ms: 250), line: 1),
        ])
    }

    @Test func readsAndroidVCard21WithQuotedPrintableAndBareParameters() throws {
        let text = """
            BEGIN:VCARD
            VERSION:2.1
            N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D0=98=D0=B2=D0=B0=D0=BD=D0=BE=D0=B2;=D0=98=D0=B2=D0=B0=D0=BD;;;
            FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=D0=98=D0=B2=D0=B0=D0=BD =D0=98=D0=B2=D0=B0=
            =D0=BD=D0=BE=D0=B2
            TEL;CELL:+7 900 000-00-01
            TEL;CELL;PREF:+7 900 000-00-00
            TITLE;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:Ing=E9nieur
            PHOTO;ENCODING=BASE64;JPEG:/9j/4AAQ
             SkZJRg==

            END:VCARD
            """
        let records = try VCardReader.parse(crlf(text))
        #expect(records.map(\.draft) == [
            ContactDraft(name: "Иван Иванов", position: "Ingénieur", phone: "+7 900 000-00-00", photo: jpeg),
        ])
    }

    @Test func buildsTheNameFromNWhenFNIsMissing() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            N:Lovelace;Ada;Augusta;Countess;FRS
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            FN:
            N:Cher;;;;
            END:VCARD
            """
        #expect(try VCardReader.parse(text).map(\.draft.name) == ["Countess Ada Augusta Lovelace FRS", "Cher"])
    }

    @Test func unescapesValuesAndIgnoresCaseOfNamesAndParameters() throws {
        let text = #"""
            begin:vcard
            version:4.0
            fn:Smith\, John\; Jr. \\ the \N first
            title:VP\, Sales
            org:Acme\, Inc.;Sales
            email;pref=1:john@example.com
            end:vcard
            """#
        let record = try #require(try VCardReader.parse(text).first)
        #expect(record.draft.name == "Smith, John; Jr. \\ the \n first")
        #expect(record.draft.position == "VP, Sales, Acme, Inc.")
        #expect(record.draft.email == "john@example.com")
    }

    @Test func unfoldsLinesFoldedWithSpacesOrTabs() throws {
        let text = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Jean-Baptiste Emman\r\n uel Zorg\r\nEMAIL:jb@\r\n\texample.com\r\nEND:VCARD\r\n"
        let record = try #require(try VCardReader.parse(text).first)
        #expect(record.draft.name == "Jean-Baptiste Emmanuel Zorg")
        #expect(record.draft.email == "jb@example.com")
    }

    @Test func unfoldsAFoldThatSplitsAMultiByteCharacter() throws {
        // "Zoë" with the fold between the two bytes of "ë" (C3 AB), as careless writers do.
        var bytes = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Zo".utf8)
        bytes += [0xC3, 0x0D, 0x0A, 0x20, 0xAB]
        bytes += Array(" Müller\r\nEND:VCARD\r\n".utf8)
        #expect(try VCardReader.parse(Data(bytes)).map(\.draft.name) == ["Zoë Müller"])
    }

    @Test func acceptsPhotosInEverySyntaxAndIgnoresLinks() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            FN:A
            PHOTO;VALUE=uri:data:image/jpeg;base64,/9j/4AAQSkZJRg==
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            FN:B
            PHOTO;TYPE=PNG;ENCODING=B:iVBORw0KGgoAAAANSUhEUg
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            FN:C
            PHOTO;MEDIATYPE=image/jpeg:https://example.com/c.jpg
            END:VCARD
            """
        #expect(try VCardReader.parse(text).map(\.draft.photo) == [jpeg, png, nil])
    }

    @Test func streamsEachCardWhenItsEndArrives() throws {
        var reader = VCardReader()
        var yielded: [(Int, String)] = []
        for (index, line) in Self.google.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if let record = try reader.feed(line: String(line) + "\r") {
                yielded.append((index + 1, record.draft.name))
            }
        }
        try reader.finish()
        #expect(yielded.map(\.0) == [17, 24])
        #expect(yielded.map(\.1) == ["Marc Dupont", "Zoë Müller"])
    }

    @Test func chunksMayEndAnywhereEvenInsideACharacter() throws {
        let data = Data(crlf(Self.google + Self.apple3 + Self.khard).utf8)
        let expected = try VCardReader.parse(data)
        #expect(expected.count == 4)
        for size in [1, 2, 3, 7, 64] {
            var reader = VCardReader()
            var records: [InterchangeRecord] = []
            var start = 0
            while start < data.count {
                let end = min(data.count, start + size)
                records += try reader.feed(data.subdata(in: start..<end)).map { try $0.get() }
                start = end
            }
            if let last = try reader.finish() { records.append(last) }
            #expect(records == expected, "chunk size \(size)")
        }
    }

    @Test func aLastLineWithoutLineBreakIsRead() throws {
        #expect(try VCardReader.parse("BEGIN:VCARD\nFN:A\nEND:VCARD").map(\.draft.name) == ["A"])
        #expect(try VCardReader.parse("\u{FEFF}BEGIN:VCARD\nFN:B\nEND:VCARD\n").map(\.draft.name) == ["B"])
    }

    @Test func rejectsAMissingEnd() {
        #expect(throws: InterchangeError(line: 4, message: "this card has no END:VCARD (the file ends inside it)")) {
            try VCardReader.parse("BEGIN:VCARD\nFN:A\nEND:VCARD\nBEGIN:VCARD\nFN:B\n")
        }
        #expect(throws: InterchangeError(line: 3, message: "BEGIN:VCARD inside the card that began at line 1 (is its END:VCARD missing?)")) {
            try VCardReader.parse("BEGIN:VCARD\nFN:A\nBEGIN:VCARD\nFN:B\nEND:VCARD\n")
        }
    }

    @Test func rejectsPropertiesOutsideACardAndStrayEnds() {
        #expect(throws: InterchangeError(line: 4, message: #"expected BEGIN:VCARD, found "FN:Stray" outside a card"#)) {
            try VCardReader.parse("BEGIN:VCARD\nFN:A\nEND:VCARD\nFN:Stray\n")
        }
        #expect(throws: InterchangeError(line: 2, message: #"expected BEGIN:VCARD, found "END:VCARD" outside a card"#)) {
            try VCardReader.parse("\nEND:VCARD\n")
        }
        #expect(throws: InterchangeError(line: 1, message: #"expected BEGIN:VCARD, found "BEGIN:VCALENDAR" outside a card"#)) {
            try VCardReader.parse("BEGIN:VCALENDAR\n")
        }
    }

    @Test func rejectsGarbageLinesInsideACard() {
        #expect(throws: InterchangeError(line: 3, message: #"expected a property (NAME:value), found "this is not a property""#)) {
            try VCardReader.parse("BEGIN:VCARD\nFN:A\nthis is not a property\nEND:VCARD\n")
        }
        #expect(throws: InterchangeError(line: 2, message: "EMAIL: a quoted parameter value is not closed")) {
            try VCardReader.parse("BEGIN:VCARD\nEMAIL;TYPE=\"work:a@b.c\nEND:VCARD\n")
        }
    }

    @Test func rejectsBadBase64AtTheLineWhereThePhotoStarts() {
        let text = "BEGIN:VCARD\nVERSION:3.0\nFN:A\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ\n SkZ*Rg==\nEND:VCARD\n"
        #expect(throws: InterchangeError(line: 4, message: "PHOTO: the inline image is not valid base64")) {
            try VCardReader.parse(text)
        }
        #expect(throws: InterchangeError(line: 2, message: "PHOTO: the data: URI is not valid base64")) {
            try VCardReader.parse("BEGIN:VCARD\nPHOTO:data:image/png;base64,@@@@\nFN:A\nEND:VCARD\n")
        }
    }

    @Test func goesOnAfterABrokenCard() throws {
        let text = "BEGIN:VCARD\nFN:A\nnonsense\nFN:still A\nEND:VCARD\nBEGIN:VCARD\nFN:B\nEND:VCARD\n"
        var reader = VCardReader()
        let results = reader.feed(text: text)
        try reader.finish()
        #expect(results.count == 2)
        #expect(throws: InterchangeError.self) { try results[0].get() }
        #expect(try results[1].get().draft.name == "B")
        #expect(try results[1].get().line == 6)
    }

    @Test func ignoresUnknownPropertiesAndAnUnreadableRev() throws {
        let text = "BEGIN:VCARD\nX-SOCIALPROFILE;type=twitter:x\nBDAY:--0203\nREV:yesterday\nFN:A\nEND:VCARD\n"
        #expect(try VCardReader.parse(text) == [InterchangeRecord(draft: ContactDraft(name: "A"), line: 1)])
    }
}

@Suite struct InterchangeVCardWriterTests {
    static let uid = "0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11"
    static let updated = date(2026, 11, 23, 8, 55, 7)
    static let draft = ContactDraft(
        name: "Rebecca Rogers", position: "Head of HR, Globaviations", email: "rebecca@example.com",
        phone: "+1 (555) 010-0199", photo: jpeg)

    @Test func writesVersion4() {
        let card = VCardWriter.card(uid: Self.uid, draft: Self.draft, updatedAt: Self.updated, version: .v4)
        #expect(card == crlf("""
            BEGIN:VCARD
            VERSION:4.0
            PRODID:-//Carnet//Carnet//EN
            UID:urn:uuid:0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11
            FN:Rebecca Rogers
            N:Rogers;Rebecca;;;
            TITLE:Head of HR
            ORG:Globaviations
            EMAIL:rebecca@example.com
            TEL;VALUE=text:+1 (555) 010-0199
            PHOTO:data:image/jpeg;base64,/9j/4AAQSkZJRg==
            REV:20261123T085507Z
            END:VCARD

            """))
    }

    @Test func writesVersion3() {
        let card = VCardWriter.card(uid: "carnet-42", draft: Self.draft, updatedAt: Self.updated, version: .v3)
        #expect(card == crlf("""
            BEGIN:VCARD
            VERSION:3.0
            PRODID:-//Carnet//Carnet//EN
            UID:carnet-42
            FN:Rebecca Rogers
            N:Rogers;Rebecca;;;
            TITLE:Head of HR
            ORG:Globaviations
            EMAIL:rebecca@example.com
            TEL:+1 (555) 010-0199
            PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRg==
            REV:20261123T085507Z
            END:VCARD

            """))
    }

    @Test func leavesOutEmptyFieldsAndKeepsAPositionWithoutCommaAsTitle() {
        let card = VCardWriter.card(uid: nil, draft: ContactDraft(name: "Cher", position: "Singer"), updatedAt: nil, version: .v4)
        #expect(card == "BEGIN:VCARD\r\nVERSION:4.0\r\nPRODID:-//Carnet//Carnet//EN\r\nFN:Cher\r\nN:Cher;;;;\r\nTITLE:Singer\r\nEND:VCARD\r\n")
    }

    @Test func splitsThePositionAtTheFirstCommaSpace() {
        #expect(VCardWriter.split(position: "VP, Sales, Acme") == ("VP", "Sales, Acme"))
        #expect(VCardWriter.split(position: "Engineer") == ("Engineer", ""))
        #expect(VCardWriter.split(position: "R&D,Acme") == ("R&D,Acme", ""))
        #expect(VCardWriter.split(position: ", Acme") == (", Acme", ""))
    }

    @Test func escapesTextValues() {
        let draft = ContactDraft(name: #"Smith, John; Jr. \ the"#, position: "A;B, C,D")
        let card = VCardWriter.card(uid: nil, draft: draft, updatedAt: nil, version: .v4)
        #expect(card.contains(#"FN:Smith\, John\; Jr. \\ the"# + "\r\n"))
        #expect(card.contains(#"N:the;Smith\, John\; Jr. \\;;;"# + "\r\n"))
        #expect(card.contains(#"TITLE:A\;B"# + "\r\n"))
        #expect(card.contains(#"ORG:C\,D"# + "\r\n"))
    }

    @Test(arguments: VCardVersion.allCases) func foldsAt75OctetsWithoutSplittingACharacter(version: VCardVersion) throws {
        let name = String(repeating: "é", count: 50) + " " + String(repeating: "日本", count: 30) + " 😀😀😀"
        let photo = jpeg + Data((0..<300).map { UInt8($0 % 256) })
        let card = VCardWriter.card(uid: nil, draft: ContactDraft(name: name, photo: photo), updatedAt: nil, version: version)
        let bytes = Array(card.utf8)
        var lines: [[UInt8]] = [[]]
        var i = 0
        while i < bytes.count {
            if bytes[i] == 13 {
                #expect(bytes[i + 1] == 10, "a CR must be followed by LF")
                lines.append([])
                i += 2
            } else {
                #expect(bytes[i] != 10, "bare LF")
                lines[lines.count - 1].append(bytes[i])
                i += 1
            }
        }
        #expect(lines.last == [])
        lines.removeLast()
        #expect(lines.count > 10)
        for line in lines {
            #expect(line.count <= 75)
            #expect(String(validating: line, as: UTF8.self) != nil, "a line splits a character")
        }
        let record = try #require(try VCardReader.parse(card).first)
        #expect(record.draft.name == name)
        #expect(record.draft.photo == photo)
    }

    @Test(arguments: VCardVersion.allCases) func roundTripsByteForByte(version: VCardVersion) throws {
        let drafts = [
            Self.draft,
            ContactDraft(name: "Zoë Müller-Lüdenscheidt", position: "Ingénieure, R&D; Labs, Acme, Inc.", phone: "+49 151 0000000", photo: png),
            ContactDraft(name: "Multi\nLine, Name; \\ odd", position: "CTO"),
            ContactDraft(name: "Only Name"),
        ]
        let uids: [String?] = [Self.uid, "not-a-uuid: x,y;z", nil, "urn:uuid:weird"]
        var file = ""
        for (draft, uid) in zip(drafts, uids) {
            file += VCardWriter.card(uid: uid, draft: draft, updatedAt: Self.updated, version: version)
        }
        let records = try VCardReader.parse(file)
        #expect(records.map(\.draft) == drafts)
        #expect(records.allSatisfy { $0.updatedAt == Self.updated })
        let again = records.map { VCardWriter.card($0, version: version) }.joined()
        #expect(again == file)
        #expect(records.map(\.uid) == uids)
    }

    @Test(arguments: VCardVersion.allCases) func readsAPhotoOfTheLargestAllowedSizeQuickly(version: VCardVersion) throws {
        let photo = jpeg + Data((0..<(Limits.photoBytes - jpeg.count)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let card = VCardWriter.card(uid: nil, draft: ContactDraft(name: "Big", photo: photo), updatedAt: nil, version: version)
        let started = Date()
        let records = try VCardReader.parse(card)
        #expect(records.map(\.draft.photo) == [photo])
        #expect(Date().timeIntervalSince(started) < 10, "unfolding must not copy the line for every fold")
    }

    @Test func writesAContactWithItsUidAndRevisionToTheSecond() throws {
        let contact = Contact(
            id: 7, uid: Self.uid, name: "A B", position: "", email: "", phone: "", photo: nil,
            createdAt: Self.updated, updatedAt: date(2026, 11, 23, 8, 55, 7, ms: 999), version: 3)
        let card = VCardWriter.card(contact: contact, version: .v3)
        #expect(card.contains("UID:\(Self.uid)\r\n"))
        #expect(card.contains("REV:20261123T085507Z\r\n"))
    }
}
