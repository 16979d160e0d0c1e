import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// The vCard reader judges each value with Carnet's rules without building a draft for it (for
/// speed). These cases hold it to the field description: it maps a value exactly when a draft
/// with that value can be saved, and keeps it verbatim otherwise.
@Suite struct InterchangeRulesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        /// The property, as a card has it.
        let line: String
        /// A draft holding the same value, which the field description judges.
        let draft: ContactDraft
        var testDescription: String { String(line.prefix(60)) }
    }

    static func draft(_ change: (inout ContactDraft) -> Void) -> ContactDraft {
        var draft = ContactDraft(name: "Rules")
        change(&draft)
        return draft
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        let long = { (count: Int) in String(repeating: "a", count: count) }
        for email in ["a@b.co", "not an email", "a@b", "x@y.z\u{200B}", long(250) + "@b.co", "ü@ex.ample", long(240) + "@example.com"] {
            cases.append(Case(line: "EMAIL:" + email, draft: draft { $0.emails = [LabeledValue(email)] }))
        }
        for phone in ["+1 555 0100", "BusinessPhone", "§", "(0) 12-34.5", String(repeating: "1", count: 40), String(repeating: "1", count: 41), "+1 555;ext=2"] {
            cases.append(Case(line: "TEL:" + phone, draft: draft { $0.phones = [LabeledValue(phone)] }))
        }
        for label in [long(60), long(61), "tab\there", "Mobile 2"] {
            cases.append(Case(
                line: "item1.EMAIL:a@b.co\r\nitem1.X-ABLabel:" + label,
                draft: draft { $0.emails = [LabeledValue("a@b.co", label: label)] }))
        }
        for title in [long(200), long(201), "tab\there", "é" + long(199), "é" + long(200)] {
            cases.append(Case(line: "TITLE:" + title, draft: draft { $0.title = title }))
            cases.append(Case(line: "NICKNAME:" + title, draft: draft { $0.nickname = title }))
        }
        for note in ["tab\there", long(10_000), long(10_001), "bell\u{7}"] {
            cases.append(Case(line: "NOTE:" + note, draft: draft { $0.note = note }))
        }
        for (text, date) in [
            ("2023-02-29", ContactDate(label: "birthday", year: 2023, month: 2, day: 29)),
            ("2024-02-29", ContactDate(label: "birthday", year: 2024, month: 2, day: 29)),
            ("--02-29", ContactDate(label: "birthday", month: 2, day: 29)),
            ("1815-13-01", ContactDate(label: "birthday", year: 1815, month: 13, day: 1)),
            ("0000-01-01", ContactDate(label: "birthday", year: 0, month: 1, day: 1)),
        ] {
            cases.append(Case(line: "BDAY:" + text, draft: draft { $0.dates = [date] }))
        }
        for street in [long(200), long(201), "line\u{2028}break"] {
            cases.append(Case(line: "ADR:;;" + street + ";;;;", draft: draft { $0.addresses = [PostalAddress(street: street)] }))
        }
        for category in [long(100), long(101)] {
            cases.append(Case(line: "CATEGORIES:" + category, draft: draft { $0.categories = [category] }))
        }
        for family in [long(100), long(101)] {
            cases.append(Case(line: "N:" + family + ";;;;", draft: draft { $0.nameParts = PersonName(family: family) }))
        }
        for url in [long(2000), long(2001)] {
            cases.append(Case(line: "URL:" + url, draft: draft { $0.urls = [LabeledValue(url)] }))
        }
        for handle in [long(500), long(501)] {
            cases.append(Case(line: "X-SOCIALPROFILE;TYPE=x:" + handle, draft: draft { $0.handles = [LabeledValue(handle, label: "x")] }))
        }
        return cases
    }()

    @Test(arguments: cases) func theReaderMapsAValueExactlyWhenTheRulesTakeIt(_ example: Case) throws {
        let card = "BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Rules\r\n" + example.line + "\r\nEND:VCARD\r\n"
        let record = try #require(try VCardReader.parse(card).first)
        #expect(record.draft.issues().isEmpty, "\(record.draft.issues())")
        let saveable = example.draft.issues().isEmpty
        #expect(record.draft.extras.isEmpty == saveable, "rules say \(example.draft.issues()); reader kept \(record.draft.extras.count) verbatim")
        #expect(record.notes.isEmpty == saveable)
    }
}
