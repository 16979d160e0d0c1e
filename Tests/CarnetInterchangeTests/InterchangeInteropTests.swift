import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// What Carnet writes, read by a parser Carnet did not write (Python's vobject): every value
/// comes out as Carnet meant it, in every version another program reads as a modern vCard.
@Suite(.enabled(if: VObjectReader.isAvailable, "needs /usr/bin/python3 with python3-vobject"))
struct InterchangeInteropTests {
    @Test(arguments: [VCardVersion.v3, .v4]) func everyComponentOfAStructuredValueIsEscaped(version: VCardVersion) throws {
        let draft = ContactDraft(
            name: "T", nameParts: PersonName(prefix: "Dr; h.c.", given: "Ann, Marie", family: "Smith; Jones", suffix: "a\\b"),
            organization: "Smith; Jones LLP", department: "Sales; EMEA",
            addresses: [
                PostalAddress(
                    label: "work", poBox: "Box 1; 2", extended: "c/o A, B", street: "1 Main St; Rear", locality: "Town\\ship",
                    region: "R", postalCode: "1", country: "X; Y")
            ])
        let text = VCardWriter.card(uid: "u1", draft: draft, updatedAt: nil, version: version)
        #expect(text.contains("\r\nORG:Smith\\; Jones LLP;Sales\\; EMEA\r\n"), "\(text)")
        let card = try #require(try VObjectReader.cards(text).first)
        #expect(card.named("ORG").map(\.values) == [["Smith; Jones LLP", "Sales; EMEA"]])
        #expect(card.named("N").map(\.values) == [["Smith; Jones", "Ann, Marie", "", "Dr; h.c.", "a\\b"]])
        #expect(card.named("ADR").map(\.values) == [["Box 1; 2", "c/o A, B", "1 Main St; Rear", "Town\\ship", "R", "1", "X; Y"]])
        // And Carnet reads its own output back as the same contact.
        #expect(try VCardReader.parse(text).first?.draft == draft)
    }
}
