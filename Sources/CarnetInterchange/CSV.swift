import CarnetModels
import Foundation

/// The columns Carnet's CSV files have, in the order `CSVWriter` writes them: `uid`, then each
/// of `ContactFields.all` under its key, then `updated_at`.
public enum CSVColumn: Sendable, Equatable {
    case uid
    case field(Field)
    /// A column of Carnet's first schema, still read: `position`, `email`, `phone`.
    case legacy(Field)
    case updatedAt

    public static let all: [CSVColumn] = [.uid] + ContactFields.all.map { .field($0.field) } + [.updatedAt]
    static let readable: [CSVColumn] = all + [.legacy(.position), .legacy(.email), .legacy(.phone)]

    /// The name in the header: the field's key (`emails`); a list's cell holds one entry per
    /// line, each as `--email` takes it (`work,pref:ada@example.com`).
    public var name: String {
        switch self {
        case .uid: return "uid"
        case let .field(field): return ContactFields.spec(field)?.key ?? field.rawValue
        case let .legacy(field): return field.rawValue
        case .updatedAt: return "updated_at"
        }
    }

    /// The column a header cell names: case, spaces, `_` and `-` do not matter, so `Name`,
    /// `updated_at` and `updatedAt` all match.
    init?(header: String) {
        let key = String(header.unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " }).asciiLowercased
        guard let column = Self.readable.first(where: { $0.name.replacingOccurrences(of: "_", with: "") == key }) else {
            return nil
        }
        self = column
    }
}

/// Reads RFC 4180 CSV with a header row, one line at a time, handing back each contact as soon as
/// its row is complete; a quoted field may hold commas, `""` and line breaks, so a row can span
/// lines, and the record's `InterchangeRecord.line` is where the row starts.
///
/// The header names the columns (see `CSVColumn`), in any order and any case; `name` (or, for
/// a name made from its parts, `given` or `family`) is required, unknown columns are ignored, so
/// a spreadsheet with extra columns imports as is. Carnet's columns are `uid`, then the key of
/// every field of `ContactFields` in its order (`name`, `prefix` … `suffix`, `nickname`, …,
/// `emails`, `phones`, `addresses`, `urls`, `handles`, `dates`, `note`, `categories`, …, `photo`,
/// `extras`), then `updated_at`:
///
/// - A list's cell holds one entry per line, each written as the CLI's flag takes it
///   (`--email work,pref:ada@example.com`): `work,pref:ada@example.com` and `home:ada@home.example`
///   on two lines of one quoted cell; every list of labelled values (its label, whether it is
///   preferred, its value) is written so, `label,pref:value`. Addresses are `home:street; locality; region; postal code;
///   country[; extended[; PO box]]`, dates `birthday:1815-12-10` or `anniversary:--06-01`,
///   handles `skype:ada`; categories and extras are the text alone.
/// - `note` may span lines; `photo` is base64; `updated_at` an ISO 8601 date-time
///   (`2026-11-23T08:55:07.123Z`); empty cells mean "none".
/// - Files of Carnet's first schema still read: `position` becomes title and organization (split
///   at the first ", "), `email` and `phone` the preferred entries, unless the file also has
///   the new columns.
///
/// The exports of Google Contacts (current and older headers), Outlook and Gmail's first format
/// are recognised by their header and read in their own terms (`CSVDialect`, `dialect`):
/// numbered `E-mail 1 - Label`/`Value` pairs, ` ::: ` between values of one cell, `Business
/// Phone` and `Home Street` columns, and so on. What such a file holds that Carnet does not model
/// is kept in extras as `X-CSV;X-COLUMN=…:…` lines, never dropped.
///
/// A header cut by tabs with no comma in it (Thunderbird's "Tab separated" export) makes the
/// whole file tab-separated, quoted the same way; one cut by `;` with neither (Outlook on a
/// Windows whose locale lists with `;`, as European ones do) makes it `;`-separated.
///
/// abook quotes every cell and writes a quote inside one as it is (`"She said "hi""`): its rows
/// are cut where abook cuts them, at `","`. A row holding more `","` than abook writes between
/// its cells (a cell that holds `","` itself) cannot be cut for sure, and is named with its line.
///
/// Every row must have as many fields as the header: a ragged row is an error rather than a
/// guess at which column moved.
///
/// Feed it lines with `feed(line:)` or chunks of bytes with `feed(_:)`, then call
/// `finish()`; do not mix the two ways on one reader. After an error in a row, reading goes
/// on with the next row (an error in the header makes the rest unreadable).
public struct CSVReader: InterchangeReader, LineConsumingReader {
    private var lineNumber = 0
    var splitter = LineSplitter()
    /// The header's columns by position; nil until the header is read, nil entries are ignored.
    private var columns: [CSVColumn?]?
    private var headerFailed = false
    /// How the rows of another program's CSV are read; nil for Carnet's own.
    private var foreign: ForeignCSV?
    /// The dialect the header is in, once it is read: Carnet's own, or Google's, Outlook's or
    /// Gmail's export (see `CSVDialect`), so an import can say which it read.
    public private(set) var dialect: CSVDialect?

