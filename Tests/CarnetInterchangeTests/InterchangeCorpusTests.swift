@testable import CarnetInterchange
import CarnetModels
import Foundation
import Testing

/// Real exports from other programs (Tests/Fixtures/RealExports, see SOURCES.md there): every
/// file reads, every card is one Carnet can save, and import → vCard 4.0 export keeps every
/// property of the source, modelled ones mapped and the others carried verbatim.
@Suite struct InterchangeCorpusTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/RealExports")

    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".vcf") }.sorted()
    }()

    static func records(_ file: String) throws -> [InterchangeRecord] {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        return try VCardReader.parse(data)
    }

    /// The card as the importer saves it: normalized, as `validated()` leaves it.
    static func saved(_ record: InterchangeRecord) -> InterchangeRecord {
        var record = record
        record.draft = record.draft.normalized()
        record.notes = []
        return record
    }

    /// The CSV exports (Google Contacts, Gmail's first format, Outlook's two CSV formats).
    static let csvFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".csv") }.sorted()
    }()

    @Test func theCorpusIsThere() {
        #expect(Self.files.count == 28, "\(Self.directory.path)")
        #expect(Self.csvFiles.count == 4, "\(Self.directory.path)")
        #expect(Self.files.count + Self.csvFiles.count >= 32)
    }

    /// What a CSV file is read as, and its records.
    static func csvRecords(_ file: String) throws -> (CSVDialect?, [InterchangeRecord]) {
        let data = try Data(contentsOf: directory.appendingPathComponent(file))
        var reader = CSVReader()
        var records = try reader.feed(data).map { try $0.get() }
        if let last = try reader.finish() { records.append(last) }
        return (reader.dialect, records)
    }

    @Test(arguments: csvFiles) func everyCSVRowReadsAndCanBeSaved(file: String) throws {
        let (dialect, records) = try Self.csvRecords(file)
        #expect(dialect != nil && dialect != .carnet, "\(file) read as \(String(describing: dialect))")
        let rows = CSVCells.rows(try Data(contentsOf: Self.directory.appendingPathComponent(file)))
        #expect(records.count == rows.count - 1)
        for record in records {
            #expect(record.draft.issues().isEmpty, "\(file):\(record.line): \(record.draft.issues())")
            #expect(!record.notes.contains { $0.kind == .refused }, "\(file):\(record.line): \(record.notes)")
        }
    }

    @Test(arguments: csvFiles) func everyNonEmptyCSVCellIsKept(file: String) throws {
        let (_, records) = try Self.csvRecords(file)
        let tally = try CSVCells.tally(Data(contentsOf: Self.directory.appendingPathComponent(file)), records)
        #expect(tally.lost.isEmpty, "\(file) lost \(tally.lost)")
        #expect(tally.kept == tally.total)
        // What was kept verbatim comes back from a vCard export, in 4.0, 3.0 and 2.1.
        for record in records.map(Self.saved) {
            for version in [VCardVersion.v4, .v3, .v21] {
                let card = VCardWriter.card(record, version: version)
                #expect(try VCardReader.parse(card).first.map(Self.saved)?.draft == record.draft, "\(file):\(record.line) in \(version)")
            }
        }
    }

    @Test(arguments: files) func everyCardReadsAndCanBeSaved(file: String) throws {
        let records = try Self.records(file)
        #expect(!records.isEmpty)
        for record in records {
            #expect(record.draft.issues().isEmpty, "\(file):\(record.line): \(record.draft.issues())")
        }
    }

    @Test(arguments: files) func exportKeepsEveryPropertyAndRoundTrips(file: String) throws {
        let data = try Data(contentsOf: Self.directory.appendingPathComponent(file))
        let source = VCardLines.cards(data)
        let records = try VCardReader.parse(data).map(Self.saved)
        #expect(records.count == source.count)
        for (record, sourceCard) in zip(records, source) {
            let exported = VCardWriter.card(record)
            // A kept line in 2.1's syntax is written in the syntax of the version: read back,
            // the contact has the line in that form.
            func written(_ version: VCardVersion) -> ContactDraft {
                var draft = record.draft
                draft.extras = withoutForms(draft.extras).filter { !VCardWriter.isProfileLine($0) }.map { VCardWriter.extra($0, version: version) }
                return draft
            }
            // The kept form of a field (VCardForms) is written with the version's escapes, so it
            // reads back as an equal line, not always the same bytes; the bytes of a second
            // export are compared instead.
            func withoutForms(_ extras: [String]) -> [String] { extras.filter { !$0.hasPrefix(VCardForms.prefix) } }
            func compared(_ draft: ContactDraft) -> ContactDraft {
                var draft = draft
                draft.extras = withoutForms(draft.extras)
                return draft
            }
            let tally = VCardLines.tally(source: sourceCard, exported: VCardLines.cards(Data(exported.utf8)).first ?? [])
            #expect(tally.lost.isEmpty, "\(file):\(record.line) lost \(tally.lost)")
            // Import → export → import → export: the same contact and the same bytes.
            let again = try #require(try VCardReader.parse(exported).first.map(Self.saved))
            #expect(compared(again.draft) == written(.v4), "\(file):\(record.line)")
            #expect(VCardWriter.card(again) == exported, "\(file):\(record.line)")
            // In 3.0 and 2.1: every property of the source is there too, the card reads back as
            // the same contact, and exporting that again gives the same bytes.
            for version in [VCardVersion.v3, .v21] {
                let card = VCardWriter.card(record, version: version)
                let converted = VCardLines.tally(source: sourceCard, exported: VCardLines.cards(Data(card.utf8)).first ?? [])
                #expect(converted.lost.isEmpty, "\(file):\(record.line) in \(version) lost \(converted.lost)")
                let back = try #require(try VCardReader.parse(card).first.map(Self.saved), "\(file):\(record.line) in \(version)")
                #expect(compared(back.draft) == written(version), "\(file):\(record.line) in \(version)")
                #expect(VCardWriter.card(back, version: version) == card, "\(file):\(record.line) in \(version)")
            }
        }
    }

    /// The number that goes into the issue: files read, and properties kept over the corpus.
    @Test func corpusSummary() throws {
        var sum = CorpusTally()
        var refused = 0
        var lost: [String: Int] = [:]
        // The same tally for the 3.0 and 2.1 exports of every card.
        var keptIn: [VCardVersion: Int] = [:]
        for file in Self.files {
            let data = try Data(contentsOf: Self.directory.appendingPathComponent(file))
            guard let read = try? VCardReader.parse(data), read.allSatisfy({ $0.draft.issues().isEmpty }) else { continue }
            let records = read.map(Self.saved)
            var fileTotal = 0
            var fileExtras = 0
            for (record, sourceCard) in zip(records, VCardLines.cards(data)) {
                let exported = VCardLines.cards(Data(VCardWriter.card(record).utf8)).first ?? []
                let tally = VCardLines.tally(source: sourceCard, exported: exported)
                for version in [VCardVersion.v3, .v21] {
                    let card = VCardLines.cards(Data(VCardWriter.card(record, version: version).utf8)).first ?? []
                    let converted = VCardLines.tally(source: sourceCard, exported: card)
                    keptIn[version, default: 0] += converted.total - converted.lost.values.reduce(0, +)
                }
                fileTotal += tally.total
                sum.kept += tally.total - tally.lost.values.reduce(0, +)
                lost.merge(tally.lost, uniquingKeysWith: +)
                // The extras that count as properties (a kept X-ABLabel with its property is part of it).
                let extras = Data(("BEGIN:VCARD\r\n" + record.draft.extras.map { $0 + "\r\n" }.joined() + "END:VCARD\r\n").utf8)
                fileExtras += VCardLines.counted(VCardLines.cards(extras).first ?? []).values.reduce(0, +)
            }
            let fileNotes = read.reduce(0) { $0 + $1.notes.count }
            sum.lines.append("  \(file): \(records.count) cards, \(fileTotal) properties, \(fileTotal - fileExtras) mapped, \(fileExtras) kept verbatim (\(fileNotes) of them modelled properties Carnet could not take)")
            sum.files += 1
            sum.records += records.count
            sum.total += fileTotal
            sum.verbatim += fileExtras
            refused += fileNotes
        }
        print(sum.summary("vCard", of: Self.files.count, records: "cards") + ", \(refused) of these modelled properties kept verbatim with a note")
        for version in [VCardVersion.v3, .v21] {
            print("vCard corpus exported as \(version.rawValue): kept \(keptIn[version, default: 0]) of \(sum.total) properties")
        }
        print(sum.lines.joined(separator: "\n"))
        if ProcessInfo.processInfo.environment["CARNET_CORPUS_NOTES"] != nil {
            for file in Self.files {
                for record in (try? Self.records(file)) ?? [] {
                    for note in record.notes { print("  \(file):\(note)") }
                }
            }
        }
        if !lost.isEmpty { print("lost: \(lost.sorted { $0.key < $1.key })") }
        #expect(sum.files == Self.files.count)
        #expect(sum.kept == sum.total)
        #expect(keptIn[.v3] == sum.total && keptIn[.v21] == sum.total)
    }

    /// The same for the CSV files: every non-empty cell is a property.
    @Test func csvCorpusSummary() throws {
        var sum = CorpusTally()
        for file in Self.csvFiles {
            guard let (dialect, records) = try? Self.csvRecords(file), let dialect, dialect != .carnet,
                  records.allSatisfy({ $0.draft.issues().isEmpty })
            else { continue }
            let tally = try CSVCells.tally(Data(contentsOf: Self.directory.appendingPathComponent(file)), records)
            sum.lines.append("  \(file): \(dialect.displayName), \(records.count) rows, \(tally.total) properties, \(tally.kept - tally.verbatim) mapped, \(tally.verbatim) kept verbatim")
            sum.files += 1
            sum.records += records.count
            sum.total += tally.total
            sum.kept += tally.kept
            sum.verbatim += tally.verbatim
        }
        print(sum.summary("CSV", of: Self.csvFiles.count, records: "rows"))
        print(sum.lines.joined(separator: "\n"))
        #expect(sum.files == Self.csvFiles.count)
        #expect(sum.kept == sum.total)
    }

    /// What a corpus summary adds up over the files it reads, and its line for the issue.
    struct CorpusTally {
        var files = 0
        var records = 0
        /// Properties in the sources; of them, kept (mapped or verbatim), and kept verbatim.
        var total = 0
        var kept = 0
        var verbatim = 0
        /// One line a file.
        var lines: [String] = []

        func summary(_ format: String, of fileCount: Int, records noun: String) -> String {
            let percent = total == 0 ? 0 : Double(kept) * 100 / Double(total)
            return "\(format) corpus: \(files) of \(fileCount) files read (\(records) \(noun)); kept \(kept) of \(total) properties (\(String(format: "%.1f", percent))%): \(kept - verbatim) mapped onto fields, \(verbatim) kept verbatim"
        }
    }

    // MARK: What specific exporters' cards become

    @Test func theMacOSAddressBookCardMapsEveryField() throws {
        let record = try #require(try Self.records("cardme-macos-addressbook-3.0-photo.vcf").first)
        let draft = record.draft
        #expect(draft.name == "Mr. John Richter,James Doe Sr.")
        #expect(draft.nameParts == PersonName(prefix: "Mr.", given: "John", additional: "Richter,James", family: "Doe", suffix: "Sr."))
        #expect(draft.nickname == "Johny")
        #expect(draft.organization == "IBM" && draft.department == "Accounting")
        #expect(draft.title == "Money Counter")
        #expect(draft.emails == [LabeledValue("john.doe@ibm.com", label: "work", preferred: true)])
        #expect(draft.phones == [
            LabeledValue("905-777-1234", label: "work", preferred: true), LabeledValue("905-666-1234", label: "home"),
            LabeledValue("905-555-1234", label: "cell"), LabeledValue("905-888-1234", label: "home,fax"),
            LabeledValue("905-999-1234", label: "work,fax"), LabeledValue("905-111-1234", label: "pager"),
            LabeledValue("905-222-1234", label: "AssistantPhone"),
        ])
        #expect(draft.addresses.first == PostalAddress(
            label: "home", street: "Silicon Alley 5,", locality: "New York", region: "New York", postalCode: "12345",
            country: "United States of America", preferred: true))
        #expect(draft.urls == [LabeledValue("http://www.ibm.com", label: "HomePage", preferred: true)])
        #expect(draft.dates == [ContactDate(label: "birthday", year: 2012, month: 6, day: 6)])
        #expect(draft.note.hasPrefix("THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS \"AS IS\""))
        #expect(draft.photo.map { ImageKind(of: $0) } == .jpeg)
        // The street on three lines is not one line: the address stays as it was, unmodelled.
        #expect(draft.extras.contains(#"item3.ADR;type=WORK:;;Street4\nBuilding 6\nFloor 8;New York;;12345;USA"#))
        #expect(record.notes.filter { $0.kind == .refused }.map(\.line) == [21])
        #expect(draft.extras.contains("item5.X-ABRELATEDNAMES;type=pref:Jenny"))
        #expect(draft.extras.contains("item5.X-ABLabel:Spouse"))
        #expect(draft.extras.contains(#"X-ABUID:6B29A774-D124-4822-B8D0-2780EC117F60\:ABPerson"#))
        #expect(draft.extras.contains("X-PHONETIC-FIRST-NAME:Jon"))
    }

    @Test func theIPhoneCardMapsItsGroupsAndLabels() throws {
        let draft = try #require(try Self.records("cardme-iphone-ios5-3.0-photo.vcf").first).draft
        #expect(draft.nameParts == PersonName(prefix: "Mr.", given: "John", additional: "Richter,James", family: "Doe", suffix: "Sr."))
        #expect(draft.name == "Mr. John Richter James Doe Sr.")
        #expect(draft.emails == [LabeledValue("john.doe@ibm.com", preferred: true)])
        #expect(draft.phones.first == LabeledValue("905-555-1234", label: "cell,voice", preferred: true))
        #expect(draft.phones.last == LabeledValue("905-222-1234", label: "AssistantPhone"))
        #expect(draft.organization == "IBM" && draft.department == "Accounting")
        #expect(draft.urls == [LabeledValue("http://www.ibm.com", label: "HomePage", preferred: true)])
        #expect(draft.dates == [ContactDate(label: "birthday", year: 2012, month: 6, day: 6)])
        #expect(draft.extras.contains("item3.X-ABADR:Silicon Alley"))
        #expect(draft.photo != nil)
        // The export labels the assistant's phone with its text, in a group the extras don't use.
        let card = VCardWriter.card(uid: nil, draft: draft.normalized(), updatedAt: nil)
        #expect(card.contains("item1.TEL;VALUE=text:905-222-1234\r\nitem1.X-ABLabel:AssistantPhone\r\n"))
        #expect(card.contains("URL;PREF=1;TYPE=") == false)
    }

    @Test func theGmailCardKeepsItsRelatedNamesAndMapsItsDates() throws {
        let draft = try #require(try Self.records("ezvcard-gmail-allfields-3.0.vcf").first).draft
        #expect(draft.dates == [
            ContactDate(label: "birthday", year: 1912, month: 6, day: 23),
            ContactDate(label: "anniversary", year: 1930, month: 3, day: 20),
            ContactDate(label: "", year: 1776, month: 7, day: 4),
            ContactDate(label: "CustomDateCategory", year: 2000, month: 9, day: 12),
        ])
        #expect(draft.emails.map(\.label) == ["", "home", "work", "", "CustomEmailCategory"])
        #expect(draft.phones.map(\.label) == ["", "home", "work", "", "cell", "main", "home,fax", "work,fax", "GRAND_CENTRAL", "pager", "CustomePhoneCategory"])
        #expect(draft.urls.map(\.label) == ["", "PROFILE", "BLOG", "HomePage", "work", "CustomWebsiteCategory"])
        #expect(draft.extras.contains("item11.X-ABRELATEDNAMES:Name2"))
        #expect(draft.extras.contains("item11.X-ABLabel:_$!<Spouse>!$_"))
        // The handles Gmail wrote as vendor properties are handles, their lines kept to go back out.
        #expect(draft.handles.contains(LabeledValue("IM5", label: "skype")) && draft.extras.contains("X-CARNET-FORM:X-SKYPE:IM5"))
    }

    @Test func outlookPhonesThatAreNotNumbersStayAsTheyWere() throws {
        let record = try #require(try Self.records("ezvcard-outlook-2003-2.1.vcf").first)
        #expect(record.draft.phones.isEmpty)
        #expect(record.draft.extras.contains("TEL;WORK;VOICE:BusinessPhone"))
        #expect(record.notes.contains { $0.message.hasPrefix("TEL;WORK;VOICE:BusinessPhone kept as an unmodelled property: phone") })
        #expect(record.draft.organization == "Company, The" && record.draft.department == "TheDepartment")
        #expect(record.draft.note == "This is the note field!!\nSecond line\n\nThird line is empty\n")
        #expect(record.draft.normalized().note == "This is the note field!!\nSecond line\n\nThird line is empty")
    }

    @Test func shiftJISNamesDecode() throws {
        let draft = try #require(try Self.records("aosp-japanese-sjis-backslash-3.0.vcf").first).draft
        #expect(draft.name.contains("\\") == false)
        #expect(draft.nameParts.family.isEmpty == false)
    }

    @Test func aCardWithOnlyAnEmailIsNamedByIt() throws {
        let records = try Self.records("cardme-android-2.1.vcf")
        #expect(records.first?.draft.name == "john.doe@comapny.com")
        #expect(records.first?.draft.categories == ["My Contacts"])
    }
}

