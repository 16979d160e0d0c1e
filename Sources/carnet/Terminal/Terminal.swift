import CarnetModels
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the CLI knows about where it runs: prompts only when a person can answer (stdin is a
/// terminal), colour only on a terminal without `NO_COLOR`. Scripts get plain, stable output.
struct Terminal {
    /// The streams and environment everything is read from and written to.
    let console: Console
    let usesColor: Bool

    var stdinIsTerminal: Bool { console.stdinIsTerminal }
    var stdoutIsTerminal: Bool { console.stdoutIsTerminal }
    var stderrIsTerminal: Bool { console.stderrIsTerminal }
    var environment: [String: String] { console.environment }

    init(console: Console) {
        self.console = console
        usesColor = console.stdoutIsTerminal && console.environment["NO_COLOR"] == nil && console.environment["TERM"] != "dumb"
    }

    /// `print` for the CLI: text and terminator to this terminal's standard output.
    func print(_ text: String, terminator: String = "\n") {
        console.write(text + terminator)
    }

    func error(_ message: String) {
        console.writeError("carnet: \(message.shown)\n")
    }

    /// An error's words: one line, escaped, unless it is a listing (several contacts a search
    /// found), whose lines were each escaped as they were made.
    func error(_ error: CarnetError) {
        guard case .severalContactsMatch = error else { return self.error(error.commandLineDescription) }
        console.writeError("carnet: " + error.shownLines + "\n")
    }

    /// What to do when a write has waited about a second for another process's lock: tell the
    /// person at the terminal why nothing happens (the wait goes on); a script's stderr stays clean.
    var lockWaitNotice: (@Sendable () -> Void)? {
        guard stderrIsTerminal else { return nil }
        let console = console
        return { console.writeError("carnet: waiting for another carnet to finish…\n") }
    }

    /// Bold on a colour terminal, plain otherwise.
    func bold(_ text: String) -> String { usesColor ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { usesColor ? "\u{1B}[2m\(text)\u{1B}[0m" : text }

    /// Asks on stderr (so stdout stays clean) and reads one line; nil at end of input.
    func ask(_ question: String) -> String? {
        console.writeError(question)
        return console.readLine()
    }

    /// A yes/no question; only an explicit yes counts.
    func confirm(_ question: String) -> Bool {
        guard let answer = ask("\(question) [y/N] ") else { return false }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

extension CarnetError {
    /// The error's lines, each as it may reach a terminal: a listing (several contacts a search
    /// found) keeps its line breaks, whose lines were escaped as they were made.
    var shownLines: String {
        description.split(separator: "\n").map { String($0).shown }.joined(separator: "\n")
    }
}

extension String {
    /// This text as it may reach a terminal: what a file holds can never move the cursor, ring
    /// the bell, break a line or reverse one (see `TextRules.escapedForDisplay`). Every value
    /// from the address book passes through this (or ``multiline``) before it is printed.
    var shown: String { TextRules.escapedForDisplay(self) }

    /// Like ``shown``, keeping line feeds: for a quote's text, which may span lines.
    var multiline: String {
        guard contains("\n") else { return shown }
        return split(separator: "\n", omittingEmptySubsequences: false).map { String($0).shown }.joined(separator: "\n")
    }

    /// One field of a tab-separated line: backslash, tab, line feed and carriage return written
    /// as `\\`, `\t`, `\n`, `\r`, so a value never splits a row or a column; the rest as ``shown``.
    var tsvField: String {
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) { return self }
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out.shown
    }
}
