import CEditLine
import Foundation

/// Where `carnet interactive` reads its lines. On a terminal, libedit: arrows move in the line
/// and through earlier lines, Ctrl-L clears the screen, instead of landing in the text as escape
/// sequences. Piped input (a script) is read as it comes, with `readLine`.
@MainActor
final class LineInput {
    private let terminal: Terminal

    /// Whether the last ``line(prompt:)`` that returned nil was ended by Ctrl-C (once
    /// ``catchInterrupts()`` is on), not by the end of input.
    private(set) var wasInterrupted = false

    init(terminal: Terminal) {
        self.terminal = terminal
    }

    /// From now on Ctrl-C on the terminal ends the line being read (``wasInterrupted``) instead
    /// of the process, and never reaches carnet's process group.
    func catchInterrupts() {
        _ = carnet_catch_interrupts()
    }

    /// The next line without its newline (the prompt shown first, if any); nil at end of input
    /// (Ctrl-D on an empty line, on a terminal; a terminal can be read again after it).
    func line(prompt: String?) -> String? {
        terminal.console.flush()
        guard terminal.stdinIsTerminal else {
            if let prompt { terminal.print(prompt, terminator: ""); terminal.console.flush() }
            return terminal.console.readLine()
        }
        // A Ctrl-C pressed while the last command ran (typed ahead) counts for this read.
        wasInterrupted = carnet_take_interrupt() != 0
        if wasInterrupted {
            terminal.print(prompt ?? "", terminator: "")
            return nil
        }
        guard let raw = readline(prompt ?? "") else {
            wasInterrupted = carnet_take_interrupt() != 0
            return nil
        }
        defer { free(raw) }
        let line = String(decoding: UnsafeRawBufferPointer(start: raw, count: strlen(raw)), as: UTF8.self)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty { add_history(raw) }
        return line
    }
}