/// A reading of vCard text independent of ``VCardReader``, enough to count properties: lines
/// unfolded (folds and quoted-printable soft breaks), grouped into cards.
enum VCardLines {
    struct Property {
        let group: String?
        let name: String
    }

    static func cards(_ data: Data) -> [[Property]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 13 || byte == 10 {
                lines.append(current)
                current = []
                if byte == 13 {
                    // CRLF and CRCRLF are one line break, as is a lone CR.
                    while i + 1 < bytes.count, bytes[i + 1] == 13 { i += 1 }
                    if i + 1 < bytes.count, bytes[i + 1] == 10 { i += 1 }
                }
            } else {
                current.append(byte)
            }
            i += 1
        }
        if !current.isEmpty { lines.append(current) }

        var logical: [[UInt8]] = []
        for line in lines {
            if let first = line.first, first == 32 || first == 9, !logical.isEmpty {
                logical[logical.count - 1] += line.dropFirst()
            } else if let last = logical.last, last.last == 61, isQuotedPrintable(last) {
                logical[logical.count - 1].removeLast()
                logical[logical.count - 1] += line
            } else if !line.allSatisfy({ $0 == 32 || $0 == 9 }) {
                logical.append(line)
            }
        }

        var cards: [[Property]] = []
        var card: [Property]?
        for line in logical {
            let head = String(decoding: line.prefix { $0 != 58 && $0 != 59 }, as: UTF8.self)
            let upper = head.uppercased()
            if upper == "BEGIN", line.count >= 11 { card = []; continue }
            if upper == "END" {
                if let card { cards.append(card) }
                card = nil
                continue
            }
            let parts = head.split(separator: ".", omittingEmptySubsequences: false)
            let name = String(parts.last ?? "").uppercased()
            let group = parts.count > 1 ? parts.dropLast().joined(separator: ".").lowercased() : nil
            card?.append(Property(group: group, name: name))
        }
        return cards
    }

    private static func isQuotedPrintable(_ line: [UInt8]) -> Bool {
        let head = String(decoding: line.prefix { $0 != 58 }, as: UTF8.self).uppercased()
        return head.contains("QUOTED-PRINTABLE")
    }

    /// Properties that count: not `VERSION`, `PRODID` or `REV`, and not the `X-ABLabel` of a group
    /// that has another property (it is that property's label).
    static func counted(_ card: [Property]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for property in card {
            // PROFILE:VCARD is not written back, and the import report says so (VCardWriter.isProfileLine).
            if ["VERSION", "PRODID", "REV", "PROFILE"].contains(property.name) { continue }
            if property.name == "X-ABLABEL", let group = property.group,
               card.contains(where: { $0.group == group && $0.name != "X-ABLABEL" }) {
                continue
            }
            counts[canonical(property.name), default: 0] += 1
        }
        return counts
    }

    /// Names Carnet writes in another form on purpose: every date property is a date.
    static func canonical(_ name: String) -> String {
        // A name no vCard version allows is written as a valid X- name (see VCardWriter.extra).
        let name = InterchangeInteropCorpusTests.validName(name)
        switch name {
        case "BDAY", "ANNIVERSARY", "X-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY", "X-MS-ANNIVERSARY",
            "X-KADDRESSBOOK-X-ANNIVERSARY", "X-ABDATE":
            return "(date)"
        default: return name
        }
    }

    /// How many properties the source has, and which of them the export has fewer of.
    static func tally(source: [Property], exported: [Property]) -> (total: Int, lost: [String: Int]) {
        let before = counted(source)
        let after = counted(exported)
        var lost: [String: Int] = [:]
        for (name, count) in before where after[name, default: 0] < count {
            lost[name] = count - after[name, default: 0]
        }
        return (before.values.reduce(0, +), lost)
    }
}

