import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// The CSV files other programs export, told apart by their header: Google Contacts (its
/// current and older headers), Outlook, and Gmail's first format.
@Suite struct InterchangeCSVDialectTests {
    /// A CSV file of `header` and one row of `values` by column (other columns empty).
    static func file(_ header: [String], _ values: [String: String]) -> String {
        func quoted(_ cell: String) -> String {
            guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return cell }
            return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return header.map(quoted).joined(separator: ",") + "\r\n" + header.map { quoted(values[$0] ?? "") }.joined(separator: ",") + "\r\n"
    }

    static func read(_ text: String) throws -> (CSVDialect?, InterchangeRecord) {
        var reader = CSVReader()
        var records = try reader.feed(text: text).map { try $0.get() }
        if let last = try reader.finish() { records.append(last) }
        return (reader.dialect, try #require(records.first))
    }

    static let googleHeader = [
        "First Name", "Middle Name", "Last Name", "Phonetic First Name", "Phonetic Middle Name", "Phonetic Last Name",
        "Name Prefix", "Name Suffix", "Nickname", "File As", "Organization Name", "Organization Title",
        "Organization Department", "Birthday", "Notes", "Photo", "Labels", "E-mail 1 - Label", "E-mail 1 - Value",
        "E-mail 2 - Label", "E-mail 2 - Value", "Phone 1 - Label", "Phone 1 - Value", "Phone 2 - Label", "Phone 2 - Value",
        "Address 1 - Label", "Address 1 - Formatted", "Address 1 - Street", "Address 1 - City", "Address 1 - PO Box",
        "Address 1 - Region", "Address 1 - Postal Code", "Address 1 - Country", "Address 1 - Extended Address",
        "Website 1 - Label", "Website 1 - Value", "Event 1 - Label", "Event 1 - Value", "Relation 1 - Label",
        "Relation 1 - Value", "IM 1 - Label", "IM 1 - Service", "IM 1 - Value",
    ]

    @Test func readsGoogleContactsCSV() throws {
        let text = Self.file(Self.googleHeader, [
            "First Name": "Ada", "Middle Name": "Augusta", "Last Name": "Lovelace", "Name Prefix": "Dr.", "Nickname": "Ada",
            "Organization Name": "Analytical Engines", "Organization Title": "Mathematician", "Organization Department": "Research",
            "Birthday": "1815-12-10", "Notes": "Notes line 1\nline 2", "Photo": "https://lh3.googleusercontent.com/x",
            "Labels": "* myContacts ::: Friends", "E-mail 1 - Label": "* Work", "E-mail 1 - Value": "ada@example.com",
            "E-mail 2 - Label": "Home", "E-mail 2 - Value": "ada@home.example ::: ada2@home.example",
            "Phone 1 - Label": "Mobile", "Phone 1 - Value": "+44 20 7946 0000", "Phone 2 - Label": "Work Fax",
            "Phone 2 - Value": "+44 20 7946 0001", "Address 1 - Label": "Home",
            "Address 1 - Formatted": "12 St James's Square\nLondon SW1Y 4JH\nUK", "Address 1 - Street": "12 St James's Square",
            "Address 1 - City": "London", "Address 1 - Postal Code": "SW1Y 4JH", "Address 1 - Country": "United Kingdom",
            "Website 1 - Label": "Blog", "Website 1 - Value": "https://ada.example", "Event 1 - Label": "Anniversary",
            "Event 1 - Value": "--07-08", "Relation 1 - Label": "Spouse", "Relation 1 - Value": "William",
            "IM 1 - Label": "Home", "IM 1 - Service": "Skype", "IM 1 - Value": "ada.l",
        ])
        let (dialect, record) = try Self.read(text)
        #expect(dialect == .google)
        let draft = record.draft
        #expect(draft.name == "Dr. Ada Augusta Lovelace")
        #expect(draft.nameParts == PersonName(prefix: "Dr.", given: "Ada", additional: "Augusta", family: "Lovelace"))
        #expect(draft.nickname == "Ada")
        #expect(draft.organization == "Analytical Engines" && draft.title == "Mathematician" && draft.department == "Research")
        #expect(draft.dates == [
            ContactDate(label: "birthday", year: 1815, month: 12, day: 10), ContactDate(label: "anniversary", month: 7, day: 8),
        ])
        #expect(draft.note == "Notes line 1\nline 2")
        #expect(draft.categories == ["myContacts", "Friends"])
        #expect(draft.emails == [
            LabeledValue("ada@example.com", label: "work", preferred: true), LabeledValue("ada@home.example", label: "home"),
            LabeledValue("ada2@home.example", label: "home"),
        ])
        #expect(draft.phones == [LabeledValue("+44 20 7946 0000", label: "cell"), LabeledValue("+44 20 7946 0001", label: "work,fax")])
        #expect(draft.addresses == [
            PostalAddress(label: "home", street: "12 St James's Square", locality: "London", postalCode: "SW1Y 4JH", country: "United Kingdom"),
        ])
        #expect(draft.urls == [LabeledValue("https://ada.example", label: "Blog")])
        #expect(draft.handles == [LabeledValue("ada.l", label: "skype")])
        #expect(draft.extras == [
            "X-CSV;X-COLUMN=Photo:https://lh3.googleusercontent.com/x", "X-CSV;X-COLUMN=Relation 1 - Label:Spouse",
            "X-CSV;X-COLUMN=Relation 1 - Value:William", "X-CSV;X-COLUMN=IM 1 - Label:Home",
            // The formatted address is kept beside its parts: it may say more than they do.
            #"X-CSV;X-COLUMN=Address 1 - Formatted:12 St James's Square\nLondon SW1Y 4JH\nUK"#,
        ])
        #expect(draft.issues().isEmpty, "\(draft.issues())")
        // What was kept verbatim goes to a vCard and comes back.
        let card = VCardWriter.card(uid: nil, draft: draft.normalized(), updatedAt: nil)
        #expect(try VCardReader.parse(card).first?.draft == draft.normalized())
    }

    @Test func readsTheOlderGoogleHeader() throws {
        let header = [
            "Name", "Given Name", "Additional Name", "Family Name", "Yomi Name", "Name Prefix", "Name Suffix", "Nickname",
            "Birthday", "Gender", "Notes", "Group Membership", "E-mail 1 - Type", "E-mail 1 - Value", "Phone 1 - Type",
            "Phone 1 - Value", "Phone 2 - Type", "Phone 2 - Value", "Organization 1 - Type", "Organization 1 - Name",
            "Organization 1 - Title", "Organization 1 - Department",
        ]
        let text = Self.file(header, [
            "Name": "Marc Dupont", "Given Name": "Marc", "Family Name": "Dupont", "Gender": "male",
            "Group Membership": "* myContacts", "E-mail 1 - Type": "* Home",
            "E-mail 1 - Value": "marc@home.example ::: marc@other.example", "Phone 1 - Type": "Mobile",
            "Phone 1 - Value": "+33 6 12 34 56 78", "Phone 2 - Type": "Work", "Phone 2 - Value": "BusinessPhone",
            "Organization 1 - Name": "Acme SARL", "Organization 1 - Title": "Ingénieur", "Organization 1 - Department": "R&D",
        ])
        let (dialect, record) = try Self.read(text)
        #expect(dialect == .google)
        #expect(record.draft.name == "Marc Dupont" && record.draft.nameParts == PersonName(given: "Marc", family: "Dupont"))
        #expect(record.draft.emails == [
            LabeledValue("marc@home.example", label: "home", preferred: true), LabeledValue("marc@other.example", label: "home"),
        ])
        #expect(record.draft.phones == [LabeledValue("+33 6 12 34 56 78", label: "cell")])
        #expect(record.draft.organization == "Acme SARL" && record.draft.title == "Ingénieur" && record.draft.department == "R&D")
        #expect(record.draft.categories == ["myContacts"])
        #expect(record.draft.extras == ["X-CSV;X-COLUMN=Gender:male", "X-CSV;X-COLUMN=Phone 2 - Value:BusinessPhone"])
        #expect(record.notes.filter { $0.kind == .refused }.map(\.message) == [#"Phone 2 - Value "BusinessPhone" kept as an unmodelled property: phone BusinessPhone breaks Carnet's rules"#])
        #expect(record.notes.filter { $0.kind == .unmodelled }.map(\.message) == [#"Gender "male" kept verbatim: Carnet has no field for it"#])
        #expect(record.notes.map(\.line) == [2, 2])
    }

    static let outlookHeader = [
        "Title", "First Name", "Middle Name", "Last Name", "Suffix", "Company", "Department", "Job Title", "Business Street",
        "Business Street 2", "Business Street 3", "Business City", "Business State", "Business Postal Code",
        "Business Country/Region", "Home Street", "Home Street 2", "Home Street 3", "Home City", "Home State",
        "Home Postal Code", "Home Country/Region", "Other Street", "Other Street 2", "Other Street 3", "Other City",
        "Other State", "Other Postal Code", "Other Country/Region", "Assistant's Phone", "Business Fax", "Business Phone",
        "Business Phone 2", "Callback", "Car Phone", "Company Main Phone", "Home Fax", "Home Phone", "Home Phone 2", "ISDN",
        "Mobile Phone", "Other Fax", "Other Phone", "Pager", "Primary Phone", "Radio Phone", "TTY/TDD Phone", "Telex",
        "Account", "Anniversary", "Assistant's Name", "Billing Information", "Birthday", "Business Address PO Box",
        "Categories", "Children", "Directory Server", "E-mail Address", "E-mail Type", "E-mail Display Name",
        "E-mail 2 Address", "E-mail 2 Type", "E-mail 2 Display Name", "E-mail 3 Address", "E-mail 3 Type",
        "E-mail 3 Display Name", "Gender", "Government ID Number", "Hobby", "Home Address PO Box", "Initials",
        "Internet Free Busy", "Keywords", "Language", "Location", "Manager's Name", "Mileage", "Notes", "Office Location",
        "Organizational ID Number", "Other Address PO Box", "Priority", "Private", "Profession", "Referred By",
        "Sensitivity", "Spouse", "User 1", "User 2", "User 3", "User 4", "Web Page",
    ]

    @Test func readsOutlookCSV() throws {
        let text = Self.file(Self.outlookHeader, [
            "Title": "Mr.", "First Name": "John", "Middle Name": "Q.", "Last Name": "Doe", "Suffix": "Jr.", "Company": "IBM",
            "Department": "Accounting", "Job Title": "Money Counter", "Business Street": "1 Main St", "Business Street 2": "Floor 8",
            "Business City": "Albany", "Business State": "NY", "Business Postal Code": "12345", "Business Country/Region": "USA",
            "Business Phone": "(905) 555-1234", "Mobile Phone": "(905) 555-0000", "Primary Phone": "(905) 555-9999",
            "Home Phone": "HomePhone", "Anniversary": "0/0/00", "Birthday": "3/22/1980", "Categories": "VIP;Friends",
            "E-mail Address": "john@ibm.example", "E-mail Type": "SMTP", "E-mail Display Name": "John Doe (john@ibm.example)",
            "Gender": "Unspecified", "Notes": "Counts money", "Priority": "Normal", "Private": "False", "Sensitivity": "Normal",
            "Spouse": "Jane", "Web Page": "http://ibm.example",
        ])
        let (dialect, record) = try Self.read(text)
        #expect(dialect == .outlook)
        let draft = record.draft
        #expect(draft.nameParts == PersonName(prefix: "Mr.", given: "John", additional: "Q.", family: "Doe", suffix: "Jr."))
        #expect(draft.name == "Mr. John Q. Doe Jr.")
        #expect(draft.organization == "IBM" && draft.department == "Accounting" && draft.title == "Money Counter")
        #expect(draft.addresses == [
            PostalAddress(label: "work", street: "1 Main St, Floor 8", locality: "Albany", region: "NY", postalCode: "12345", country: "USA"),
        ])
        #expect(draft.phones == [
            LabeledValue("(905) 555-1234", label: "work"), LabeledValue("(905) 555-0000", label: "cell"),
            LabeledValue("(905) 555-9999", preferred: true),
        ])
        #expect(draft.emails == [LabeledValue("john@ibm.example")])
        #expect(draft.dates == [ContactDate(label: "birthday", year: 1980, month: 3, day: 22)])
        #expect(draft.categories == ["VIP", "Friends"])
        #expect(draft.note == "Counts money")
        #expect(draft.urls == [LabeledValue("http://ibm.example")])
        // Outlook's values for "none" are kept verbatim too: nothing a file holds is dropped.
        #expect(draft.extras == [
            "X-CSV;X-COLUMN=Anniversary:0/0/00", "X-CSV;X-COLUMN=E-mail Type:SMTP",
            "X-CSV;X-COLUMN=E-mail Display Name:John Doe (john@ibm.example)", "X-CSV;X-COLUMN=Gender:Unspecified",
            "X-CSV;X-COLUMN=Priority:Normal", "X-CSV;X-COLUMN=Private:False", "X-CSV;X-COLUMN=Sensitivity:Normal",
            "X-CSV;X-COLUMN=Spouse:Jane", "X-CSV;X-COLUMN=Home Phone:HomePhone",
        ])
        #expect(draft.issues().isEmpty, "\(draft.issues())")
    }

    /// Outlook writes the list separator of the machine's locale: on a European Windows that is
    /// `;`, in the header and in every row. The header tells the file's separator.
    @Test func readsOutlookCSVSeparatedBySemicolons() throws {
        let header = ["First Name", "Last Name", "Company", "E-mail Address", "Business Phone", "Categories", "Notes"]
        let text = header.map { "\"\($0)\"" }.joined(separator: ";") + "\r\n"
            + #""Jean";"Dupont";"Société, Fils & Cie";"jean@example.fr";"+33 1 23 45 67 89";"VIP;Amis";"Ligne 1""# + "\r\n"
        let (dialect, record) = try Self.read(text)
        #expect(dialect == .outlook)
        let draft = record.draft
        #expect(draft.nameParts == PersonName(given: "Jean", family: "Dupont"))
        #expect(draft.organization == "Société, Fils & Cie")
        #expect(draft.emails == [LabeledValue("jean@example.fr")])
        #expect(draft.phones == [LabeledValue("+33 1 23 45 67 89", label: "work")])
        #expect(draft.categories == ["VIP", "Amis"])
        #expect(draft.note == "Ligne 1")
        #expect(draft.extras.isEmpty)
    }

    @Test func readsGmailsFirstFormat() throws {
        let header = [
            "Name", "E-mail Address", "Notes", "Section 1 - Description", "Section 1 - Email", "Section 1 - IM",
            "Section 1 - Phone", "Section 1 - Mobile", "Section 1 - Pager", "Section 1 - Fax", "Section 1 - Company",
            "Section 1 - Title", "Section 1 - Other", "Section 1 - Address",
        ]
        let text = Self.file(header, [
            "Name": "Ann Smith", "E-mail Address": "ann@example.com", "Notes": "From school", "Section 1 - Description": "Work",
            "Section 1 - Email": "ann@work.example", "Section 1 - Phone": "+1 555 0100", "Section 1 - Mobile": "+1 555 0199",
            "Section 1 - Company": "Acme", "Section 1 - Title": "Engineer", "Section 1 - Other": "likes tea",
        ])
        let (dialect, record) = try Self.read(text)
        #expect(dialect == .gmail)
        #expect(record.draft.name == "Ann Smith")
        #expect(record.draft.emails == [LabeledValue("ann@example.com"), LabeledValue("ann@work.example", label: "work")])
        #expect(record.draft.phones == [LabeledValue("+1 555 0100", label: "work"), LabeledValue("+1 555 0199", label: "cell")])
        #expect(record.draft.organization == "Acme" && record.draft.title == "Engineer")
        #expect(record.draft.note == "From school")
        #expect(record.draft.extras == ["X-CSV;X-COLUMN=Section 1 - Other:likes tea"])
    }

    @Test func carnetsOwnFilesStayCarnets() throws {
        var reader = CSVReader()
        _ = reader.feed(text: CSVWriter.header + CSVWriter.row(RichContact.record))
        try reader.finish()
        #expect(reader.dialect == .carnet)
        var old = CSVReader()
        _ = old.feed(text: "uid,name,position,email,phone,photo,updated_at\r\n")
        #expect(old.dialect == .carnet)
        #expect(CSVDialect.allCases.map(\.displayName) == [
            "Carnet CSV", "Google Contacts CSV", "Outlook CSV", "Gmail CSV (first format)", "Thunderbird CSV", "abook CSV",
        ])
    }

    /// Thunderbird's "Export → CSV" header, as it writes it (column names and order).
    static let thunderbirdHeader = [
        "First Name", "Last Name", "Display Name", "Nickname", "Primary Email", "Secondary Email", "Screen Name", "Work Phone",
        "Home Phone", "Fax Number", "Pager Number", "Mobile Number", "Home Address", "Home Address 2", "Home City", "Home State",
        "Home ZipCode", "Home Country", "Work Address", "Work Address 2", "Work City", "Work State", "Work ZipCode", "Work Country",
        "Job Title", "Department", "Organization", "Web Page 1", "Web Page 2", "Birth Year", "Birth Month", "Birth Day", "Custom 1",
        "Custom 2", "Custom 3", "Custom 4", "Notes",
    ]

    @Test func readsThunderbirdsCSV() throws {
        let row: [String: String] = [
            "First Name": "Ada", "Last Name": "Lovelace", "Display Name": "Ada Lovelace", "Nickname": "Ada",
            "Primary Email": "ada@example.com", "Secondary Email": "countess@example.org", "Screen Name": "ada_l",
            "Work Phone": "+44 20 7946 0000", "Home Phone": "+44 20 7946 0001", "Fax Number": "+44 20 7946 0002",
            "Pager Number": "+44 20 7946 0003", "Mobile Number": "+44 7700 900000", "Home Address": "12 St James's Square",
            "Home Address 2": "Flat 2", "Home City": "London", "Home ZipCode": "SW1Y 4JH", "Home Country": "United Kingdom",
            "Work City": "Ockham", "Job Title": "Mathematician", "Department": "Research", "Organization": "Analytical Engines",
            "Web Page 1": "https://example.com/ada", "Web Page 2": "https://ada.example", "Birth Year": "1815", "Birth Month": "12",
            "Birth Day": "10", "Custom 1": "Engines", "Notes": "A note",
        ]
        let line = Self.thunderbirdHeader.map { row[$0] ?? "" }.map { $0.contains(",") ? "\"\($0)\"" : $0 }.joined(separator: ",")
        var reader = CSVReader()
        var records = reader.feed(text: Self.thunderbirdHeader.joined(separator: ",") + "\r\n" + line + "\r\n").compactMap { try? $0.get() }
        if let last = try reader.finish() { records.append(last) }
        #expect(reader.dialect == .thunderbird)
        let draft = try #require(records.first).draft
        #expect(draft.name == "Ada Lovelace" && draft.nameParts.given == "Ada" && draft.nameParts.family == "Lovelace" && draft.nickname == "Ada")
        #expect(draft.emails.map(\.value) == ["ada@example.com", "countess@example.org"])
        #expect(draft.phones.map(\.label) == ["work", "home", "fax", "pager", "cell"])
        #expect(draft.addresses == [
            PostalAddress(label: "home", extended: "Flat 2", street: "12 St James's Square", locality: "London", postalCode: "SW1Y 4JH", country: "United Kingdom"),
            PostalAddress(label: "work", locality: "Ockham"),
        ])
        #expect(draft.title == "Mathematician" && draft.department == "Research" && draft.organization == "Analytical Engines")
        #expect(draft.urls == [LabeledValue("https://example.com/ada", label: "work"), LabeledValue("https://ada.example", label: "home")])
        #expect(draft.dates == [ContactDate(label: ContactDate.birthday, year: 1815, month: 12, day: 10)])
        #expect(draft.note == "A note")
        #expect(draft.extras == ["X-CSV;X-COLUMN=Screen Name:ada_l", "X-CSV;X-COLUMN=Custom 1:Engines"])
        #expect(draft.issues().isEmpty)
    }
}
