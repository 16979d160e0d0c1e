import CarnetModels
import Foundation
import Testing
@testable import CarnetInterchange

/// The fields added by their entry alone (``ContactFields``), through every format: each comes
/// back from vCard 4.0, 3.0 and 2.1, Carnet's CSV, JSON, and LDIF where it has an attribute (an
/// export names it as not written otherwise), and another program's reader sees it as Carnet meant.
@Suite struct DescribedFieldFormatTests {
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
        #expect(csv.hasPrefix("uid,name,prefix,given,additional,family,suffix,nickname,pronouns,gender,"))
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

    // MARK: gender

    /// A sex and an identity with a `;` and a `,` in it: each component escaped on the way out.
    static let sam = ContactDraft(name: "Sam Doe", gender: "O;two-spirit; mostly, or not")

    @Test(arguments: VCardVersion.allCases)
    func genderRoundTripsThroughVCardWithItsComponentsEscaped(version: VCardVersion) throws {
        for draft in [Self.sam, ContactDraft(name: "Al", gender: "M"), ContactDraft(name: "Bo", gender: ";agender")] {
            let (text, back) = try Self.vCard(draft, version)
            #expect(back == draft, "\(text)")
            #expect(back.extras.isEmpty)
        }
        let (text, _) = try Self.vCard(Self.sam, version)
        let name = "GENDER"
        // 2.1 escapes only `;` and `\`.
        let comma = version == .v21 ? "," : "\\,"
        #expect(text.contains("\r\n\(name):O;two-spirit\\; mostly\(comma) or not\r\n"), "\(text)")
        if version != .v21, VObjectReader.isAvailable {
            let card = try #require(try VObjectReader.cards(text).first)
            // vobject reads a property it has no rule for as one text, unescaped: nothing is lost or doubled.
            #expect(card.first { $0.name == name }?.value == "O;two-spirit; mostly, or not")
        }
    }

    @Test func anImportedGenderBecomesTheFieldAndIsNotAlsoKept() throws {
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Al\r\nGENDER:f;Woman\r\nGENDER:M\r\nX-GENDER:male\r\nEND:VCARD\r\n"
        let record = try #require(try recordsRead(VCardReader.self, Data(card.utf8), inChunksOf: 5).first)
        #expect(record.draft.normalized().gender == "F;Woman")
        // A second GENDER is kept as it came, as any second value is; X-GENDER is another program's.
        #expect(record.draft.extras == ["GENDER:M", "X-GENDER:male"])
        let broken = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Al\r\nGENDER:Q;robot\r\nEND:VCARD\r\n"
        let kept = try #require(try recordsRead(VCardReader.self, Data(broken.utf8), inChunksOf: 1 << 20).first)
        #expect(kept.draft.gender == "" && kept.draft.extras == ["GENDER:Q;robot"])
        #expect(kept.refusals.first?.message.contains("gender must be M, F, O, N or U") == true, "\(kept.notes)")
    }

    /// vCard's `GENDER` says its sex first: `GENDER:Q` is a sex that is not one of vCard's
    /// letters, not an identity, so it is kept as it came (docs/cli.md), never rewritten `;Q`.
    @Test(arguments: VCardVersion.allCases)
    func aGenderWhoseSexIsNoVCardLetterIsKeptAndWrittenBackAsItCame(version: VCardVersion) throws {
        let card = "BEGIN:VCARD\r\nVERSION:\(version.rawValue)\r\nFN:Al\r\nGENDER:Q\r\nEND:VCARD\r\n"
        let record = try #require(try recordsRead(VCardReader.self, Data(card.utf8), inChunksOf: 7).first)
        #expect(record.draft.gender == "" && record.draft.extras == ["GENDER:Q"], "\(record.draft)")
        #expect(record.refusals.first?.message.contains("gender must be M, F, O, N or U") == true, "\(record.notes)")
        let written = VCardWriter.card(uid: "u-1", draft: try record.draft.validated(), updatedAt: nil, version: version)
        #expect(written.contains("\r\nGENDER:Q\r\n") && !written.contains("GENDER:;"), "\(written)")
        // A sex letter alone, in any case, is still the field.
        let letter = "BEGIN:VCARD\r\nVERSION:\(version.rawValue)\r\nFN:Al\r\nGENDER:f\r\nEND:VCARD\r\n"
        let read = try #require(try recordsRead(VCardReader.self, Data(letter.utf8), inChunksOf: 7).first)
        #expect(try read.draft.validated().gender == "F" && read.draft.extras.isEmpty, "\(read.draft)")
    }

    @Test func genderIsSavedInOneForm() {
        for (typed, saved) in [("f", "F"), ("female", "F"), ("o ; non-binary ", "O;non-binary"), ("agender", ";agender"), ("M;", "M")] {
            let draft = ContactDraft(name: "Al", gender: typed).normalized()
            #expect(draft.gender == saved, "\(typed)")
            #expect(draft.issues().isEmpty, "\(typed)")
        }
        #expect(ContactDraft(name: "Al", gender: "X;robot").normalized().issues().map(\.field) == [.gender])
    }

    @Test func genderRoundTripsThroughCSVAndJSONAndOutlooksColumnIsKept() throws {
        let record = InterchangeRecord(uid: "u-1", draft: Self.sam, updatedAt: nil)
        let csv = CSVWriter.header + CSVWriter.row(record)
        #expect(try recordsRead(CSVReader.self, Data(csv.utf8), inChunksOf: 3).map(\.draft) == [Self.sam])
        let json = try ContactJSONCoding.encode([ContactJSON(uid: "u-1", draft: Self.sam)])
        #expect(try ContactJSONCoding.decode(json).map(\.draft) == [Self.sam])
        // Outlook's and Google's Gender column (Female, Unspecified, male) says something else
        // than vCard's: it is kept as it came, not read as the field.
        let outlook = "First Name,Last Name,Gender\r\nAl,Smith,Unspecified\r\n"
        let read = try #require(try recordsRead(CSVReader.self, Data(outlook.utf8), inChunksOf: 1 << 20).first)
        #expect(read.draft.gender == "" && read.draft.extras == ["X-CSV;X-COLUMN=Gender:Unspecified"])
    }

    @Test func ldifHasNoAttributeForGenderAndSaysSo() {
        #expect(!LDIFWriter.entry(Self.sam).contains("two-spirit"))
        #expect(LDIFWriter.left(Self.sam).contains("gender"))
    }
}