/// A reading of CSV independent of ``CSVReader``: RFC 4180 rows of cells, and what became of
/// each non-empty cell of a row in the record read from it.
enum CSVCells {
    static func rows(_ data: Data) -> [[String]] {
        var text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var rows: [[String]] = []
        var row: [String] = []
        var cell = ""
        var quoted = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { cell.unicodeScalars.append("\""); chars.removeFirst() } else { quoted = false }
                } else {
                    cell.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(cell)
                cell = ""
            } else if c == "\r" || c == "\n" {
                if c == "\r", chars.first == "\n" { chars.removeFirst() }
                row.append(cell)
                if row != [""] { rows.append(row) }
                row = []
                cell = ""
            } else {
                cell.unicodeScalars.append(c)
            }
        }
        if !cell.isEmpty || !row.isEmpty {
            row.append(cell)
            rows.append(row)
        }
        return rows
    }

    /// Every non-empty cell of every row: kept verbatim (an `X-CSV;X-COLUMN=` extra of its
    /// column with its text), mapped (its text, or each ` ::: ` part of it without Google's
    /// `* `, is one of the draft's values), or lost. A type or label column counts as mapped:
    /// it labels the value beside it, which is checked.
    static func tally(_ data: Data, _ records: [InterchangeRecord]) -> (total: Int, kept: Int, verbatim: Int, lost: [String]) {
        let all = rows(data)
        guard let header = all.first else { return (0, 0, 0, []) }
        var total = 0
        var kept = 0
        var verbatim = 0
        var lost: [String] = []
        for (row, record) in zip(all.dropFirst(), records) {
            let draft = record.draft
            let extras = Set(draft.extras)
            var values: Set<String> = [draft.name, draft.nickname, draft.organization, draft.department, draft.title, draft.role, draft.note]
            values.formUnion([draft.nameParts.prefix, draft.nameParts.given, draft.nameParts.additional, draft.nameParts.family, draft.nameParts.suffix])
            for entry in draft.emails + draft.phones + draft.urls + draft.handles { values.insert(entry.value) }
            for address in draft.addresses {
                values.formUnion([address.poBox, address.extended, address.street, address.locality, address.region, address.postalCode, address.country])
            }
            for date in draft.dates {
                values.insert(date.dateText)
                if let year = date.year { values.insert("\(date.month)/\(date.day)/\(year)") }
            }
            values.formUnion(draft.categories)
            let lowered = Set(values.map { $0.lowercased() })
            for (column, raw) in zip(header, row) {
                let cell = raw.trimmingCharacters(in: .whitespacesAndNewlines)
                if cell.isEmpty { continue }
                total += 1
                let name = column.trimmingCharacters(in: .whitespaces)
                let escapedColumn = name.contains(where: { ";:,".contains($0) }) ? "\"\(name)\"" : name
                if extras.contains("X-CSV;X-COLUMN=\(escapedColumn):\(escape(cell))") {
                    kept += 1
                    verbatim += 1
                    continue
                }
                let parts = cell.components(separatedBy: ":::").map { part -> String in
                    var text = part.trimmingCharacters(in: .whitespaces)
                    if text.hasPrefix("* ") { text = String(text.dropFirst(2)) }
                    return text
                }.filter { !$0.isEmpty }
                let isLabel = ["type", "label", "service"].contains { name.lowercased().hasSuffix(" - " + $0) }
                if isLabel || parts.allSatisfy({ lowered.contains($0.lowercased()) }) {
                    kept += 1
                } else {
                    lost.append("line \(record.line): \(name)=\(cell)")
                }
            }
        }
        return (total, kept, verbatim, lost)
    }

    /// A cell's text as vCard writes a value.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }
}
