import CarnetModels
import Foundation
import Testing
@testable import CarnetInterchange

/// The fields added by their entry alone (``ContactFields``), through every format: each comes
/// back from vCard 4.0, 3.0 and 2.1, Carnet's CSV, JSON, and LDIF where it has an attribute (an
/// export names it as not written otherwise), and another program's reader sees it as Carnet meant.
@Suite struct NewFieldTests {
    static let ada = ContactDraft(name: "Ada Lovelace", nameParts: PersonName(given: "Ada", family: "Lovelace"), pronouns: "she/her; they, them")

    static func vCard(_ draft: ContactDraft, _ version: VCardVersion) throws -> (text: String, back: ContactDraft) {
        let text = VCardWriter.card(uid: "u-1", draft: draft, updatedAt: nil, version: version)
        let records = try recordsRead(VCardReader.self, Data(text.utf8), inChunksOf: 1 << 20)
        return (text, try #require(records.first).draft)
    }

    @Test(arguments: VCardVersion.allCases)
    func pronounsRoundTripThroughVCard(version: VCardVersion) throws {
        let (text, back) = try Self.vCard(Self.ada, version)
        #expect(back == Self.ada)
        #expect(text.contains(version == .v4 ? "\r\nPRONOUNS:" : "\r\nX-PRONOUNS:"))
        if version != .v21, VObjectReader.isAvailable {
            let card = try #require(try VObjectReader.cards(text).first)
            let name = version == .v4 ? "PRONOUNS" : "X-PRONOUNS"
            #expect(card.first { $0.name == name }?.value == "she/her; they, them")
        }
    }

    @Test func pronounsAreReadUnderEitherNameInAnyVersionOnce() throws {
        for (line, version) in [("PRONOUNS:he/him", "3.0"), ("X-PRONOUNS:he/him", "4.0")] {
            let card = "BEGIN:VCARD\r\nVERSION:\(version)\r\nFN:Al\r\n\(line)\r\nX-PRONOUNS:ze/zir\r\nEND:VCARD\r\n"
            let record = try #require(try recordsRead(VCardReader.self, Data(card.utf8), inChunksOf: 64).first)
            #expect(record.draft.pronouns == "he/him")
            #expect(record.draft.extras == ["X-PRONOUNS:ze/zir"])
        }
    }

    @Test func pronounsRoundTripThroughCSVAndJSON() throws {
        let record = InterchangeRecord(uid: "u-1", draft: Self.ada, updatedAt: nil)
        let csv = CSVWriter.header + CSVWriter.row(record)
        #expect(csv.hasPrefix("uid,name,prefix,given,additional,family,suffix,nickname,pronouns,"))
        let fromCSV = try recordsRead(CSVReader.self, Data(csv.utf8), inChunksOf: 7)
        #expect(fromCSV.map(\.draft) == [Self.ada])
        let json = try ContactJSONCoding.encode([ContactJSON(uid: "u-1", draft: Self.ada)])
        #expect(String(decoding: json, as: UTF8.self).contains(#""pronouns" : "#))
        #expect(try ContactJSONCoding.decode(json).map(\.draft) == [Self.ada])
        // A file written before the field: no key, no pronouns.
        #expect(try ContactJSONCoding.decode(Data(#"{"name":"Ada"}"#.utf8)).map(\.draft.pronouns) == [""])
    }

    @Test func aPronounsColumnOfAnotherProgramIsRead() throws {
        let csv = "First Name,Last Name,Pronouns\r\nAda,Lovelace,she/her\r\n"
        let record = try #require(try recordsRead(CSVReader.self, Data(csv.utf8), inChunksOf: 1 << 20).first)
        #expect(record.draft.pronouns == "she/her")
    }

    @Test func ldifHasNoAttributeForPronounsAndSaysSo() {
        #expect(!LDIFWriter.entry(Self.ada).lowercased().contains("she/her"))
        #expect(LDIFWriter.left(Self.ada).contains("pronouns"))
    }
}
