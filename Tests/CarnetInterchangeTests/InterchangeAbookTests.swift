@testable import CarnetInterchange
import CarnetModels
import Foundation
import TestNeeds
import Testing

/// abook's exports (Tests/Fixtures/Abook, written by abook itself, see SOURCES.md there): its
/// header-less CSV and its LDIF read, keep every value, and come back the same from Carnet's
/// own export (CSV, LDIF, vCard).
@Suite struct InterchangeAbookTests {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Abook")

    static func files(_ suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// The csv files that read whole (`abook-ambiguous-note.csv` has a row no reader can cut
    /// for sure, see `aRowAbookCannotHaveWrittenUnambiguouslyIsNamed`).
    static let csvFiles = files(".csv").filter { $0 != "abook-ambiguous-note.csv" }
    static let ldifFiles = files(".ldif")

    static func data(_ file: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(file)) }

    static func csvRecords(_ file: String) throws -> (CSVDialect?, [InterchangeRecord]) {
        var reader = CSVReader()
        var records = try reader.feed(data(file)).map { try $0.get() }
        if let last = try reader.finish() { records.append(last) }
        return (reader.dialect, records)
    }

    /// As the importer saves a record: normalized, without notes.
    static func saved(_ record: InterchangeRecord) -> InterchangeRecord {
        var record = record
        record.draft = record.draft.normalized()
        record.notes = []
        return record
    }

    /// Every value a draft holds, as text, to find a source's value in.
    static func values(_ draft: ContactDraft) -> Set<String> {
        var values: Set<String> = [
            draft.name, draft.nickname, draft.organization, draft.department, draft.title, draft.note,
            draft.nameParts.given, draft.nameParts.family,
        ]
        for entry in draft.emails + draft.phones + draft.urls + draft.handles { values.insert(entry.value) }
        for address in draft.addresses {
            values.formUnion([address.poBox, address.extended, address.street, address.locality, address.region, address.postalCode, address.country])
        }
        for date in draft.dates { values.insert(date.dateText) }
        values.formUnion(draft.categories)
        return values
    }

    @Test func theFixturesAreThere() {
        #expect(Self.csvFiles.count == 3 && Self.ldifFiles.count == 2, "\(Self.directory.path)")
    }

    // MARK: CSV

    /// abook's csv, cut into cells without ``CSVReader``: each line is `"…","…",…` with quotes
    /// inside a cell left as they are.
    static func abookRows(_ data: Data) -> [[String]] {
        InterchangeText.string(Array(data)[...]).split(separator: "\n").map { line in
            var text = String(line)
            if text.hasPrefix("\"") { text.removeFirst() }
            if text.hasSuffix("\"") { text.removeLast() }
            return text.components(separatedBy: "\",\"")
        }
    }

    @Test(arguments: csvFiles) func abooksCSVReadsWithoutAHeaderAndKeepsEveryCell(file: String) throws {
        let (dialect, records) = try Self.csvRecords(file)
        #expect(dialect == .abook)
        let rows = Self.abookRows(try Self.data(file))
        #expect(records.count == rows.count, "the first row is a contact, not a header")
        for (row, record) in zip(rows, records) {
            #expect(record.draft.normalized().issues().isEmpty, "\(file):\(record.line): \(record.draft.issues())")
            let values = Self.values(record.draft)
            for (column, cell) in zip(ForeignCSV.abookColumns, row) where !cell.isEmpty {
                // EMAIL holds several addresses separated by commas.
                let parts = column == "EMAIL" ? cell.components(separatedBy: ",") : [cell]
                for part in parts {
                    let kept = values.contains(part)
                        || record.draft.extras.contains("X-CSV;X-COLUMN=\(column):\(VCardText.escape(part))")
                    #expect(kept, "\(file):\(record.line): \(column) \(part) lost")
                }
            }
        }
    }

