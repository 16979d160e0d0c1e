import CarnetInterchange
import CarnetModels
import CarnetViewModels
import Foundation

enum JSONOutput {
    /// One value as pretty JSON with sorted keys (the documented schema).
    static func string(_ value: some Encodable) throws -> String {
        ContactJSONCoding.escapedForDisplay(String(decoding: try ContactJSONCoding.encoder().encode(value), as: UTF8.self))
    }

    /// One value on one line, for arrays streamed element by element.
    static func line(_ value: some Encodable) throws -> String {
        try ContactJSONCoding.line(value)
    }
}

/// Writes contact rows as they are read, page by page: a table on a terminal, tab-separated
/// values for scripts, or a JSON array. Everything goes through one `OutputBuffer`, so a long
/// listing costs a copy of each value's bytes, not a `print` per row.
final class ContactListOutput {
    enum Format { case table, tsv, json }

    let format: Format
    let terminal: Terminal
    private let out: OutputBuffer
    private var widths: [Int]?
    /// The table's first rows, until its columns are sized.
    private var sample: [ContactSummaryRow] = []
    private var count = 0
    /// One encoder for every row of a JSON array (making one per row costs more than encoding).
    private lazy var jsonEncoder: JSONEncoder = {
        let encoder = ContactJSONCoding.encoder()
        encoder.outputFormatting.remove(.prettyPrinted)
        return encoder
    }()

    /// Each book's name by id, when the file has more than one book: every row then says its
    /// book (a last column, so the columns before it stay where scripts expect them).
    let bookNames: [Int64: String]?

    init(format: Format, terminal: Terminal, bookNames: [Int64: String]? = nil) {
        self.format = format
        self.terminal = terminal
        self.bookNames = bookNames
        out = OutputBuffer(console: terminal.console)
    }

    static let baseHeaders = ["ID", "NAME", "POSITION", "EMAIL", "PHONE", "★"]
    var headers: [String] { Self.baseHeaders + (bookNames == nil ? [] : ["BOOK"]) }
    static let maxWidth = 36

    func begin() {
        switch format {
        case .json: out.write("[\n")
        case .tsv: out.write("id\tname\tposition\temail\tphone\tfavorite" + (bookNames == nil ? "\n" : "\tbook\n"))
        case .table: break
        }
    }

    /// How many rows the table's column widths are measured on before it starts.
    static let tableSample = 200

    /// Writes one whole contact: an element of the JSON array (a table or TSV shows its summary).
    func write(_ row: ContactRow) {
        guard format == .json else {
            write(ContactSummaryRow(summary: ContactSummary(row.contact), isFavorite: row.isFavorite, favoritePosition: row.favoritePosition))
            return
        }
        if count > 0 { out.write(",\n") }
        writeJSON(row)
        count += 1
        out.flushIfFull()
    }

    /// Writes one line of a table or TSV (a table first gathers `tableSample` rows to size its
    /// columns). JSON needs whole contacts: `write(_:)-(ContactRow)`.
    func write(_ row: ContactSummaryRow) {
        switch format {
        case .json:
            preconditionFailure("a JSON listing is written from whole contacts")
        case .tsv:
            let c = row.summary
            out.write(c.id)
            out.write(byte: UInt8(ascii: "\t"))
            out.writeTSVField(c.name)
            out.write(byte: UInt8(ascii: "\t"))
            out.writeTSVField(c.position)
            out.write(byte: UInt8(ascii: "\t"))
            out.writeTSVField(c.email)
            out.write(byte: UInt8(ascii: "\t"))
            out.writeTSVField(c.phone)
            if let bookNames {
                out.write(row.isFavorite ? "\t1\t" : "\t0\t")
                out.writeTSVField(bookNames[c.bookID] ?? "")
                out.write(byte: UInt8(ascii: "\n"))
            } else {
                out.write(row.isFavorite ? "\t1\n" : "\t0\n")
            }
        case .table:
            guard widths != nil else {
                sample.append(row)
                if sample.count == Self.tableSample { startTable() }
                return
            }
            out.write(tableLine(cells(row)))
            out.write(byte: UInt8(ascii: "\n"))
        }
        count += 1
        out.flushIfFull()
    }

    func end() {
        if format == .table && widths == nil && !sample.isEmpty { startTable() }
        switch format {
        case .json: out.write(count == 0 ? "]\n" : "\n]\n")
        case .tsv: break
        case .table:
            if count == 0 { out.write(terminal.dim("No contacts.") + "\n") }
        }
        out.flush()
    }

    /// Hands what is gathered to stdout: rows written before an error still reach the reader.
    func flush() { out.flush() }

    /// One element on one line, as `JSONOutput/line(_:)` writes it.
    private func writeJSON(_ row: ContactRow) {
        let value = ContactJSON(contact: row.contact, favorite: row.isFavorite)
        guard let data = try? jsonEncoder.encode(value) else {
            out.write("null")
            return
        }
        let plain = data.withUnsafeBytes { raw in
            let utf8 = raw.bindMemory(to: UInt8.self)
            guard OutputBuffer.isPlainForDisplay(utf8) else { return false }
            out.write(utf8)
            return true
        }
        // A value holding what a terminal must not get raw: the escaping path, rarely taken.
        if !plain { out.write((try? JSONOutput.line(value)) ?? "null") }
    }

    private func cells(_ row: ContactSummaryRow) -> [String] {
        let c = row.summary
        let cells = [String(c.id), c.name.shown, c.position.shown, c.email.shown, c.phone.shown, row.isFavorite ? "★" : ""]
        guard let bookNames else { return cells }
        return cells + [(bookNames[c.bookID] ?? "").shown]
    }

