import CarnetInterchange
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
        let expected = ContactDraft(
            name: "Rebecca Rogers", nameParts: PersonName(given: "Rebecca", family: "Rogers"),
            organization: "Globaviations", department: "Human Resources", title: "Head of HR",
            emails: [
                LabeledValue("rr@home.example", label: "other"),
                LabeledValue("rebecca@globaviations.example", preferred: true),
            ],
            phones: [
                LabeledValue("+1 555 010 0100", label: "cell,voice"), LabeledValue("+1 (555) 010-0199", label: "work,voice", preferred: true),
            ],
            addresses: [
                PostalAddress(
                    label: "home", street: "1 Infinite Loop", locality: "Cupertino", region: "CA", postalCode: "95014",
                    country: "USA", preferred: true),
            ],
            photo: jpeg,
            extras: ["item3.X-ABADR:us", "X-ABUID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE:ABPerson"])
        #expect(records.map(\.withRefusalsOnly) == [
            InterchangeRecord(
                uid: "5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE", draft: expected, updatedAt: date(2023, 11, 23, 8, 55, 7), line: 1),
        ])
        #expect(records[0].draft.issues().isEmpty)
    }

    @Test func readsAppleContacts4() throws {
        let records = try VCardReader.parse(Self.apple4)
        let expected = ContactDraft(
            name: "Johnny Appleseed", nameParts: PersonName(prefix: "Mr.", given: "Johnny", family: "Appleseed"),
            organization: "Apple Inc.", title: "Orchardist",
            emails: [
                LabeledValue("johnny@home.example", label: "home"),
                LabeledValue("johnny@apple.example", label: "work", preferred: true),
            ],
            phones: [LabeledValue("+1-408-555-0101", label: "cell")], photo: png)
        #expect(records == [
            InterchangeRecord(
                uid: "urn:uuid:0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11", draft: expected, updatedAt: date(2026, 11, 23, 8, 55, 7), line: 1),
        ])
    }

    @Test func readsGoogleContactsKeepingLinksAndEmptyLabels() throws {
        let records = try VCardReader.parse(crlf(Self.google))
        #expect(records.count == 2)
        let marc = records[0].draft
        #expect(marc.nameParts == PersonName(given: "Marc", family: "Dupont"))
        #expect(marc.emails == [LabeledValue("marc@home.example", label: "home"), LabeledValue("marc@work.example", label: "work")])
        #expect(marc.phones == [LabeledValue("+33 6 12 34 56 78", label: "cell"), LabeledValue("+33 1 23 45 67 89", label: "work")])
        #expect(marc.addresses == [
            PostalAddress(label: "home", street: "12 rue de la Paix", locality: "Paris", postalCode: "75002", country: "France"),
        ])
        #expect(marc.organization == "Acme SARL" && marc.title == "Ingénieur, R&D" && marc.department.isEmpty)
        #expect(marc.urls == [LabeledValue("https://marc.example")])
        #expect(marc.note == "Met at the conference, 2023\nSecond line")
        #expect(marc.categories == ["myContacts", "Friends"])
        #expect(marc.photo == nil)
        // A blank label says nothing, and a photo that is a link is not an image: both kept as written.
        #expect(marc.extras == ["item1.X-ABLabel:", "PHOTO:https://lh3.googleusercontent.com/contacts/ABC123=s100"])
        #expect(records[0].refusals == [
            InterchangeNote(
                line: 14, message: "PHOTO:https://lh3.googleusercontent.com/contacts/ABC123=s100 kept as an unmodelled property: it is a link, not an image"),
        ])
        #expect(records[1] == InterchangeRecord(
            draft: ContactDraft(
                name: "Zoë Müller", nameParts: PersonName(given: "Zoë", family: "Müller"),
                phones: [LabeledValue("+49 151 0000000", label: "cell")], categories: ["myContacts"]),
            line: 18))
    }

    @Test func readsKhardVdirCardKeepingAPhoneWithAnExtensionVerbatim() throws {
        let records = try VCardReader.parse(Self.khard)
        let expected = ContactDraft(
            name: "Ada Lovelace", nameParts: PersonName(prefix: "Countess", given: "Ada", additional: "Augusta", family: "Lovelace"),
            emails: [LabeledValue("ada@example.org", label: "home"), LabeledValue("ada@analytical.example", label: "work", preferred: true)],
            phones: [LabeledValue("+44-20-7946-0000", label: "cell")],
            extras: ["TEL;PREF=2;TYPE=voice;VALUE=uri:tel:+44-20-7946-0001;ext=12"])
        #expect(records.map(\.draft) == [expected])
        #expect(records.map(\.uid) == ["urn:uuid:8e2c7a6f-3b1d-4c59-9b8e-1f0a2d3c4b5e"])
        #expect(records.map(\.updatedAt) == [date(2026, 11, 23, 8, 55, 7, ms: 250)])
        #expect(records[0].notes.map(\.line) == [10])
        #expect(records[0].draft.issues().isEmpty)
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
            TEL;WORK;VOICE:+7 495 000-00-00
            TITLE;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:Ing=E9nieur
            PHOTO;ENCODING=BASE64;JPEG:/9j/4AAQ
             SkZJRg==

            END:VCARD
            """
        let records = try VCardReader.parse(crlf(text))
        #expect(records.map(\.draft) == [
            ContactDraft(
                name: "Иван Иванов", nameParts: PersonName(given: "Иван", family: "Иванов"), title: "Ingénieur",
                phones: [
                    LabeledValue("+7 900 000-00-01", label: "cell"), LabeledValue("+7 900 000-00-00", label: "cell", preferred: true),
                    LabeledValue("+7 495 000-00-00", label: "work,voice"),
                ],
                photo: jpeg),
        ])
    }

    @Test func readsLabelsFromEveryTypeForm() throws {
        let text = #"""
            BEGIN:VCARD
            VERSION:3.0
            FN:Labels
            TEL;CELL:1
            TEL;TYPE=WORK,VOICE:2
            TEL;type=HOME;type=FAX:3
            TEL;VOICE:4
            TEL;TYPE=X-NEC-SECRET:5
            TEL;TYPE=mobile:6
            item1.TEL:7
            item1.X-ABLabel:_$!<Mobile>!$_
            item2.TEL;type=WORK:8
            item2.X-ABLabel:Night line
            EMAIL;INTERNET:a@example.com
            EMAIL;TYPE=INTERNET,HOME:b@example.com
            item3.EMAIL;type=INTERNET:c@example.com
            item3.X-ABLabel:_$!<Other>!$_
            ADR;TYPE=intl;TYPE=postal;TYPE=WORK:;;1 Road;Town;;;
            URL;TYPE=HOME:https://home.example
            END:VCARD
            """#
        let draft = try #require(try VCardReader.parse(text).first).draft
        #expect(draft.phones.map(\.label) == ["cell", "work,voice", "home,fax", "voice", "X-NEC-SECRET", "cell", "cell", "Night line"])
        #expect(draft.emails.map(\.label) == ["", "home", "other"])
        #expect(draft.addresses.map(\.label) == ["intl,postal,work"])
        #expect(draft.urls.map(\.label) == ["home"])
        #expect(draft.extras.isEmpty)
    }

    @Test func marksTheMostPreferredEntryOfEachList() throws {
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            FN:Pref
            EMAIL;PREF=2:two@example.com
            EMAIL;PREF=1:one@example.com
            EMAIL;PREF=1:also-one@example.com
            TEL;TYPE=pref:1
            TEL;TYPE=pref:2
            TEL:3
            URL:https://none.example
            END:VCARD
            """
        let draft = try #require(try VCardReader.parse(text).first).draft
        #expect(draft.emails.map(\.preferred) == [false, true, false])
        #expect(draft.phones.map(\.preferred) == [true, false, false])
        #expect(draft.urls.map(\.preferred) == [false])
        #expect(draft.issues().isEmpty)
    }

    @Test func readsDatesInEveryForm() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            FN:Dates
            BDAY:--0415
            ANNIVERSARY:19960415
            X-ANNIVERSARY:1990-04-30
            item1.X-ABDATE;type=pref:2001-01-01
            item1.X-ABLabel:_$!<Anniversary>!$_
            item2.X-ABDATE:2010-05-06
            item2.X-ABLabel:Graduation
            X-ABDATE:1776-07-04
            BDAY;X-APPLE-OMIT-YEAR=1604:1604-03-15
            BDAY;value=date:1985-01-28T00:00:00Z
            BDAY;VALUE=text:circa 1800
            BDAY:2023-02-30
            BDAY:1985-01-28T10:30:00Z
            END:VCARD
            """
        let record = try #require(try VCardReader.parse(text).first)
        #expect(record.draft.dates == [
            ContactDate(label: "birthday", month: 4, day: 15),
            ContactDate(label: "anniversary", year: 1996, month: 4, day: 15),
            ContactDate(label: "anniversary", year: 1990, month: 4, day: 30),
            ContactDate(label: "anniversary", year: 2001, month: 1, day: 1),
            ContactDate(label: "Graduation", year: 2010, month: 5, day: 6),
            ContactDate(label: "", year: 1776, month: 7, day: 4),
            ContactDate(label: "birthday", month: 3, day: 15),
            ContactDate(label: "birthday", year: 1985, month: 1, day: 28),
        ])
        // The forms Carnet's dates cannot say are kept, to be written back while the date holds.
        // (Here the first birthday and anniversary came as written, so no form is kept for them.)
        #expect(record.draft.extras == ["BDAY;VALUE=text:circa 1800", "BDAY:2023-02-30", "BDAY:1985-01-28T10:30:00Z"])
        #expect(record.refusals.map(\.line) == [14, 15, 16])
        #expect(record.draft.issues().isEmpty)
    }

    @Test func namesACardWithoutFNFromNThenOrganizationThenEmailThenPhone() throws {
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
            BEGIN:VCARD
            N:;;;;
            ORG:Acme;Sales
            EMAIL:info@acme.example
            END:VCARD
            BEGIN:VCARD
            EMAIL;PREF:only@example.com
            CATEGORIES:My Contacts
            END:VCARD
            BEGIN:VCARD
            TEL:+1 555 0100
            END:VCARD
            """
        let records = try VCardReader.parse(text)
        #expect(records.map(\.draft.name) == [
            "Countess Ada Augusta Lovelace FRS", "Cher", "Acme", "only@example.com", "+1 555 0100",
        ])
        #expect(records[0].draft.nameParts == PersonName(prefix: "Countess", given: "Ada", additional: "Augusta", family: "Lovelace", suffix: "FRS"))
        #expect(records[1].draft.extras == ["FN:"])
        #expect(records.allSatisfy { $0.draft.issues().isEmpty })
    }

    @Test func keepsFNAndNAsGivenAndNeverGuessesNFromFN() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            FN:Dr. John Q. Appleseed Jr.
            N:Appleseed;John;Q.;Dr.;Jr.
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            FN:John Appleseed
            N:Appleseed;Johnny;;;
            END:VCARD
            BEGIN:VCARD
            VERSION:3.0
            FN:Maria José García López
            END:VCARD
            """
        let drafts = try VCardReader.parse(text).map(\.draft)
        #expect(drafts[0].name == "Dr. John Q. Appleseed Jr.")
        #expect(drafts[0].nameParts == PersonName(prefix: "Dr.", given: "John", additional: "Q.", family: "Appleseed", suffix: "Jr."))
        #expect(drafts[1].name == "John Appleseed" && drafts[1].nameParts.given == "Johnny")
        #expect(drafts[2].nameParts.isEmpty)
        #expect(drafts[2].normalized().nameParts.isEmpty, "a name that cannot be read without guessing stays unsplit")
    }

    @Test func readsTheOrganizationAndItsUnits() throws {
        let text = #"""
            BEGIN:VCARD
            FN:A
            ORG:Acme\, Inc.;Sales;EMEA
            ORG:Second;Ignored
            END:VCARD
            BEGIN:VCARD
            FN:B
            ORG:Apple Inc.;
            END:VCARD
            BEGIN:VCARD
            FN:C
            ORG:;Only a department
            END:VCARD
            """#
        let records = try VCardReader.parse(text)
        #expect(records.map(\.draft.organization) == ["Acme, Inc.", "Apple Inc.", ""])
        #expect(records.map(\.draft.department) == ["Sales;EMEA", "", "Only a department"])
        #expect(records[0].draft.extras == ["ORG:Second;Ignored"])
        // The department is written back as one unit; the report says the units were joined.
        #expect(records[0].notes.contains { $0.kind == .converted && $0.message.contains("joined into the department") })
        #expect(VCardWriter.card(records[0], version: .v3).contains("ORG:Acme\\, Inc.;Sales\\;EMEA\r\n"))
    }

    @Test func readsHandlesFromIMPPAndSocialProfiles() throws {
        let text = """
            BEGIN:VCARD
            VERSION:4.0
            FN:Handles
            IMPP;X-SERVICE-TYPE=Skype;PREF=1:skype:ada.l
            IMPP:xmpp:ada@jabber.example
            IMPP;X-SERVICE-TYPE=GTalk:xmpp:ada@gmail.example
            IMPP;X-SERVICE-TYPE=AIM;type=HOME:aim:ada
            IMPP:other:ada
            X-SOCIALPROFILE;TYPE=mastodon:@ada@example.social
            X-SOCIALPROFILE;type=twitter;x-user=ada:http://twitter.com/ada
            END:VCARD
            """
        let record = try #require(try VCardReader.parse(text).first)
        #expect(record.draft.handles == [
            LabeledValue("ada.l", label: "skype", preferred: true), LabeledValue("ada@jabber.example", label: "xmpp"),
            LabeledValue("@ada@example.social", label: "mastodon"),
        ])
        #expect(record.draft.extras == [
            "IMPP;X-SERVICE-TYPE=GTalk:xmpp:ada@gmail.example", "IMPP;X-SERVICE-TYPE=AIM;type=HOME:aim:ada", "IMPP:other:ada",
            "X-SOCIALPROFILE;type=twitter;x-user=ada:http://twitter.com/ada",
        ])
        #expect(record.notes.count == 4)
    }

    @Test func keepsValuesThatBreakCarnetsRulesVerbatimWithANote() throws {
        let text = #"""
            BEGIN:VCARD
            VERSION:2.1
            FN:Outlook Export
            TEL;WORK;VOICE:BusinessPhone
            TEL;HOME:§
            EMAIL;INTERNET:not an email
            item1.EMAIL:also@bad
            item1.X-ABLabel:Broken
            ADR;WORK:;;Street 4\nBuilding 6;Town;;;
            NOTE:first
            NOTE:second
            NOTE;ALTID=1:third
            EMAIL;ALTID=1:fine@example.com
            END:VCARD
            """#
        let record = try #require(try VCardReader.parse(text).first)
        #expect(record.draft.phones.isEmpty && record.draft.emails.isEmpty && record.draft.addresses.isEmpty)
        #expect(record.draft.note == "first")
        #expect(record.draft.extras == [
            "TEL;WORK;VOICE:BusinessPhone", "TEL;HOME:§", "EMAIL;INTERNET:not an email", "item1.EMAIL:also@bad",
            "item1.X-ABLabel:Broken", #"ADR;WORK:;;Street 4\nBuilding 6;Town;;;"#, "NOTE:second", "NOTE;ALTID=1:third",
            "EMAIL;ALTID=1:fine@example.com",
        ])
        #expect(record.refusals.map(\.line) == [4, 5, 6, 7, 9, 11, 12, 13])
        #expect(record.refusals[0].message == "TEL;WORK;VOICE:BusinessPhone kept as an unmodelled property: phone 1 (BusinessPhone) may hold only digits, spaces and + - ( ) . and must have a digit")
        #expect(record.refusals[6].message == "NOTE;ALTID=1:third kept as an unmodelled property: only the first NOTE is modelled")
        #expect(record.refusals[7].message == "EMAIL;ALTID=1:fine@example.com kept as an unmodelled property: the ALTID parameter is not modelled")
        #expect(record.draft.issues().isEmpty)
    }

    @Test func keepsUnmodelledPropertiesVerbatimWithTheirGroupsAndParameters() throws {
        let text = #"""
            BEGIN:VCARD
            VERSION:3.0
            PRODID:-//Apple Inc.//macOS 14.1//EN
            FN:Kept
            item1.X-ABRELATEDNAMES;type=pref:Jenny
            item1.X-ABLabel:_$!<Spouse>!$_
            X-ABUID:6B29A774-D124-4822-B8D0-2780EC117F60\:ABPerson
            GEO:45.000000;-87.300003
            KEY;X509;ENCODING=BASE64:MIIC
            X-messaging/gadu-All:452342
            X-COUCHDB-UUID;X-A="q:u;o,te":x
            AGENT:Invalid line which must be handled correctly.
            X-EMPTY:
            REV:20261123T085507Z
            END:VCARD
            """#
        let record = try #require(try VCardReader.parse(text).first)
        #expect(record.draft.extras == [
            "item1.X-ABRELATEDNAMES;type=pref:Jenny", "item1.X-ABLabel:_$!<Spouse>!$_",
            #"X-ABUID:6B29A774-D124-4822-B8D0-2780EC117F60\:ABPerson"#, "GEO:45.000000;-87.300003", "KEY;X509;ENCODING=BASE64:MIIC",
            #"X-COUCHDB-UUID;X-A="q:u;o,te":x"#, "AGENT:Invalid line which must be handled correctly.",
            "X-EMPTY:", "X-CARNET-FORM:X-messaging/gadu-All:452342",
        ])
        // KDE's handle is a handle, its line kept to be written back.
        #expect(record.draft.handles == [LabeledValue("452342", label: "gadugadu")])
        #expect(record.refusals.isEmpty)
        // Each is named in the report as kept verbatim, with its line.
        #expect(record.notes.map(\.kind) == Array(repeating: .unmodelled, count: 8))
        #expect(record.notes.first?.message == "item1.X-ABRELATEDNAMES;type=pref:Jenny kept verbatim: Carnet has no field for it")
        #expect(record.draft.issues().isEmpty)
    }

    @Test func unescapesValuesAndIgnoresCaseOfNamesAndParameters() throws {
        let text = #"""
            begin:vcard
            version:4.0
            fn:Smith\, John\; Jr. \\ the first
            note:one\Ntwo\nthree
            title:VP\, Sales
            org:Acme\, Inc.;Sales
            email;pref=1:john@example.com
            end:vcard
            """#
        let record = try #require(try VCardReader.parse(text).first)
        #expect(record.draft.name == "Smith, John; Jr. \\ the first")
        #expect(record.draft.note == "one\ntwo\nthree")
        #expect(record.draft.title == "VP, Sales")
        #expect(record.draft.organization == "Acme, Inc." && record.draft.department == "Sales")
        #expect(record.draft.emails == [LabeledValue("john@example.com", preferred: true)])
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

    @Test func readsEveryKindOfLineEnd() throws {
        let lines = ["BEGIN:VCARD", "VERSION:3.0", "FN:Line", " Ends", "NOTE:a\\nb", "END:VCARD"]
        for end in ["\n", "\r\n", "\r", "\r\r\n"] {
            let text = lines.joined(separator: end) + end
            for size in [1, 3, 1000] {
                let records = try recordsRead(VCardReader.self, Data(text.utf8), inChunksOf: size)
                #expect(records.map(\.draft.name) == ["LineEnds"], "\(end.debugDescription) in chunks of \(size)")
                #expect(records.map(\.draft.note) == ["a\nb"])
            }
        }
    }

    @Test func decodesTheCharsetAPropertyNames() throws {
        // テスト in Shift_JIS: its second byte of ス is 0x58, and ソ (83 5C) holds a backslash byte.
        var bytes = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN;CHARSET=SHIFT_JIS:".utf8)
        bytes += [0x83, 0x65, 0x83, 0x58, 0x83, 0x67, 0x83, 0x5C]
        bytes += Array("\r\nN;CHARSET=SHIFT_JIS:".utf8) + [0x83, 0x5C, 0x3B, 0x83, 0x65] + Array("\r\nX-SOUND;CHARSET=SHIFT_JIS:".utf8)
        bytes += [0x83, 0x5C] + Array("\r\nORG;CHARSET=WINDOWS-1250;ENCODING=QUOTED-PRINTABLE:Krak=F3w ma=B3opolskie\r\n".utf8)
        bytes += Array("TITLE:M".utf8) + [0xFC] + Array("ller\r\nEND:VCARD\r\n".utf8)
        let draft = try #require(try VCardReader.parse(Data(bytes)).first).draft
        #expect(draft.name == "テストソ")
        #expect(draft.nameParts == PersonName(given: "テ", family: "ソ"))
        #expect(draft.organization == "Kraków małopolskie")
        #expect(draft.title == "Müller", "bytes that are not UTF-8, without a charset, are Windows-1252")
        // An unmodelled value in another charset is kept as text, without its charset.
        #expect(draft.extras == ["X-SOUND:ソ"])
    }

    @Test func acceptsPhotosInEverySyntaxAndKeepsTheRestVerbatim() throws {
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
            BEGIN:VCARD
            VERSION:3.0
            FN:D
            PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ
             SkZ*Rg==
            PHOTO;BASE64:iVBORw0KGgoAAAANSUhEUg==
            END:VCARD
            BEGIN:VCARD
            FN:E
            PHOTO:data:image/png;base64,@@@@
            PHOTO;ENCODING=b:AAAA
            END:VCARD
            """
        let records = try VCardReader.parse(text)
        #expect(records.map(\.draft.photo) == [jpeg, png, nil, png, nil])
        #expect(records.map(\.draft.extras) == [
            [], [], ["PHOTO;MEDIATYPE=image/jpeg:https://example.com/c.jpg"], ["PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZ*Rg=="],
            ["PHOTO:data:image/png;base64,@@@@", "PHOTO;ENCODING=b:AAAA"],
        ])
        #expect(records[3].refusals.map(\.message) == ["PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZ*Rg== kept as an unmodelled property: its data cannot be decoded"])
        #expect(records[4].notes.map(\.message).last == "PHOTO;ENCODING=b:AAAA kept as an unmodelled property: photo must be a JPEG, PNG, GIF or WebP image")
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
            #expect(try recordsRead(VCardReader.self, data, inChunksOf: size) == expected, "chunk size \(size)")
        }
    }

    @Test func aLastLineWithoutLineBreakIsRead() throws {
        #expect(try VCardReader.parse("BEGIN:VCARD\nFN:A\nEND:VCARD").map(\.draft.name) == ["A"])
        #expect(try VCardReader.parse("\u{FEFF}BEGIN:VCARD\nFN:B\nEND:VCARD\n").map(\.draft.name) == ["B"])
    }

    /// What breaks a card's syntax is refused with its line and what is wrong; control characters
    /// from the file are shown escaped, never sent to the terminal.
    @Test(arguments: [
        ("BEGIN:VCARD\nFN:A\nEND:VCARD\nBEGIN:VCARD\nFN:B\n", 4, "this card has no END:VCARD (the file ends inside it)"),
        ("BEGIN:VCARD\nFN:A\nBEGIN:VCARD\nFN:B\nEND:VCARD\n", 3, "BEGIN:VCARD inside the card that began at line 1 (is its END:VCARD missing?)"),
        ("BEGIN:VCARD\nFN:A\nEND:VCARD\nFN:Stray\n", 4, #"expected BEGIN:VCARD, found "FN:Stray" outside a card"#),
        ("\nEND:VCARD\n", 2, #"expected BEGIN:VCARD, found "END:VCARD" outside a card"#),
        ("BEGIN:VCALENDAR\n", 1, #"expected BEGIN:VCARD, found "BEGIN:VCALENDAR" outside a card"#),
        ("BEGIN:VCARD\u{1B}[2J\n", 1, #"expected BEGIN:VCARD, found "BEGIN:VCARD\u{1B}[2J" outside a card"#),
        ("BEGIN:VCARD\nFN:A\nthis is not a property\nEND:VCARD\n", 3, #"expected a property (NAME:value), found "this is not a property""#),
        ("BEGIN:VCARD\nEMAIL;TYPE=\"work:a@b.c\nEND:VCARD\n", 2, "EMAIL: a quoted parameter value is not closed"),
    ])
    func refusesBrokenSyntaxWithItsLineAndReason(text: String, line: Int, message: String) {
        #expect(throws: InterchangeError(line: line, message: message)) { try VCardReader.parse(text) }
    }

    @Test func goesOnAfterABrokenCard() throws {
        let text = "BEGIN:VCARD\nFN:A\nnonsense\nFN:still A\nEND:VCARD\nBEGIN:VCARD\nFN:B\nEND:VCARD\n"
        let results = try resultsGoingOnAfterTheFirst(VCardReader.self, text)
        #expect(try results[1].get().draft.name == "B")
        #expect(try results[1].get().line == 6)
    }

    @Test func ignoresAnUnreadableRev() throws {
        let text = "BEGIN:VCARD\nREV:yesterday\nFN:A\nEND:VCARD\n"
        #expect(try VCardReader.parse(text) == [InterchangeRecord(draft: ContactDraft(name: "A"), line: 1)])
    }

    /// An FN Carnet's rules refuse (too long, a line break written `\n`, an escape character) on
    /// a card with no other name is reported by the rule it breaks, at the card's line, not as a
    /// blank name.
    @Test func anFNThatBreaksARuleIsReportedByThatRuleNotAsABlankName() throws {
        let cases = [
            (String(repeating: "a", count: 300), "must be at most 200 characters (got 300)"),
            ("Ada\\nLovelace", "must not contain control characters"),
            ("Ada \u{1B}[31mLovelace", "must not contain control characters"),
        ]
        for (name, rule) in cases {
            let text = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:First\r\nEND:VCARD\r\nBEGIN:VCARD\r\nVERSION:4.0\r\nUID:u-2\r\nFN:\(name)\r\nEND:VCARD\r\n"
            let record = try #require(try VCardReader.parse(Data(text.utf8)).last)
            #expect(record.line == 5)
            let issues = record.draft.issues()
            #expect(issues.map(\.field) == [.name], "\(issues)")
            #expect(issues.first?.message.hasPrefix(rule) == true, "\(issues)")
            #expect(!issues.contains { $0.message.contains("required") }, "\(issues)")
        }
        // With a structured name to show instead, the FN is kept as it came and the card imports.
        let named = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:\(String(repeating: "a", count: 300))\r\nN:Lovelace;Ada;;;\r\nEND:VCARD\r\n"
        let record = try #require(try VCardReader.parse(Data(named.utf8)).first)
        #expect(try record.draft.validated().name == "Ada Lovelace")
        #expect(record.draft.extras == ["FN:" + String(repeating: "a", count: 300)])
    }
}

@Suite struct InterchangeVCardWriterTests {
    static let version4 = """
        BEGIN:VCARD
        VERSION:4.0
        PRODID:-//Carnet//Carnet//EN
        UID:0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11
        FN:Dr. Augusta Ada King\\, Countess of Lovelace
        N:King;Augusta Ada;;Dr.;Countess of Lovelace
        NICKNAME:Ada
        ORG:Analytical Engines\\, Ltd.;Research\\;Notes
        TITLE:Mathematician
        ROLE:Author
        EMAIL;TYPE=work;PREF=1:ada@example.com
        EMAIL;TYPE=home:ada@home.example
        item2.EMAIL:countess@example.org
        item2.X-ABLabel:Lab\\,old
        EMAIL:plain@example.org
        TEL;VALUE=text;TYPE=cell;PREF=1:+44 20 7946 0000
        TEL;VALUE=text;TYPE=home,fax:+44 20 7946 0001
        item3.TEL;VALUE=text:+44 20 7946 0002
        item3.X-ABLabel:Assistant line
        ADR;TYPE=home;PREF=1:;;12 St James's Square;London;;SW1Y 4JH;United Kingdom
        item4.ADR:PO Box 7;Flat 2\\; rear;Ockham Park;Ockham;Surrey;GU23 6NP;UK
        item4.X-ABLabel:Summer house
        URL;TYPE=work:https://example.com/ada?a=1\\,b=2
        URL:https://ada.example
        IMPP;X-SERVICE-TYPE=Skype;PREF=1:skype:ada
        X-SOCIALPROFILE;TYPE=mastodon:@ada@example.social
        IMPP;X-SERVICE-TYPE=Jabber:xmpp:ada@jabber.example
        BDAY:18151210
        ANNIVERSARY:--0708
        item5.X-ABDATE:1833-06-05
        item5.X-ABLabel:graduation
        NOTE:First line\\nSecond\\; with\\, punctuation \\\\ and a backslash
        CATEGORIES:friends,Mathematicians\\, famous
        PHOTO:data:image/jpeg;base64,/9j/4AAQSkZJRg==
        item1.X-ABRELATEDNAMES:William King
        item1.X-ABLabel:_$!<Spouse>!$_
        X-SOMETHING;X-PARAM="a:b":value
        REV:20261123T085507Z
        END:VCARD

        """

    @Test func writesEveryFieldInVersion4() {
        let card = VCardWriter.card(RichContact.record, version: .v4)
        #expect(card == crlf(Self.version4))
    }

    @Test func writesEveryFieldInVersion3() {
        let card = VCardWriter.card(RichContact.record, version: .v3)
        let expected = Self.version4
            .replacingOccurrences(of: "VERSION:4.0", with: "VERSION:3.0")
            .replacingOccurrences(of: "TYPE=work;PREF=1", with: "TYPE=work,pref")
            .replacingOccurrences(of: "TYPE=cell;PREF=1", with: "TYPE=cell,pref")
            .replacingOccurrences(of: "TYPE=home;PREF=1", with: "TYPE=home,pref")
            .replacingOccurrences(of: "Skype;PREF=1", with: "Skype;TYPE=pref")
            .replacingOccurrences(of: "TEL;VALUE=text", with: "TEL")
            .replacingOccurrences(of: "BDAY:18151210", with: "BDAY:1815-12-10")
            .replacingOccurrences(of: "ANNIVERSARY:--0708", with: "X-ANNIVERSARY:--07-08")
            .replacingOccurrences(of: "PHOTO:data:image/jpeg;base64,", with: "PHOTO;ENCODING=b;TYPE=JPEG:")
        #expect(card == crlf(expected))
    }

    @Test func writesVersion21WithBareTypesAndQuotedPrintable() throws {
        var draft = RichContact.draft
        draft.nameParts.given = "Zoë Ada"
        draft.note = "Zoë's first line\nSecond; with, punctuation \\ and a tail long enough to need a soft lineWXYZ break"
        let card = VCardWriter.card(uid: RichContact.uid, draft: draft, updatedAt: RichContact.updated, version: .v21)
        #expect(card.hasPrefix("BEGIN:VCARD\r\nVERSION:2.1\r\n"))
        for line in [
            "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:King;Zo=C3=AB Ada;;Dr.;Countess =\r\nof Lovelace\r\n",
            "FN:Dr. Augusta Ada King, Countess of Lovelace\r\n",
            "ORG:Analytical Engines, Ltd.;Research\\;Notes\r\n",
            "EMAIL;INTERNET;WORK;PREF:ada@example.com\r\n",
            "item2.EMAIL;INTERNET:countess@example.org\r\nitem2.X-ABLabel:Lab,old\r\n",
            "TEL;CELL;PREF:+44 20 7946 0000\r\nTEL;HOME;FAX:+44 20 7946 0001\r\n",
            "ADR;HOME;PREF:;;12 St James's Square;London;;SW1Y 4JH;United Kingdom\r\n",
            "item4.ADR:PO Box 7;Flat 2\\; rear;Ockham Park;Ockham;Surrey;GU23 6NP;UK\r\n",
            "IMPP;X-SERVICE-TYPE=Skype;PREF:skype:ada\r\n",
            "BDAY:1815-12-10\r\nX-ANNIVERSARY:--07-08\r\n",
            "NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Zo=C3=AB's first line=0D=0ASe=\r\ncond\\; with, punctuation \\\\ and a tail long enough to need a soft lineWXYZ=\r\n=20break\r\n",
            "CATEGORIES:friends,Mathematicians\\, famous\r\n",
            "PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQSkZJRg==\r\n\r\n",
        ] {
            #expect(card.contains(line), "\(line)")
        }
        #expect(try VCardReader.parse(card).first?.draft == draft)
    }

    @Test func leavesOutEmptyFieldsButAlwaysWritesN() {
        let card = VCardWriter.card(uid: nil, draft: ContactDraft(name: "Cher", title: "Singer"), updatedAt: nil, version: .v4)
        #expect(card == "BEGIN:VCARD\r\nVERSION:4.0\r\nPRODID:-//Carnet//Carnet//EN\r\nFN:Cher\r\nN:;;;;\r\nTITLE:Singer\r\nEND:VCARD\r\n")
    }

    @Test func writesNFromTheStructuredNameNeverFromFN() {
        var draft = ContactDraft(name: "Dr. John Q. Appleseed Jr.")
        #expect(VCardWriter.card(uid: nil, draft: draft, updatedAt: nil).contains("\r\nN:;;;;\r\n"))
        draft.nameParts = PersonName(prefix: "Dr.", given: "John", additional: "Q.", family: "Appleseed", suffix: "Jr.")
        #expect(VCardWriter.card(uid: nil, draft: draft, updatedAt: nil).contains("\r\nN:Appleseed;John;Q.;Dr.;Jr.\r\n"))
        #expect(VCardWriter.card(uid: nil, draft: draft.normalized(), updatedAt: nil).contains("\r\nN:Appleseed;John;Q.;Dr.;Jr.\r\n"))
    }

    @Test func labelsWithTypesOrAppleGroupsThatSkipTheExtrasGroups() throws {
        let draft = ContactDraft(
            name: "L",
            emails: [LabeledValue("a@example.com", label: "other"), LabeledValue("b@example.com", label: "internet")],
            phones: [
                LabeledValue("1", label: "Main"), LabeledValue("2", label: "voice"), LabeledValue("3", label: "cell,voice"),
                LabeledValue("4", label: "iphone,cell", preferred: true),
            ],
            dates: [ContactDate(label: "anniversary", year: 2000, month: 1, day: 2), ContactDate(label: "anniversary", month: 3, day: 4)],
            extras: ["item1.X-ABLabel:kept", "ITEM3.X-FOO:bar"])
        let card = VCardWriter.card(uid: nil, draft: draft, updatedAt: nil, version: .v3)
        #expect(card.contains(crlf("""
            EMAIL;TYPE=other:a@example.com
            item2.EMAIL:b@example.com
            item2.X-ABLabel:internet
            item4.TEL:1
            item4.X-ABLabel:Main
            TEL;TYPE=voice:2
            TEL;TYPE=cell,voice:3
            TEL;TYPE=iphone,cell,pref:4
            X-ANNIVERSARY:2000-01-02
            item5.X-ABDATE:--03-04
            item5.X-ABLabel:_$!<Anniversary>!$_
            item1.X-ABLabel:kept
            ITEM3.X-FOO:bar

            """)))
        for version in VCardVersion.allCases {
            let text = VCardWriter.card(uid: nil, draft: draft, updatedAt: nil, version: version)
            #expect(try VCardReader.parse(text).first?.draft == draft, "\(version)")
        }
    }

    @Test func escapesTextValues() {
        let draft = ContactDraft(
            name: #"Smith, John; Jr. \ the"#, nameParts: PersonName(given: "John;", family: "Smith, Sr."), title: "A;B, C,D")
        let card = VCardWriter.card(uid: nil, draft: draft, updatedAt: nil, version: .v4)
        #expect(card.contains(#"FN:Smith\, John\; Jr. \\ the"# + "\r\n"))
        #expect(card.contains(#"N:Smith\, Sr.;John\;;;;"# + "\r\n"))
        #expect(card.contains(#"TITLE:A\;B\, C\,D"# + "\r\n"))
    }

    @Test(arguments: VCardVersion.allCases) func foldsAt75OctetsWithoutSplittingACharacter(version: VCardVersion) throws {
        let name = String(repeating: "é", count: 50) + " " + String(repeating: "日本", count: 30) + " 😀😀😀"
        let photo = jpeg + Data((0..<300).map { UInt8($0 % 256) })
        let extra = "X-LONG:" + String(repeating: "ü", count: 80) + String(repeating: "x", count: 80)
        let card = VCardWriter.card(uid: nil, draft: ContactDraft(name: name, photo: photo, extras: [extra]), updatedAt: nil, version: version)
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
        #expect(record.draft.extras == [extra])
    }

    @Test(arguments: VCardVersion.allCases) func roundTripsByteForByte(version: VCardVersion) throws {
        let drafts = [
            RichContact.draft,
            ContactDraft(
                name: "Zoë Müller-Lüdenscheidt", nameParts: PersonName(given: "Zoë", family: "Müller-Lüdenscheidt"),
                organization: "Acme, Inc.", title: "Ingénieure, R&D; Labs", phones: [LabeledValue("+49 151 0000000", preferred: true)],
                photo: png),
            ContactDraft(name: "Line, Name; \\ odd", title: "CTO", note: "a\n\nb"),
            ContactDraft(name: "Only Name"),
            ContactDraft(name: "Org Only", department: "Dept; with \\ units", extras: ["item2.X-ABLabel:x", "BDAY;VALUE=text:circa 1800"]),
        ]
        let uids: [String?] = [RichContact.uid, "not-a-uuid: x,y;z", nil, "urn:uuid:weird", "u5"]
        var file = ""
        for (draft, uid) in zip(drafts, uids) {
            file += VCardWriter.card(uid: uid, draft: draft, updatedAt: RichContact.updated, version: version)
        }
        let records = try VCardReader.parse(file)
        #expect(records.map(\.draft) == drafts)
        #expect(records.allSatisfy { $0.updatedAt == RichContact.updated })
        #expect(records.allSatisfy(\.notes.isEmpty) == false, "the BDAY kept as text is noted again")
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
            id: 7, uid: RichContact.uid, name: "A B", position: "", email: "", phone: "", photo: nil,
            createdAt: RichContact.updated, updatedAt: date(2026, 11, 23, 8, 55, 7, ms: 999), version: 3)
        let card = VCardWriter.card(contact: contact, version: .v3)
        #expect(card.contains("UID:\(RichContact.uid)\r\n"))
        #expect(card.contains("REV:20261123T085507Z\r\n"))
    }
}
