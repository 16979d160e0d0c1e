import ArgumentParser
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// The CLI's screens over the coordinator: each command is a user action on the screen on top.
@MainActor
final class InteractiveSession {
    let app: AppCoordinator
    let terminal: Terminal
    let input: LineInput
    /// Set by `quit` once the session may end.
    var ended = false

    init(app: AppCoordinator, terminal: Terminal) {
        self.app = app
        self.terminal = terminal
        input = LineInput(terminal: terminal)
    }

    func run() throws {
        try app.start(on: .contacts)
        try render()
        terminal.print("type help for the commands of this screen, quit to leave")
        if terminal.stdinIsTerminal { input.catchInterrupts() }
        while true {
            guard let line = input.line(prompt: terminal.stdinIsTerminal ? "\(screenName)> " : nil) else {
                // Ctrl-C does what it does in a shell: the line being typed goes, a new prompt
                // comes; the session, and any draft, stay.
                if input.wasInterrupted {
                    terminal.print("^C")
                    continue
                }
                // End of input (Ctrl-D on a terminal, which leaves the cursor on the prompt's
                // line): asks before an unsaved draft is dropped.
                if terminal.stdinIsTerminal { terminal.print("") }
                if mayQuit() { break }
                continue
            }
            do {
                try handle(line.trimmingCharacters(in: .whitespaces))
            } catch let error as CarnetError {
                switch error {
                case let .conflict(conflict): terminal.print("conflict: \(conflict.summary.shown); \(Self.conflictWaysOut)")
                case .severalContactsMatch: terminal.print("error: " + error.shownLines)
                default: terminal.print("error: \(error.description.shown)")
                }
            } catch let error as CLIError {
                terminal.print("error: \(error.message.shown)")
            }
            // A "saved" line leaves the process as soon as its commit is done.
            terminal.console.flush()
            if ended { break }
        }
    }

    static let conflictWaysOut = "type reload (merge their changes into yours), overwrite (save yours over theirs) or cancel"

    // MARK: Unsaved drafts

    /// What the unsaved draft on the stack is of ("contact 3", "a new contact"), if any.
    var unsavedDraft: String? {
        switch app.unsavedEdit {
        case let .editContact(edit): edit.original.map { "contact \($0.id)" } ?? "a new contact"
        case let .editQuote(edit): edit.original.map { "quote \($0.id)" } ?? "a new quote"
        default: nil
        }
    }

    /// Whether a command may leave the edit screen (back, another tab) and drop its draft: yes
    /// if nothing is unsaved; on a terminal, if the user says so; from a script, never (it must
    /// save or cancel, so a script's typo cannot lose its edits).
    func mayDropDraft() throws -> Bool {
        guard let draft = unsavedDraft else { return true }
        guard terminal.stdinIsTerminal else {
            throw CLIError.usage("unsaved changes to \(draft): save them, or cancel to drop them, first")
        }
        return confirm("discard unsaved changes to \(draft)?")
    }

    /// Whether the session may end now (quit, end of input). An unsaved draft is discarded only
    /// when the user says so on a terminal (a second Ctrl-D says so too); a script is told.
    func mayQuit() -> Bool {
        guard let draft = unsavedDraft else { return true }
        if terminal.stdinIsTerminal {
            guard confirm("discard unsaved changes to \(draft)?", endOfInputMeans: true) else { return false }
        }
        terminal.print("discarded the unsaved changes to \(draft)")
        return true
    }

    /// A yes/no question on the terminal; only an explicit yes counts.
    func confirm(_ question: String, endOfInputMeans atEnd: Bool = false) -> Bool {
        guard let answer = input.line(prompt: "\(question) [y/N] ") else {
            terminal.print("")
            return atEnd
        }
        return ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
    }

    var screenName: String {
        switch app.current {
        case .contacts: "contacts"
        case .favorites: "favorites"
        case .contactDetail: "contact"
        case .editContact: "edit contact"
        case .quote: "quote"
        case .editQuote: "edit quote"
        case .books: "books"
        case .groups: "groups"
        case .groupDetail: "group"
        }
    }

    func unknown(_ verb: String) {
        terminal.print("unknown command \"\(verb.shown)\" here; type help")
    }

    func split(_ input: String) -> (String, String) {
        guard let space = input.firstIndex(of: " ") else { return (input.lowercased(), "") }
        return (input[..<space].lowercased(), input[input.index(after: space)...].trimmingCharacters(in: .whitespaces))
    }

    func number(_ text: String) throws -> Int64 {
        guard let value = Int64(text), value > 0 else { throw CLIError.usage("expected an id (a positive number), got \"\(text.shown)\"") }
        return value
    }

    /// The contact `text` names: its id, or words this list's search finds it by (several are
    /// listed with their ids, for the next line to name one).
    func contactNamed(_ text: String) throws -> Int64 {
        if Int64(text) != nil { return try number(text) }
        return try (list ?? app.contacts).contactID(named: try required(text, "open ID or open NAME"))
    }

    /// The words typed after a verb, at least one.
    func words(_ text: String, _ usage: String) throws -> [String] {
        let words = text.split(separator: " ").map(String.init)
        if words.isEmpty { throw CLIError.usage("type \(usage)") }
        return words
    }

    /// The ids typed after a verb, at least one.
    func numbers(_ text: String, _ usage: String) throws -> [Int64] {
        try words(text, usage).map(number)
    }

    /// What was typed after a verb that needs it, else the usage as an error.
    func required(_ text: String, _ usage: String) throws -> String {
        if text.isEmpty { throw CLIError.usage("type \(usage)") }
        return text
    }
}

extension String {
    func leftPad(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
