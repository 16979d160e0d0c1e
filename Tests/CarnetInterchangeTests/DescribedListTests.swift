import CarnetModels
import Foundation
import Testing
@testable import CarnetInterchange

/// The lists of labelled values added by their entry alone (`ContactFields/vCardLists`: expertise,
/// hobbies, interests), through every format. Each test loops over the described lists, so a list
/// added later is held to the same: it comes back from vCard 4.0, 3.0 and 2.1, Carnet's CSV and
/// JSON, an LDIF export names it as not written, and vobject reads the card Carnet wrote.
@Suite struct DescribedListTests {
    typealias Described = (spec: ContactFieldSpec, keyPath: WritableKeyPath<ContactDraft, [LabeledValue]> & Sendable, vCard: VCardMapping)

    static var lists: [Described] { ContactFields.vCardLists }

    /// A draft holding three entries of the list: one with a known label typed in mixed case (a
    /// free one when the list knows none), one preferred without a label, one with a free label
    /// a parameter value must quote; values with the characters text escapes.
    static func draft(_ list: Described) -> ContactDraft {
        let known = list.spec.list?.kind.knownTypes.last.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? "Often"
        var draft = ContactDraft(name: "Ada Lovelace")
        draft[keyPath: list.keyPath] = [
            LabeledValue("Swift; and, C\\", label: known),
            LabeledValue("sailing", preferred: true),
            LabeledValue("knots", label: "Weekends, mostly"),
        ]
        return draft.normalized()
    }

    static func vCard(_ draft: ContactDraft, _ version: VCardVersion) throws -> (text: String, record: InterchangeRecord) {
        let text = VCardWriter.card(uid: "u-1", draft: draft, updatedAt: nil, version: version)
        let records = try recordsRead(VCardReader.self, Data(text.utf8), inChunksOf: 7)
        return (text, try #require(records.first))
    }

    @Test func theDescribedListsAreThere() {
        #expect(Set(Self.lists.map(\.spec.field)).isSuperset(of: [.expertise, .hobby, .interest]))
        #expect(Self.lists.allSatisfy { $0.vCard.labelParameter != nil && $0.spec.list != nil })
    }

    @Test func aKnownLabelIsSavedInLowerCase() throws {
        for list in Self.lists {
            let entries = Self.draft(list)[keyPath: list.keyPath]
            if let known = list.spec.list?.kind.knownTypes.last { #expect(entries[0].label == known, "\(list.spec.key)") }
            #expect(entries.map(\.preferred) == [false, true, false])
        }
    }

    @Test(arguments: VCardVersion.allCases)
    func everyDescribedListRoundTripsThroughVCard(version: VCardVersion) throws {
        for list in Self.lists {
            let draft = Self.draft(list)
            let (text, record) = try Self.vCard(draft, version)
            #expect(record.draft == draft, "\(list.spec.key) in \(version.rawValue):\n\(text)")
            #expect(record.draft.extras.isEmpty && record.notes.isEmpty, "\(record.notes)")
            let name = list.vCard.name(forVersion: version.rawValue)
            let parameter = try #require(list.vCard.labelParameter)
            let label = try #require(draft[keyPath: list.keyPath].first?.label)
            #expect(text.contains("\r\n\(name);\(parameter)=\(label):"), "\(text)")
            #expect(text.contains("\r\n\(name);\(parameter)=\"Weekends, mostly\":knots\r\n"), "\(text)")
            let preferred = switch version {
            case .v4: ";PREF=1:sailing"
            case .v3: ";TYPE=pref:sailing"
            case .v21: ";PREF:sailing"
            }
            #expect(text.contains("\r\n\(name)\(preferred)\r\n"), "\(text)")
            // Written again, the same bytes.
            #expect(VCardWriter.card(uid: "u-1", draft: record.draft, updatedAt: nil, version: version) == text)
        }
    }

    @Test(arguments: [VCardVersion.v4, .v3])
    func vobjectReadsTheDescribedListsAsCarnetMeantThem(version: VCardVersion) throws {
        guard VObjectReader.isAvailable else { return }
        var draft = ContactDraft(name: "Ada Lovelace")
        for list in Self.lists { draft[keyPath: list.keyPath] = Self.draft(list)[keyPath: list.keyPath] }
        let text = VCardWriter.card(uid: "u-1", draft: draft, updatedAt: nil, version: version)
        let card = try #require(try VObjectReader.cards(text).first)
        for list in Self.lists {
            let name = list.vCard.name(forVersion: version.rawValue)
            let parameter = try #require(list.vCard.labelParameter)
            let entries = draft[keyPath: list.keyPath]
            let seen = card.filter { $0.name == name }
            #expect(seen.map(\.value) == entries.map(\.value), "\(seen)")
            #expect(seen.map { $0.parameters[parameter]?.joined(separator: ",") ?? "" } == entries.map(\.label), "\(seen)")
            let preferred = seen.map { property in
                version == .v4 ? property.parameters["PREF"] == ["1"] : property.parameters["TYPE"]?.contains("pref") == true
            }
            #expect(preferred == entries.map(\.preferred), "\(seen)")
        }
    }

    static let handWritten = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nEXPERTISE;LEVEL=Expert:Swift\r\nEXPERTISE;INDEX=2;LEVEL=beginner:Rust\r\n"
        + "HOBBY;PREF=1:sailing\r\nINTEREST;LEVEL=low:astronomy\r\nEND:VCARD\r\n"

    @Test func aHandWrittenCardIsReadAndWhatItCannotSayIsKept() throws {
        let record = try #require(try recordsRead(VCardReader.self, Data(Self.handWritten.utf8), inChunksOf: 5).first)
        #expect(record.draft.expertise == [LabeledValue("Swift", label: "expert")])
        #expect(record.draft.hobbies == [LabeledValue("sailing", preferred: true)])
        #expect(record.draft.interests == [LabeledValue("astronomy", label: "low")])
        // RFC 6715's INDEX orders the entries, which the list's order already does: the line is kept as it came.
        #expect(record.draft.extras == ["EXPERTISE;INDEX=2;LEVEL=beginner:Rust"])
        #expect(record.refusals.map(\.message).contains { $0.contains("the INDEX parameter is not modelled") }, "\(record.notes)")
        #expect(record.draft.normalized().issues().isEmpty)
        // Written back: the entries in Carnet's form, the kept line as it came.
        let written = VCardWriter.card(uid: nil, draft: record.draft, updatedAt: nil, version: .v4)
        #expect(written.contains("\r\nEXPERTISE;LEVEL=expert:Swift\r\nHOBBY;PREF=1:sailing\r\nINTEREST;LEVEL=low:astronomy\r\n"), "\(written)")
        #expect(written.contains("\r\nEXPERTISE;INDEX=2;LEVEL=beginner:Rust\r\n"), "\(written)")
    }

    @Test func anEntryIsReadInEveryVersionUnderAnyCaseAndTheMostPreferredWins() throws {
        for version in ["2.1", "3.0", "4.0"] {
            let card = "BEGIN:VCARD\r\nVERSION:\(version)\r\nFN:Ada\r\nhobby;level=HIGH;PREF=2:chess\r\nHOBBY;TYPE=pref:go\r\n"
                + "HOBBY;VALUE=text;LEVEL=\"a; b\":cooking\\, baking\r\nEND:VCARD\r\n"
            let record = try #require(try recordsRead(VCardReader.self, Data(card.utf8), inChunksOf: 9).first)
            #expect(record.draft.hobbies == [
                LabeledValue("chess", label: "high"), LabeledValue("go", preferred: true), LabeledValue("cooking, baking", label: "a; b"),
            ], "\(version)")
            #expect(record.draft.extras.isEmpty, "\(record.notes)")
        }
    }

