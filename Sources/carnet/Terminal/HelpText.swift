import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Help as a person reads it: swift-argument-parser wraps every long line of a discussion back
/// to column 0, so an example or an exit code's explanation that does not fit continued under
/// the paragraphs instead of under itself. The help is rendered unwrapped and wrapped here, each
/// line's continuation under that line's own column.
enum HelpText {
    /// The width swift-argument-parser would use: `COLUMNS`, else the terminal's, else 80.
    static func width(_ console: Console) -> Int {
        if let columns = console.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return console.columns ?? 80
    }

    /// Whether `message` is a help screen (not a version, completion script or JSON dump, which
    /// must be printed exactly as made).
    static func isHelp(_ message: String) -> Bool {
        message.hasPrefix("OVERVIEW:") || message.hasPrefix("USAGE:")
    }

    /// Every line of `text` wrapped to fewer than `width` characters. A continuation starts under
    /// the line's text column: after `OVERVIEW: ` or `USAGE: `, after a label and the two or
    /// more spaces that end it (`  66  not found…`, `  --db <path>    The address…`); an
    /// indented line without a label (an example command) continues four columns further in, so
    /// it does not read as the next example, unless it is an option's help in the help column,
    /// which continues in that column; a paragraph continues at `paragraphIndent` (column 0 in
    /// `--help`; a list of commands, where each line is one item, hangs its continuations).
    static func wrapped(_ text: String, width: Int, paragraphIndent: Int = 0) -> String {
        let limit = max(20, width - 1)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { wrap(String($0), limit: limit, paragraphIndent: paragraphIndent) }
            .joined(separator: "\n")
    }

    private static func wrap(_ line: String, limit: Int, paragraphIndent: Int) -> String {
        let characters = Array(line)
        guard characters.count > limit else { return line }
        let indent = min(continuationIndent(characters) ?? paragraphIndent, limit / 2)
        var lines: [String] = []
        var start = 0
        var lead = 0  // spaces added in front of the current piece
        while characters.count - start + lead > limit {
            let room = limit - lead
            // Break at the last space that fits; in a word longer than the line, after the last
            // `|` of its alternatives that fits (`name|prefix|given|…`); else at the first space
            // after it.
            var cut = start + room
            while cut > start && characters[cut] != " " { cut -= 1 }
            if cut <= start + (lead == 0 ? leadingSpaces(characters) : 0) {
                var bar = start + room - 1
                while bar > start && characters[bar] != "|" { bar -= 1 }
                if bar > start {
                    cut = bar + 1
                } else {
                    guard let next = characters[(start + room)...].firstIndex(of: " ") else { break }
                    cut = next
                }
            }
            lines.append(String(repeating: " ", count: lead) + String(characters[start..<cut]))
            start = cut
            while start < characters.count && characters[start] == " " { start += 1 }
            lead = indent
        }
        lines.append(String(repeating: " ", count: lead) + String(characters[start...]))
        return lines.joined(separator: "\n")
    }

    private static func leadingSpaces(_ characters: [Character]) -> Int {
        characters.prefix { $0 == " " }.count
    }

    /// Where the line's continuations start, or nil for a paragraph (no indent, no label).
    private static func continuationIndent(_ characters: [Character]) -> Int? {
        let line = String(characters)
        for label in ["OVERVIEW: ", "USAGE: "] where line.hasPrefix(label) { return label.count }
        let leading = leadingSpaces(characters)
        guard leading > 0 else { return nil }
        // A label column: text, then two or more spaces, then the text the label explains.
        var index = leading
        while index < characters.count - 2 {
            if characters[index] == " " && characters[index + 1] == " " {
                var end = index
                while end < characters.count && characters[end] == " " { end += 1 }
                return end
            }
            index += 1
        }
        // An option's help on the line under its name (`--remove-address <address>` is too long
        // to share a line) sits deep in the help column: it continues there.
        return leading >= 8 ? leading : leading + 4
    }
}
