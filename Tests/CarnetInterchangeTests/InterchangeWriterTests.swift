import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// Each format's writer is read back by its own reader: the CLI's export streams every format
/// through the one `InterchangeWriter` protocol.
@Suite struct InterchangeWriterTests {
    static let contacts = [
        Contact(id: 1, uid: RichContact.uid, draft: RichContact.draft, createdAt: RichContact.updated, updatedAt: RichContact.updated, version: 1),
        Contact(
            id: 2, uid: "grace", draft: ContactDraft(name: "Grace Hopper", email: "grace@navy.example"), createdAt: RichContact.updated,
            updatedAt: RichContact.updated, version: 3),
    ]

    static func written(_ format: InterchangeFormat) throws -> String {
        var writer = format.writer(vCardVersion: .v4)
        var text = writer.header
        for contact in contacts { text += try writer.entry(contact, favorite: contact.id == 2) ?? "" }
        return text + writer.footer()
    }

    static func read(_ text: String, with reader: some ChunkReader) throws -> [InterchangeRecord] {
        var reader = reader
        var records = try reader.feed(Data(text.utf8)).map { try $0.get() }
        records += try reader.finishAll()
        return records
    }

    @Test func vCardCSVAndJSONComeBackAsTheyWent() throws {
        let vcf = try Self.read(try Self.written(.vcf), with: VCardReader())
        let csv = try Self.read(try Self.written(.csv), with: CSVReader())
        let json = try Self.read(try Self.written(.json), with: ContactJSONReader())
        for records in [vcf, csv, json] {
            #expect(records.map(\.uid) == Self.contacts.map(\.uid))
            #expect(records.map(\.draft.name) == Self.contacts.map(\.name))
            #expect(records.map(\.draft.emails) == Self.contacts.map(\.draft.emails))
        }
        #expect(json.map(\.favorite) == [false, true])
    }

    @Test func theJSONArrayIsFramedOnceAndEmptyIsEmpty() throws {
        let empty = InterchangeFormat.json.writer()
        #expect(empty.header + empty.footer() == "[\n]\n")
        let json = try Self.written(.json)
        #expect(json.hasPrefix("[\n{") && json.hasSuffix("}\n]\n") && json.components(separatedBy: ",\n{").count == 2)
    }

    /// LDIF has no room for some of a rich contact: the writer names each, and the entry reads back.
    @Test func ldifNamesWhatItCannotHold() throws {
        let writer = InterchangeFormat.ldif.writer()
        let notes = writer.notes(on: Self.contacts[0])
        #expect(!notes.isEmpty && notes.allSatisfy { $0.kind == .notWritten && $0.text.hasSuffix("not written: LDIF has no attribute for it") })
        let records = try Self.read(try Self.written(.ldif), with: LDIFReader())
        #expect(records.map(\.uid) == Self.contacts.map(\.uid))
    }

    /// A group card has no row in a table of people; vCard and JSON carry it, and LDIF as
    /// Thunderbird's mailing list, naming the members it has no DN for.
    @Test func aGroupIsACardButNoRow() throws {
        var group = ContactDraft(name: "Climbing club")
        group.kind = .group
        group.members = ["ada", "zoe"]
        let card = Contact(id: 3, uid: "club", draft: group, createdAt: RichContact.updated, updatedAt: RichContact.updated, version: 1)
        var csv = InterchangeFormat.csv.writer()
        #expect(try csv.entry(card, favorite: false) == nil)
        var ldif = InterchangeFormat.ldif.writer()
        let entry = try #require(try ldif.entry(card, favorite: false))
        #expect(entry.contains("objectclass: groupOfNames\n") && entry.contains("cn: Climbing club\n"), "\(entry)")
        #expect(ldif.notes(on: card).map(\.description) == ["ada", "zoe"].map {
            "member \($0) not written: LDIF names a member by its entry's DN, and it has no entry in this file"
        })
        // A member written before the group in the same file is named by its entry's DN.
        var withAda = InterchangeFormat.ldif.writer()
        let ada = Contact(
            id: 1, uid: "urn:uuid:ada", draft: ContactDraft(name: "Ada", emails: [LabeledValue("ada@example.com")]),
            createdAt: RichContact.updated, updatedAt: RichContact.updated, version: 1)
        _ = try withAda.entry(ada, favorite: false)
        #expect(try withAda.entry(card, favorite: false)?.contains("\nmember: cn=Ada,mail=ada@example.com\n") == true)
        #expect(withAda.notes(on: card).map(\.description) == [
            "member zoe not written: LDIF names a member by its entry's DN, and it has no entry in this file",
        ])
        for format in [InterchangeFormat.vcf, .json] {
            var writer = format.writer()
            #expect(try writer.entry(card, favorite: false)?.contains("Climbing club") == true)
        }
        // Told the groups' members, the writer keeps only their DNs and writes the same file.
        var told = InterchangeFormat.ldif.writer(groupMembers: ["ada", "zoe"])
        var all = InterchangeFormat.ldif.writer()
        let grace = Contact(
            id: 2, uid: "grace", draft: ContactDraft(name: "Grace", emails: [LabeledValue("grace@example.com")]),
            createdAt: RichContact.updated, updatedAt: RichContact.updated, version: 1)
        for contact in [ada, grace, card] {
            let fromTold = try told.entry(contact, favorite: false)
            #expect(fromTold == (try all.entry(contact, favorite: false)))
            #expect(told.notes(on: contact) == all.notes(on: contact))
        }
    }
}