    // The row being read.
    private var fields: [[UInt8]] = []
    private var field: [UInt8] = []
    private var state = State.fieldStart
    private var rowLine = 0
    private var quoteLine = 0
    private var rowBytes = 0
    /// Whether every field of the row so far was quoted, as abook writes every field: with five
    /// fields and no column name, such a first row is abook's data, not a header.
    private var rowAllQuoted = true
    private var fieldQuoted = false
    /// The byte between fields: a comma, or a tab or `;` when the header is cut by one of them
    /// and holds no comma (see `separator(ofHeader:)`).
    private var separator: UInt8 = 44
    /// Whether the header row had a quote inside a quoted field followed by text, as abook
    /// writes it: a first row that is not a header is then said to be abook's that cannot be cut.
    private var headerHadStrayQuote = false
    /// How many `","` the first line holds when it is shaped as abook writes a row.
    private var headerAbookSeparators: Int?

    private enum State: Sendable {
        case fieldStart, unquoted, quoted, quoteInQuoted
    }

    public init() {}

    /// Fails if a quoted field is still open or the file had no header.
    mutating func checkComplete() throws(InterchangeError) {
        if state == .quoted {
            let line = quoteLine
            resetRow()
            throw InterchangeError(line: line, message: "a quoted field opened here is never closed (missing \")")
        }
        if columns == nil, !headerFailed {
            headerFailed = true
            throw InterchangeError(line: max(1, lineNumber), message: "the file has no header row (expected \(CSVWriter.columnNames))")
        }
    }

    private mutating func resetRow() {
        fields = []
        field = []
        state = .fieldStart
        rowBytes = 0
        rowAllQuoted = true
        fieldQuoted = false
    }

    mutating func consume(_ raw: [UInt8]) throws(InterchangeError) -> InterchangeRecord? {
        lineNumber += 1
        var bytes = raw
        if lineNumber == 1 {
            if let encoding = InterchangeText.utf16Encoding(bytes) {
                headerFailed = true
                throw InterchangeError(line: 1, message: InterchangeText.utf16Message(encoding))
            }
            bytes.dropByteOrderMark()
            separator = Self.separator(ofHeader: bytes)
        }
        let continuing = state == .quoted
        if !continuing {
            if bytes.isEmpty { return nil }
            rowLine = lineNumber
        } else {
            field.append(10)
        }
        rowBytes += bytes.count + 1
        guard rowBytes <= InterchangeLimits.recordBytes else {
            resetRow()
            throw InterchangeError(line: rowLine, message: "this row is longer than \(InterchangeLimits.recordBytes) bytes (is a quote missing?)")
        }
        if !continuing, separator == 44, let (cells, separators) = Self.abookCells(bytes) {
            if columns == nil, !headerFailed {
                if separators == ForeignCSV.abookColumns.count - 1 {
                    resetRow()
                    return try record(from: cells, allQuoted: true)
                }
                headerAbookSeparators = separators
            } else if let columns, dialect == .abook {
                if separators == columns.count - 1 {
                    resetRow()
                    return try record(from: cells, allQuoted: true)
                }
                if separators >= columns.count {
                    resetRow()
                    throw InterchangeError(line: rowLine, message: Self.abookAmbiguity(separators, expected: columns.count))
                }
            }
        }

        for byte in bytes {
            switch state {
            case .fieldStart:
                if byte == 34 {
                    state = .quoted
                    fieldQuoted = true
                    quoteLine = lineNumber
                } else if byte == separator {
                    endField()
                } else {
                    field.append(byte)
                    state = .unquoted
                }
            case .unquoted:
                // A quote inside an unquoted field is kept as it is, as spreadsheets do.
                if byte == separator { endField() } else { field.append(byte) }
            case .quoted:
                if byte == 34 { state = .quoteInQuoted } else { field.append(byte) }
            case .quoteInQuoted:
                if byte == 34 {
                    field.append(34)
                    state = .quoted
                } else if byte == separator {
                    endField()
                } else if columns == nil || dialect == .abook {
                    // abook quotes every field but writes a quote inside one as it is: a quote
                    // followed by text is part of the field.
                    if columns == nil { headerHadStrayQuote = true }
                    field.append(34)
                    field.append(byte)
                    state = .quoted
                } else {
                    resetRow()
                    throw InterchangeError(line: lineNumber, message: "unexpected text after a closing quote (a quote inside a quoted field is written \"\")")
                }
            }
        }
        if state == .quoted { return nil }
        endField()
        let row = fields
        let allQuoted = rowAllQuoted
        resetRow()
        return try record(from: row, allQuoted: allQuoted)
    }

