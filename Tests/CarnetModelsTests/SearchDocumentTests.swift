import SeededRandom
@testable import CarnetModels
import Testing

/// `SearchDocument` builds a contact's search texts from the draft's properties directly (it runs
/// once per contact of every import); which fields go in which column, in which order, is
/// ``ContactFields``'. The oracle below walks those descriptions the plain way, so a field that
/// is searchable there and left out of (or misplaced in) the builder fails here.
@Suite struct SearchDocumentTests {
    /// The document as ``ContactFields`` describes it: each searchable field's text (a list's
    /// entries space-separated, a phone as ``phoneText(_:)`` writes it), the fields of
    /// a column space-separated, the names column, then every other column in one.
    static func described(_ draft: ContactDraft) -> [String] {
        let columns = SearchColumn.allCases.map { column in
            ContactFields.all.filter { $0.searchColumn == column }.map { spec -> String in
                if let keyPath = spec.text ?? spec.multilineText { return draft[keyPath: keyPath] }
                guard let list = spec.list else {
                    Issue.record("\(spec.field) is searchable but has no text")
                    return ""
                }
                let texts = list.searchTexts(draft)
                return (column == .phones ? texts.map(phoneText) : texts).joined(separator: " ")
            }.joined(separator: " ")
        }
        return [SearchText.foldSharpS(columns[0]), SearchText.foldSharpS(columns.dropFirst().joined(separator: " "))]
    }

    /// A phone as the index holds it, scalar by scalar as the view's SQL reads it: as typed, then
    /// when written with a country code its national number with a leading 0, otherwise its
    /// digits (without ` +().-`).
    static func phoneText(_ value: String) -> String {
        let digits = String(String.UnicodeScalarView(value.unicodeScalars.filter { !" +().-".unicodeScalars.contains($0) }))
        guard value.unicodeScalars.first == "+" else { return value + " " + digits }
        return value + " 0" + nationalNumber(digits)
    }

    /// The digits after the country code (1 and 7 are one digit, the two-digit codes two, others
    /// three), as SQL's substr() counts: scalar by scalar.
    static func nationalNumber(_ digits: String) -> String {
        let scalars = Array(digits.unicodeScalars)
        let two = String(String.UnicodeScalarView(scalars.prefix(2)))
        let length = scalars.first == "1" || scalars.first == "7" ? 1 : SearchText.twoDigitCountryCodes.contains(two) ? 2 : 3
        return String(String.UnicodeScalarView(scalars.dropFirst(length)))
    }

    static let pieces = ["a", "Z", "é", "e\u{301}", "ß", "ẞ", "ß\u{301}", "Ø", "東京", "😀", "-", "'", ".", "@", "7", " ", "  "]

    /// Drafts with every searchable field set or empty, lists of none, one or three entries.
    static func drafts(count: Int) -> SeededValues<ContactDraft> {
        SeededValues(seed: 0x5EA2_C4D0_C0FF_EE01, count: count) { generator in
            func random(_ bound: Int) -> Int { generator.below(bound) }
            func text(_ length: Int = 6) -> String { (0..<random(length)).map { _ in pieces[random(pieces.count)] }.joined() }
            func list<T>(_ make: () -> T) -> [T] { (0..<[0, 1, 3][random(3)]).map { _ in make() } }
            func phone() -> String {
                // Mostly what a valid phone holds; now and then what it does not (a draft is searched before it is saved).
                let shape = Array("0123456789 +().-") + (random(4) == 0 ? ["٣", "é", "\u{301}", "ß"] : [])
                return (random(2) == 0 ? "+" : "") + String((0..<(1 + random(14))).map { _ in shape[random(shape.count)] })
            }
            var draft = ContactDraft(name: text(8))
            draft.nameParts = PersonName(prefix: text(2), given: text(), additional: text(2), family: text(), suffix: text(2))
            draft.nickname = text(3)
            draft.organization = text()
            draft.department = text(3)
            draft.title = text(3)
            draft.role = text(3)
            draft.emails = list { LabeledValue(text(4) + "@" + text(4), label: text(2)) }
            draft.phones = list { LabeledValue(phone()) }
            draft.addresses = list {
                PostalAddress(poBox: text(2), extended: text(2), street: text(), locality: text(3), region: text(2),
                              postalCode: text(2), country: text(3))
            }
            draft.urls = list { LabeledValue("https://" + text(4)) }
            draft.handles = list { LabeledValue("@" + text(4)) }
            draft.categories = list { text(3) }
            draft.note = text(12) + (random(2) == 0 ? "\nline two" : "")
            draft.dates = random(2) == 0 ? [ContactDate(label: "birthday", year: 1815, month: 12, day: 10)] : []
            draft.extras = random(2) == 0 ? ["X-ABLabel:" + text(3)] : []
            // Every other list of labelled values, from its entry alone.
            let named: Set<Field> = [.email, .phone, .url, .handle]
            for spec in ContactFields.all where !named.contains(spec.field) {
                if let keyPath = spec.labeledValues { draft[keyPath: keyPath] = list { LabeledValue(text(5), label: text(2)) } }
            }
            return draft
        }
    }

    @Test func theDocumentIsWhatTheFieldDescriptionsMake() {
        var checked = 0
        for draft in Self.drafts(count: 3_000) {
            #expect(SearchDocument(draft).texts == Self.described(draft), "\(draft)")
            checked += 1
        }
        #expect(checked == 3_000)
        // Dates and the vCard lines kept verbatim are not searched.
        var dated = ContactDraft(name: "Ada")
        dated.dates = [ContactDate(label: "birthday", year: 1815, month: 12, day: 10)]
        dated.extras = ["X-SECRET:hidden"]
        #expect(!SearchDocument(dated).texts.joined().contains("1815") && !SearchDocument(dated).texts.joined().contains("hidden"))
    }
}
