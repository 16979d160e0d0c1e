import CarnetModels

/// How a run of cells looks.
struct CellStyle: Hashable, Sendable {
    enum Color: Hashable, Sendable { case plain, accent, message, error }
    var bold = false
    var reverse = false
    var dim = false
    var underline = false
    var color = Color.plain

    static let plain = CellStyle()
    static let bold = CellStyle(bold: true)
    static let dim = CellStyle(dim: true)
    static let selected = CellStyle(reverse: true)
    static let heading = CellStyle(bold: true, color: .accent)
    static let message = CellStyle(color: .message)
    static let error = CellStyle(bold: true, color: .error)
}

/// Text with one style, already made safe to show: a control character in the data is shown
/// escaped (`\u{1B}`), never sent to the terminal.
struct Span: Equatable, Sendable {
    var text: String
    var style: CellStyle

    init(_ text: String, _ style: CellStyle = .plain) {
        self.text = TextRules.escapedForDisplay(text)
        self.style = style
    }
}

/// What a screen shows: one line of spans per row of the window, each placed at a column.
/// The rendering of every screen is a pure function of its view models and the window's size,
/// to a `Frame`; drawing it is the terminal's part.
struct Frame: Equatable, Sendable {
    struct Piece: Equatable, Sendable {
        var column: Int
        var span: Span
    }

    let rows: Int
    let columns: Int
    private(set) var lines: [[Piece]]

    init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        lines = Array(repeating: [], count: max(rows, 0))
    }

    /// Writes `spans` from `column` of `row`, cut at `width` cells (the window's edge when nil),
    /// with `…` where text is cut; a style with `reverse` fills the rest of the width too, so a
    /// highlighted row shows as a bar. Returns the column after the last cell written.
    @discardableResult
    mutating func put(_ spans: [Span], row: Int, column: Int = 0, width: Int? = nil) -> Int {
        guard row >= 0, row < rows, column < columns else { return column }
        let limit = min(columns, column + (width ?? columns - column))
        var x = column
        for (index, span) in spans.enumerated() {
            guard x < limit else { break }
            let isLast = index == spans.count - 1
            let (text, used) = ScreenText.clip(span.text, to: limit - x)
            if !text.isEmpty { lines[row].append(Piece(column: x, span: Span(verbatim: text, span.style))) }
            x += used
            if used < ScreenText.width(span.text) { break }
            if isLast, span.style.reverse, x < limit {
                lines[row].append(Piece(column: x, span: Span(verbatim: String(repeating: " ", count: limit - x), span.style)))
                x = limit
            }
        }
        return x
    }

    mutating func put(_ text: String, _ style: CellStyle = .plain, row: Int, column: Int = 0, width: Int? = nil) {
        put([Span(text, style)], row: row, column: column, width: width)
    }

    /// The characters of each row, as a terminal would show them (tests read these).
    var text: [String] {
        lines.map { pieces in
            var cells = [Character](repeating: " ", count: columns)
            for piece in pieces {
                var x = piece.column
                for character in piece.span.text {
                    let width = ScreenText.width(character)
                    guard x + width <= columns else { break }
                    if width > 0 { cells[x] = character }
                    if width == 2, x + 1 < columns { cells[x + 1] = "\u{0}" }
                    x += width
                }
            }
            return String(cells.filter { $0 != "\u{0}" }).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }
}

extension Span {
    /// Text already escaped (a piece of a span).
    init(verbatim text: String, _ style: CellStyle) {
        self.text = text
        self.style = style
    }
}

/// How many cells text takes on a terminal: a wide (East Asian, emoji) character two, a combining
/// mark none, everything else one; a character is one grapheme, as a terminal draws it.
enum ScreenText {
    static func width(_ character: Character) -> Int {
        var result = 0
        for scalar in character.unicodeScalars {
            let value = scalar.value
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: break
            }
            if value == 0x200D || (0xFE00...0xFE0F).contains(value) { continue }
            result = max(result, isWide(value) ? 2 : 1)
        }
        return result
    }

    static func width(_ text: String) -> Int { text.reduce(0) { $0 + width($1) } }

    /// The longest prefix of `text` that fits `cells`, with `…` as its last cell when cut; and
    /// the cells it takes.
    static func clip(_ text: String, to cells: Int) -> (String, Int) {
        guard cells > 0 else { return ("", 0) }
        let total = width(text)
        if total <= cells { return (text, total) }
        var result = ""
        var used = 0
        for character in text {
            let w = width(character)
            if used + w > cells - 1 { break }
            result.append(character)
            used += w
        }
        return (result + "…", used + 1)
    }

    /// `text` cut or padded with spaces to exactly `cells`.
    static func fit(_ text: String, _ cells: Int) -> String {
        let (clipped, used) = clip(text, to: cells)
        return clipped + String(repeating: " ", count: max(0, cells - used))
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
