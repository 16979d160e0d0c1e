import CarnetInterchange
import CarnetModels
import Foundation
import Testing

@Suite struct InterchangeJSONTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52])
    static let created = Date(timeIntervalSince1970: 1_763_888_107_001 / 1000)
    static let updated = Date(timeIntervalSince1970: 1_795_424_107_123 / 1000)

    static let contacts = [
        Contact(
            id: 1, uid: "0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11", name: "Rebecca Rogers", position: "Head of HR, Globaviations",
            email: "rebecca@example.com", phone: "+1 (555) 010-0199", photo: png, createdAt: created, updatedAt: updated,
            version: 3),
        Contact(
            id: 2, uid: "u-2", name: "Zoë \"Z\" Müller", position: "", email: "", phone: "", photo: nil,
            createdAt: created, updatedAt: created, version: 1),
    ]

    /// Every key the documentation of `ContactJSON` lists, in the sorted order they are written.
    static let keys = [
        "additional", "addresses", "categories", "createdAt", "dates", "department", "emails", "expertise", "extras", "family",
        "favorite", "gender", "given", "handles", "hobbies", "id", "interests", "name", "nickname", "note", "organization", "phones", "photo", "prefix",
        "pronouns", "role", "suffix", "title", "uid", "updatedAt", "urls", "version",
    ]

    @Test func encodesTheDocumentedSchema() throws {
        let json = String(decoding: try ContactJSONCoding.encode([ContactJSON(contact: Self.contacts[1], favorite: true)]), as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]).first
        #expect(object.map { $0.keys.sorted() } == Self.keys)
        #expect(Set(Self.keys).isSuperset(of: ContactFields.all.map(\.key)))
        #expect(object?["photo"] is NSNull)
        #expect(object?["emails"] as? [Any] != nil && object?["note"] as? String == "")
        #expect(json.contains(#""createdAt" : "2025-11-23T08:55:07.001Z""#))
        #expect(json.contains(#""favorite" : true"#))
        // Keys sorted, so diffs of two exports are readable.
        let offsets = Self.keys.map { json.range(of: "\"\($0)\" :")!.lowerBound }
        #expect(offsets == offsets.sorted())
    }

    @Test func writesListsAsObjects() throws {
        let contact = Contact(
            id: 1, uid: RichContact.uid, draft: RichContact.draft, createdAt: RichContact.updated, updatedAt: RichContact.updated,
            version: 2)
        let data = try ContactJSONCoding.encode([ContactJSON(contact: contact, favorite: false)])
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]]).first
        let emails = try #require(object?["emails"] as? [[String: Any]])
        #expect(emails.first?["label"] as? String == "work" && emails.first?["value"] as? String == "ada@example.com")
        #expect(emails.first?["preferred"] as? Bool == true)
        let addresses = try #require(object?["addresses"] as? [[String: Any]])
        #expect(addresses.first.map { $0.keys.sorted() } == [
            "country", "extended", "label", "locality", "poBox", "postalCode", "preferred", "region", "street",
        ])
        let dates = try #require(object?["dates"] as? [[String: String]])
        #expect(dates == [
            ["label": "birthday", "date": "1815-12-10"], ["label": "anniversary", "date": "--07-08"],
            ["label": "graduation", "date": "1833-06-05"],
        ])
        #expect(object?["categories"] as? [String] == ["friends", "Mathematicians, famous"])
        #expect(object?["extras"] as? [String] == RichContact.draft.extras)
    }

    @Test func roundTripsContactsAtMillisecondPrecision() throws {
        let items = Self.contacts.enumerated().map { ContactJSON(contact: $1, favorite: $0 == 0) }
        let data = try ContactJSONCoding.encode(items)
        let decoded = try ContactJSONCoding.decoder().decode([ContactJSON].self, from: data)
        #expect(decoded == items)
        #expect(try ContactJSONCoding.encode(decoded) == data)

        let records = try ContactJSONCoding.decode(data)
        #expect(records.map(\.uid) == Self.contacts.map(\.uid))
        #expect(records.map(\.draft) == Self.contacts.map(\.draft))
        #expect(records.map(\.updatedAt) == Self.contacts.map(\.updatedAt))
        // Pretty-printed: "[", then each object starts on its own line.
        let text = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
        let starts = text.indices.filter { text[$0] == "  {" }.map { $0 + 1 }
        #expect(records.map(\.line) == starts)
        #expect(starts.first == 2)
    }

    @Test func roundTripsARichContactByteForByte() throws {
        let contact = Contact(
            id: 7, uid: RichContact.uid, draft: RichContact.draft, createdAt: RichContact.updated, updatedAt: RichContact.updated,
            version: 3)
        let data = try ContactJSONCoding.encode([ContactJSON(contact: contact, favorite: true)])
        let records = try ContactJSONCoding.decode(data)
        #expect(records == [
            InterchangeRecord(
                uid: RichContact.uid, draft: RichContact.draft, updatedAt: RichContact.updated, line: 2, id: 7,
                createdAt: RichContact.updated, version: 3, favorite: true),
        ])
        let again = try ContactJSONCoding.encode(records.map {
            ContactJSON(id: $0.id, uid: $0.uid, draft: $0.draft, favorite: $0.favorite, createdAt: $0.createdAt, updatedAt: $0.updatedAt, version: $0.version)
        })
        #expect(again == data)
    }

    @Test func readsFilesOfTheFirstSchema() throws {
        let text = """
            [
              {"createdAt": "2026-11-23T08:55:07.123Z", "email": "rebecca@example.com", "favorite": false, "id": 1,
               "name": "Rebecca Rogers", "phone": "+1 555 0100", "photo": null, "position": "Head of HR, Globaviations",
               "uid": "u-1", "updatedAt": "2026-11-23T08:55:07.123Z", "version": 1},
              {"name": "Tyler Porter", "position": "Software developer", "email": "", "phone": ""}
            ]
            """
        let records = try ContactJSONCoding.decode(Data(text.utf8))
        #expect(records.map(\.draft) == [
            ContactDraft(
                name: "Rebecca Rogers", organization: "Globaviations", title: "Head of HR",
                emails: [LabeledValue("rebecca@example.com", preferred: true)], phones: [LabeledValue("+1 555 0100", preferred: true)]),
            ContactDraft(name: "Tyler Porter", title: "Software developer"),
        ])
        #expect(records.map(\.line) == [2, 5])
    }

    @Test func readsEntriesWrittenByHandWithOnlyTheirValue() throws {
        let text = #"[{"given": "Ada", "family": "Lovelace", "emails": [{"value": "ada@example.com"}], "dates": [{"date": "--12-10"}]}]"#
        let record = try #require(try ContactJSONCoding.decode(Data(text.utf8)).first)
        #expect(record.draft.emails == [LabeledValue("ada@example.com")])
        #expect(record.draft.dates == [ContactDate(label: "", month: 12, day: 10)])
        #expect(record.draft.normalized().name == "Ada Lovelace")
        let bad = "[{\"name\": \"A\",\n\"dates\": [{\"label\": \"birthday\", \"date\": \"10/12/1815\"}]}]"
        let error = #expect(throws: InterchangeError.self) { try ContactJSONCoding.decode(Data(bad.utf8)) }
        #expect(error?.line == 2)
        #expect(error?.message.contains("10/12/1815") == true, "\(String(describing: error))")
    }

    @Test func readsHandWrittenJSONWithOnlyAName() throws {
        let text = """
            [
              {"name": "Ann", "email": "ann@example.com"},
              {"name": "Bob", "uid": "", "photo": null, "updatedAt": "2026-11-23T08:55:07Z"}
            ]
            """
        #expect(try ContactJSONCoding.decode(Data(text.utf8)) == [
            InterchangeRecord(draft: ContactDraft(name: "Ann", email: "ann@example.com"), line: 2),
            InterchangeRecord(
                draft: ContactDraft(name: "Bob"), updatedAt: Date(timeIntervalSince1970: 1_795_424_107), line: 3),
        ])
    }

    @Test func readsASingleObject() throws {
        let text = "\n{\"name\": \"Solo\", \"photo\": \"iVBORw0KGgoAAAANSUhEUg==\"}\n"
        #expect(try ContactJSONCoding.decode(Data(text.utf8)) == [
            InterchangeRecord(draft: ContactDraft(name: "Solo", photo: Self.png), line: 2),
        ])
    }

    @Test func reportsAMissingNameAtItsObject() {
        let text = "[\n  {\"name\": \"A\"},\n  {\n    \"email\": \"b@c.d\"\n  }\n]"
        #expect(throws: InterchangeError(line: 3, message: #"the contact has no "name""#)) {
            try ContactJSONCoding.decode(Data(text.utf8))
        }
    }

    @Test func reportsAWrongValueAtItsKey() {
        let text = "[\n  {\n    \"name\": \"A\",\n    \"phone\": 5550100\n  }\n]"
        #expect(throws: InterchangeError(line: 4, message: #""phone" must be a string"#)) {
            try ContactJSONCoding.decode(Data(text.utf8))
        }
        let null = "[{\"name\": \"A\"},\n{\"name\": null}]"
        #expect(throws: InterchangeError(line: 2, message: #""name" must not be null (expected a string)"#)) {
            try ContactJSONCoding.decode(Data(null.utf8))
        }
        let photo = "[{\"name\": \"A\",\n\"photo\": \"@@@\"}]"
        let error = #expect(throws: InterchangeError.self) { try ContactJSONCoding.decode(Data(photo.utf8)) }
        #expect(error?.line == 2)
        #expect(error?.message.hasPrefix("\"photo\"") == true, "\(String(describing: error))")
        let date = "[{\"name\": \"A\",\n\n\"updatedAt\": \"soon\"}]"
        #expect(throws: InterchangeError(
            line: 3, message: #""updatedAt": "soon" is not an ISO 8601 date (write it like 2026-11-23T08:55:07.123Z)"#)
        ) {
            try ContactJSONCoding.decode(Data(date.utf8))
        }
    }

    /// The records of `text` as an import reads them: through the streaming reader, which names
    /// each contact by its place in the array.
    static func imported(_ text: String) throws(InterchangeError) -> [InterchangeRecord] {
        var reader = ContactJSONReader()
        var records: [InterchangeRecord] = []
        for result in reader.feed(text: text) { records.append(try result.get()) }
        if let last = try reader.finish() { records.append(last) }
        return records
    }

    /// JSON readers disagree on a repeated key (Foundation kept the first, Python, JavaScript and
    /// jq keep the last): which value the person meant cannot be known, so it is an error naming
    /// the contact, the key and the line of the repeat.
    @Test func aRepeatedKeyIsAnErrorNamingTheContactTheKeyAndItsLine() {
        let text = "[\n  {\"name\": \"A\"},\n  {\n    \"name\": \"A\",\n    \"name\": \"B\"\n  }\n]"
        #expect(throws: InterchangeError(line: 5, message: #"contact 2: "name" is given twice (first on line 4): write it once"#)) {
            try Self.imported(text)
        }
        #expect(throws: InterchangeError(line: 5, message: #"contact 2: "name" is given twice (first on line 4): write it once"#)) {
            try ContactJSONCoding.decode(Data(text.utf8))
        }
        // Inside an entry too.
        let entry = "[{\"name\": \"A\",\n \"emails\": [{\"value\": \"a@b.c\",\n \"value\": \"d@e.f\"}]}]"
        #expect(throws: InterchangeError(line: 3, message: #"contact 1: "value" is given twice (first on line 2): write it once"#)) {
            try Self.imported(entry)
        }
    }

    /// A key Carnet does not read is never dropped without a word: the contact is refused,
    /// naming the key, its line, and the key it was likely meant to be.
    @Test func anUnknownKeyIsAnErrorNamingTheContactTheKeyAndItsLine() throws {
        let text = "[\n  {\"name\": \"A\"},\n  {\n    \"name\": \"B\",\n    \"emial\": \"x@y.z\"\n  }\n]"
        let error = #expect(throws: InterchangeError.self) { try Self.imported(text) }
        #expect(error?.line == 5)
        #expect(error?.message.hasPrefix(#"contact 2: "emial" is not a key Carnet reads (did you mean "email"?)"#) == true, "\(String(describing: error))")
        let other = "{\"name\": \"A\",\n\"mood\": {\"today\": 1}}"
        let unknown = #expect(throws: InterchangeError.self) { try ContactJSONCoding.decode(Data(other.utf8)) }
        #expect(unknown?.line == 2)
        #expect(unknown?.message.hasPrefix(#""mood" is not a key Carnet reads"#) == true, "\(String(describing: unknown))")
        // Every key Carnet writes, the first schema's and a group's are read.
        var group = ContactDraft(name: "G")
        group.kind = .group
        group.groupForm = .vcard4
        group.members = ["a"]
        var json = ContactJSON(id: 1, uid: "g", draft: group, favorite: false, createdAt: Date(), updatedAt: Date(), version: 1)
        json.groups = ["Band"]
        #expect(try ContactJSONCoding.decode(try ContactJSONCoding.encode([json])).count == 1)
        let first = #"[{"name": "A", "position": "Engineer, Acme", "email": "a@b.c", "phone": "+1 555 0100"}]"#
        #expect(try Self.imported(first).count == 1)
    }

    @Test func reportsSyntaxErrorsWithTheirLine() {
        #expect(throws: InterchangeError(line: 3, message: "not valid JSON: expected ',' or '}', found '\"email\": \"b@'")) {
            try ContactJSONCoding.decode(Data("[\n  {\"name\": \"A\"},\n  {\"name\": \"B\" \"email\": \"b@c.d\"}\n]".utf8))
        }
        #expect(throws: InterchangeError(line: 3, message: "not valid JSON: expected ',' or ']', found the end of the file")) {
            try ContactJSONCoding.decode(Data("[\n{\"name\": \"A\"}\n".utf8))
        }
        #expect(throws: InterchangeError(line: 1, message: "expected an array of contacts")) {
            try ContactJSONCoding.decode(Data("\"contacts\"".utf8))
        }
        #expect(throws: InterchangeError(line: 2, message: "expected a contact object")) {
            try ContactJSONCoding.decode(Data("[{\"name\": \"A\"},\n 42]".utf8))
        }
        #expect(throws: InterchangeError(line: 1, message: "not valid JSON: the file is empty")) {
            try ContactJSONCoding.decode(Data())
        }
    }

    @Test func theRecordOfAContactKeepsWhatAnImportUses() {
        let record = ContactJSON(contact: Self.contacts[0], favorite: false).record
        let contact = Self.contacts[0]
        #expect(record == InterchangeRecord(
            uid: contact.uid, draft: contact.draft, updatedAt: Self.updated, line: 1,
            id: contact.id, createdAt: contact.createdAt, version: contact.version, favorite: false))
    }
}

