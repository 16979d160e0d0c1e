import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// A contact with every field filled in, with the characters each format must escape, shared by
/// the vCard, CSV and JSON tests.
enum RichContact {
    /// First bytes of a JPEG (JFIF): enough for `ImageKind` to recognise it.
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46])
    static let uid = "0B4B8B1E-6C2A-4E4B-9F22-2C0E0E3A7D11"
    /// 2026-11-23T08:55:07Z
    static let updated = Date(timeIntervalSince1970: 1_795_424_107)

    static let draft = ContactDraft(
        name: "Dr. Augusta Ada King, Countess of Lovelace",
        nameParts: PersonName(prefix: "Dr.", given: "Augusta Ada", family: "King", suffix: "Countess of Lovelace"),
        nickname: "Ada", organization: "Analytical Engines, Ltd.", department: "Research;Notes", title: "Mathematician",
        role: "Author",
        emails: [
            LabeledValue("ada@example.com", label: "work", preferred: true), LabeledValue("ada@home.example", label: "home"),
            LabeledValue("countess@example.org", label: "Lab,old"), LabeledValue("plain@example.org"),
        ],
        phones: [
            LabeledValue("+44 20 7946 0000", label: "cell", preferred: true),
            LabeledValue("+44 20 7946 0001", label: "home,fax"), LabeledValue("+44 20 7946 0002", label: "Assistant line"),
        ],
        addresses: [
            PostalAddress(
                label: "home", street: "12 St James's Square", locality: "London", postalCode: "SW1Y 4JH",
                country: "United Kingdom", preferred: true),
            PostalAddress(
                label: "Summer house", poBox: "PO Box 7", extended: "Flat 2; rear", street: "Ockham Park", locality: "Ockham",
                region: "Surrey", postalCode: "GU23 6NP", country: "UK"),
        ],
        urls: [LabeledValue("https://example.com/ada?a=1,b=2", label: "work"), LabeledValue("https://ada.example")],
        handles: [
            LabeledValue("ada", label: "skype", preferred: true), LabeledValue("@ada@example.social", label: "mastodon"),
            LabeledValue("ada@jabber.example", label: "xmpp"),
        ],
        dates: [
            ContactDate(label: "birthday", year: 1815, month: 12, day: 10),
            ContactDate(label: "anniversary", month: 7, day: 8),
            ContactDate(label: "graduation", year: 1833, month: 6, day: 5),
        ],
        note: "First line\nSecond; with, punctuation \\ and a backslash",
        categories: ["friends", "Mathematicians, famous"],
        photo: jpeg,
        extras: [
            "item1.X-ABRELATEDNAMES:William King", "item1.X-ABLabel:_$!<Spouse>!$_", #"X-SOMETHING;X-PARAM="a:b":value"#,
        ])

    static let record = InterchangeRecord(uid: uid, draft: draft, updatedAt: updated)
}

extension InterchangeRecord {
    /// The notes about modelled values Carnet's rules refused (kept verbatim instead).
    var refusals: [InterchangeNote] { notes.filter { $0.kind == .refused } }

    /// The record with only those notes, to compare with one written out by hand.
    var withRefusalsOnly: InterchangeRecord {
        var record = self
        record.notes = refusals
        return record
    }
}

/// Feeds `text` (two records, the first broken) to a new reader: the first is an error and the
/// second is still read. Returns both results.
func resultsGoingOnAfterTheFirst<Reader: InterchangeReader>(
    _: Reader.Type, _ text: String
) throws -> [Result<InterchangeRecord, InterchangeError>] {
    var reader = Reader()
    let results = reader.feed(text: text)
    try reader.finish()
    #expect(results.count == 2)
    #expect(throws: InterchangeError.self) { try results.first?.get() }
    return results
}

/// The records a new reader reads from `data` fed `size` bytes at a time (a chunk may end inside
/// a line, or inside a character).
func recordsRead<Reader: InterchangeReader>(_: Reader.Type, _ data: Data, inChunksOf size: Int) throws -> [InterchangeRecord] {
    var reader = Reader()
    var records: [InterchangeRecord] = []
    var start = 0
    while start < data.count {
        let end = min(data.count, start + size)
        records += try reader.feed(data.subdata(in: start..<end)).map { try $0.get() }
        start = end
    }
    records += try reader.finishAll()
    return records
}