    private mutating func endField() {
        fields.append(field)
        if !fieldQuoted { rowAllQuoted = false }
        field = []
        fieldQuoted = false
        state = .fieldStart
    }

    private mutating func record(from row: [[UInt8]], allQuoted: Bool) throws(InterchangeError) -> InterchangeRecord? {
        guard let columns else {
            guard !headerFailed else { return nil }
            try readHeader(row, allQuoted: allQuoted)
            // abook's csv has no header: its first row is a contact.
            if let foreign, foreign.headerless { return foreign.record(row.map { InterchangeText.string($0) }, line: rowLine) }
            return nil
        }
        // Google's and Outlook's exports end a row at its last non-empty cell: a short row is
        // one with empty cells at the end. Carnet's own rows are whole, so a ragged one there is
        // an error rather than a guess at which column moved.
        if let foreign, row.count <= columns.count || row[columns.count...].allSatisfy(\.isEmpty) {
            return foreign.record(row.prefix(columns.count).map { InterchangeText.string($0) }, line: rowLine)
        }
        guard row.count == columns.count else {
            throw InterchangeError(line: rowLine, message: "expected \(columns.count) fields as in the header, found \(row.count)")
        }
        var uid: String?
        var draft = ContactDraft()
        var updatedAt: Date?
        for (column, bytes) in zip(columns, row) {
            guard let column else { continue }
            switch column {
            case .uid:
                let value = InterchangeText.string(bytes)
                uid = value.isEmpty ? nil : value
            case let .field(field):
                guard let spec = ContactFields.all.first(where: { $0.field == field }) else { continue }
                switch spec.value {
                case let .text(keyPath), let .multiline(keyPath):
                    draft[keyPath: keyPath] = InterchangeText.string(bytes)
                case let .list(list):
                    let text = InterchangeText.string(bytes)
                    let entries = text.isEmpty ? [] : text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").map(String.init)
                    if let error = list.replace(&draft, entries).first {
                        throw InterchangeError(line: rowLine, message: "\(spec.key): \(error.message)")
                    }
                case let .photo(keyPath):
                    guard let data = InterchangeBase64.decode(bytes) else {
                        throw InterchangeError(line: rowLine, message: "\(spec.key) is not valid base64")
                    }
                    draft[keyPath: keyPath] = data.isEmpty ? nil : data
                }
            case let .legacy(field):
                let text = InterchangeText.string(bytes)
                switch field {
                case .position: if draft.title.isEmpty && draft.organization.isEmpty { draft.position = text }
                case .email: if draft.emails.isEmpty { draft.email = text }
                case .phone: if draft.phones.isEmpty { draft.phone = text }
                default: break
                }
            case .updatedAt:
                let text = InterchangeText.string(bytes)
                if VCardText.isBlank(text) { break }
                guard let date = InterchangeDate.parse(text) else {
                    throw InterchangeError(
                        line: rowLine,
                        message: "updated_at \(InterchangeText.preview(bytes)) is not a date (write it like 2026-11-23T08:55:07.123Z)")
                }
                updatedAt = date
            }
        }
        return InterchangeRecord(uid: uid, draft: draft, updatedAt: updatedAt, line: rowLine)
    }

    private mutating func readHeader(_ row: [[UInt8]], allQuoted: Bool) throws(InterchangeError) {
        let cells = row.map { InterchangeText.string($0) }
        var foreign = ForeignCSV(header: cells)
        if foreign == nil, allQuoted, row.count == ForeignCSV.abookColumns.count,
           !cells.contains(where: { CSVColumn(header: VCardText.trimmed($0)) != nil }) {
            foreign = ForeignCSV.abookHeaderless
        }
        if let foreign {
            self.foreign = foreign
            dialect = foreign.dialect
            columns = Array(repeating: nil, count: foreign.columnCount)
            return
        }
        var found: [CSVColumn?] = []
        for cell in row {
            let column = CSVColumn(header: VCardText.trimmed(InterchangeText.string(cell)))
            if let column, found.contains(column) {
                headerFailed = true
                throw InterchangeError(line: rowLine, message: "the header names the column \"\(column.name)\" twice")
            }
            found.append(column)
        }
        // A name can be made from its parts (the importer normalizes the draft), so given or
        // family will do.
        guard found.contains(.field(.name)) || found.contains(.field(.given)) || found.contains(.field(.family)) else {
            headerFailed = true
            if found.allSatisfy({ $0 == nil }) {
                if headerHadStrayQuote, let separators = headerAbookSeparators, separators >= ForeignCSV.abookColumns.count {
                    throw InterchangeError(
                        line: rowLine, message: "the first row is not a header, and as abook's csv "
                            + Self.abookAmbiguity(separators, expected: ForeignCSV.abookColumns.count))
                }
                throw InterchangeError(
                    line: rowLine,
                    message: "the first row is not a header: it names none of Carnet's columns (\(CSVWriter.columnNames)) "
                        + "and is not Google's, Outlook's, Gmail's, Thunderbird's or abook's")
            }
            throw InterchangeError(
                line: rowLine,
                message: "the header has no \"name\" column (Carnet's columns are \(CSVWriter.columnNames))")
        }
        columns = found
        dialect = .carnet
    }

