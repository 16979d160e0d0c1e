import CEditLine
import Foundation

/// Where `carnet interactive` reads its lines. On a terminal, libedit: arrows move in the line
/// and through earlier lines, Ctrl-L clears the screen, instead of landing in the text as escape
/// sequences. Piped input (a script) is read as it comes, with `readLine`.
@MainActor
final class LineInput {
    private let terminal: Terminal

    init(terminal: Terminal) {
        self.terminal = terminal
    }

    /// The next line without its newline (the prompt shown first, if any); nil at end of input
    /// (Ctrl-D on an empty line, on a terminal; a terminal can be read again after it).
    func line(prompt: String?) -> String? {
        terminal.console.flush()
        guard terminal.stdinIsTerminal else {
            if let prompt { terminal.print(prompt, terminator: ""); terminal.console.flush() }
            return terminal.console.readLine()
        }
        guard let raw = readline(prompt ?? "") else { return nil }
        defer { free(raw) }
        let line = String(decoding: UnsafeRawBufferPointer(start: raw, count: strlen(raw)), as: UTF8.self)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty { add_history(raw) }
        return line
    }
}
