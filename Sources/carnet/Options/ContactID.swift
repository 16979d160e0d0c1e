import ArgumentParser
import CarnetInterchange
import CarnetModels
import CarnetState
import CarnetViewModels
import Foundation

/// The CONTACT a command acts on: its id (a whole number, as carnet list shows), or words that
/// find it (the search of `carnet list --search`); `--search` searches even for digits, a phone
/// number's.
struct ContactID: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "The contact: its id (see carnet list), or words of its name, email, phone… that find only it.", valueName: "contact"))
    var reference: String?
    @Option(name: .customLong("search"), help: ArgumentHelp(
        "Find the contact by this search instead of an id, even if it is digits (a phone number).", valueName: "text"))
    var search: String?

    func validate() throws {
        switch (reference, search) {
        case (nil, nil): throw ValidationError("Missing expected argument '<contact>': its id, or words that find it")
        case (.some, .some): throw ValidationError("give the contact once: its id or words, or --search TEXT")
        case let (.some(text), nil) where Rules.trimmed(text).isEmpty, let (nil, .some(text)) where Rules.trimmed(text).isEmpty:
            throw ValidationError("a contact is named by its id or by words that find it, not blank")
        case let (.some(text), nil):
            try Self.checkID(text)
        default: break
        }
    }

    /// Digits are an id, which must be one a contact can have (`--search` looks for digits).
    static func checkID(_ text: String) throws {
        let trimmed = Rules.trimmed(text)
        if let id = Int64(trimmed), id <= 0 { throw ValidationError("a contact id is a positive whole number (got \(id))") }
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), Int64(trimmed) == nil {
            throw ValidationError("\(trimmed) is too big for a contact id (--search \(trimmed) looks for the digits)")
        }
    }

    /// The id of the contact named: a search that finds several asks which on a terminal, and
    /// elsewhere fails listing them (exit 80).
    @MainActor func id(in state: StateController, terminal: Terminal) throws -> Int64 {
        try ContactChoice.id(named: search ?? reference ?? "", searchOnly: search != nil, in: state, terminal: terminal)
    }

    /// `id(in:terminal:)` for a command that takes a group's card too: words no contact matches
    /// may be a group's name (the search index holds people only).
    @MainActor func cardID(in state: StateController, terminal: Terminal) throws -> Int64 {
        search != nil
            ? try id(in: state, terminal: terminal)
            : try ContactChoice.cardID(named: reference ?? "", in: state, terminal: terminal)
    }
}

/// How the command line turns a person's words into one contact's id.
enum ContactChoice {
    /// `id(named:searchOnly:in:terminal:)` where a group's card will do too: words no contact
    /// matches may be a group's name (the search index holds people only).
    @MainActor static func cardID(named words: String, in state: StateController, terminal: Terminal) throws -> Int64 {
        do {
            return try id(named: words, in: state, terminal: terminal)
        } catch {
            guard case .noContactMatches = error as? CarnetError, let group = try? GroupsViewModel(state: state).group(words) else { throw error }
            return group.id
        }
    }

    /// `words` as an id or a search (see `ContactsViewModel/contactID(named:searchOnly:candidates:)`).
    /// Several matches on a terminal are offered as a numbered choice; Enter cancels.
    @MainActor static func id(named words: String, searchOnly: Bool = false, in state: StateController, terminal: Terminal) throws -> Int64 {
        do {
            return try ContactsViewModel(state: state).contactID(named: words, searchOnly: searchOnly)
        } catch {
            guard case let .severalContactsMatch(_, candidates, total) = error, terminal.stdinIsTerminal, terminal.stdoutIsTerminal else {
                throw error
            }
            var question = "\(total) contacts match \(words.shown.debugDescription):\n"
            for (index, candidate) in candidates.enumerated() {
                question += "  \(index + 1))  \(candidate.candidateLine)  [\(candidate.id)]\n"
            }
            if total > candidates.count { question += "  … and \(total - candidates.count) more: more words narrow it\n" }
            question += "Which one? (1-\(candidates.count), Enter cancels) "
            while true {
                guard let answer = terminal.ask(question).map(Rules.trimmed), !answer.isEmpty else { throw CLIError.cancelled() }
                if let number = Int(answer), candidates.indices.contains(number - 1) { return candidates[number - 1].id }
                question = "Give a number from 1 to \(candidates.count), or Enter to cancel: "
            }
        }
    }
}

extension ContactOrder: ExpressibleByArgument {}
