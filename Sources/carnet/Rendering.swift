import CarnetModels
import CarnetViewModels
import Foundation

enum JSONOutput {
    /// One value as pretty JSON with sorted keys (the documented schema).
    static func string(_ value: some Encodable) throws -> String {
        safe(String(decoding: try ContactJSONCoding.encoder().encode(value), as: UTF8.self))
    }

    /// One value on one line, for arrays streamed element by element.
    static func line(_ value: some Encodable) throws -> String {
        let encoder = ContactJSONCoding.encoder()
        encoder.outputFormatting.remove(.prettyPrinted)
        return safe(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// JSON with the characters a terminal should not receive raw (DEL, C1 controls, line
    /// separators, direction overrides; the encoder already escapes the rest) written as
    /// `\uXXXX` escapes: the same JSON to a parser, harmless on a screen.
    private static func safe(_ json: String) -> String {
        // Below 0x20 only the layout's own line feeds remain: the encoder escaped the rest.
        let raw = { (scalar: Unicode.Scalar) in scalar.value >= 0x7F && TextRules.needsEscapeForDisplay(scalar) }
        guard json.unicodeScalars.contains(where: raw) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if raw(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }
}

/// Writes contact rows as they are read, page by page: a table on a terminal, tab-separated
/// values for scripts, or a JSON array.
final class ContactListOutput {
    enum Format { case table, tsv, json }

    let format: Format
    let terminal: Terminal
    private var widths: [Int]?
    private var count = 0

    init(format: Format, terminal: Terminal) {
        self.format = format
        self.terminal = terminal
    }

    static let headers = ["ID", "NAME", "POSITION", "EMAIL", "PHONE", "★"]
    static let maxWidth = 36

    func begin() {
        switch format {
        case .json: print("[")
        case .tsv: print(["id", "name", "position", "email", "phone", "favorite"].joined(separator: "\t"))
        case .table: break
        }
    }

    func write(_ rows: [ContactRow]) {
        for row in rows {
            switch format {
            case .json:
                let element = (try? JSONOutput.line(ContactJSON(contact: row.contact, favorite: row.isFavorite))) ?? "null"
                print((count == 0 ? "" : ",\n") + element, terminator: "")
            case .tsv:
                let c = row.contact
                print([String(c.id), c.name, c.position, c.email, c.phone, row.isFavorite ? "1" : "0"]
                    .map(\.tsvField).joined(separator: "\t"))
            case .table:
                if widths == nil { startTable(sample: rows) }
                print(tableLine(cells(row)))
            }
            count += 1
        }
    }

    func end() {
        switch format {
        case .json: print(count == 0 ? "]" : "\n]")
        case .tsv: break
        case .table:
            if count == 0 { print(terminal.dim("No contacts.")) }
        }
    }

    private func cells(_ row: ContactRow) -> [String] {
        let c = row.contact
        return [String(c.id), c.name.shown, c.position.shown, c.email.shown, c.phone.shown, row.isFavorite ? "★" : ""]
    }

    /// Column widths come from the first page (capped), so the table can stream.
    private func startTable(sample: [ContactRow]) {
        var widths = Self.headers.map(\.count)
        for row in sample {
            for (index, cell) in cells(row).enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        self.widths = widths.map { min($0, Self.maxWidth) }
        print(terminal.bold(tableLine(Self.headers)))
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
    static func detail(_ contact: Contact, favoritePosition: Int?, terminal: Terminal) -> String {
        var lines = [terminal.bold(contact.name.shown) + (favoritePosition.map { "  ★ favorite #\($0)" } ?? "")]
        func field(_ label: String, _ value: String) {
            if !value.isEmpty { lines.append("  " + label.padding(toLength: 9, withPad: " ", startingAt: 0) + value.shown) }
        }
        field("Position", contact.position)
        field("Email", contact.email)
        field("Phone", contact.phone)
        if let photo = contact.photo {
            field("Photo", "\(ImageKind(of: photo)?.rawValue.uppercased() ?? "image"), \(photo.count) bytes")
        }
        field("Id", "\(contact.id)  (uid \(contact.uid), version \(contact.version))")
        field("Updated", ISO8601DateFormatter().string(from: contact.updatedAt))
        return lines.joined(separator: "\n") + "\n"
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
