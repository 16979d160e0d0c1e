import CarnetModels
import Foundation
import Testing

@Suite struct ValidationTests {
    @Test func aGoodDraftHasNoIssuesAndIsTrimmed() throws {
        let draft = ContactDraft(name: " Rebecca Rogers\n", position: " HR, Globaviations ", email: "rebecca@example.com", phone: "+1 (555) 010-0199")
        #expect(draft.issues().isEmpty)
        #expect(try draft.validated().name == "Rebecca Rogers")
        #expect(try draft.validated().position == "HR, Globaviations")
    }

    @Test(arguments: ["", "   ", "\t\n"]) func blankNamesAreRefused(name: String) {
        #expect(ContactDraft(name: name).issues() == [FieldIssue(.name, "is required and must not be blank")])
    }

    @Test(arguments: ["plain", "a@b", "@example.com", "a b@example.com", "a@@example.com", "a@example..com", "a@.com"])
    func malformedEmailsAreRefused(email: String) {
        #expect(ContactDraft(name: "X", email: email).issues().map(\.field) == [.email])
    }

    @Test(arguments: ["555-CALL", "12 34 ext 5", "+", "()"]) func phonesWithLettersOrNoDigitsAreRefused(phone: String) {
        #expect(ContactDraft(name: "X", phone: phone).issues().map(\.field) == [.phone])
    }

    @Test func controlCharactersAreRefused() {
        #expect(ContactDraft(name: "Nul\u{0}Byte").issues().map(\.field) == [.name])
        #expect(ContactDraft(name: "Two\nLines").issues().map(\.field) == [.name])
        #expect(QuoteDraft(text: "Two\nlines are fine").issues().isEmpty)
        #expect(QuoteDraft(text: "but not\u{0}this").issues().map(\.field) == [.text])
    }

    @Test func lengthsCountUnicodeScalarsLikeSQLite() {
        let exact = String(repeating: "é", count: Limits.nameLength)
        #expect(ContactDraft(name: exact).issues().isEmpty)
        #expect(ContactDraft(name: exact + "é").issues().map(\.field) == [.name])
        #expect(ContactDraft(name: "X", position: String(repeating: "p", count: 201)).issues().map(\.field) == [.title])
    }

    @Test func photosMustBeSmallImages() {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2])
        #expect(ContactDraft(name: "X", photo: png).issues().isEmpty)
        #expect(ContactDraft(name: "X", photo: jpeg).issues().isEmpty)
        #expect(ImageKind(of: Data("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
        #expect(ContactDraft(name: "X", photo: Data("hello".utf8)).issues().map(\.field) == [.photo])
        #expect(ContactDraft(name: "X", photo: png + Data(count: Limits.photoBytes)).issues().map(\.field) == [.photo])
        #expect(ContactDraft(name: "X", photo: Data()).normalized().photo == nil)
    }

    @Test func sortKeyFoldsOnlyASCIILikeNoCase() {
        let keys = [("bob", 1), ("Alice", 2), ("alice", 3), ("Émile", 4), ("zed", 5), ("_x", 6), ("10", 7), ("ALICE", 1)]
            .map { ContactSortKey(name: $0.0, id: Int64($0.1)) }
        // SQLite: SELECT name, id FROM t ORDER BY name COLLATE NOCASE, id
        let expected = ["10#7", "_x#6", "ALICE#1", "Alice#2", "alice#3", "bob#1", "zed#5", "Émile#4"]
        #expect(keys.sorted().map(\.description) == expected)
    }

    @Test func errorsSayWhatToDo() {
        let error = CarnetError.invalid([FieldIssue(.email, "must look like name@example.com")])
        #expect(error.description == "invalid email: must look like name@example.com")
        #expect(CarnetError.notFound(.contact, id: 4).description == "no contact has id 4")
    }
}