    @Test func abooksCSVMapsItsColumns() throws {
        let (_, records) = try Self.csvRecords("abook-addressbook.csv")
        #expect(records.count == 4)
        let ada = records[0].draft
        #expect(ada.name == "Ada Lovelace" && ada.nickname == "Ada")
        #expect(ada.emails == [LabeledValue("ada@example.com"), LabeledValue("countess@example.org")])
        #expect(ada.phones == [LabeledValue("+44 20 7946 0001", label: "home")])
        #expect(records[1].draft.name == "Zoë Müller")
        // abook writes a quote inside a cell as it is.
        #expect(records[2].draft.note == "Engine, \"difference\" and analytical")
        #expect(records.map(\.line) == [1, 2, 3, 4])
    }

    /// abook writes `She said "hi"` with its quotes as they are, which RFC 4180 reads as a
    /// closing quote and another one opening: cut where abook cuts (`","`), the note stays one
    /// cell, the nickname after it is read, and a first row like it is still abook's contact.
    @Test func aNoteWithQuotesKeepsTheCellsAfterIt() throws {
        let (dialect, records) = try Self.csvRecords("abook-quoted-notes.csv")
        #expect(dialect == .abook)
        #expect(records.map(\.draft.name) == ["Grace Hopper", "Alan Turing", "Hedy Lamarr", "Ada Lovelace"])
        #expect(records.map(\.draft.nickname) == ["Amazing Grace", "Prof", "Hedy", "Ada"])
        #expect(records.map(\.draft.note) == ["She said \"hi\"", "", "She said \"hi\"", ""])
        #expect(records[0].draft.phones == [LabeledValue("+1 555 0101", label: "home")])
        #expect(records.map(\.line) == [1, 2, 3, 4])
    }

    /// A note holding `","` (abook's own separator) makes a row of six cells where abook has
    /// five: which quote ends the note cannot be told, so the row is named with its line
    /// rather than guessed, and the rows around it still read.
    @Test func aRowAbookCannotHaveWrittenUnambiguouslyIsNamed() throws {
        var reader = CSVReader()
        var results = reader.feed(try Self.data("abook-ambiguous-note.csv"))
        if let last = try reader.finish() { results.append(.success(last)) }
        #expect(reader.dialect == .abook)
        #expect(results.compactMap { try? $0.get().draft.name } == ["Alan Turing", "Ada Lovelace"])
        let errors = results.compactMap { result -> InterchangeError? in
            if case let .failure(error) = result { return error }
            return nil
        }
        #expect(errors.map(\.line) == [2])
        #expect(errors.first?.message.contains("cannot be told") == true, "\(errors)")
        // The same row first in the file: named too, not taken for a header.
        let first = Array(try Self.data("abook-ambiguous-note.csv").split(separator: 10)[1]) + [10]
        let error = #expect(throws: InterchangeError.self) { try CSVReader.parse(Data(first)) }
        #expect(error?.line == 1 && error?.message.contains("cannot be told") == true, "\(String(describing: error))")
    }

    @Test(arguments: csvFiles) func abooksCSVComesBackTheSameFromCarnetsCSVAndVCard(file: String) throws {
        let records = try Self.csvRecords(file).1.map(Self.saved)
        let csv = CSVWriter.header + records.map { CSVWriter.row($0) }.joined()
        #expect(try CSVReader.parse(csv).map { Self.saved($0).draft } == records.map(\.draft))
        for record in records {
            let card = VCardWriter.card(record, version: .v4)
            #expect(try VCardReader.parse(card).first.map(Self.saved)?.draft == record.draft, "\(file):\(record.line)")
        }
    }

