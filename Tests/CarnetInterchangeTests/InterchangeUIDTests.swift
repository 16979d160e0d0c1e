import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// A UID is another client's name for a card: it goes out byte for byte as it came in, in every
/// version, or the vdir or server another client syncs sees each card deleted and made anew.
@Suite struct InterchangeUIDTests {
    static let uuid = "8e2c7a6f-3b1d-4c59-9b8e-1f0a2d3c4b5e"
    static let uidLines = ["UID:\(uuid)", "UID:urn:uuid:\(uuid)", "UID:khard-7f3a@example.org", "UID:urn:uuid:not-a-uuid"]

    /// A card as Carnet writes it in `version`, with `uidLine` for its UID line.
    static func card(_ uidLine: String, _ version: VCardVersion) -> String {
        var draft = ContactDraft(name: "Ada Lovelace", phone: "555 0100")
        draft.title = "Analyst"
        let written = VCardWriter.card(uid: "placeholder", draft: draft, updatedAt: Date(timeIntervalSince1970: 1_800_000_000), version: version)
        return written.split(separator: "\r\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("UID") ? Substring(uidLine) : $0 }.joined(separator: "\r\n")
    }

    @Test(arguments: uidLines, VCardVersion.allCases)
    func aUIDRoundTripsByteForByte(_ uidLine: String, _ version: VCardVersion) throws {
        let card = Self.card(uidLine, version)
        #expect(card.contains("\r\n\(uidLine)\r\n"))
        let record = try #require(try VCardReader.parse(card).first)
        #expect(record.uid == String(uidLine.dropFirst(4)))
        #expect(VCardWriter.card(record, version: version) == card)
    }

    /// The UID as it came, whatever version it is written in next (3.0 → 4.0 and back).
    @Test(arguments: uidLines) func aUIDIsTheSameInEveryVersion(_ uidLine: String) throws {
        let record = try #require(try VCardReader.parse(Self.card(uidLine, .v3)).first)
        for version in VCardVersion.allCases {
            #expect(VCardWriter.card(record, version: version).contains("\r\n\(uidLine)\r\n"), "\(version)")
        }
    }

    /// A text UID a 4.0 URI cannot hold as it is is written as text, escaped, and read back the same.
    @Test func aUIDWithSeparatorsIsTextIn4() throws {
        let uid = "odd; uid, with \\ separators"
        let card = VCardWriter.card(uid: uid, draft: ContactDraft(name: "Odd"), updatedAt: nil, version: .v4)
        #expect(card.contains("UID;VALUE=text:odd\\; uid\\, with \\\\ separators\r\n"))
        #expect(try VCardReader.parse(card).first?.uid == uid)
    }

    /// A vdir file is named from the UID; `urn:uuid:X` keeps the name `X.vcf` it had when Carnet
    /// read it as `X`, so a vdir exported before is written over, not doubled.
    @Test func vdirFileNamesStayStable() {
        #expect(VDir.fileName(uid: Self.uuid) == "\(Self.uuid).vcf")
        #expect(VDir.fileName(uid: "urn:uuid:\(Self.uuid)") == "\(Self.uuid).vcf")
        #expect(VDir.fileName(uid: "khard-7f3a@example.org") == "khard-7f3a@example.org.vcf")
    }

    /// What an import of a file read before matches as well: the UUID Carnet kept of `urn:uuid:`.
    @Test func theUIDAnEarlierImportKept() throws {
        let record = try #require(try VCardReader.parse(Self.card("UID:urn:uuid:\(Self.uuid)", .v4)).first)
        #expect(record.earlierUID == Self.uuid)
        let plain = try #require(try VCardReader.parse(Self.card("UID:\(Self.uuid)", .v4)).first)
        #expect(plain.earlierUID == nil)
    }

    @Test func aCardsVersionIsItsVERSIONLine() {
        #expect(VCardVersion(of: Self.card("UID:x", .v4)) == .v4)
        #expect(VCardVersion(of: Self.card("UID:x", .v3)) == .v3)
        #expect(VCardVersion(of: "BEGIN:VCARD\nversion: 2.1\nEND:VCARD\n") == .v21)
        #expect(VCardVersion(of: "BEGIN:VCARD\r\nFN:No version\r\nEND:VCARD\r\n") == nil)
    }
}

/// A card another client wrote goes back in its own order of properties.
@Suite struct InterchangeOrderTests {
    @Test func propertiesFollowThePreviousCardsOrder() {
        let previous = "BEGIN:VCARD\nVERSION:3.0\nUID:k1\nEMAIL;TYPE=home:a@b.example\nFN:Alan\nN:;Alan;;;\nNOTE:x\nTEL:1\nX-ORBIT:7\nEND:VCARD\n"
        var draft = ContactDraft(name: "Alan", phone: "2")
        draft.emails = [LabeledValue("a@b.example", label: "home")]
        draft.note = String(repeating: "long note ", count: 12)
        draft.extras = ["X-ORBIT:7"]
        draft.title = "New"
        let written = VCardWriter.card(uid: "k1", draft: draft, updatedAt: nil, version: .v3)
        let ordered = VCardWriter.card(written, orderedLike: previous)
        let names = ordered.components(separatedBy: "\r\n").filter { !$0.isEmpty && !$0.hasPrefix(" ") }.map { $0.prefix { $0 != ";" && $0 != ":" } }
        // PRODID follows VERSION and TITLE follows N, where Carnet writes them; the rest as before.
        #expect(names == ["BEGIN", "VERSION", "PRODID", "UID", "EMAIL", "FN", "N", "TITLE", "NOTE", "TEL", "X-ORBIT", "END"])
        // The same lines, folding and all, only moved.
        #expect(ordered.components(separatedBy: "\r\n").sorted() == written.components(separatedBy: "\r\n").sorted())
        #expect(ordered.contains("NOTE:long note") && ordered.contains("\r\n "))
    }
}
