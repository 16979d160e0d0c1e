import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation
import Testing

/// The detail screen's fields, grouped as the field description groups them.
@MainActor
@Suite struct DetailSectionsTests {
    let dir = TempDirectory()

    @Test func theDetailScreenShowsGroupedSections() throws {
        let state = try makeState(dir.database)
        let original = try saveAda(state)
        let detail = ContactsViewModel(state: state).detail(for: original)
        #expect(detail.sections.map(\.title) == ["Name", "Work", "Contact", "Dates", "Categories"])
        let rows = detail.sections.map { section in section.rows.map { "\($0.label)|\($0.value)|\($0.entryLabel)" } }
        #expect(rows == [
            ["Given name|Ada|", "Family name|Lovelace|"],
            ["Organization|Analytical Engines|", "Title|Analyst|"],
            ["Emails|ada@example.com|work, preferred", "Emails|ada@home.example|home", "Phones|+44 20 7946 0000|cell"],
            ["Dates|1815-12-10|birthday"],
            ["Categories|friends|"],
        ])
        #expect(detail.sections[2].rows.map(\.index) == [0, 1, 0])
        #expect(!detail.sections.flatMap(\.rows).contains { $0.field == .name })  // the title, not a row

        // A save anywhere in the process shows at once; a note keeps its lines.
        let edit = detail.edit()
        edit.draft.note = "Wrote the first program.\nPoet's daughter."
        edit.draft.urls.append(LabeledValue("https://example.com/ada"))
        try edit.save()
        #expect(detail.sections.map(\.title) == ["Name", "Work", "Contact", "Dates", "Note", "Categories"])
        #expect(detail.sections[4].rows == [DetailRow(field: .note, label: "Note", value: "Wrote the first program.\nPoet's daughter.")])
        #expect(detail.sections[2].rows.last == DetailRow(field: .url, label: "URLs", value: "https://example.com/ada", index: 0))
    }
}

extension DetailSectionsTests {
    /// A photo is shown by kind and size; unmodelled properties come last, verbatim.
    @Test func photoAndOtherPropertiesHaveTheirOwnSections() throws {
        let state = try makeState(dir.database)
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(count: 24)
        var draft = ContactDraft(name: "Madonna", photo: png)
        draft.extras = ["X-ABLabel:Studio", "GEO:geo:37.386013,-122.082932"]
        let detail = ContactsViewModel(state: state).detail(for: try state.addContact(draft))
        #expect(detail.sections.map(\.section) == [.name, .photo, .other])
        #expect(detail.sections[1].rows == [DetailRow(field: .photo, label: "Photo", value: "PNG, 32 bytes")])
        #expect(detail.sections[2].rows.map(\.value) == ["X-ABLabel:Studio", "GEO:geo:37.386013,-122.082932"])
        #expect(detail.sections[2].rows.map(\.label) == ["Other properties", "Other properties"])
        // A quote's fields group the same way (all in the first section).
        #expect(DetailSection.sections(of: QuoteDraft(text: "Hi.", author: "")).map { $0.rows.map(\.value) } == [["Hi."]])
    }
}