    /// Column widths come from the first rows (capped), so the table can stream.
    private func startTable() {
        let headers = self.headers
        var widths = headers.map(\.count)
        for row in sample {
            for (index, cell) in cells(row).enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        self.widths = widths.map { min($0, Self.maxWidth) }
        out.write(terminal.bold(tableLine(headers)) + "\n")
        let rows = sample
        sample = []
        for row in rows { write(row) }
    }

    private func tableLine(_ cells: [String]) -> String {
        let widths = self.widths ?? cells.map(\.count)
        return zip(cells, widths).enumerated().map { index, pair in
            let (cell, width) = pair
            let clipped = cell.count > width ? String(cell.prefix(width - 1)) + "…" : cell
            let padding = String(repeating: " ", count: max(0, width - clipped.count))
            return index == 0 ? padding + clipped : clipped + padding
        }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
}

enum ContactRendering {
    /// Every field of a contact, grouped in the field description's sections: the name as the
    /// heading, then each section's fields, a list's entries one per line with their type.
    /// `book`: the contact's address book, named under the heading when the file has several.
    static func detail(_ contact: Contact, favoritePosition: Int?, book: String? = nil, terminal: Terminal) -> String {
        var lines = [terminal.bold(contact.name.shown) + (favoritePosition.map { "  ★ favorite #\($0)" } ?? "")]
        if let book { lines.append("  " + column("Book") + book.shown) }
        let draft = contact.draft
        for section in FieldSection.allCases {
            var body: [String] = []
            func field(_ label: String, _ value: String) {
                if !value.isEmpty { body.append("  " + column(label) + value) }
            }
            for spec in ContactFields.all where spec.section == section && spec.field != .name {  // the name is the heading
                switch spec.value {
                case let .text(keyPath): field(spec.label, draft[keyPath: keyPath].shown)
                case let .multiline(keyPath):
                    let text = draft[keyPath: keyPath]
                    if !text.isEmpty { body += text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "  " + String($0).shown } }
                case let .photo(keyPath):
                    if let photo = draft[keyPath: keyPath] {
                        body.append("  \(ImageKind(of: photo)?.rawValue.uppercased() ?? "image"), \(photo.count) bytes")
                    }
                case let .list(list) where spec.label == section.rawValue:
                    // A section that is one list (dates, categories): each entry on its own row,
                    // named by its type when it has one ("Birthday  1815-12-10").
                    for entry in list.display(draft) where !entry.value.isEmpty {
                        if entry.label.isEmpty {
                            body.append("  " + entry.value.shown)
                        } else {
                            field((entry.label.prefix(1).uppercased() + entry.label.dropFirst()).shown, entry.value.shown)
                        }
                    }
                case let .list(list):
                    for (index, entry) in list.display(draft).enumerated() {
                        let label = index == 0 ? spec.label : ""
                        let value = entry.value.shown + (entry.label.isEmpty ? "" : "  (\(entry.label.shown))")
                        field(label, value)
                    }
                }
            }
            if !body.isEmpty {
                lines.append(terminal.bold(section.rawValue))
                lines += body
            }
        }
        lines.append(terminal.bold("Record"))
        lines.append("  " + column("Id") + "\(contact.id)  (uid \(contact.uid.shown), version \(contact.version))")
        lines.append("  " + column("Updated") + contact.updatedAt.localMinute)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A label padded to the value column; a longer one (a free label) keeps a space after it.
    private static func column(_ label: String) -> String {
        label.count < 17 ? label.padding(toLength: 17, withPad: " ", startingAt: 0) : label + " "
    }
}

enum QuoteRendering {
    static func text(_ quote: Quote, terminal: Terminal) -> String {
        let author = quote.author.isEmpty ? "" : "\n    — \(quote.author.shown)"
        return "“\(quote.text.multiline)”" + author + "\n"
    }
}

/// The line a save prints. When the draft equals what is stored, the storage controller writes
/// nothing and hands back the stored record with its version as it was: that is reported as
/// unchanged, not as saved.
enum SaveReport {
    /// `saved contact 3` (with `version 4` when `showingVersion`), or
    /// `contact 3 unchanged (nothing to save)` when `version` is still `baseVersion`, the
    /// version the save was made over.
    static func line(_ record: CarnetError.Record, id: Int64, version: Int, baseVersion: Int?, showingVersion: Bool = false) -> String {
        if version == baseVersion { return unchanged("\(record.rawValue) \(id)") }
        return "saved \(record.rawValue) \(id)" + (showingVersion ? " version \(version)" : "")
    }

    static func unchanged(_ subject: String) -> String { "\(subject) unchanged (nothing to save)" }
}

extension Date {
    /// "2026-11-23 17:40", in the local time zone: how `show` and `history` tell a person when.
    var localMinute: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: self)
    }
}

/// Columns as a person reads them on a terminal: each padded to its widest cell, two spaces
/// apart, the last unpadded, the header bold.
enum TextTable {
    /// The lines, without a final newline; `rightAligned` columns (numbers) are padded on the left.
    static func render(_ headers: [String], _ rows: [[String]], rightAligned: Set<Int> = [], terminal: Terminal) -> String {
        let widths = headers.indices.map { column in ([headers] + rows).map { $0[column].count }.max() ?? 0 }
        func line(_ row: [String]) -> String {
            row.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                return rightAligned.contains(index) ? padding + cell : (index == row.count - 1 ? cell : cell + padding)
            }.joined(separator: "  ")
        }
        return ([terminal.bold(line(headers))] + rows.map(line)).joined(separator: "\n")
    }
}
