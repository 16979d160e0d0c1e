@testable import CarnetInterchange
import CarnetModels
import CarnetTestSupport
import Foundation
import TestNeeds
import Testing

/// Group cards written by others (Tests/Fixtures/Groups, see SOURCES.md there): read as groups,
/// not people, and written back in the form they came in.
@Suite struct InterchangeGroupTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Groups")

    static func records(_ file: String) throws -> [InterchangeRecord] {
        try VCardReader.parse(try Data(contentsOf: directory.appendingPathComponent(file)))
    }

    @Test func applesGroupCardsAreGroups() throws {
        let records = try Self.records("apple-calendarserver-groups-3.0.vcf")
        #expect(records.map(\.draft.kind) == [.individual, .individual, .individual, .group, .group])
        let group2 = records[4]
        #expect(group2.draft.groupForm == .apple)
        #expect(group2.draft.members == ["card1", "card3", "foreign"])
        #expect(group2.draft.extras.isEmpty && group2.notes.isEmpty, "\(group2.draft.extras) \(group2.notes)")
        // N:group2;;;; is the card's own structured name; nothing is derived from "Group 2".
        #expect(group2.draft.normalized().nameParts == PersonName(family: "group2"))
    }

    @Test func vCard4GroupCardsAreGroups() throws {
        let records = try Self.records("rfc6350-group-4.0.vcf")
        let family = records[0]
        #expect(family.draft.kind == .group && family.draft.groupForm == .vcard4)
        #expect(family.draft.members == ["03a0e51f-d1aa-4385-8a53-e29025acd8af", "b8767877-b4a1-4c70-9acc-505d3819e519"])
        // Not name-parsed: "The Doe family" has no given or family name.
        #expect(family.draft.normalized().nameParts.isEmpty)
        #expect(records[1].draft.kind == .individual)
    }

    @Test func theKindIsReadWhateverItsCase() throws {
        let records = try Self.records("sabre-group-3.0.vcf")
        #expect(records.first?.draft.kind == .group && records.first?.draft.groupForm == .apple)
    }

    @Test func aGroupGoesOutInTheFormItCameIn() throws {
        for (file, version) in [("apple-calendarserver-groups-3.0.vcf", VCardVersion.v3), ("rfc6350-group-4.0.vcf", .v4)] {
            for record in try Self.records(file) {
                var saved = record
                saved.draft = try record.draft.validated()
                for written in [VCardVersion.v3, .v4] {
                    let card = VCardWriter.card(saved, version: written)
                    let again = try VCardReader.parse(Data(card.utf8))
                    #expect(again.count == 1)
                    #expect(try again[0].draft.validated() == saved.draft, "\(file) as \(written): \(card)")
                }
                let card = VCardWriter.card(saved, version: version)
                if saved.draft.kind == .group {
                    let kindLine = saved.draft.groupForm == .apple ? "X-ADDRESSBOOKSERVER-KIND:group\r\n" : "KIND:group\r\n"
                    #expect(card.contains(kindLine), "\(card)")
                    let memberName = saved.draft.groupForm == .apple ? "X-ADDRESSBOOKSERVER-MEMBER" : "MEMBER"
                    #expect(saved.draft.members.allSatisfy { card.contains("\r\n\(memberName):urn:uuid:\($0)\r\n") }, "\(card)")
                }
            }
        }
    }

    @Test func aNewGroupTakesTheFormOfTheVersionWritten() {
        var draft = ContactDraft(name: "Choir")
        draft.kind = .group
        draft.members = ["a-1"]
        #expect(VCardWriter.card(uid: "g", draft: draft, updatedAt: nil, version: .v4).contains("KIND:group\r\n"))
        #expect(VCardWriter.card(uid: "g", draft: draft, updatedAt: nil, version: .v4).contains("MEMBER:urn:uuid:a-1\r\n"))
        let v3 = VCardWriter.card(uid: "g", draft: draft, updatedAt: nil, version: .v3)
        #expect(v3.contains("X-ADDRESSBOOKSERVER-KIND:group\r\n") && v3.contains("X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:a-1\r\n"))
    }

    @Test func aMemberThatIsNoUUIDReferenceIsKeptVerbatim() throws {
        let text = "BEGIN:VCARD\r\nVERSION:4.0\r\nKIND:group\r\nFN:List\r\nMEMBER:mailto:list@example.com\r\nMEMBER:urn:uuid:x-1\r\nEND:VCARD\r\n"
        let record = try VCardReader.parse(Data(text.utf8))[0]
        #expect(record.draft.members == ["x-1"])
        #expect(record.draft.extras == ["MEMBER:mailto:list@example.com"])
        // MEMBER on a person's card is not a group's: kept as it came.
        let person = try VCardReader.parse(Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nMEMBER:urn:uuid:x-1\r\nEND:VCARD\r\n".utf8))[0]
        #expect(person.draft.kind == .individual && person.draft.members.isEmpty && person.draft.extras == ["MEMBER:urn:uuid:x-1"])
    }

    @Test func jsonCarriesAGroupAndLeavesAPersonAsItWas() throws {
        var draft = ContactDraft(name: "Family")
        draft.kind = .group
        draft.groupForm = .vcard4
        draft.members = ["a-1", "b-2"]
        let json = ContactJSON(uid: "family", draft: draft)
        let data = try ContactJSONCoding.encoder().encode(json)
        let back = try ContactJSONCoding.decoder().decode(ContactJSON.self, from: data)
        #expect(back.draft == draft)
        let person = String(decoding: try ContactJSONCoding.encoder().encode(ContactJSON(uid: "p", draft: ContactDraft(name: "Ada"))), as: UTF8.self)
        #expect(!person.contains("kind") && !person.contains("members"))
    }

    @Test(.enabled(if: VObjectReader.isAvailable, "needs python3 with python3-vobject on PATH (make deps installs it)"))
    func anotherParserReadsTheGroupCardsWritten() throws {
        var records = try Self.records("apple-calendarserver-groups-3.0.vcf") + Self.records("rfc6350-group-4.0.vcf")
        for i in records.indices { records[i].draft = try records[i].draft.validated() }
        for version in [VCardVersion.v3, .v4] {
            let text = records.map { VCardWriter.card($0, version: version) }.joined()
            let cards = try VObjectReader.cards(text)
            #expect(cards.count == records.count)
            for (card, record) in zip(cards, records) where record.draft.kind == .group {
                let apple = record.draft.groupForm == .apple
                #expect(card.first { $0.name == (apple ? "X-ADDRESSBOOKSERVER-KIND" : "KIND") }?.value == "group", "\(card)")
                #expect(card.filter { $0.name == (apple ? "X-ADDRESSBOOKSERVER-MEMBER" : "MEMBER") }.map(\.value)
                    == record.draft.members.map { "urn:uuid:" + $0 }, "\(card)")
            }
        }
    }

    /// A group card carrying both forms' markers (`KIND:group` and Apple's), as some servers and
    /// clients write them so that every reader takes it for a group, in either order.
    static let bothForms = [
        "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:urn:uuid:g-1\r\nKIND:group\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nFN:Choir\r\n"
            + "MEMBER:urn:uuid:a-1\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:a-1\r\nMEMBER:urn:uuid:b-2\r\n"
            + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:b-2\r\nEND:VCARD\r\n",
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:g-2\r\nFN:Band\r\nX-ADDRESSBOOKSERVER-KIND:group\r\nKIND:group\r\n"
            + "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:a-1\r\nMEMBER:urn:uuid:a-1\r\nEND:VCARD\r\n",
    ]

    @Test func aGroupCardWithBothFormsMarkersGoesOutWithEveryMarkerItCameWith() throws {
        for text in Self.bothForms {
            let read = try #require(try VCardReader.parse(Data(text.utf8)).first)
            #expect(read.draft.kind == .group)
            var saved = read
            saved.draft = try read.draft.validated()
            for version in [VCardVersion.v3, .v4] {
                // As an export writes it, and as a sync sends it back (in the order the server had it).
                let written = VCardWriter.card(saved, version: version)
                for card in [written, VCardWriter.card(written, orderedLike: text)] {
                    #expect(card.contains("\r\nKIND:group\r\n"), "\(version): \(card)")
                    #expect(card.contains("\r\nX-ADDRESSBOOKSERVER-KIND:group\r\n"), "\(version): \(card)")
                    for member in saved.draft.members {
                        #expect(card.contains("\r\nMEMBER:urn:uuid:\(member)\r\n"), "\(version): \(card)")
                        #expect(card.contains("\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:\(member)\r\n"), "\(version): \(card)")
                    }
                    #expect(!card.contains("X-CARNET-FORM"), "\(card)")
                }
                // Read again, it is the same group, and writes the same card.
                var again = try #require(try VCardReader.parse(Data(written.utf8)).first)
                again.draft = try again.draft.validated()
                #expect(again.draft == saved.draft, "\(version): \(written)")
                #expect(VCardWriter.card(again, version: version) == written)
            }
        }
    }

    /// khard reads `KIND`: a group card written with both markers is a group to it, not a person.
    @Test(.needs("khard"))
    func khardSeesAGroupCardWithBothFormsMarkersAsAGroup() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-khard-\(UUID().uuidString)")
        let vdir = root.appendingPathComponent("vdir")
        try FileManager.default.createDirectory(at: vdir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let config = root.appendingPathComponent("khard.conf")
        try Data("[addressbooks]\n[[groups]]\npath = \(vdir.path)\n[general]\ndefault_action = list\n".utf8).write(to: config)
        for text in Self.bothForms {
            var record = try #require(try VCardReader.parse(Data(text.utf8)).first)
            record.draft = try record.draft.validated()
            let uid = try #require(record.uid)
            for version in [VCardVersion.v3, .v4] {
                try Data(VCardWriter.card(record, version: version).utf8).write(to: vdir.appendingPathComponent(VDir.fileName(uid: uid)))
                let run = try ChildProcess.run(
                    TestTool.path("khard"), ["-c", config.path, "show", "--uid", uid],
                    environment: ["HOME": root.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
                let shown = String(decoding: run.stdout, as: UTF8.self)
                let errors = String(decoding: run.stderr, as: UTF8.self)
                #expect(run.status == 0, "\(errors)")
                #expect(shown.contains("Kind: group"), "\(version): \(shown) \(errors)")
            }
        }
    }
}