    @Test func whatAnEntryCannotSayKeepsTheLine() throws {
        let lines = [
            ("INTEREST;TYPE=work:astronomy", "its TYPE is not modelled"),
            ("INTEREST;LEVEL=high,low:astronomy", "more than one LEVEL"),
            ("INTEREST;LANGUAGE=en:astronomy", "the LANGUAGE parameter is not modelled"),
            ("INTEREST;VALUE=uri:http://example.com", "VALUE=uri"),
            ("INTEREST;LEVEL=low: ", "it is empty"),
            ("INTEREST:" + String(repeating: "a", count: 1000), "interest"),
        ]
        for (line, reason) in lines {
            let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\n\(line)\r\nEND:VCARD\r\n"
            let record = try #require(try recordsRead(VCardReader.self, Data(card.utf8), inChunksOf: 1 << 20).first)
            #expect(record.draft.interests.isEmpty, "\(line)")
            #expect(record.draft.extras == [line], "\(line)")
            #expect(record.refusals.first?.message.contains(reason) == true, "\(line): \(record.notes)")
        }
    }

    @Test func everyDescribedListRoundTripsThroughCSVAndJSON() throws {
        for list in Self.lists {
            let draft = Self.draft(list)
            let record = InterchangeRecord(uid: "u-1", draft: draft, updatedAt: nil)
            let csv = CSVWriter.header + CSVWriter.row(record)
            #expect(csv.split(separator: "\r\n").first?.split(separator: ",").contains(Substring(list.spec.key)) == true)
            #expect(try recordsRead(CSVReader.self, Data(csv.utf8), inChunksOf: 7).map(\.draft) == [draft], "\(csv)")
            let json = try ContactJSONCoding.encode([ContactJSON(uid: "u-1", draft: draft)])
            let text = String(decoding: json, as: UTF8.self)
            #expect(text.contains("\"\(list.spec.key)\" : ["), "\(text)")
            #expect(text.contains(#""preferred" : true"#))
            #expect(try ContactJSONCoding.decode(json).map(\.draft) == [draft])
            // A file written before the list: no key, no entries.
            #expect(try ContactJSONCoding.decode(Data(#"{"name":"Ada"}"#.utf8)).map { $0.draft[keyPath: list.keyPath] } == [[]])
        }
    }

    @Test func ldifHasNoAttributeForADescribedListAndSaysSo() {
        for list in Self.lists {
            let draft = Self.draft(list)
            #expect(!LDIFWriter.entry(draft).contains("sailing"))
            #expect(LDIFWriter.left(draft).contains(list.spec.label.lowercased()), "\(LDIFWriter.left(draft))")
            let others = Self.lists.filter { $0.spec !== list.spec }.map { $0.spec.label.lowercased() }
            #expect(!LDIFWriter.left(draft).contains { others.contains($0) })
        }
        #expect(LDIFWriter.left(ContactDraft(name: "Ada")).isEmpty)
    }
}
