import CarnetModels
import Foundation
import Testing

/// The one description of a contact's fields is what every format and summary reads.
@Suite struct ContactFieldsTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])

    /// A draft with every field set, and the same draft with `spec`'s field changed.
    func changed(_ spec: ContactFieldSpec) -> (ContactDraft, ContactDraft) {
        let base = ContactDraft(name: "Ada", position: "Analyst", email: "ada@example.com", phone: "555 0100", photo: Self.png)
        var other = base
        switch spec.value {
        case let .text(keyPath), let .multiline(keyPath): other[keyPath: keyPath] += " 2"
        case let .photo(keyPath): other[keyPath: keyPath] = nil
        case let .list(list): #expect(list.add(&other, list.kind == .date ? "birthday:1815-12-10" : "x@example.org") == nil)
        }
        return (base, other)
    }

    @Test func everyFieldIsNamedOnceAndDrivesTheChangeSummary() {
        let keys = ContactFields.all.map(\.key)
        #expect(keys == [
            "name", "prefix", "given", "additional", "family", "suffix", "nickname", "pronouns", "gender", "organization",
            "department", "title", "role", "emails", "phones", "addresses", "urls", "handles", "dates", "note", "categories",
            "expertise", "hobbies", "interests", "photo",
            "extras",
        ])
        #expect(Set(keys).count == keys.count)
        for spec in ContactFields.all {
            let (base, other) = changed(spec)
            #expect(other.differences(from: base) == [spec.field], "\(spec.key)")
            var copy = base
            spec.copy(from: other, into: &copy)
            #expect(copy == other)
            #expect(ContactFields.named(spec.key.uppercased())?.field == spec.field)
            #expect(ContactFields.named(spec.flag)?.field == spec.field)
        }
    }
}