    @Test func abooksAllCSVIsReadByItsHeader() throws {
        // The header abook's allcsv writes, then a row in its layout.
        let text = #"""
            #"NAME","EMAIL","ADDRESS","ADDRESS2","CITY","STATE","ZIP","COUNTRY","PHONE","WORKPHONE","FAX","MOBILEPHONE","NICK","URL","NOTES","ANNIVERSARY","GROUPS"
            "Ada Lovelace","ada@example.com,countess@example.org","12 St James's Square","Flat 3","London","","SW1Y 4JH","United Kingdom","+44 1","+44 2","+44 3","+44 4","Ada","https://example.com/ada","A note","1815-12-10","friends,maths"

            """#
        var reader = CSVReader()
        let records = try reader.feed(text: text).map { try $0.get() } + [try reader.finish()].compactMap { $0 }
        #expect(reader.dialect == .abook)
        #expect(records.count == 1)
        let ada = try #require(records.first).draft
        #expect(ada.addresses == [
            PostalAddress(label: "", extended: "Flat 3", street: "12 St James's Square", locality: "London", postalCode: "SW1Y 4JH", country: "United Kingdom")
        ])
        #expect(ada.phones.map(\.label) == ["home", "work", "fax", "cell"])
        #expect(ada.urls == [LabeledValue("https://example.com/ada")])
        #expect(ada.dates == [ContactDate(label: ContactDate.anniversary, year: 1815, month: 12, day: 10)])
        #expect(ada.categories == ["friends", "maths"] && ada.note == "A note" && ada.extras.isEmpty)
    }

    @Test func aQuotedHeaderOfCarnetsColumnsIsStillAHeader() throws {
        var reader = CSVReader()
        let records = reader.feed(text: "\"name\",\"emails\",\"phones\",\"note\",\"nickname\"\r\n\"Ada\",\"\",\"\",\"\",\"\"\r\n")
        #expect(reader.dialect == .carnet)
        #expect(try records.map { try $0.get().draft.name } == ["Ada"])
        // Five unquoted cells that name nothing are still refused as a header, and so is abook's
        // palmcsv (a row of 21 quoted cells), saying the first row is not one.
        #expect(throws: InterchangeError.self) { try CSVReader.parse("Ada,ada@example.com,1,n,a\r\n") }
        let palm = #""Lovelace","Ada","","","+44 1","+44 2","","","ada@example.com","","London","","","","Ada","","","","","0","abook""# + "\n"
        #expect(throws: InterchangeError(
            line: 1,
            message: "the first row is not a header: it names none of Carnet's columns (\(CSVWriter.columnNames)) "
                + "and is not Google's, Outlook's, Gmail's, Thunderbird's or abook's")
        ) { try CSVReader.parse(palm) }
    }

    // MARK: LDIF

    /// Each entry's attributes (name, value), read without ``LDIFReader``: continuation lines
    /// joined, base64 values decoded.
    static func entries(_ data: Data) -> [[(String, String)]] {
        var lines: [String] = []
        for line in InterchangeText.string(Array(data)[...]).components(separatedBy: "\n") {
            if line.hasPrefix(" "), !lines.isEmpty { lines[lines.count - 1] += line.dropFirst() } else { lines.append(line) }
        }
        var entries: [[(String, String)]] = [[]]
        for line in lines {
            if line.isEmpty {
                if !(entries.last?.isEmpty ?? true) { entries.append([]) }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon]).lowercased()
            var value = String(line[line.index(after: colon)...])
            if value.hasPrefix(":") {
                let decoded = Data(base64Encoded: value.dropFirst().trimmingCharacters(in: .whitespaces)) ?? Data()
                value = InterchangeText.string(Array(decoded)[...])
            } else {
                value = value.trimmingCharacters(in: .whitespaces)
            }
            if name == "version" { continue }
            entries[entries.count - 1].append((name, value))
        }
        return entries.filter { !$0.isEmpty }
    }

    @Test(arguments: ldifFiles) func abooksLDIFReadsAndKeepsEveryValue(file: String) throws {
        let records = try LDIFReader.parse(Self.data(file))
        let entries = Self.entries(try Self.data(file))
        #expect(records.count == entries.count)
        for (entry, record) in zip(entries, records) {
            #expect(record.draft.normalized().issues().isEmpty, "\(file):\(record.line): \(record.draft.issues())")
            let values = Self.values(record.draft)
            for (name, value) in entry where !value.isEmpty && !["dn", "objectclass"].contains(name) {
                let kept = values.contains(value) || values.contains(VCardText.trimmed(value))
                    || record.draft.extras.contains(LDIFAttributes.extraPrefix + name + ":" + VCardText.escape(value))
                #expect(kept, "\(file):\(record.line): \(name) \(value) lost")
            }
        }
    }

    @Test func abooksLDIFMapsItsNetscapeAttributes() throws {
        let records = try LDIFReader.parse(Self.data("abook-addressbook.ldif"))
        let ada = try #require(records.first).draft
        #expect(ada.addresses == [
            PostalAddress(
                label: "work", extended: "Flat 3", street: "12 St James's Square", locality: "London", region: "Westminster",
                postalCode: "SW1Y 4JH", country: "United Kingdom")
        ])
        #expect(ada.phones.map(\.label) == ["home", "work", "fax", "cell"])
        #expect(ada.dates == [ContactDate(label: ContactDate.anniversary, year: 1815, month: 12, day: 10)])
        #expect(ada.note.hasSuffix("carried out by a machine, for Ba"), "a continuation line: \(ada.note)")
        #expect(records[1].draft.name == "Zoë Müller" && records[1].draft.addresses.first?.locality == "Zürich", "base64 values")
        #expect(records[1].draft.dates == [ContactDate(label: ContactDate.anniversary, month: 6, day: 15)])
    }

    /// Exported as LDIF with each contact's UID, then read again: the same contacts, the same UIDs.
    @Test(arguments: ldifFiles) func abooksLDIFComesBackTheSameFromCarnetsLDIF(file: String) throws {
        let records = try LDIFReader.parse(Self.data(file)).enumerated().map { index, record in
            var record = Self.saved(record)
            record.uid = "uid-\(index)"
            return record
        }
        let text = LDIFWriter.header + records.map { LDIFWriter.entry($0.draft, uid: $0.uid) }.joined()
        let again = try LDIFReader.parse(text).map(Self.saved)
        #expect(again.map(\.uid) == records.map(\.uid))
        for (before, after) in zip(records, again) {
            #expect(after.draft == before.draft, "\(file):\(before.line)")
        }
    }
}

/// Carnet's LDIF export read by abook itself (installed by `make deps`), a reader Carnet did not
/// write: abook's CSV of it reads back to the names, emails and phones Carnet wrote.
@Suite(.needs("abook"))
struct AbookReadsCarnetsLDIFTests {
    @Test func abookReadsCarnetsLDIFExport() throws {
        let contacts = [
            ContactDraft(
                name: "Ada Lovelace", emails: [LabeledValue("ada@example.com"), LabeledValue("countess@example.org")],
                phones: [LabeledValue("+44 20 7946 0001", label: "home")], note: "Wrote the first algorithm"),
            ContactDraft(name: "Zoë Müller", nickname: "Zo", emails: [LabeledValue("zoe@example.org")]),
        ]
        let ldif = LDIFWriter.header + contacts.enumerated().map { LDIFWriter.entry($1, uid: "uid-\($0)") }.joined()
        let csv = try AbookProgram.convert(ldif, from: "ldif", to: "csv")
        var reader = CSVReader()
        let records = try reader.feed(csv).map { try $0.get() } + [try reader.finish()].compactMap { $0 }
        #expect(reader.dialect == .abook, "\(String(decoding: csv, as: UTF8.self))")
        #expect(records.map(\.draft.name) == contacts.map(\.name))
        #expect(records.map(\.draft.emails) == contacts.map(\.emails))
        #expect(records.map(\.draft.phones) == contacts.map(\.phones))
        #expect(records.map(\.draft.note) == contacts.map(\.note))
        #expect(records.map(\.draft.nickname) == contacts.map(\.nickname))
    }
}

/// Runs abook's `--convert` on a text, in a directory of its own (so no abookrc applies).
enum AbookProgram {
    static let path = TestTool.path("abook")

    static func convert(_ text: String, from input: String, to output: String) throws -> Data {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carnet-abook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("in")
        let target = directory.appendingPathComponent("out")
        try Data(text.utf8).write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--convert", "--informat", input, "--infile", source.path, "--outformat", output, "--outfile", target.path]
        process.environment = ["HOME": directory.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw VObjectReader.Failure(message: "abook exited with \(process.terminationStatus)") }
        return try Data(contentsOf: target)
    }
}
