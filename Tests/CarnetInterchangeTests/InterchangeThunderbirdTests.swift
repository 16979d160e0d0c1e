@testable import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// Thunderbird's own exports of one address book (Tests/Fixtures/Thunderbird, written by
/// Thunderbird 153 itself, see SOURCES.md there): its LDIF and its CSV read to the same
/// contacts, keep every value Thunderbird wrote, and come back the same from Carnet's export.
@Suite struct InterchangeThunderbirdTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Thunderbird")

    static func data(_ file: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(file)) }

    static func ldifRecords() throws -> [InterchangeRecord] { try LDIFReader.parse(data("thunderbird.ldif")) }

    static func csvRecords(_ file: String) throws -> (CSVDialect?, [InterchangeRecord]) {
        var reader = CSVReader()
        var records = try reader.feed(data(file)).map { try $0.get() }
        if let last = try reader.finish() { records.append(last) }
        return (reader.dialect, records)
    }

    /// Thunderbird's seven contacts, in the order it exports them (its mailing list comes first
    /// in the LDIF, and is read after them, when its members are known; it is not in the CSV).
    static let names = ["Zoë Ångström-Łukasiewicz", "山田 太郎", "Ελένη Παπαδοπούλου", "Doe, John", "عمر الخيام", "only.an.email@example.com", "Renée O'Brien"]

    static let zoesNote = "First line of the note.\nSecond line, with a comma and \"quotes\".\n\tIndented by a tab."

    @Test func theFixturesAreThere() throws {
        for file in ["thunderbird.ldif", "thunderbird.csv", "thunderbird.tab", "thunderbird.vcf", "SOURCES.md"] {
            #expect(FileManager.default.fileExists(atPath: Self.directory.appendingPathComponent(file).path), "\(file)")
        }
    }

    // MARK: LDIF

    @Test func thunderbirdsLDIFReadsEveryEntry() throws {
        let records = try Self.ldifRecords()
        #expect(records.map(\.draft.name) == Self.names + ["Projekt Ω team"])
        for record in records {
            #expect(record.draft.normalized().issues().isEmpty, "\(record.line): \(record.draft.issues())")
        }
    }

    /// Every attribute Thunderbird wrote is on a field, or kept under its own name; `dn` and
    /// `objectclass` are made again on export (and a list's `groupOfNames` is its kind).
    @Test func thunderbirdsLDIFKeepsEveryValue() throws {
        let data = try Self.data("thunderbird.ldif")
        var entries = InterchangeAbookTests.entries(data)
        // The list, first in the file, is read last.
        entries.append(entries.removeFirst())
        let records = try LDIFReader.parse(data)
        #expect(records.count == entries.count)
        for (entry, record) in zip(entries, records) {
            let draft = record.draft
            let values = InterchangeAbookTests.values(draft)
            let birthday = draft.dates.first { $0.label == ContactDate.birthday }
            for (name, value) in entry where !value.isEmpty {
                let kept = draft.extras.contains { $0.lowercased() == (LDIFAttributes.extraPrefix + name + ":" + VCardText.escape(value)).lowercased() }
                switch name {
                case "dn": continue
                case "member":
                    let member = records.first { LDIFWriter.dn($0.draft).replacingOccurrences(of: "\\", with: "") == value }
                    #expect(member.map { draft.members.contains($0.importUID) } == true, "\(record.line): \(name) \(value) lost")
                case "objectclass":
                    #expect(draft.kind == (entry.contains { $0 == ("objectclass", "groupOfNames") } ? .group : .individual))
                case "birthyear": #expect(birthday?.year == Int(value) || kept, "\(record.line): \(name) \(value) lost")
                case "birthmonth": #expect(birthday?.month == Int(value) || kept, "\(record.line): \(name) \(value) lost")
                case "birthday": #expect(birthday?.day == Int(value) || kept, "\(record.line): \(name) \(value) lost")
                default:
                    #expect(values.contains(value) || kept, "\(record.line): \(name) \(value) lost")
                }
            }
        }
    }

    @Test func thunderbirdsLDIFMapsItsAttributes() throws {
        let records = try Self.ldifRecords()
        let zoe = records[0].draft
        #expect(zoe.nameParts.given == "Zoë" && zoe.nameParts.family == "Ångström-Łukasiewicz" && zoe.nickname == "Zo")
        #expect(zoe.emails == [LabeledValue("zoe@example.org"), LabeledValue("zoe.angstrom@example.com")])
        #expect(zoe.phones == [
            LabeledValue("+46 8 555 010 20", label: "work"), LabeledValue("+46 8 555 010 21", label: "home"),
            LabeledValue("+46 8 555 010 23", label: "fax"), LabeledValue("+46 74 555 01 24", label: "pager"),
            LabeledValue("+46 70 555 01 22", label: "cell"),
        ])
        #expect(zoe.addresses == [
            PostalAddress(
                label: "home", extended: "Lägenhet 1102", street: "Östra Storgatan 7", locality: "Jönköping", region: "Jönköpings län",
                postalCode: "553 21", country: "Sverige"),
            PostalAddress(
                label: "work", extended: "Building C  floor 3", street: "Forskningsvägen 1", locality: "Göteborg", postalCode: "412 96",
                country: "Sweden"),
        ])
        #expect(zoe.organization == "Ångström & Söner AB" && zoe.department == "Forskning; Utveckling" && zoe.title == "Senior Engineer, Optics")
        #expect(zoe.urls == [LabeledValue("https://example.com/people/zoe", label: "work"), LabeledValue("https://zoe.example.net/", label: "home")])
        #expect(zoe.dates == [ContactDate(label: ContactDate.birthday, year: 1987, month: 3, day: 14)])
        // A tab is a control character to Carnet's rules: the note is kept as it came, and said so.
        #expect(zoe.note.isEmpty)
        #expect(zoe.extras.last == "X-LDIF;X-ATTRIBUTE=description:" + VCardText.escape(Self.zoesNote))
        #expect(records[0].notes.contains { $0.message.hasPrefix("description \"First line") && $0.message.contains("breaks Carnet's rules") })
        // Attributes kept go back under their own names, in their own case.
        #expect(zoe.extras.map { $0.prefix { $0 != ":" } } == [
            "X-LDIF;X-ATTRIBUTE=nsAIMid", "X-LDIF;X-ATTRIBUTE=modifytimestamp", "X-LDIF;X-ATTRIBUTE=mozillaCustom1",
            "X-LDIF;X-ATTRIBUTE=mozillaCustom2", "X-LDIF;X-ATTRIBUTE=mozillaCustom3", "X-LDIF;X-ATTRIBUTE=mozillaCustom4",
            "X-LDIF;X-ATTRIBUTE=description",
        ])
        #expect(LDIFWriter.entry(zoe).contains("\nnsAIMid: zoe_angstrom\n"))
        // Birth month and day without a year; a year alone is no date, and is kept.
        #expect(records[1].draft.dates == [ContactDate(label: ContactDate.birthday, month: 7, day: 4)])
        #expect(records[2].draft.dates.isEmpty && records[2].draft.extras.contains("X-LDIF;X-ATTRIBUTE=birthyear:1990"))
        #expect(records[2].draft.phones == [LabeledValue("+30 21 0555 0102", label: "work")])
        #expect(records[2].draft.extras.contains("X-LDIF;X-ATTRIBUTE=mozillaCustom1::colon first"))
        #expect(records[5].draft.emails == [LabeledValue("only.an.email@example.com")])
    }

    /// Thunderbird's mailing list (`groupOfNames`) is a group whose members, named by DN, are
    /// the contacts of the same file (by the UID each gets on import), though the list comes
    /// first; it is written back as a list naming them by DN.
    @Test func thunderbirdsMailingListIsAGroup() throws {
        let records = try Self.ldifRecords()
        let list = try #require(records.last)
        #expect(list.draft.kind == .group)
        #expect(list.draft.nickname == "omega" && list.draft.note == "Everyone on Projekt Ω\nsecond line")
        #expect(list.draft.normalized().nameParts.isEmpty, "a list's name is no person's name")
        let byName = Dictionary(uniqueKeysWithValues: records.map { ($0.draft.name, $0.importUID) })
        #expect(list.draft.members == ["Zoë Ångström-Łukasiewicz", "Doe, John", "Renée O'Brien"].compactMap { byName[$0] })
        #expect(list.draft.members.count == 3 && list.draft.extras.isEmpty, "\(list.draft.extras)")
        let dns = ["cn=Zoë Ångström-Łukasiewicz,mail=zoe@example.org", "cn=Doe, John,mail=john.doe@example.com"]
        let entry = LDIFWriter.entry(try list.draft.validated(), uid: "list-1", memberDNs: dns)
        #expect(entry.contains("objectclass: groupOfNames\n") && !entry.contains("mozillaAbPersonAlpha"), "\(entry)")
        #expect(entry.contains("\nmember: cn=Doe, John,mail=john.doe@example.com\n"), "\(entry)")
        #expect(LDIFWriter.left(list.draft, membersWritten: 2) == ["1 member"])
    }

    /// A member whose DN no entry of the file has is kept as it came, and said so.
    @Test func aMemberNotInTheFileIsKeptByItsDN() throws {
        let records = try LDIFReader.parse("""
            dn: cn=List
            objectclass: groupOfNames
            cn: List
            member: cn=Ada,mail=ada@example.com
            member: cn=Nobody Here

            dn: cn=Ada,mail=ada@example.com
            cn: Ada
            mail: ada@example.com

            """)
        #expect(records.map(\.draft.name) == ["Ada", "List"])
        let list = try #require(records.last)
        #expect(list.draft.members == [records[0].importUID])
        #expect(list.draft.extras == ["X-LDIF;X-ATTRIBUTE=member:cn=Nobody Here"])
        #expect(list.notes.map(\.line) == [5] && list.notes.first?.message.contains("no entry of this file has that DN") == true)
    }

    /// Exported as LDIF with each contact's UID (the list naming its members by their DNs in
    /// the export), then read again: the same contacts, UIDs and members.
    @Test func thunderbirdsLDIFComesBackTheSameFromCarnetsLDIF() throws {
        let records = try Self.ldifRecords().map { record in
            var record = InterchangeAbookTests.saved(record)
            record.uid = record.importUID
            return record
        }
        let dns = Dictionary(uniqueKeysWithValues: records.map { ($0.importUID, LDIFWriter.dn($0.draft)) })
        let text = LDIFWriter.header + records.map { LDIFWriter.entry($0.draft, uid: $0.uid, memberDNs: $0.draft.members.compactMap { dns[$0] }) }.joined()
        let again = try LDIFReader.parse(text).map(InterchangeAbookTests.saved)
        #expect(again.map(\.uid) == records.map(\.uid))
        for (before, after) in zip(records, again) {
            #expect(after.draft == before.draft, "\(before.line)")
        }
    }

    // MARK: CSV

    /// A cell Carnet's rules refuse (a tab in the notes) is kept with its column, and the rest of
    /// the row still imports.
    @Test func aNoteWithATabIsKeptNotRefused() throws {
        let zoe = try #require(try Self.csvRecords("thunderbird.csv").1.first)
        #expect(zoe.draft.note.isEmpty && zoe.draft.extras.last == "X-CSV;X-COLUMN=Notes:" + VCardText.escape(Self.zoesNote))
        #expect(zoe.notes.contains { $0.message.hasPrefix("Notes \"First line") && $0.message.contains("breaks Carnet's rules") })
        #expect(try zoe.draft.validated().name == "Zoë Ångström-Łukasiewicz")
    }

    @Test func thunderbirdsCSVIsReadAsThunderbirds() throws {
        let (dialect, records) = try Self.csvRecords("thunderbird.csv")
        #expect(dialect == .thunderbird)
        #expect(records.map(\.draft.name) == Self.names)
        for record in records {
            #expect(record.draft.normalized().issues().isEmpty, "\(record.line): \(record.draft.issues())")
        }
        // A cell with line breaks is one cell: each record starts on its own line.
        #expect(records.map(\.line) == [2, 5, 7, 8, 9, 10, 11])
    }

    /// Thunderbird's "Tab separated" export of the same book: cut at tabs, quoted as its CSV
    /// is, the same records.
    @Test func thunderbirdsTabSeparatedExportReadsAsItsCSV() throws {
        let (dialect, records) = try Self.csvRecords("thunderbird.tab")
        #expect(dialect == .thunderbird)
        #expect(records == (try Self.csvRecords("thunderbird.csv").1))
    }

    /// Every non-empty cell Thunderbird wrote is on a field or kept with its column's name.
    @Test func thunderbirdsCSVKeepsEveryCell() throws {
        let data = try Self.data("thunderbird.csv")
        let rows = try CSVRows.all(data)
        let header = try #require(rows.first)
        let records = try Self.csvRecords("thunderbird.csv").1
        #expect(records.count == rows.count - 1)
        for (row, record) in zip(rows.dropFirst(), records) {
            let draft = record.draft
            let values = InterchangeAbookTests.values(draft)
            let birthday = draft.dates.first { $0.label == ContactDate.birthday }
            for (column, cell) in zip(header, row) where !cell.isEmpty {
                let kept = draft.extras.contains("X-CSV;X-COLUMN=\(column):\(VCardText.escape(cell))")
                switch column {
                case "Birth Year": #expect(birthday?.year == Int(cell) || kept, "\(record.line): \(column) \(cell) lost")
                case "Birth Month": #expect(birthday?.month == Int(cell) || kept, "\(record.line): \(column) \(cell) lost")
                case "Birth Day": #expect(birthday?.day == Int(cell) || kept, "\(record.line): \(column) \(cell) lost")
                default: #expect(values.contains(cell) || values.contains(VCardText.trimmed(cell)) || kept, "\(record.line): \(column) \(cell) lost")
                }
            }
        }
    }

    /// The CSV and the LDIF of one address book read to the same contacts: only what each keeps
    /// under its own names (the LDIF's `modifytimestamp`, the CSV's `Screen Name` column) differs.
    @Test func thunderbirdsCSVAndLDIFReadToTheSameContacts() throws {
        let fromLDIF = try Self.ldifRecords().dropLast().map { InterchangeAbookTests.saved($0).draft }
        let fromCSV = try Self.csvRecords("thunderbird.csv").1.map { InterchangeAbookTests.saved($0).draft }
        #expect(fromLDIF.count == fromCSV.count)
        for (ldif, csv) in zip(fromLDIF, fromCSV) {
            var a = ldif, b = csv
            a.extras = []
            b.extras = []
            #expect(a == b, "\(ldif.name)")
            #expect(ldif.extras.filter { !$0.contains("=modifytimestamp:") }.count == csv.extras.count, "\(ldif.name)")
        }
    }

    @Test func thunderbirdsCSVComesBackTheSameFromCarnetsCSVLDIFAndVCard() throws {
        let records = try Self.csvRecords("thunderbird.csv").1.enumerated().map { index, record in
            var record = InterchangeAbookTests.saved(record)
            record.uid = "uid-\(index)"
            return record
        }
        let csv = CSVWriter.header + records.map { CSVWriter.row($0) }.joined()
        #expect(try CSVReader.parse(csv).map { InterchangeAbookTests.saved($0).draft } == records.map(\.draft))
        for record in records {
            let card = VCardWriter.card(record, version: .v4)
            #expect(try VCardReader.parse(card).first.map(InterchangeAbookTests.saved)?.draft == record.draft, "\(record.line)")
        }
        // In LDIF, each column kept from the CSV is a vCard line LDIF has no attribute for: the
        // export names them, and the rest reads back the same.
        let ldif = LDIFWriter.header + records.map { LDIFWriter.entry($0.draft, uid: $0.uid) }.joined()
        for (before, after) in zip(records, try LDIFReader.parse(ldif).map(InterchangeAbookTests.saved)) {
            var expected = before.draft
            expected.extras = []
            #expect(after.uid == before.uid && after.draft == expected, "\(before.line)")
            #expect(before.draft.extras.isEmpty || LDIFWriter.left(before.draft).contains { $0.hasSuffix("kept vCard line") || $0.hasSuffix("kept vCard lines") })
        }
    }

    // MARK: vCard

    /// Thunderbird's vCard export of the same book (its mailing list is not in it).
    @Test func thunderbirdsVCardReadsToTheSameNames() throws {
        let records = try VCardReader.parse(Self.data("thunderbird.vcf"))
        #expect(records.map(\.draft.name) == Self.names)
        let zoe = try #require(records.first).draft
        #expect(zoe.emails.count == 3 && zoe.phones.count == 5 && zoe.addresses.count == 2 && zoe.role == "Team lead")
        #expect(zoe.dates.contains(ContactDate(label: ContactDate.anniversary, year: 2015, month: 6, day: 20)))
    }
}

/// The cells of a CSV file, cut by RFC 4180's rules without ``CSVReader``.
enum CSVRows {
    static func all(_ data: Data) throws -> [[String]] {
        let text = String(decoding: data, as: UTF8.self)
        var rows: [[String]] = []
        var row: [String] = []
        var cell = ""
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if quoted {
                if character == "\"" {
                    if index < text.endIndex, text[index] == "\"" {
                        cell.append("\"")
                        index = text.index(after: index)
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                row.append(cell)
                cell = ""
            } else if character == "\n" || character == "\r\n" {
                row.append(cell)
                rows.append(row)
                row = []
                cell = ""
            } else {
                cell.append(character)
            }
        }
        if !cell.isEmpty || !row.isEmpty { rows.append(row + [cell]) }
        return rows
    }
}