@Suite struct InterchangeFormatTests {
    @Test func choosesTheFormatFromTheExtension() {
        #expect(InterchangeFormat(fileExtension: "vcf") == .vcf)
        #expect(InterchangeFormat(fileExtension: ".VCard") == .vcf)
        #expect(InterchangeFormat(fileExtension: "CSV") == .csv)
        #expect(InterchangeFormat(fileExtension: "json") == .json)
        #expect(InterchangeFormat(fileExtension: "txt") == nil)
        #expect(InterchangeFormat(fileExtension: "") == nil)
    }

    @Test func errorsSayTheirLine() {
        #expect(InterchangeError(line: 12, message: "PHOTO is not valid base64").description == "line 12: PHOTO is not valid base64")
    }

    @Test(arguments: [
        ("20261123T085507Z", 1_795_424_107_000),
        ("2026-11-23T08:55:07Z", 1_795_424_107_000),
        ("2026-11-23T08:55:07.123Z", 1_795_424_107_123),
        ("2026-11-23 09:55:07.1234+01:00", 1_795_424_107_123),
        ("20261123T035507-0500", 1_795_424_107_000),
        ("2026-11-23T08:55Z", 1_795_424_100_000),
        ("2026-11-23", 1_795_392_000_000),
    ])
    func readsRevisionTimestampsInTheirCommonForms(text: String, milliseconds: Int64) throws {
        let card = "BEGIN:VCARD\nFN:A\nREV:\(text)\nEND:VCARD\n"
        let record = try #require(try VCardReader.parse(card).first)
        #expect(record.updatedAt == Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}

/// The one description of a contact's fields names the CSV columns and the JSON keys.
@Suite struct FieldKeysTests {
    @Test func csvColumnsAndJSONKeysAreTheFieldKeys() throws {
        #expect(CSVWriter.header == "uid," + ContactFields.all.map(\.key).joined(separator: ",") + ",updated_at\r\n")
        let json = try ContactJSONCoding.encoder().encode(ContactJSON(draft: ContactDraft(name: "Ada")))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object.keys) == Set(ContactFields.all.map(\.key)).union(["id", "uid", "favorite", "createdAt", "updatedAt", "version"]))
    }
}