    /// The byte a file's fields are separated by, told by its header line: a comma when it has
    /// one outside quotes; else a tab (Thunderbird's "Tab separated" export) or `;` (Outlook
    /// writes the list separator of the machine's locale, `;` on European Windows) if it has one.
    static func separator(ofHeader line: [UInt8]) -> UInt8 {
        var quoted = false
        var seen: Set<UInt8> = []
        for byte in line {
            if byte == 34 { quoted.toggle() } else if !quoted, byte == 44 || byte == 9 || byte == 59 { seen.insert(byte) }
        }
        if seen.contains(44) { return 44 }
        if seen.contains(9) { return 9 }
        if seen.contains(59) { return 59 }
        return 44
    }

    /// The cells of a line in the shape abook writes a row (`"…","…",…`: every cell quoted, a
    /// quote inside one left as it is), cut at each `","`; with how many `","` the line holds,
    /// overlapping ones counted, so a line holding more than its cells need is seen to be
    /// ambiguous. Nil for a line of another shape.
    static func abookCells(_ line: [UInt8]) -> (cells: [[UInt8]], separators: Int)? {
        guard line.count >= 2, line.first == 34, line.last == 34 else { return nil }
        let inner = line[1 ..< line.count - 1]
        var separators = 0
        var cells: [[UInt8]] = []
        var start = inner.startIndex
        var index = inner.startIndex
        while index + 2 < inner.endIndex {
            if inner[index] == 34, inner[index + 1] == 44, inner[index + 2] == 34 {
                separators += 1
                // Overlapping ones (`",","`) are counted, not cut at.
                if index >= start {
                    cells.append(Array(inner[start ..< index]))
                    start = index + 3
                }
            }
            index += 1
        }
        cells.append(Array(inner[start...]))
        return (cells, separators)
    }

    /// Why a row in abook's shape with more `","` than its columns need is not read.
    static func abookAmbiguity(_ separators: Int, expected: Int) -> String {
        "this row holds \(separators) \",\" where abook writes \(expected - 1) between its \(expected) cells: a cell holds "
            + "\",\" itself, and which quotes end a cell cannot be told; take the \",\" out of that cell (in abook) and export again"
    }
}

/// Writes Carnet's CSV: a header, then one row per contact, each line ending in CRLF (RFC 4180).
/// Fields are quoted only when they must be (a comma, quote or line break inside), and the output
/// is deterministic, so an export → import → export gives the same bytes.
public enum CSVWriter {
    /// The header row, with its CRLF.
    public static let header = columnNames + "\r\n"

    static let columnNames = CSVColumn.all.map(\.name).joined(separator: ",")

    /// One row, with its CRLF: `photo` as base64, `updated_at` as `2026-11-23T08:55:07.123Z`.
    public static func row(uid: String?, draft: ContactDraft, updatedAt: Date?) -> String {
        var cells = [uid ?? ""]
        for spec in ContactFields.all {
            switch spec.value {
            case let .text(keyPath), let .multiline(keyPath): cells.append(draft[keyPath: keyPath])
            case let .photo(keyPath): cells.append(draft[keyPath: keyPath]?.base64EncodedString() ?? "")
            case let .list(list): cells.append(list.entries(draft).joined(separator: "\n"))
            }
        }
        cells.append(updatedAt.map(InterchangeDate.extended) ?? "")
        return cells.map(quoted).joined(separator: ",") + "\r\n"
    }

    /// One row for a record.
    public static func row(_ record: InterchangeRecord) -> String {
        row(uid: record.uid, draft: record.draft, updatedAt: record.updatedAt)
    }

    /// One row for a saved contact.
    public static func row(contact: Contact) -> String {
        row(uid: contact.uid, draft: contact.draft, updatedAt: contact.updatedAt)
    }

    private static func quoted(_ cell: String) -> String {
        guard cell.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
